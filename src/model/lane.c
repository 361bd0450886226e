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
#include "util/lbound.h"
#include "util/xmalloc.h"

#define LANE_RUNSORT	16	/* insertion sort below this run length */
#define LANE_SCAN_K	3	/* tree: scan subtrees of this level or less */
#define LANE_MAXLEVEL	(UINT16_MAX - 1)	/* deepest stored depth */
#define LANE_LINEAR	32	/* depth: linear level search up to here */
#define PYR_SHIFT	6
#define PYR_BLOCK	(1 << PYR_SHIFT)

static inline int64_t
lane_dur(const struct lane *l, size_t i)
{
	return l->end[i] - l->start[i];
}

void
lane_init(struct lane *l)
{
	memset(l, 0, sizeof *l);
}

/* Frees what lane_finalize() builds. */
static void
lane_free_index(struct lane *l)
{
	free(l->depth);
	free(l->maxend);
	free(l->ends_sorted);
	free(l->pyr);
	free(l->pyr_off);
	coverage_free(&l->cov);
	l->depth = NULL;
	l->maxend = NULL;
	l->ends_sorted = NULL;
	l->pyr = NULL;
	l->pyr_off = NULL;
	l->npyr = 0;
	l->pyr_levels = 0;
	l->max_depth = 0;
	l->overlaps = 0;
	l->tree_levels = 0;
	l->maxdur = 0;
}

void
lane_free(struct lane *l)
{
	lane_free_index(l);
	free(l->start);
	free(l->end);
	free(l->name);
	free(l->kind);
	free(l->flags);
	free(l->rowid32);
	free(l->rowid64);
	free(l->corr);
	free(l->aux);
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
	if (!l->cov.owned && l->cov.sums != NULL) {
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
	free(l->start);
	free(l->end);
	free(l->name);
	free(l->kind);
	free(l->flags);
	free(l->rowid32);
	free(l->rowid64);
	free(l->corr);
	free(l->aux);
	l->start = l->end = l->rowid64 = NULL;
	l->rowid32 = NULL;
	l->name = l->corr = l->aux = NULL;
	l->kind = l->flags = NULL;
	l->cap = 0;
	if (!l->cov.owned)
		l->cov.start = l->cov.end = NULL;
}

/* Sorting. */

static int
lane_is_sorted(const struct lane *l)
{
	size_t	i;

	for (i = 1; i < l->n; i++) {
		if (l->start[i] < l->start[i - 1])
			return 0;
		if (l->start[i] == l->start[i - 1] &&
		    l->end[i] > l->end[i - 1])
			return 0;
	}
	return 1;
}

/*
 * Stable LSD radix sort of n keys (8 passes of 8 bits, skipping passes
 * whose byte is the same in every key), carrying the permutation *p when p
 * is not NULL. Ping-pongs with the scratch arrays; on return *k and *p
 * point at the sorted data and *kt, *pt at the scratch.
 */
static void
lane_radix(uint64_t **k, uint64_t **kt, uint32_t **p, uint32_t **pt,
    size_t n)
{
	size_t		(*hist)[256], off[256], i, sum;
	uint64_t	*a = *k, *b = *kt, *swk, key;
	uint32_t	*pa = p != NULL ? *p : NULL, *pb = p != NULL ? *pt : NULL;
	uint32_t	*swp;
	unsigned	 pass, d;

	hist = xcalloc(8, sizeof *hist);
	for (i = 0; i < n; i++) {
		key = a[i];
		for (pass = 0; pass < 8; pass++)
			hist[pass][(key >> (8 * pass)) & 0xff]++;
	}
	for (pass = 0; pass < 8; pass++) {
		d = (a[0] >> (8 * pass)) & 0xff;
		if (hist[pass][d] == n)
			continue;
		for (sum = 0, d = 0; d < 256; d++) {
			off[d] = sum;
			sum += hist[pass][d];
		}
		if (pa != NULL) {
			for (i = 0; i < n; i++) {
				d = (a[i] >> (8 * pass)) & 0xff;
				b[off[d]] = a[i];
				pb[off[d]++] = pa[i];
			}
			swp = pa, pa = pb, pb = swp;
		} else {
			for (i = 0; i < n; i++) {
				d = (a[i] >> (8 * pass)) & 0xff;
				b[off[d]++] = a[i];
			}
		}
		swk = a, a = b, b = swk;
	}
	free(hist);
	*k = a;
	*kt = b;
	if (p != NULL) {
		*p = pa;
		*pt = pb;
	}
}

/* Stable sort of the permutation run p[0..m) by end descending. */
static void
lane_sort_run(uint32_t *p, uint32_t *tmp, size_t m, const int64_t *end)
{
	size_t		i, j, h, a, b, o;
	uint32_t	x;

	if (m <= LANE_RUNSORT) {
		for (i = 1; i < m; i++) {
			x = p[i];
			for (j = i; j > 0 && end[p[j - 1]] < end[x]; j--)
				p[j] = p[j - 1];
			p[j] = x;
		}
		return;
	}
	h = m / 2;
	lane_sort_run(p, tmp, h, end);
	lane_sort_run(p + h, tmp, m - h, end);
	if (end[p[h - 1]] >= end[p[h]])
		return;
	for (a = 0, b = h, o = 0; a < h && b < m; o++) {
		if (end[p[a]] >= end[p[b]])
			tmp[o] = p[a++];
		else
			tmp[o] = p[b++];
	}
	while (a < h)
		tmp[o++] = p[a++];
	memcpy(p, tmp, o * sizeof *p);
}

static void
lane_permute64(int64_t **a, const uint32_t *p, size_t n)
{
	int64_t	*b = xreallocarray(NULL, n, sizeof *b);
	size_t	 i;

	for (i = 0; i < n; i++)
		b[i] = (*a)[p[i]];
	free(*a);
	*a = b;
}

static void
lane_permute32(uint32_t **a, const uint32_t *p, size_t n)
{
	uint32_t	*b = xreallocarray(NULL, n, sizeof *b);
	size_t		 i;

	for (i = 0; i < n; i++)
		b[i] = (*a)[p[i]];
	free(*a);
	*a = b;
}

static void
lane_permute8(uint8_t **a, const uint32_t *p, size_t n)
{
	uint8_t	*b = xreallocarray(NULL, n, sizeof *b);
	size_t	 i;

	for (i = 0; i < n; i++)
		b[i] = (*a)[p[i]];
	free(*a);
	*a = b;
}

/*
 * Sorts the events by (start asc, end desc), stably. The start array itself
 * is one of the radix sort's key buffers, so the sorted keys become the new
 * start array without a gather.
 */
static void
lane_sort(struct lane *l)
{
	size_t		 n = l->n, i, r;
	uint64_t	*k = (uint64_t *)l->start, *kt;
	uint32_t	*p, *pt;
	int64_t		 min = l->start[0];

	/*
	 * Keys are start - min as uint64: the same order as the sign-flipped
	 * start, but the high bytes are constant (their passes skipped) even
	 * when times cross zero.
	 */
	for (i = 1; i < n; i++)
		if (l->start[i] < min)
			min = l->start[i];
	kt = xreallocarray(NULL, n, sizeof *kt);
	p = xreallocarray(NULL, n, sizeof *p);
	pt = xreallocarray(NULL, n, sizeof *pt);
	for (i = 0; i < n; i++) {
		k[i] -= (uint64_t)min;
		p[i] = (uint32_t)i;
	}
	lane_radix(&k, &kt, &p, &pt, n);
	for (i = 0; i < n; i++)
		k[i] += (uint64_t)min;
	free(kt);

	/* Equal starts: longer first, keeping push order among equals. */
	for (i = 0; i < n; i = r) {
		for (r = i + 1; r < n && k[r] == k[i]; r++)
			;
		if (r - i > 1)
			lane_sort_run(p + i, pt, r - i, l->end);
	}
	free(pt);

	l->start = (int64_t *)k;
	if (l->cap != n)
		l->start = xreallocarray(l->start, n, sizeof *l->start);
	lane_permute64(&l->end, p, n);
	lane_permute32(&l->name, p, n);
	lane_permute8(&l->kind, p, n);
	lane_permute8(&l->flags, p, n);
	if (l->rowid64 != NULL)
		lane_permute64(&l->rowid64, p, n);
	else
		lane_permute32(&l->rowid32, p, n);
	lane_permute32(&l->corr, p, n);
	lane_permute32(&l->aux, p, n);
	l->cap = n;
	free(p);
}

/* Depth. */

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

static void
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

/* Implicit interval tree. */

/* Fills mx[] (cgranges' index_core on int64) and returns the root level. */
static int
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

typedef void	lane_visit_fn(void *, size_t);

/* Hits of a tree walk go to a buffer (fn NULL) or to a callback. */
struct lane_collect {
	uint32_t	**buf;
	size_t		 *cap;
	size_t		  n;
};

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
static void
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

/* Pyramid. */

size_t
lane_pyr_size(size_t n)
{
	size_t	cnt, total = 0;

	for (cnt = n; cnt > PYR_BLOCK; total += cnt)
		cnt = (cnt + PYR_BLOCK - 1) >> PYR_SHIFT;
	return total;
}

/* Sets pyr_levels, npyr and pyr_off (NULL without levels) from n. */
static void
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

static void
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
		l->cov.sums = xcalloc(1, sizeof *l->cov.sums);
		return;
	}
	if (!lane_is_sorted(l))
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
		lane_radix(&k, &kt, NULL, NULL, n);
		for (i = 0; i < n; i++)
			k[i] += (uint64_t)l->start[0];
		l->ends_sorted = (int64_t *)k;
		free(kt);

		coverage_build(&l->cov, l->start, l->end, n);
	} else {
		l->max_depth = 1;
		lane_cov_alias(l);
		coverage_sums(&l->cov);
	}
	lane_pyr_build(l);
}

/* A non-overlapping lane's coverage: its own events, sums per block. */
static void
lane_cov_alias(struct lane *l)
{
	l->cov.n = l->n;
	l->cov.start = l->start;
	l->cov.end = l->end;
	l->cov.owned = 0;
	l->cov.shift = COVERAGE_SHIFT;
}

size_t
lane_cov_nsums(size_t n, int overlaps, size_t cov_n)
{
	return overlaps ? cov_n + 1 : (n >> COVERAGE_SHIFT) + 1;
}

/* The root level of the implicit tree of n > 0 events: floor(log2(n)),
 * as lane_tree_build() returns it. */
static int
lane_tree_levels(size_t n)
{
	int	k = 0;

	while (n >> (k + 1) != 0)
		k++;
	return k;
}

int
lane_adopt(struct lane *l)
{
	size_t	n = l->n, i;

	/* The coverage arrays the caller gave belong to the lane now. */
	l->cov.owned = l->overlaps || l->cov.start != NULL ||
	    l->cov.end != NULL;
	l->cov.shift = l->overlaps ? 0 : COVERAGE_SHIFT;
	l->tree_levels = 0;
	if (l->cap != n || l->cov.sums == NULL || (n > 0 &&
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
		    l->cov.owned || l->cov.n != 0)
			return -1;
		lane_cov_alias(l);
		return 0;
	}
	if (!l->overlaps) {
		if (l->max_depth != 1 || l->depth != NULL ||
		    l->maxend != NULL || l->ends_sorted != NULL ||
		    l->cov.owned)
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

/* Queries. */

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

size_t
lane_overlap(const struct lane *l, int64_t t0, int64_t t1, uint32_t **buf,
    size_t *cap)
{
	struct lane_collect	c;
	size_t			z0, z1, p, lo;

	if (t1 <= t0 || l->n == 0)
		return 0;
	if (!l->overlaps)
		return lane_fill(lane_first_live(l, t0, 0), lane_lower(l, t1),
		    buf, cap);

	c.buf = buf;
	c.cap = cap;
	c.n = 0;
	lane_tree_visit(l, lane_lower(l, t1), t0, NULL, &c);

	/* The tree misses zero-length events at t0 (end == t0): splice. */
	lane_zero_at(l, t0, &z0, &z1);
	if (z0 < z1) {
		XGROW(*buf, *cap, c.n + (z1 - z0));
		lo = lbound_u32(*buf, c.n, (uint32_t)z0);
		memmove(*buf + lo + (z1 - z0), *buf + lo,
		    (c.n - lo) * sizeof **buf);
		for (p = z0; p < z1; p++)
			(*buf)[lo + p - z0] = (uint32_t)p;
		c.n += z1 - z0;
	}
	return c.n;
}

size_t
lane_count(const struct lane *l, int64_t t0, int64_t t1)
{
	size_t	lo, hi, z0, z1;

	if (t1 <= t0 || l->n == 0)
		return 0;
	hi = lane_lower(l, t1);
	if (!l->overlaps) {
		lo = lane_first_live(l, t0, 0);
		return hi > lo ? hi - lo : 0;
	}
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
	struct lane_collect	c;

	if (l->n == 0)
		return 0;
	if (!l->overlaps)
		return lane_fill(lane_first_live(l, t, 1), lane_upper(l, t),
		    buf, cap);
	c.buf = buf;
	c.cap = cap;
	c.n = 0;
	lane_tree_visit(l, lane_upper(l, t), t, NULL, &c);
	return c.n;
}

int64_t
lane_busy(const struct lane *l, int64_t t0, int64_t t1)
{
	return coverage_busy(&l->cov, t0, t1);
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

/* Coverage. */

void
coverage_free(struct coverage *c)
{
	if (c->owned) {
		free(c->start);
		free(c->end);
	}
	free(c->sums);
	memset(c, 0, sizeof *c);
}

size_t
coverage_nsums(const struct coverage *c)
{
	return (c->n >> c->shift) + 1;
}

void
coverage_sums(struct coverage *c)
{
	size_t	i, mask = ((size_t)1 << c->shift) - 1;
	int64_t	acc = 0;

	free(c->sums);
	c->sums = xreallocarray(NULL, coverage_nsums(c), sizeof *c->sums);
	c->sums[0] = 0;
	for (i = 0; i < c->n; i++) {
		acc += c->end[i] - c->start[i];
		if (((i + 1) & mask) == 0)
			c->sums[(i + 1) >> c->shift] = acc;
	}
}

/* Sizes an owned coverage's arrays to its n and fills sums[]. */
static void
coverage_finish(struct coverage *c)
{
	if (c->n == 0) {
		free(c->start);
		free(c->end);
		c->start = c->end = NULL;
	} else {
		c->start = xreallocarray(c->start, c->n, sizeof *c->start);
		c->end = xreallocarray(c->end, c->n, sizeof *c->end);
	}
	c->shift = 0;
	coverage_sums(c);
}

/* Adds [s, e) to an owned coverage under construction (s ascending). */
static inline void
coverage_add(struct coverage *c, int64_t s, int64_t e)
{
	if (c->n > 0 && s <= c->end[c->n - 1]) {
		if (e > c->end[c->n - 1])
			c->end[c->n - 1] = e;
		return;
	}
	if (e <= s)
		return;		/* empty and outside every segment */
	c->start[c->n] = s;
	c->end[c->n++] = e;
}

void
coverage_build(struct coverage *c, const int64_t *start, const int64_t *end,
    size_t n)
{
	size_t	i;

	memset(c, 0, sizeof *c);
	c->owned = 1;
	if (n > 0) {
		c->start = xreallocarray(NULL, n, sizeof *c->start);
		c->end = xreallocarray(NULL, n, sizeof *c->end);
	}
	for (i = 0; i < n; i++)
		coverage_add(c, start[i], end[i]);
	coverage_finish(c);
}

/* Heap entry of the k-way merge: the next segment of input src. */
struct coverage_head {
	int64_t		start;
	size_t		src, pos;
};

static void
coverage_sift(struct coverage_head *h, size_t nh, size_t i)
{
	struct coverage_head	x = h[i];
	size_t			c;

	for (; (c = 2 * i + 1) < nh; i = c) {
		if (c + 1 < nh && h[c + 1].start < h[c].start)
			c++;
		if (x.start <= h[c].start)
			break;
		h[i] = h[c];
	}
	h[i] = x;
}

void
coverage_union(struct coverage *out, const struct coverage *const *in,
    size_t nin)
{
	struct coverage_head	*h = NULL;
	const struct coverage	*c;
	size_t			 total = 0, nh = 0, i;

	memset(out, 0, sizeof *out);
	out->owned = 1;
	for (i = 0; i < nin; i++)
		total += in[i]->n;
	if (total > 0) {
		out->start = xreallocarray(NULL, total, sizeof *out->start);
		out->end = xreallocarray(NULL, total, sizeof *out->end);
		h = xreallocarray(NULL, nin, sizeof *h);
	}
	for (i = 0; i < nin; i++) {
		if (in[i]->n == 0)
			continue;
		h[nh].start = in[i]->start[0];
		h[nh].src = i;
		h[nh++].pos = 0;
	}
	for (i = nh / 2; i-- > 0; )
		coverage_sift(h, nh, i);
	while (nh > 0) {
		c = in[h[0].src];
		coverage_add(out, c->start[h[0].pos], c->end[h[0].pos]);
		if (++h[0].pos < c->n)
			h[0].start = c->start[h[0].pos];
		else
			h[0] = h[--nh];
		coverage_sift(h, nh, 0);
	}
	free(h);
	coverage_finish(out);
}

/* The sum sums[j >> shift] plus the segments from there up to j. */
static int64_t
coverage_prefix(const struct coverage *c, size_t j)
{
	size_t	k = j >> c->shift << c->shift;
	int64_t	b = c->sums[j >> c->shift];

	for (; k < j; k++)
		b += c->end[k] - c->start[k];
	return b;
}

int64_t
coverage_busy_before(const struct coverage *c, int64_t t)
{
	size_t	lo;
	int64_t	d;

	/* j = last segment with start <= t. */
	lo = lbound_i64_above(c->start, c->n, t);
	if (lo == 0)
		return 0;
	lo--;
	d = t - c->start[lo];
	if (d > c->end[lo] - c->start[lo])
		d = c->end[lo] - c->start[lo];
	return coverage_prefix(c, lo) + d;
}

int64_t
coverage_total(const struct coverage *c)
{
	return c->sums != NULL ? coverage_prefix(c, c->n) : 0;
}

int64_t
coverage_busy(const struct coverage *c, int64_t t0, int64_t t1)
{
	if (t1 <= t0 || c->n == 0)
		return 0;
	return coverage_busy_before(c, t1) - coverage_busy_before(c, t0);
}
