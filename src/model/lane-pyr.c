/*
 * lane-pyr: the block-max pyramid: per block of 64 events the index of the
 * longest one, then per 64 such blocks, and so on, so that "the longest
 * event in an index range" costs O(64 * levels).
 */
#include "config.h"

#include <stdlib.h>

#include "model/lane.h"
#include "model/lane-int.h"
#include "util/xmalloc.h"

size_t
lane_pyr_size(size_t n)
{
	size_t	cnt, total = 0;

	for (cnt = n; cnt > PYR_BLOCK; total += cnt)
		cnt = (cnt + PYR_BLOCK - 1) >> PYR_SHIFT;
	return total;
}

/* Sets pyr_levels, npyr and pyr_off (NULL without levels) from n. */
void
lane_pyr_shape(struct lane *l)
{
	size_t	cnt, off = 0;
	int	nlev = 0, lev;

	for (cnt = l->n; cnt > PYR_BLOCK; nlev++)
		cnt = (cnt + PYR_BLOCK - 1) >> PYR_SHIFT;
	l->pyr_levels = nlev;
	l->npyr = lane_pyr_size(l->n);
	free(l->pyr_off);
	l->pyr_off = NULL;
	if (nlev == 0)
		return;
	l->pyr_off = xreallocarray(NULL, nlev + 1, sizeof *l->pyr_off);
	cnt = l->n;
	for (lev = 0; lev < nlev; lev++) {
		cnt = (cnt + PYR_BLOCK - 1) >> PYR_SHIFT;
		l->pyr_off[lev] = off;
		off += cnt;
	}
	l->pyr_off[nlev] = off;
}

void
lane_pyr_build(struct lane *l)
{
	size_t		 cnt, lev, j, k, k1, off, prev;
	uint32_t	 best, e;

	lane_pyr_shape(l);
	if (l->pyr_levels == 0)
		return;
	l->pyr = xreallocarray(NULL, l->npyr, sizeof *l->pyr);
	cnt = l->n;
	for (lev = 0; lev < (size_t)l->pyr_levels; lev++) {
		prev = cnt;
		cnt = (cnt + PYR_BLOCK - 1) >> PYR_SHIFT;
		off = l->pyr_off[lev];
		for (j = 0; j < cnt; j++) {
			k = j << PYR_SHIFT;
			k1 = k + PYR_BLOCK < prev ? k + PYR_BLOCK : prev;
			best = lev == 0 ? (uint32_t)k :
			    l->pyr[l->pyr_off[lev - 1] + k];
			for (k++; k < k1; k++) {
				e = lev == 0 ? (uint32_t)k :
				    l->pyr[l->pyr_off[lev - 1] + k];
				if (lane_dur(l, e) > lane_dur(l, best))
					best = e;
			}
			l->pyr[off + j] = best;
		}
	}
}

int64_t
lane_argmax_dur(const struct lane *l, size_t i0, size_t i1)
{
	int64_t		best = -1, bd = -1, d;
	size_t		j, e, m, lo, hi;
	int		lev = -1;	/* -1: the events themselves */

	if (i1 > l->n)
		i1 = l->n;
	if (i0 >= i1)
		return -1;

	/*
	 * At each level scan the partial blocks at both ends and go up for
	 * the full blocks between them; ties keep the smaller index, so the
	 * order of the scans does not matter.
	 */
	lo = i0;
	hi = i1;
	for (;;) {
		if (hi - lo <= 2 * PYR_BLOCK || lev + 1 >= l->pyr_levels) {
			for (j = lo; j < hi; j++) {
				e = lev < 0 ? j : l->pyr[l->pyr_off[lev] + j];
				d = lane_dur(l, e);
				if (d > bd || (d == bd && (int64_t)e < best))
					best = (int64_t)e, bd = d;
			}
			return best;
		}
		m = (lo + PYR_BLOCK - 1) & ~(size_t)(PYR_BLOCK - 1);
		for (j = lo; j < m; j++) {
			e = lev < 0 ? j : l->pyr[l->pyr_off[lev] + j];
			d = lane_dur(l, e);
			if (d > bd || (d == bd && (int64_t)e < best))
				best = (int64_t)e, bd = d;
		}
		m = hi & ~(size_t)(PYR_BLOCK - 1);
		for (j = m; j < hi; j++) {
			e = lev < 0 ? j : l->pyr[l->pyr_off[lev] + j];
			d = lane_dur(l, e);
			if (d > bd || (d == bd && (int64_t)e < best))
				best = (int64_t)e, bd = d;
		}
		lo = (lo + PYR_BLOCK - 1) >> PYR_SHIFT;
		hi >>= PYR_SHIFT;
		lev++;
	}
}
