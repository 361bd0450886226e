/*
 * iters: iteration detection (see iters.h for the rules).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/hmap.h"
#include "analysis/iters.h"
#include "model/lane.h"
#include "model/nvtxfam.h"
#include "util/xmalloc.h"

size_t
iters_family_len(const char *name)
{
	size_t	n = strlen(name), k = n;

	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	if (k < n && k > 0 && name[k - 1] == '#')
		return k;
	return n;
}

void
iters_free(struct iters *it)
{
	free(it->marker);
	free(it->v);
	memset(it, 0, sizeof *it);
}

static int
iter_cmp(const void *a, const void *b)
{
	const struct iter	*x = a, *y = b;

	if (x->process != y->process)
		return x->process < y->process ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

/* Does name belong to the family (or equal the name) spec (nvtxfam.h)? */
static int
iters_match(const char *name, const char *spec, size_t speclen)
{
	(void)speclen;
	return nvtx_family_match(name, spec);
}

/* Picks the most frequent top-level NVTX name family (ProfilerStep# wins). */
static char *
iters_auto_nvtx(const struct model *m)
{
	struct strpool	*fam = strpool_new();
	uint32_t	*count = NULL, best = NONE32, id;
	size_t		 cap = 0, t, i, fl;
	char		*res = NULL;

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type != TRACK_NVTX)
			continue;
		for (i = 0; i < l->n; i++) {
			const char *name;
			if (l->kind[i] != EV_NVTX || l->aux[i] == NONE32 ||
			    m->nvtx[l->aux[i]].parent != NONE32 ||
			    (l->flags[i] & EVF_COMM))
				continue;
			name = model_str(m, l->name[i]);
			/* Communication library ranges are not iterations. */
			if (strncasecmp(name, "nccl", 4) == 0 ||
			    strncasecmp(name, "rccl", 4) == 0 ||
			    strcasecmp(model_str(m, m->domains[tr->domain].name),
			    "NCCL") == 0)
				continue;
			fl = iters_family_len(name);
			if (fl == 0)
				continue;
			id = strpool_intern(fam, name, fl);
			if (id >= cap) {
				size_t old = cap;
				XGROW(count, cap, (size_t)id + 1);
				memset(count + old, 0,
				    (cap - old) * sizeof *count);
			}
			count[id]++;
		}
	}
	for (id = 1; id < strpool_count(fam) && id < cap; id++) {
		if (count[id] < 2)
			continue;
		if (strcmp(strpool_get(fam, id), "ProfilerStep#") == 0) {
			best = id;
			break;
		}
		if (best == NONE32 || count[id] > count[best])
			best = id;
	}
	if (best != NONE32)
		res = xstrdup(strpool_get(fam, best));
	free(count);
	strpool_free(fam);
	return res;
}

static void
iters_add(struct iters *it, size_t *cap, uint32_t process, uint32_t range,
    int64_t start, int64_t end)
{
	struct iter	*v;

	XGROW(it->v, *cap, it->n + 1);
	v = &it->v[it->n++];
	memset(v, 0, sizeof *v);
	v->process = process;
	v->range = range;
	v->start = start;
	v->end = end;
}

static void
iters_from_nvtx(const struct model *m, struct iters *it, const char *spec)
{
	size_t	t, i, cap = 0, sl = strlen(spec);

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type != TRACK_NVTX)
			continue;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == EV_NVTX && iters_match(model_str(m,
			    l->name[i]), spec, sl))
				iters_add(it, &cap, tr->process,
				    model_gid(m, (uint32_t)t, (uint32_t)i),
				    l->start[i], l->end[i]);
	}
}

/* The most periodic kernel name; iterations between its occurrences. */
static void
iters_from_kernels(const struct model *m, struct iters *it)
{
	struct hmap	 seen;		/* key(track, name) -> slot */
	struct {
		uint32_t track, name;
		uint64_t n;
		int64_t	 last;
		double	 sum, sum2;	/* of inter-arrival gaps */
	}		*c = NULL, *b;
	size_t		 nc = 0, ccap = 0, t, i, cap = 0, k;
	uint32_t	*slot;
	int		 isnew;
	double		 cv, bestcv = 0;
	size_t		 best = (size_t)-1;

	hmap_init(&seen);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL)
				continue;
			slot = hmap_upsert(&seen, hmap_key2(t, l->name[i]),
			    (uint32_t)nc, &isnew);
			if (isnew) {
				XGROW(c, ccap, nc + 1);
				memset(&c[nc], 0, sizeof c[nc]);
				c[nc].track = (uint32_t)t;
				c[nc].name = l->name[i];
				nc++;
			}
			b = &c[*slot];
			if (b->n > 0) {
				double g = (double)(l->start[i] - b->last);
				b->sum += g;
				b->sum2 += g * g;
			}
			b->last = l->start[i];
			b->n++;
		}
	}
	for (k = 0; k < nc; k++) {
		double mean, var;
		if (c[k].n < 3)
			continue;
		mean = c[k].sum / (double)(c[k].n - 1);
		var = c[k].sum2 / (double)(c[k].n - 1) - mean * mean;
		if (mean <= 0)
			continue;
		cv = sqrt(var > 0 ? var : 0) / mean;
		if (best == (size_t)-1 || cv < bestcv - 1e-12 ||
		    (fabs(cv - bestcv) <= 1e-12 && c[k].n > c[best].n)) {
			best = k;
			bestcv = cv;
		}
	}
	if (best != (size_t)-1) {
		const struct track *tr = &m->tracks[c[best].track];
		const struct lane *l = &tr->lane;
		int64_t prev = 0;
		int have = 0;
		it->marker = xstrdup(model_str(m, c[best].name));
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL || l->name[i] != c[best].name)
				continue;
			if (have)
				iters_add(it, &cap, tr->process, NONE32, prev,
				    l->start[i]);
			prev = l->start[i];
			have = 1;
		}
	}
	free(c);
	hmap_free(&seen);
}

static int
iters_u32_cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * GPU busy and kernel count of each iteration over its process's GPUs.
 * The GPU tracks are bucketed by process once (bucket nprocesses holds
 * those of no known process), so an iteration reads only its process's
 * tracks and the devices they use, never every track or device: O(tracks
 * + devices + sum over iterations of their process's tracks). An
 * iteration of no process (NONE32) reads every GPU track, as before.
 */
static void
iters_measure(const struct model *m, struct iters *it)
{
	size_t		 i, t, k, k0, k1, np = m->nprocesses, ndev;
	uint32_t	*off, *trk, *fill, *stamp, *dev, p;

	off = xcalloc(np + 3, sizeof *off);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device >= m->ndevices)
			continue;
		off[(tr->process < np ? tr->process : np) + 1]++;
	}
	for (k = 0; k <= np; k++)
		off[k + 1] += off[k];
	trk = xcalloc((size_t)off[np + 1] + 1, sizeof *trk);
	fill = xcalloc(np + 2, sizeof *fill);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device >= m->ndevices)
			continue;
		p = tr->process < np ? tr->process : (uint32_t)np;
		trk[off[p] + fill[p]++] = (uint32_t)t;
	}
	free(fill);
	/* stamp[d]: 1 + the last iteration that used device d. */
	stamp = xcalloc(m->ndevices + 1, sizeof *stamp);
	dev = xcalloc(m->ndevices + 1, sizeof *dev);
	for (i = 0; i < it->n; i++) {
		struct iter *v = &it->v[i];
		if (v->process == NONE32) {
			k0 = 0;
			k1 = off[np + 1];
		} else {
			p = v->process < np ? v->process : (uint32_t)np;
			k0 = off[p];
			k1 = off[p + 1];
		}
		ndev = 0;
		for (k = k0; k < k1; k++) {
			const struct track *tr = &m->tracks[trk[k]];
			if (v->process != NONE32 && tr->process != v->process)
				continue;
			if (stamp[tr->device] != (uint32_t)i + 1) {
				stamp[tr->device] = (uint32_t)i + 1;
				dev[ndev++] = tr->device;
				v->ndevices++;
			}
			v->kernels += lane_count(&tr->lane, v->start, v->end);
		}
		if (m->device_cov == NULL)
			continue;
		/* In device order, as the sums always were. */
		if (ndev > 1)
			qsort(dev, ndev, sizeof *dev, iters_u32_cmp);
		for (k = 0; k < ndev; k++)
			v->gpu_busy = sat_add64(v->gpu_busy,
			    coverage_busy(&m->device_cov[dev[k]], v->start,
			    v->end));
	}
	free(stamp);
	free(dev);
	free(off);
	free(trk);
}

int
iters_find(const struct model *m, const char *range, struct iters *it,
    char **cause)
{
	size_t	i;

	memset(it, 0, sizeof *it);
	if (range != NULL) {
		iters_from_nvtx(m, it, range);
		if (it->n == 0) {
			*cause = xasprintf("no NVTX range named '%s'", range);
			return -1;
		}
		it->marker = xstrdup(range);
		it->method = ITERS_NVTX;
	} else if ((it->marker = iters_auto_nvtx(m)) != NULL) {
		iters_from_nvtx(m, it, it->marker);
		it->method = ITERS_NVTX;
	} else {
		iters_from_kernels(m, it);
		it->method = it->n > 0 ? ITERS_KERNEL : ITERS_NONE;
	}
	if (it->n > 1)
		qsort(it->v, it->n, sizeof *it->v, iter_cmp);
	for (i = 0; i < it->n; i++)
		it->v[i].index = i > 0 && it->v[i - 1].process ==
		    it->v[i].process ? it->v[i - 1].index + 1 : 0;
	iters_measure(m, it);
	return 0;
}
