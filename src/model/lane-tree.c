/*
 * lane-tree: the implicit augmented interval tree of an overlapping lane,
 * in the style of lh3's cgranges: the sorted array is read as an in-order
 * binary tree (node i at level k has k trailing one bits) and maxend[i] is
 * the largest end in the subtree of i. Walks go top-down with an explicit
 * stack and scan small subtrees linearly, in O(log n + k), reporting hits
 * in index (that is, start) order.
 */
#include "config.h"

#include "model/lane.h"
#include "model/lane-int.h"
#include "util/xmalloc.h"

/* Fills mx[] (cgranges' index_core on int64) and returns the root level. */
int
lane_tree_build(const int64_t *end, int64_t *mx, size_t n)
{
	size_t	i, last_i = 0, x, i0, step;
	int64_t	last = 0, e, el, er;
	int	k;

	for (i = 0; i < n; i += 2) {
		last_i = i;
		last = mx[i] = end[i];
	}
	for (k = 1; (size_t)1 << k <= n; k++) {
		x = (size_t)1 << (k - 1);
		i0 = (x << 1) - 1;
		step = x << 2;
		for (i = i0; i < n; i += step) {
			el = mx[i - x];
			er = i + x < n ? mx[i + x] : last;
			e = end[i];
			if (el > e)
				e = el;
			if (er > e)
				e = er;
			mx[i] = e;
		}
		/* last_i moves to its parent, which may lie past n. */
		last_i = (last_i >> k & 1) ? last_i - x : last_i + x;
		if (last_i < n && mx[last_i] > last)
			last = mx[last_i];
	}
	return k - 1;
}

static inline void
lane_hit(lane_visit_fn *fn, void *arg, size_t i)
{
	struct lane_collect	*c;

	if (fn != NULL) {
		fn(arg, i);
		return;
	}
	c = arg;
	if (c->n == *c->cap)
		XGROW(*c->buf, *c->cap, c->n + 1);
	(*c->buf)[c->n++] = (uint32_t)i;
}

/*
 * Reports every event i < hi with end[i] > t0, in index order, walking the
 * implicit tree (overlapping lanes only). O(log n + hits).
 */
void
lane_tree_visit(const struct lane *l, size_t hi, int64_t t0,
    lane_visit_fn *fn, void *arg)
{
	struct {
		size_t	x;
		int	k, w;
	}		 st[64], z;
	int		 t = 0;
	size_t		 n = l->n, i, i0, i1, y;

	if (n == 0 || hi == 0)
		return;
	st[t].k = l->tree_levels;
	st[t].x = ((size_t)1 << l->tree_levels) - 1;
	st[t++].w = 0;
	while (t > 0) {
		z = st[--t];
		if (z.k <= LANE_SCAN_K) {
			i0 = z.x >> z.k << z.k;
			i1 = i0 + ((size_t)2 << z.k) - 1;
			if (i1 > hi)
				i1 = hi;
			for (i = i0; i < i1; i++)
				if (l->end[i] > t0)
					lane_hit(fn, arg, i);
		} else if (z.w == 0) {
			/* Left child first; skip it if nothing ends after t0. */
			y = z.x - ((size_t)1 << (z.k - 1));
			st[t].k = z.k;
			st[t].x = z.x;
			st[t++].w = 1;
			if (y >= n || l->maxend[y] > t0) {
				st[t].k = z.k - 1;
				st[t].x = y;
				st[t++].w = 0;
			}
		} else if (z.x < hi) {
			if (l->end[z.x] > t0)
				lane_hit(fn, arg, z.x);
			st[t].k = z.k - 1;
			st[t].x = z.x + ((size_t)1 << (z.k - 1));
			st[t++].w = 0;
		}
	}
}

/* The root level of the implicit tree of n > 0 events: floor(log2(n)),
 * as lane_tree_build() returns it. */
int
lane_tree_levels(size_t n)
{
	int	k = 0;

	while (n >> (k + 1) != 0)
		k++;
	return k;
}
