/*
 * correlate: links CPU API calls to the GPU work they launched, through the
 * correlation id that CUPTI (and roctracer, and Kineto's "correlation" arg)
 * stamps on both sides.
 *
 * Correlation ids are unique only within a process, so the join key is
 * (process, correlation id). API calls are indexed per process, in a
 * "group": when a process's ids are dense (they are counters in every
 * source we know: the span max - min is at most four times their number),
 * the group is a plain array indexed by id - min; otherwise it is a hash
 * map (hmap.h) keyed by the id. Two processes that reuse the same ids can
 * never be cross-linked, and the common case costs one array access per
 * event instead of a hash probe (5M API calls: ~0.1 s instead of ~1.5 s).
 * API tracks of unknown process form one more group of their own.
 *
 * correlate_build() is three linear passes:
 *   1. every API event with a non-zero id goes into its process's group.
 *      When one process has two API calls with the same id (a driver call
 *      nested in the runtime call that made it, or the doubled runtime
 *      records some 2022 nsys exports hold), the runtime call wins over the
 *      driver call, and otherwise the first one in track order (earliest
 *      start);
 *   2. every GPU event (kernel, memcpy, memset, sync, graph) with a non-zero
 *      id looks the id up in its stream's process's group, records the
 *      launching call in m->launch and counts the call's GPU work. GPU
 *      tracks whose process is unknown look the id up in every group and
 *      link only when exactly one group has it;
 *   3. the counts become the first slot of each call's group; the GPU ids
 *      are placed in id order, then each group (longer than one only for
 *      graph launches) is sorted by GPU start. Every 64th entry's call is
 *      sampled into gpu_of_api_idx.
 * m->launch covers only the GPU and sync tracks (the first in track order),
 * and the groups need no offset or key arrays: the key of an entry is the
 * launch of its GPU id. Together that is 4 bytes per GPU event and per link
 * instead of 4 per event plus 12 per link, and correlate_gpu() is a binary
 * search over the samples, then over one window of 64 entries.
 * O(n) time, expected O(n) for sparse ids (plus the per-call sort,
 * O(k log k) for a call that launched k operations; k is 1 except for graph
 * launches; and O(processes) per GPU event of unknown process).
 * Temporaries: at most 16 bytes per API event in dense groups (about 26 in
 * hash groups) and 4 bytes per event of the API tracks' id range; all
 * freed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "model/replay.h"
#include "util/hmap.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* The API calls of one process, by correlation id. */
struct corr_group {
	uint32_t	 min, max;	/* id range */
	size_t		 count;		/* API calls with an id */
	uint32_t	*dense;		/* max - min + 1 gids, or NULL: */
	struct hmap	 map;		/* id -> gid */
};

struct corr_pair {
	int64_t		 start;
	uint32_t	 gid;
};

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
	free(m->gpu_of_api);
	free(m->gpu_of_api_idx);
	m->launch = NULL;
	m->gpu_of_api = NULL;
	m->gpu_of_api_idx = NULL;
	m->nlaunch = 0;
	m->ngpu_of_api = 0;
}

/* The group of a track's process: processes, then one for unknown. */
static size_t
correlate_group_of(const struct model *m, uint32_t process)
{
	return process < m->nprocesses ? process : m->nprocesses;
}

static uint32_t
correlate_find(const struct corr_group *g, uint32_t corr)
{
	if (g->count == 0 || corr < g->min || corr > g->max)
		return NONE32;
	if (g->dense != NULL)
		return g->dense[corr - g->min];
	return hmap_find(&g->map, corr);
}

/* Pass 1: every group's id -> API gid, runtime calls before driver calls. */
static void
correlate_index_api(const struct model *m, struct corr_group *grp,
    size_t ngrp)
{
	const struct track	*tr;
	const struct lane	*l;
	struct corr_group	*g;
	struct evref		 r;
	uint32_t		*slot, gid, c;
	size_t			 t, i, span;
	int			 isnew;

	for (t = 0; (tr = model_track_next(m, TRACK_API, &t)) != NULL; t++) {
		g = &grp[correlate_group_of(m, tr->process)];
		for (i = 0; i < tr->lane.n; i++) {
			if ((c = tr->lane.corr[i]) == 0)
				continue;
			if (g->count == 0 || c < g->min)
				g->min = c;
			if (g->count == 0 || c > g->max)
				g->max = c;
			g->count++;
		}
	}
	for (i = 0; i < ngrp; i++) {
		g = &grp[i];
		hmap_init(&g->map);
		if (g->count == 0)
			continue;
		span = (size_t)(g->max - g->min) + 1;
		if (span / 4 <= g->count) {
			g->dense = xreallocarray(NULL, span, sizeof *g->dense);
			memset(g->dense, 0xff, span * sizeof *g->dense);
		}
	}
	for (t = 0; (tr = model_track_next(m, TRACK_API, &t)) != NULL; t++) {
		l = &tr->lane;
		g = &grp[correlate_group_of(m, tr->process)];
		for (i = 0; i < l->n; i++) {
			if ((c = l->corr[i]) == 0)
				continue;
			gid = model_gid(m, (uint32_t)t, (uint32_t)i);
			if (g->dense != NULL) {
				slot = &g->dense[c - g->min];
				isnew = *slot == NONE32;
				if (isnew)
					*slot = gid;
			} else
				slot = hmap_upsert(&g->map, c, gid, &isnew);
			if (isnew || (l->flags[i] & EVF_DRIVER))
				continue;
			r = model_ev(m, *slot);
			if (m->tracks[r.track].lane.flags[r.idx] & EVF_DRIVER)
				*slot = gid;
		}
	}
}

static void
correlate_free_groups(struct corr_group *grp, size_t ngrp)
{
	size_t	i;

	for (i = 0; i < ngrp; i++) {
		free(grp[i].dense);
		hmap_free(&grp[i].map);
	}
	free(grp);
}

static int
correlate_pair_cmp(const void *a, const void *b)
{
	const struct corr_pair	*x = a, *y = b;

	return sort_lex2(x->start, y->start, x->gid, y->gid);
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

/*
 * Sorts the GPU events of one API call (their gids, placed in gid order) by
 * (GPU start, gid). A call launches one operation but for graph launches,
 * so the pairs buffer stays small.
 */
static void
correlate_sort_slice(const struct model *m, uint32_t *g, size_t n,
    struct corr_pair **tmp, size_t *tmpcap)
{
	size_t	i;

	if (n < 2)
		return;
	XGROW(*tmp, *tmpcap, n);
	for (i = 0; i < n; i++) {
		(*tmp)[i].start = model_ev_start(m, g[i]);
		(*tmp)[i].gid = g[i];
	}
	correlate_sort_pairs(*tmp, n);
	for (i = 0; i < n; i++)
		g[i] = (*tmp)[i].gid;
}

void
correlate_build(struct model *m)
{
	struct corr_group	*grp;
	const struct track	*tr;
	const struct lane	*l;
	struct corr_pair	*tmp = NULL;
	uint32_t		*pos, a, b, base = NONE32, top = 0, gid;
	size_t			 t, i, j, nlinks = 0, sum, ngrp, hits, tmpcap = 0;

	correlate_reset(m);
	if (m->nevents == 0)
		return;

	ngrp = m->nprocesses + 1;
	grp = xcalloc(ngrp, sizeof *grp);
	correlate_index_api(m, grp, ngrp);
	for (hits = 0, j = 0; j < ngrp; j++)
		hits += grp[j].count;
	if (hits == 0) {
		correlate_free_groups(grp, ngrp);
		return;		/* no API call has an id */
	}

	/* The gid range of the API tracks: pos[] counts per API call. */
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_API || m->tracks[t].lane.n == 0)
			continue;
		if (base == NONE32)
			base = m->track_off[t];
		top = m->track_off[t + 1];
	}
	/* GPU and sync tracks come first (model_finalize's order). */
	for (t = 0; t < m->ntracks && (m->tracks[t].type == TRACK_GPU ||
	    m->tracks[t].type == TRACK_SYNC); t++)
		;
	m->nlaunch = m->track_off[t];

	/* Pass 2: GPU event -> API call; count per API call in pos[]. */
	if (m->nlaunch > 0) {
		m->launch = xreallocarray(NULL, m->nlaunch, sizeof *m->launch);
		memset(m->launch, 0xff, m->nlaunch * sizeof *m->launch);
	}
	pos = xcalloc(top - base, sizeof *pos);
	for (t = 0; (tr = model_track_next(m, TRACK_GPU, &t)) != NULL; t++) {
		l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			if (l->corr[i] == 0 ||
			    !correlate_is_gpu_kind(l->kind[i]))
				continue;
			if (tr->process < m->nprocesses)
				a = correlate_find(&grp[tr->process],
				    l->corr[i]);
			else {
				/* Unknown process: the id alone, if unique. */
				for (a = NONE32, hits = 0, j = 0; j < ngrp;
				    j++) {
					b = correlate_find(&grp[j], l->corr[i]);
					if (b != NONE32) {
						a = b;
						hits++;
					}
				}
				if (hits != 1)
					a = NONE32;
			}
			if (a == NONE32)
				continue;
			m->launch[model_gid(m, (uint32_t)t, (uint32_t)i)] = a;
			pos[a - base]++;
			nlinks++;
		}
	}
	correlate_free_groups(grp, ngrp);
	if (nlinks == 0) {
		free(pos);
		correlate_reset(m);
		return;
	}

	/* Pass 3: pos[a] becomes the first slot of API call a's group; GPU
	 * ids go in ascending order, then each group is sorted by start
	 * (groups longer than one are rare: graph launches). */
	for (sum = 0, a = 0; a < top - base; a++) {
		sum += pos[a];
		pos[a] = (uint32_t)(sum - pos[a]);
	}
	m->ngpu_of_api = nlinks;
	m->gpu_of_api = xreallocarray(NULL, nlinks, sizeof *m->gpu_of_api);
	for (i = 0; i < m->nlaunch; i++)
		if ((a = m->launch[i]) != NONE32)
			m->gpu_of_api[pos[a - base]++] = (uint32_t)i;
	free(pos);
	for (i = 0; i < nlinks; i = j) {
		a = m->launch[m->gpu_of_api[i]];
		for (j = i + 1; j < nlinks && m->launch[m->gpu_of_api[j]] == a;
		    j++)
			;
		correlate_sort_slice(m, m->gpu_of_api + i, j - i, &tmp,
		    &tmpcap);
	}
	free(tmp);
	m->gpu_of_api_idx = xreallocarray(NULL, (nlinks + CORR_IDX_STEP - 1) /
	    CORR_IDX_STEP, sizeof *m->gpu_of_api_idx);
	for (i = 0; i < nlinks; i += CORR_IDX_STEP) {
		gid = m->gpu_of_api[i];
		m->gpu_of_api_idx[i / CORR_IDX_STEP] = m->launch[gid];
	}
}

struct correlate_below {
	const struct model	*m;
	uint32_t		 api;
};

/* The launching call of entry i of gpu_of_api. */
static inline uint32_t
correlate_key(const struct model *m, size_t i)
{
	return m->launch[m->gpu_of_api[i]];
}

static int
correlate_key_below(const void *ctx, size_t i)
{
	const struct correlate_below	*b = ctx;

	return correlate_key(b->m, i) < b->api;
}

size_t
correlate_gpu_lower(const struct model *m, uint32_t api_gid)
{
	struct correlate_below	b = { m, api_gid };
	size_t			n = m->ngpu_of_api, ns, lo, hi;

	if (n == 0)
		return 0;
	/* The first sample not below api_gid bounds the search window. */
	ns = (n + CORR_IDX_STEP - 1) / CORR_IDX_STEP;
	lo = lbound_u32(m->gpu_of_api_idx, ns, api_gid);
	hi = lo < ns ? lo * CORR_IDX_STEP : n;
	lo = lo > 0 ? (lo - 1) * CORR_IDX_STEP + 1 : 0;
	return lbound_if(lo, hi, correlate_key_below, &b);
}

size_t
correlate_gpu(const struct model *m, uint32_t api_gid, const uint32_t **out)
{
	size_t	n = m->ngpu_of_api, lo, e;

	*out = NULL;
	if (n == 0)
		return 0;
	lo = correlate_gpu_lower(m, api_gid);
	for (e = lo; e < n && correlate_key(m, e) == api_gid; e++)
		;
	if (e == lo)
		return 0;
	*out = m->gpu_of_api + lo;
	return e - lo;
}

int
correlate_latency(const struct model *m, uint32_t gid, int64_t *lat)
{
	uint32_t	api = correlate_launch(m, gid);

	if (api == NONE32 || replay_inner(m, gid))
		return -1;
	*lat = model_ev_start(m, gid) - model_ev_end(m, api);
	return 0;
}
