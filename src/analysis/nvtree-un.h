/*
 * nvtree-un: the union (busy time) of the GPU work of one open NVTX range,
 * as the projection sweep (nvtree-proj.c) builds it. Internal to that
 * sweep; the functions are inline for its loop.
 */
#ifndef GPULENS_ANALYSIS_NVTREE_UN_H
#define GPULENS_ANALYSIS_NVTREE_UN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The union (busy time) of an open range's GPU work, built as the sweep
 * hands it the operations. Its last merged segments (NVTREE_UN_WIN at most,
 * half of them folded when they overflow) are
 * kept in start order (disjoint, not touching), the ones before them
 * only summed (busy) up to where the last of them ended (fold): an
 * operation that starts at fold or later is merged into the kept ones,
 * wherever it falls among them, and the union's measure stays exact, the
 * one nvtx_project_with() gets by sorting the work by start and merging
 * it (the measure does not depend on the order). An operation that
 * starts before fold, or ends before it starts, leaves the union lost
 * (state NVTREE_UN_LOST): the range's busy time is left to that function.
 */
#define NVTREE_UN_WIN	16
enum { NVTREE_UN_NONE, NVTREE_UN_SOME, NVTREE_UN_LOST };
struct nvtree_un {
	int64_t		 busy;		/* the segments folded away */
	int64_t		 fold;		/* the end of the last of them */
	int64_t		 seg[NVTREE_UN_WIN + 1][2];	/* kept: start, end */
	int		 n;		/* kept segments */
	int		 state;
};

/* Opens union u, empty. */
static inline void
nvtree_un_open(struct nvtree_un *u)
{
	u->busy = 0;
	u->fold = INT64_MIN;
	u->n = 0;
	u->state = NVTREE_UN_NONE;
}

/*
 * Folds the older half of u's kept segments into its sum when they are
 * full: one move per NVTREE_UN_WIN / 2 new segments.
 */
static void
nvtree_un_fold(struct nvtree_un *u)
{
	int	i, h = NVTREE_UN_WIN / 2;

	if (u->n <= NVTREE_UN_WIN)
		return;
	for (i = 0; i < h; i++)
		u->busy += u->seg[i][1] - u->seg[i][0];
	u->fold = u->seg[h - 1][1];
	memmove(u->seg[0], u->seg[h], (size_t)(u->n - h) * sizeof u->seg[0]);
	u->n -= h;
}

/*
 * Merges [s, e] (s <= e, s >= u->fold, s before the end of the last kept
 * segment) into the kept segments of u.
 */
static inline void
nvtree_un_insert(struct nvtree_un *u, int64_t s, int64_t e)
{
	int	i, j, k;

	for (i = u->n - 1; i >= 0 && u->seg[i][0] > s; i--)
		;
	if (i >= 0 && s <= u->seg[i][1]) {
		if (e > u->seg[i][1])
			u->seg[i][1] = e;
	} else {
		i++;
		memmove(u->seg[i + 1], u->seg[i],
		    (size_t)(u->n - i) * sizeof u->seg[0]);
		u->seg[i][0] = s;
		u->seg[i][1] = e;
		u->n++;
	}
	/* The segments after i that it now reaches. */
	for (j = i + 1; j < u->n && u->seg[j][0] <= u->seg[i][1]; j++)
		if (u->seg[j][1] > u->seg[i][1])
			u->seg[i][1] = u->seg[j][1];
	if (j > i + 1) {
		k = j - (i + 1);
		if (j < u->n)
			memmove(u->seg[i + 1], u->seg[j],
			    (size_t)(u->n - j) * sizeof u->seg[0]);
		u->n -= k;
	}
	nvtree_un_fold(u);
}

/* The work of one call, for the unions: start, end of each operation. */
struct nvtree_ops {
	int64_t		*se;		/* 2 per operation */
	size_t		 n, cap;
	int64_t		*busy;		/* the result (nvtree_proj.busy) */
};

/*
 * Merges operation [s, e] into u where it does not just make the last
 * kept segment go on: a new segment, a merge among the kept ones, or the
 * union lost (then it keeps no segments, and takes no more).
 */
static void
nvtree_un_put(struct nvtree_un *u, int64_t s, int64_t e)
{
	int64_t	*t;

	if (u->state == NVTREE_UN_LOST)
		return;
	if (e < s || s < u->fold) {
		u->state = NVTREE_UN_LOST;
		u->n = 0;
		return;
	}
	u->state = NVTREE_UN_SOME;
	t = u->seg[u->n > 0 ? u->n - 1 : 0];
	if (u->n > 0 && s >= t[0] && s <= t[1]) {
		if (e > t[1])
			t[1] = e;
	} else if (u->n == 0 || s > t[1]) {
		/* A new one follows it. */
		u->seg[u->n][0] = s;
		u->seg[u->n][1] = e;
		u->n++;
		nvtree_un_fold(u);
	} else
		nvtree_un_insert(u, s, e);
}

/*
 * Adds operation [s, e] to u. Mostly, in a union with segments (neither
 * empty nor lost), it starts after the last kept segment (a new one,
 * with a fold now and then) or makes it go on: those cases inline.
 */
static inline __attribute__((always_inline)) void
nvtree_un_add1(struct nvtree_un *u, int64_t s, int64_t e)
{
	int64_t	*t;

	if (u->n > 0 && e >= s) {
		t = u->seg[u->n - 1];
		if (s > t[1]) {
			u->seg[u->n][0] = s;
			u->seg[u->n][1] = e;
			if (++u->n > NVTREE_UN_WIN)
				nvtree_un_fold(u);
			return;
		}
		if (s >= t[0]) {
			if (e > t[1])
				t[1] = e;
			return;
		}
	}
	nvtree_un_put(u, s, e);
}

/*
 * Adds the operations of one call to the n unions u[0 .. n) (the open
 * ranges of one NVTX track that contain the call): inline in the sweep's
 * loop, which calls out only for the rare cases (nvtree_un_put(), a
 * fold).
 */
static inline __attribute__((always_inline)) void
nvtree_un_add(struct nvtree_un *restrict u, size_t n,
    const struct nvtree_ops *restrict ops)
{
	const int64_t	*se, *end = ops->se + 2 * ops->n;
	int64_t		 s, e;

	if (ops->n == 1) {	/* mostly one operation */
		s = ops->se[0];
		e = ops->se[1];
		for (; n > 0; n--, u++)
			nvtree_un_add1(u, s, e);
	} else
		for (; n > 0; n--, u++)
			for (se = ops->se; se < end; se += 2)
				nvtree_un_add1(u, se[0], se[1]);
}

/* The busy time of range a, leaving the sweep with union u. */
static inline void
nvtree_un_done(const struct nvtree_un *u, struct nvtree_ops *ops, size_t a)
{
	int64_t	b;
	int	i;

	if (u->state == NVTREE_UN_SOME) {
		for (b = u->busy, i = 0; i < u->n; i++)
			b += u->seg[i][1] - u->seg[i][0];
		ops->busy[a] = b;
	} else if (u->state == NVTREE_UN_NONE)
		ops->busy[a] = 0;
}

#endif
