/*
 * lane-depth: depth[] from a stack sweep: an event nested in the innermost
 * open event goes one level below it; an event that overlaps it only partly
 * takes the smallest level that is free at its start (a min segment tree
 * over levels, built only when a lane is deep and irregular).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "model/lane-int.h"
#include "util/xmalloc.h"

/*
 * Levels of the depth sweep: last[L] is the end of the last event placed at
 * level L. The min segment tree over last[] (leaves past nlev hold
 * INT64_MIN, "free") answers "smallest level free at time s" in O(log);
 * it exists only once a partial overlap meets a deep stack.
 */
struct levels {
	int64_t		*last;
	size_t		 nlev, cap;
	int64_t		*tree;
	size_t		 size;		/* leaves; 0: no tree */
};

static void
levels_tree_build(struct levels *lv, size_t size)
{
	size_t	i;

	free(lv->tree);
	lv->size = size;
	lv->tree = xreallocarray(NULL, 2 * size, sizeof *lv->tree);
	for (i = 0; i < size; i++)
		lv->tree[size + i] = i < lv->nlev ? lv->last[i] : INT64_MIN;
	for (i = size - 1; i > 0; i--)
		lv->tree[i] = lv->tree[2 * i] < lv->tree[2 * i + 1] ?
		    lv->tree[2 * i] : lv->tree[2 * i + 1];
}

static void
levels_set(struct levels *lv, size_t d, int64_t v)
{
	size_t	p;

	if (d == lv->nlev) {
		XGROW(lv->last, lv->cap, lv->nlev + 1);
		lv->last[lv->nlev++] = INT64_MIN;
		if (lv->size != 0 && lv->nlev + 1 > lv->size)
			levels_tree_build(lv, lv->size * 2);
	}
	lv->last[d] = v;
	if (lv->size == 0)
		return;
	p = lv->size + d;
	lv->tree[p] = v;
	for (p /= 2; p > 0; p /= 2)
		lv->tree[p] = lv->tree[2 * p] < lv->tree[2 * p + 1] ?
		    lv->tree[2 * p] : lv->tree[2 * p + 1];
}

/* Smallest level L <= h with last[L] <= s (levels >= h are all free). */
static size_t
levels_first_free(struct levels *lv, size_t h, int64_t s)
{
	size_t	d, p;

	if (lv->size == 0 && h <= LANE_LINEAR) {
		for (d = 0; d < h && lv->last[d] > s; d++)
			;
		return d;
	}
	if (lv->size == 0) {
		for (p = 64; p < lv->nlev + 1; p *= 2)
			;
		levels_tree_build(lv, p);
	}
	for (p = 1; p < lv->size; )
		p = lv->tree[2 * p] <= s ? 2 * p : 2 * p + 1;
	return p - lv->size;
}

void
lane_depth(struct lane *l)
{
	struct levels	lv;
	size_t		i, h = 0, d;
	int64_t		s, e;
	uint16_t	maxd = 0;

	memset(&lv, 0, sizeof lv);
	for (i = 0; i < l->n; i++) {
		s = l->start[i];
		e = l->end[i];
		while (h > 0 && lv.last[h - 1] <= s)
			h--;
		if (h == 0 || lv.last[h - 1] >= e)
			d = h;		/* nested in the innermost open event */
		else
			d = levels_first_free(&lv, h, s);
		if (d > LANE_MAXLEVEL) {
			/* Overflow level: shared, keeps the latest end. */
			d = LANE_MAXLEVEL;
			if (lv.last[d] > e)
				e = lv.last[d];
		}
		levels_set(&lv, d, e);
		if (d >= h)
			h = d + 1;
		l->depth[i] = (uint16_t)d;
		if (d + 1 > maxd)
			maxd = (uint16_t)(d + 1);
	}
	l->max_depth = maxd;
	free(lv.last);
	free(lv.tree);
}
