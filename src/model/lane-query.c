/*
 * lane-query: the time queries of lane.h: binary searches over starts (and,
 * for an overlapping lane, ends_sorted[] and a walk of the interval tree),
 * counts, stabs, busy time and the dominant event of a window.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "model/lane-int.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

size_t
lane_lower(const struct lane *l, int64_t t)
{
	return lbound_i64(l->start, l->n, t);
}

/* Index of the first event with start > t. */
static size_t
lane_upper(const struct lane *l, int64_t t)
{
	return lbound_i64_above(l->start, l->n, t);
}

struct lane_below {
	const struct lane	*l;
	int64_t			 t;
	int			 strict;
};

static int
lane_dead_before(const void *ctx, size_t m)
{
	const struct lane_below	*b = ctx;

	return !(b->l->end[m] > b->t || (!b->strict && b->l->start[m] >= b->t));
}

/* Within a run of events starting at t: ends descend. */
static int
lane_longer_than_zero(const void *ctx, size_t m)
{
	const struct lane_below	*b = ctx;

	return b->l->end[m] > b->t;
}

/*
 * Non-overlapping lanes: the first event that can still meet [t0, ...),
 * that is the first with end > t0 or start >= t0. Both predicates are
 * monotone because starts and ends are non-decreasing. With strict set,
 * only end > t0 counts (stab queries).
 */
static size_t
lane_first_live(const struct lane *l, int64_t t0, int strict)
{
	struct lane_below	b = { l, t0, strict };

	return lbound_if(0, l->n, lane_dead_before, &b);
}

/*
 * The zero-length events at exactly t: the tail of the run of events that
 * start at t (ends descend within a run). Sets [*z0, *z1).
 */
static void
lane_zero_at(const struct lane *l, int64_t t, size_t *z0, size_t *z1)
{
	struct lane_below	b = { l, t, 0 };
	size_t			lo = lane_lower(l, t), hi;

	if (lo == l->n || l->start[lo] != t) {
		*z0 = *z1 = lo;
		return;
	}
	hi = lane_upper(l, t);
	*z1 = hi;
	*z0 = lbound_if(lo, hi, lane_longer_than_zero, &b);
}

/*
 * Whether window [t0, t1) holds every event of l, and it has some: each
 * starts after t0, so ends after it too, and before t1. The common window
 * of a verb, the whole trace, then needs no walk of the tree.
 */
static int
lane_whole(const struct lane *l, int64_t t0, int64_t t1)
{
	return l->n > 0 && t1 > t0 && t0 < l->start[0] &&
	    t1 > l->start[l->n - 1];
}

/* Fills *buf with lo..hi-1. */
static size_t
lane_fill(size_t lo, size_t hi, uint32_t **buf, size_t *cap)
{
	size_t	i;

	if (hi <= lo)
		return 0;
	XGROW(*buf, *cap, hi - lo);
	for (i = lo; i < hi; i++)
		(*buf)[i - lo] = (uint32_t)i;
	return hi - lo;
}

/*
 * The events before hi still live at t (as lane_first_live() with strict),
 * into *buf in index order; the tree's walk when events overlap.
 */
static size_t
lane_live(const struct lane *l, size_t hi, int64_t t, int strict,
    uint32_t **buf, size_t *cap)
{
	struct lane_collect	c;

	if (!l->overlaps)
		return lane_fill(lane_first_live(l, t, strict), hi, buf, cap);
	c.buf = buf;
	c.cap = cap;
	c.n = 0;
	lane_tree_visit(l, hi, t, NULL, &c);
	return c.n;
}

size_t
lane_overlap(const struct lane *l, int64_t t0, int64_t t1, uint32_t **buf,
    size_t *cap)
{
	size_t	z0, z1, p, lo, n;

	if (t1 <= t0 || l->n == 0)
		return 0;
	if (lane_whole(l, t0, t1))
		return lane_fill(0, l->n, buf, cap);
	n = lane_live(l, lane_lower(l, t1), t0, 0, buf, cap);
	if (!l->overlaps)
		return n;

	/* The tree misses zero-length events at t0 (end == t0): splice. */
	lane_zero_at(l, t0, &z0, &z1);
	if (z0 < z1) {
		XGROW(*buf, *cap, n + (z1 - z0));
		lo = lbound_u32(*buf, n, (uint32_t)z0);
		memmove(*buf + lo + (z1 - z0), *buf + lo,
		    (n - lo) * sizeof **buf);
		for (p = z0; p < z1; p++)
			(*buf)[lo + p - z0] = (uint32_t)p;
		n += z1 - z0;
	}
	return n;
}

size_t
lane_run(const struct lane *l, int64_t t0, int64_t t1, size_t *lo)
{
	size_t	hi;

	*lo = 0;
	if (t1 <= t0 || l->n == 0)
		return 0;
	hi = lane_lower(l, t1);
	*lo = lane_first_live(l, t0, 0);
	return hi > *lo ? hi - *lo : 0;
}

size_t
lane_overlap_range(const struct lane *l, int64_t t0, int64_t t1,
    uint32_t **buf, size_t *cap, size_t *lo)
{
	if (!l->overlaps)
		return lane_run(l, t0, t1, lo);
	if (lane_whole(l, t0, t1)) {
		*lo = 0;
		return l->n;
	}
	*lo = LANE_LIST;
	return lane_overlap(l, t0, t1, buf, cap);
}

size_t
lane_count(const struct lane *l, int64_t t0, int64_t t1)
{
	size_t	lo, hi, z0, z1;

	if (t1 <= t0 || l->n == 0)
		return 0;
	if (!l->overlaps)
		return lane_run(l, t0, t1, &lo);
	hi = lane_lower(l, t1);
	/*
	 * Of the events starting before t1, those with end <= t0 miss the
	 * window, except zero-length ones at t0.
	 */
	lo = lbound_i64_above(l->ends_sorted, l->n, t0);
	lane_zero_at(l, t0, &z0, &z1);
	if (lo > hi)
		lo = hi;	/* only with a forged ends_sorted */
	return hi - lo + (z1 - z0);
}

size_t
lane_stab(const struct lane *l, int64_t t, uint32_t **buf, size_t *cap)
{
	if (l->n == 0)
		return 0;
	return lane_live(l, lane_upper(l, t), t, 1, buf, cap);
}

int64_t
lane_busy(const struct lane *l, int64_t t0, int64_t t1)
{
	return iset_measure(&l->cov, t0, t1);
}

struct lane_dom {
	const struct lane	*l;
	int64_t			 t0, t1;
	int64_t			 best, v;
};

static void
lane_dom_consider(struct lane_dom *d, size_t i, int64_t v)
{
	if (v > d->v || (v == d->v && (int64_t)i < d->best)) {
		d->best = (int64_t)i;
		d->v = v;
	}
}

/* Events crossing t0: their time inside the window is min(end, t1) - t0. */
static void
lane_dom_fn(void *arg, size_t i)
{
	struct lane_dom	*d = arg;
	int64_t		 e = d->l->end[i];

	lane_dom_consider(d, i, (e < d->t1 ? e : d->t1) - d->t0);
}

/* Time of event i inside [t0, t1). */
static int64_t
lane_clip(const struct lane *l, size_t i, int64_t t0, int64_t t1)
{
	int64_t	s = l->start[i], e = l->end[i];

	return (e < t1 ? e : t1) - (s > t0 ? s : t0);
}

/*
 * Non-overlapping lane: O(log n + 64 * pyramid levels). The events between
 * the first and the last candidate lie wholly inside the window, so their
 * time inside is their duration and the pyramid finds the longest.
 *
 * Overlapping lane: the events crossing t0 come from the tree in
 * O(log n + c) for c of them (typically the nesting depth). Among the
 * events starting in [t0, t1) the longest one (pyramid) wins if it ends by
 * t1; only when it does not are they scanned, O(k) for k of them. So the
 * usual cost is O(log n + c + 64 * levels) and the worst O(log n + k).
 */
int64_t
lane_dominant(const struct lane *l, int64_t t0, int64_t t1)
{
	struct lane_dom	d;
	size_t		lo, hi, i;
	int64_t		m;

	if (t1 <= t0 || l->n == 0)
		return -1;
	d.l = l;
	d.t0 = t0;
	d.t1 = t1;
	d.best = -1;
	d.v = -1;
	if (!l->overlaps) {
		lo = lane_first_live(l, t0, 0);
		hi = lane_lower(l, t1);
		if (lo >= hi)
			return -1;
		lane_dom_consider(&d, lo, lane_clip(l, lo, t0, t1));
		if (hi - 1 > lo)
			lane_dom_consider(&d, hi - 1,
			    lane_clip(l, hi - 1, t0, t1));
		if (hi - 1 > lo + 1) {
			m = lane_argmax_dur(l, lo + 1, hi - 1);
			lane_dom_consider(&d, (size_t)m, lane_dur(l, m));
		}
		return d.best;
	}

	lo = lane_lower(l, t0);
	hi = lane_lower(l, t1);
	lane_tree_visit(l, lo, t0, lane_dom_fn, &d);
	if (lo < hi) {
		m = lane_argmax_dur(l, lo, hi);
		if (l->end[m] <= t1)
			lane_dom_consider(&d, (size_t)m, lane_dur(l, m));
		else {
			for (i = lo; i < hi; i++)
				lane_dom_consider(&d, i, lane_clip(l, i, t0, t1));
		}
	}
	return d.best;
}
