/*
 * iters-kernel: the kernel-period fallback (iters.h), per process: for
 * each, the kernel name whose inter-arrival times on one of its GPU
 * streams vary least marks its iterations.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/iters-int.h"
#include "model/lane.h"
#include "util/xmalloc.h"

struct ik_cand {
	uint32_t	 track, name;
	uint64_t	 n;
	int64_t		 last;
	double		 sum, sum2;	/* of inter-arrival gaps */
};

struct ik_best {
	size_t		 k;		/* candidate, or SIZE_MAX */
	double		 cv;
};

void
iters_from_kernels(const struct model *m, const uint8_t *want,
    struct iters *it, size_t *cap)
{
	struct ik_cand	*c = NULL, *b;
	struct ik_best	*best;
	const struct track *tr;
	size_t		 nc = 0, ccap = 0, t, i, k, np = m->nprocesses, p;
	size_t		 ns = strpool_count(m->strs);
	uint32_t	*stamp, *slot, id;

	/* Per name id, the candidate of the track swept (stamp: track + 1):
	 * an array, not a hash, per kernel. */
	stamp = xcalloc(ns + 1, sizeof *stamp);
	slot = xcalloc(ns + 1, sizeof *slot);
	for (t = 0; (tr = model_track_next(m, TRACK_GPU, &t)) != NULL; t++) {
		const struct lane *l = &tr->lane;
		p = tr->process < np ? tr->process : np;
		if (!want[p])
			continue;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL)
				continue;
			id = l->name[i] < ns ? l->name[i] : (uint32_t)ns;
			if (stamp[id] != (uint32_t)t + 1) {
				stamp[id] = (uint32_t)t + 1;
				slot[id] = (uint32_t)nc;
				b = XAPPEND(c, ccap, nc++);
				b->track = (uint32_t)t;
				b->name = l->name[i];
			}
			b = &c[slot[id]];
			if (b->n > 0) {
				double g = (double)(l->start[i] - b->last);
				b->sum += g;
				b->sum2 += g * g;
			}
			b->last = l->start[i];
			b->n++;
		}
	}
	best = xcalloc(np + 1, sizeof *best);
	for (p = 0; p <= np; p++)
		best[p].k = SIZE_MAX;
	/* Candidates come in track order, then first occurrence: the
	 * earlier wins ties, as the whole-trace search did. */
	for (k = 0; k < nc; k++) {
		double mean, var, cv;
		struct ik_best *bp;
		if (c[k].n < ITERS_MIN_KERNEL)
			continue;
		mean = c[k].sum / (double)(c[k].n - 1);
		var = c[k].sum2 / (double)(c[k].n - 1) - mean * mean;
		if (mean <= 0)
			continue;
		cv = sqrt(var > 0 ? var : 0) / mean;
		p = m->tracks[c[k].track].process;
		bp = &best[p < np ? p : np];
		if (bp->k == SIZE_MAX || cv < bp->cv - 1e-12 ||
		    (fabs(cv - bp->cv) <= 1e-12 && c[k].n > c[bp->k].n)) {
			bp->k = k;
			bp->cv = cv;
		}
	}
	for (p = 0; p <= np; p++) {
		const struct lane *l;
		int64_t prev = 0;
		int have = 0;
		if (best[p].k == SIZE_MAX)
			continue;
		b = &c[best[p].k];
		tr = &m->tracks[b->track];
		l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL || l->name[i] != b->name)
				continue;
			if (have)
				iters_add(it, cap, tr->process, NONE32, b->name,
				    prev, l->start[i]);
			prev = l->start[i];
			have = 1;
		}
	}
	free(best);
	free(c);
	free(stamp);
	free(slot);
}
