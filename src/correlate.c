/*
 * correlate: links CPU API calls to the GPU work they launched, through the
 * correlation id that CUPTI (and roctracer, and Kineto's "correlation" arg)
 * stamps on both sides.
 *
 * Correlation ids are unique only within a process, so the join key is
 * (process, correlation id), packed into one 64-bit hash key: process in the
 * high half, id in the low half. The packing is exact, so two processes that
 * reuse the same ids can never be cross-linked, whatever the hash does.
 *
 * correlate_build() is three linear passes:
 *   1. every API event with a non-zero id goes into a hash map from key to
 *      its global id. When one process has two API calls with the same id
 *      (a driver call nested in the runtime call that made it, or a reader
 *      that emits duplicates), the runtime call wins over the driver call,
 *      and otherwise the first one in track order (earliest start);
 *   2. every GPU event (kernel, memcpy, memset, sync, graph) with a non-zero
 *      id looks its key up and records the launching call in m->launch, and
 *      counts its API call's GPU work. GPU tracks whose process is unknown
 *      look the id up alone, in a second map built from the first, which
 *      keeps only ids seen in exactly one process;
 *   3. the counts become CSR offsets over the sorted API ids; the GPU ids are
 *      placed, then each API call's list is sorted by GPU start.
 * Expected O(n) time (plus the per-call sort, O(k log k) for a call that
 * launched k operations; k is 1 except for graph launches). Temporaries: the
 * map (about 26 bytes per API event at its 50% load) and 4 bytes per event.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "correlate.h"
#include "hmap.h"
#include "xmalloc.h"

#define CORR_AMBIGUOUS	NONE32		/* id seen in several processes */

struct corr_pair {
	int64_t		 start;
	uint32_t	 gid;
};

static inline uint64_t
correlate_key(uint32_t process, uint32_t corr)
{
	return (uint64_t)process << 32 | corr;
}

static int
correlate_is_gpu_kind(int kind)
{
	switch (kind) {
	case EV_KERNEL:
	case EV_MEMCPY:
	case EV_MEMSET:
	case EV_SYNC:
	case EV_GRAPH:
		return 1;
	}
	return 0;
}

static void
correlate_reset(struct model *m)
{
	free(m->launch);
	free(m->gpu_of_api_key);
	free(m->gpu_of_api_off);
	free(m->gpu_of_api);
	m->launch = NULL;
	m->gpu_of_api_key = NULL;
	m->gpu_of_api_off = NULL;
	m->gpu_of_api = NULL;
	m->ngpu_of_api_key = 0;
}

/* Pass 1: API key -> API gid, runtime calls preferred over driver calls. */
static void
correlate_map_api(const struct model *m, struct hmap *api)
{
	const struct track	*tr;
	const struct lane	*l;
	struct evref		 r;
	uint32_t		*slot, gid;
	size_t			 t, i;
	int			 isnew;

	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type != TRACK_API)
			continue;
		l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			if (l->corr[i] == 0)
				continue;
			gid = model_gid(m, (uint32_t)t, (uint32_t)i);
			slot = hmap_upsert(api, correlate_key(tr->process,
			    l->corr[i]), gid, &isnew);
			if (isnew || (l->flags[i] & EVF_DRIVER))
				continue;
			r = model_ev(m, *slot);
			if (m->tracks[r.track].lane.flags[r.idx] & EVF_DRIVER)
				*slot = gid;
		}
	}
}

/* The id-only map for GPU tracks of unknown process. */
static void
correlate_map_anyproc(const struct hmap *api, struct hmap *any)
{
	uint32_t	*slot;
	size_t		 j;
	int		 isnew;

	if (api->used == NULL)
		return;
	for (j = 0; j <= api->mask; j++) {
		if (!api->used[j])
			continue;
		slot = hmap_upsert(any, api->keys[j] & 0xffffffffULL,
		    api->vals[j], &isnew);
		if (!isnew)
			*slot = CORR_AMBIGUOUS;
	}
}

static int
correlate_pair_cmp(const void *a, const void *b)
{
	const struct corr_pair	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->gid < y->gid ? -1 : x->gid > y->gid;
}

static void
correlate_sort_pairs(struct corr_pair *p, size_t n)
{
	struct corr_pair	x;
	size_t			i, j;

	if (n > 16) {
		qsort(p, n, sizeof *p, correlate_pair_cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		x = p[i];
		for (j = i; j > 0 && correlate_pair_cmp(&p[j - 1], &x) > 0; j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
}

void
correlate_build(struct model *m)
{
	struct hmap		 api, any;
	const struct track	*tr;
	const struct lane	*l;
	struct corr_pair	*pairs;
	uint32_t		*pos, a, gid, nkeys, k;
	size_t			 t, i, nlinks = 0, sum;
	int			 need_any = 0;

	correlate_reset(m);
	if (m->nevents == 0)
		return;

	hmap_init(&api);
	hmap_init(&any);
	correlate_map_api(m, &api);
	if (api.n == 0) {
		hmap_free(&api);
		return;
	}
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type == TRACK_GPU && tr->process == NONE32 &&
		    tr->lane.n > 0)
			need_any = 1;
	}
	if (need_any)
		correlate_map_anyproc(&api, &any);

	/* Pass 2: GPU event -> API call; count per API call in pos[]. */
	m->launch = xreallocarray(NULL, m->nevents, sizeof *m->launch);
	memset(m->launch, 0xff, m->nevents * sizeof *m->launch);
	pos = xcalloc(m->nevents, sizeof *pos);
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type != TRACK_GPU)
			continue;
		l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			if (l->corr[i] == 0 || !correlate_is_gpu_kind(l->kind[i]))
				continue;
			if (tr->process != NONE32) {
				if (!hmap_get(&api, correlate_key(tr->process,
				    l->corr[i]), &a))
					continue;
			} else if (!hmap_get(&any, l->corr[i], &a) ||
			    a == CORR_AMBIGUOUS)
				continue;
			m->launch[model_gid(m, (uint32_t)t, (uint32_t)i)] = a;
			pos[a]++;
			nlinks++;
		}
	}
	hmap_free(&api);
	hmap_free(&any);
	if (nlinks == 0) {
		free(pos);
		free(m->launch);
		m->launch = NULL;
		return;
	}

	/* Pass 3: CSR. pos[a] becomes the next free slot of API call a. */
	for (nkeys = 0, a = 0; a < m->nevents; a++)
		if (pos[a] != 0)
			nkeys++;
	m->ngpu_of_api_key = nkeys;
	m->gpu_of_api_key = xreallocarray(NULL, nkeys,
	    sizeof *m->gpu_of_api_key);
	m->gpu_of_api_off = xreallocarray(NULL, (size_t)nkeys + 1,
	    sizeof *m->gpu_of_api_off);
	m->gpu_of_api = xreallocarray(NULL, nlinks, sizeof *m->gpu_of_api);
	for (sum = 0, k = 0, a = 0; a < m->nevents; a++) {
		if (pos[a] == 0)
			continue;
		m->gpu_of_api_key[k] = a;
		m->gpu_of_api_off[k++] = (uint32_t)sum;
		sum += pos[a];
		pos[a] = (uint32_t)(sum - pos[a]);
	}
	m->gpu_of_api_off[nkeys] = (uint32_t)sum;

	pairs = xreallocarray(NULL, nlinks, sizeof *pairs);
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type != TRACK_GPU)
			continue;
		for (i = 0; i < tr->lane.n; i++) {
			gid = model_gid(m, (uint32_t)t, (uint32_t)i);
			if ((a = m->launch[gid]) == NONE32)
				continue;
			pairs[pos[a]].start = tr->lane.start[i];
			pairs[pos[a]].gid = gid;
			pos[a]++;
		}
	}
	free(pos);
	for (k = 0; k < nkeys; k++)
		correlate_sort_pairs(pairs + m->gpu_of_api_off[k],
		    m->gpu_of_api_off[k + 1] - m->gpu_of_api_off[k]);
	for (i = 0; i < nlinks; i++)
		m->gpu_of_api[i] = pairs[i].gid;
	free(pairs);
}

uint32_t
correlate_launch(const struct model *m, uint32_t gid)
{
	if (m->launch == NULL || gid >= m->nevents)
		return NONE32;
	return m->launch[gid];
}

size_t
correlate_gpu(const struct model *m, uint32_t api_gid, const uint32_t **out)
{
	size_t	lo = 0, hi = m->ngpu_of_api_key, mid;

	*out = NULL;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->gpu_of_api_key[mid] < api_gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->ngpu_of_api_key || m->gpu_of_api_key[lo] != api_gid)
		return 0;
	*out = m->gpu_of_api + m->gpu_of_api_off[lo];
	return m->gpu_of_api_off[lo + 1] - m->gpu_of_api_off[lo];
}

int
correlate_latency(const struct model *m, uint32_t gid, int64_t *lat)
{
	uint32_t	api = correlate_launch(m, gid);

	if (api == NONE32)
		return -1;
	*lat = model_ev_start(m, gid) - model_ev_end(m, api);
	return 0;
}
