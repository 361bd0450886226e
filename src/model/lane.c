/*
 * lane: the events of one track as struct-of-arrays, and the index that
 * answers time queries over them.
 *
 * Readers append events in any order. lane_finalize() sorts them by start
 * (ties: longer first, then push order) with an LSD radix sort on start
 * that yields a permutation, applied once to every array. It then sweeps
 * the sorted events once to find whether any two overlap.
 *
 * A lane whose events do not overlap (a GPU stream) needs nothing more:
 * starts and ends are both non-decreasing, so every query is one or two
 * binary searches and the coverage is the events themselves with prefix
 * sums of their durations kept every 64 events (a busy-time query adds up
 * to 63 durations to the nearest sum; a full prefix array would cost eight
 * bytes per event, more than any other index).
 *
 * A lane whose events overlap (nested CPU ranges, NVTX start/end ranges)
 * also gets an implicit augmented interval tree in the style of lh3's
 * cgranges: the sorted array is read as an in-order binary tree (node i at
 * level k has k trailing one bits) and maxend[i] is the largest end in the
 * subtree of i. Queries walk it top-down with an explicit stack and scan
 * small subtrees linearly, in O(log n + k), reporting hits in index (that
 * is, start) order. ends_sorted[] turns counts into binary searches and the
 * coverage is the merged union of the events.
 *
 * depth[] comes from a stack sweep: an event nested in the innermost open
 * event goes one level below it; an event that overlaps it only partly
 * takes the smallest level that is free at its start (a min segment tree
 * over levels, built only when a lane is deep and irregular).
 *
 * The block-max pyramid stores, per block of 64 events, the index of the
 * longest one, then per 64 such blocks, and so on, so "the longest event in
 * an index range" costs O(64 * levels).
 *
 * lane_adopt() is the other way to an index: the cache stores every array
 * above and hands them back; adopting derives only what is a function of
 * the sizes and checks that the stored indices stay inside the arrays.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "model/lane-int.h"
#include "util/xmalloc.h"

const size_t lane_arrays[LANE_NARRAYS] = {
	offsetof(struct lane, start),
	offsetof(struct lane, end),
	offsetof(struct lane, name),
	offsetof(struct lane, kind),
	offsetof(struct lane, flags),
	offsetof(struct lane, rowid32),
	offsetof(struct lane, rowid64),
	offsetof(struct lane, corr),
	offsetof(struct lane, aux),
	offsetof(struct lane, depth),
	offsetof(struct lane, maxend),
	offsetof(struct lane, ends_sorted),
	offsetof(struct lane, pyr),
	offsetof(struct lane, pyr_off),
};

void
lane_init(struct lane *l)
{
	memset(l, 0, sizeof *l);
}

/* Frees arrays [from, to) of lane_arrays. */
static void
lane_free_arrays(struct lane *l, size_t from, size_t to)
{
	for (; from < to; from++) {
		free(LANE_ARRAY(l, from));
		LANE_ARRAY(l, from) = NULL;
	}
}

/* Frees what lane_finalize() builds. */
static void
lane_free_index(struct lane *l)
{
	lane_free_arrays(l, LANE_NEVENTS, LANE_NARRAYS);
	iset_free(&l->cov);
	l->npyr = 0;
	l->pyr_levels = 0;
	l->max_depth = 0;
	l->overlaps = 0;
	l->tree_levels = 0;
	l->maxdur = 0;
}

/* Frees the per-event arrays (lane_resize() sizes them). */
static void
lane_free_events(struct lane *l)
{
	lane_free_arrays(l, 0, LANE_NEVENTS);
	l->cap = 0;
}

void
lane_free(struct lane *l)
{
	lane_free_index(l);
	lane_free_events(l);
	memset(l, 0, sizeof *l);
}

/* Resizes every per-event array to ncap entries (ncap > 0). */
static void
lane_resize(struct lane *l, size_t ncap)
{
	l->start = xreallocarray(l->start, ncap, sizeof *l->start);
	l->end = xreallocarray(l->end, ncap, sizeof *l->end);
	l->name = xreallocarray(l->name, ncap, sizeof *l->name);
	l->kind = xreallocarray(l->kind, ncap, sizeof *l->kind);
	l->flags = xreallocarray(l->flags, ncap, sizeof *l->flags);
	if (l->rowid64 != NULL)
		l->rowid64 = xreallocarray(l->rowid64, ncap,
		    sizeof *l->rowid64);
	else
		l->rowid32 = xreallocarray(l->rowid32, ncap,
		    sizeof *l->rowid32);
	l->corr = xreallocarray(l->corr, ncap, sizeof *l->corr);
	l->aux = xreallocarray(l->aux, ncap, sizeof *l->aux);
	l->cap = ncap;
	if (l->cov.view && l->cov.pre != NULL) {
		l->cov.start = l->start;
		l->cov.end = l->end;
	}
}

void
lane_reserve(struct lane *l, size_t n)
{
	size_t	need = l->n + n, ncap;

	if (need <= l->cap)
		return;
	/* Indices are uint32_t everywhere; more is a caller bug. */
	if (need < l->n || need >= UINT32_MAX)
		abort();
	ncap = l->cap < 16 ? 16 : l->cap + l->cap / 2;
	if (ncap < need)
		ncap = need;
	if (ncap >= UINT32_MAX)
		ncap = UINT32_MAX - 1;
	lane_resize(l, ncap);
}

/* Moves the row ids to 64 bits (one did not fit in 32). */
static void
lane_rowid_widen(struct lane *l)
{
	size_t	i;

	l->rowid64 = xreallocarray(NULL, l->cap, sizeof *l->rowid64);
	for (i = 0; i < l->n; i++)
		l->rowid64[i] = l->rowid32[i] == LANE_NOROW ? -1 :
		    (int64_t)l->rowid32[i];
	free(l->rowid32);
	l->rowid32 = NULL;
}

void
lane_push(struct lane *l, const struct lane_event *ev)
{
	size_t	i;

	if (l->n == l->cap)
		lane_reserve(l, 1);
	if (l->rowid64 == NULL && ev->rowid != -1 &&
	    (ev->rowid < 0 || ev->rowid >= LANE_NOROW))
		lane_rowid_widen(l);
	i = l->n++;
	l->start[i] = ev->start;
	l->end[i] = ev->end < ev->start ? ev->start : ev->end;
	l->name[i] = ev->name;
	l->kind[i] = ev->kind;
	l->flags[i] = ev->flags;
	if (l->rowid64 != NULL)
		l->rowid64[i] = ev->rowid;
	else
		l->rowid32[i] = ev->rowid == -1 ? LANE_NOROW :
		    (uint32_t)ev->rowid;
	l->corr[i] = ev->corr;
	l->aux[i] = ev->aux;
}

void
lane_shrink(struct lane *l)
{
	if (l->n == l->cap)
		return;
	if (l->n > 0) {
		lane_resize(l, l->n);
		return;
	}
	lane_free_events(l);
	if (l->cov.view)
		l->cov.start = l->cov.end = NULL;
}

/* Finalize. */

static void	lane_cov_alias(struct lane *);

void
lane_finalize(struct lane *l)
{
	size_t		 n, i;
	int64_t		 maxend;
	uint64_t	*k, *kt;

	lane_free_index(l);
	lane_shrink(l);
	n = l->n;
	if (n == 0) {
		lane_cov_alias(l);
		l->cov.pre = xcalloc(1, sizeof *l->cov.pre);
		return;
	}
	if (!lane_sort_sorted(l))
		lane_sort(l);

	maxend = INT64_MIN;
	for (i = 0; i < n; i++) {
		if (l->start[i] < maxend)
			l->overlaps = 1;
		if (l->end[i] > maxend)
			maxend = l->end[i];
		if (lane_dur(l, i) > l->maxdur)
			l->maxdur = lane_dur(l, i);
	}

	l->depth = xcalloc(n, sizeof *l->depth);
	if (l->overlaps) {
		lane_depth(l);

		l->maxend = xreallocarray(NULL, n, sizeof *l->maxend);
		l->tree_levels = lane_tree_build(l->end, l->maxend, n);

		/* Ends >= starts >= start[0]: keys end - start[0]. */
		k = xreallocarray(NULL, n, sizeof *k);
		kt = xreallocarray(NULL, n, sizeof *kt);
		for (i = 0; i < n; i++)
			k[i] = (uint64_t)l->end[i] - (uint64_t)l->start[0];
		lane_sort_radix(&k, &kt, NULL, NULL, n);
		for (i = 0; i < n; i++)
			k[i] += (uint64_t)l->start[0];
		l->ends_sorted = (int64_t *)k;
		free(kt);

		iset_build_sorted(&l->cov, l->start, l->end, n);
		iset_index(&l->cov);
	} else {
		l->max_depth = 1;
		lane_cov_alias(l);
		iset_index(&l->cov);
	}
	lane_pyr_build(l);
}

/* A non-overlapping lane's coverage: its own events, sums per block. */
static void
lane_cov_alias(struct lane *l)
{
	int64_t	*pre = l->cov.pre;

	iset_view(&l->cov, l->start, l->end, l->n, ISET_SHIFT);
	l->cov.pre = pre;
}

size_t
lane_cov_nsums(size_t n, int overlaps, size_t cov_n)
{
	return overlaps ? cov_n + 1 : (n >> ISET_SHIFT) + 1;
}

int
lane_adopt(struct lane *l)
{
	size_t	n = l->n, i;

	/* The coverage arrays the caller gave belong to the lane now. */
	l->cov.view = !(l->overlaps || l->cov.start != NULL ||
	    l->cov.end != NULL);
	l->cov.shift = l->overlaps ? 0 : ISET_SHIFT;
	l->tree_levels = 0;
	if (l->cap != n || l->cov.pre == NULL || (n > 0 &&
	    (l->rowid32 == NULL) == (l->rowid64 == NULL)))
		return -1;
	lane_pyr_shape(l);
	if (l->npyr > 0 && l->pyr == NULL)
		return -1;
	for (i = 0; i < l->npyr; i++)
		if (l->pyr[i] >= n)
			return -1;
	if (n == 0) {
		if (l->overlaps || l->max_depth != 0 || l->depth != NULL ||
		    l->maxend != NULL || l->ends_sorted != NULL ||
		    !l->cov.view || l->cov.n != 0)
			return -1;
		lane_cov_alias(l);
		return 0;
	}
	if (!l->overlaps) {
		if (l->max_depth != 1 || l->depth != NULL ||
		    l->maxend != NULL || l->ends_sorted != NULL ||
		    !l->cov.view)
			return -1;
		/* All zeros: calloc'd pages stay untouched until read. */
		l->depth = xcalloc(n, sizeof *l->depth);
		lane_cov_alias(l);
		return 0;
	}
	if (l->depth == NULL || l->maxend == NULL || l->ends_sorted == NULL ||
	    l->max_depth == 0 ||
	    l->cov.n > n || (l->cov.n > 0 && (l->cov.start == NULL ||
	    l->cov.end == NULL)))
		return -1;
	for (i = 0; i < n; i++)
		if (l->depth[i] >= l->max_depth)
			return -1;
	l->tree_levels = lane_tree_levels(n);
	return 0;
}
