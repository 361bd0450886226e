/*
 * lane_test: the lane index against brute force.
 *
 * Random lanes of three shapes (GPU-like: disjoint, touching, zero-length;
 * CPU-like: properly nested with marks and duplicates; irregular: partial
 * overlaps, repeated starts, negative times) are pushed in shuffled order,
 * finalized, and every query is compared with a linear scan over many
 * windows, including empty, inverted and out-of-span ones and windows
 * whose edges sit exactly on event boundaries. An index copied out and
 * handed back through lane_adopt() (the cache's path) must answer the same.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "model/lane.h"

#include "tsupport.h"

struct rng {
	uint64_t	s;
};

static uint64_t
rnd(struct rng *r)
{
	uint64_t	z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t
rnd_in(struct rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(r) % (uint64_t)(hi - lo + 1));
}

/* Events as generated, before the lane sorts them; id = push order. */
struct gen {
	size_t		 n, cap;
	int64_t		*s, *e;
};

static void
gen_add(struct gen *g, int64_t s, int64_t e)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 256;
		g->s = realloc(g->s, g->cap * sizeof *g->s);
		g->e = realloc(g->e, g->cap * sizeof *g->e);
		assert_non_null(g->s);
		assert_non_null(g->e);
	}
	g->s[g->n] = s;
	g->e[g->n++] = e;
}

static void
gen_free(struct gen *g)
{
	free(g->s);
	free(g->e);
	memset(g, 0, sizeof *g);
}

static void
gen_shuffle(struct gen *g, struct rng *r)
{
	size_t	i, j;
	int64_t	t;

	for (i = g->n; i > 1; i--) {
		j = rnd(r) % i;
		t = g->s[i - 1], g->s[i - 1] = g->s[j], g->s[j] = t;
		t = g->e[i - 1], g->e[i - 1] = g->e[j], g->e[j] = t;
	}
}

/* Pushes g into l; every field is derived from the id so it can be checked. */
static void
gen_push(const struct gen *g, struct lane *l)
{
	struct lane_event	ev;
	size_t			i;

	for (i = 0; i < g->n; i++) {
		ev.start = g->s[i];
		ev.end = g->e[i];
		ev.name = (uint32_t)i;
		ev.kind = (uint8_t)(i * 7);
		ev.flags = (uint8_t)(i >> 3);
		ev.rowid = (int64_t)i * 3 - 5;
		ev.corr = (uint32_t)i + 11;
		ev.aux = (uint32_t)i ^ 0x5a5a5a;
		lane_push(l, &ev);
	}
}

/* Disjoint events, some touching, some zero-length, negative times. */
static void
gen_gpu(struct gen *g, struct rng *r, size_t n, int64_t gapmax)
{
	int64_t	t = rnd_in(r, -5000, 5000), d = 1;
	size_t	i;

	for (i = 0; i < n; i++) {
		/* A mark where the next event starts would overlap it. */
		t += rnd(r) % 3 == 0 && d > 0 ? 0 : rnd_in(r, 1, gapmax);
		d = rnd(r) % 8 == 0 ? 0 : rnd_in(r, 1, 60);
		gen_add(g, t, t + d);
		if (d == 0 && rnd(r) % 4 == 0)
			gen_add(g, t, t);	/* duplicate mark */
		t += d;
	}
}

/* Properly nested ranges within [a, b) with marks and duplicates. */
static void
gen_nest(struct gen *g, struct rng *r, int64_t a, int64_t b, int lvl,
    size_t max)
{
	int64_t	t = a, s, e;

	while (t < b && g->n < max) {
		s = rnd_in(r, t, t + (b - t) / 3);
		e = rnd_in(r, s, b);
		if (rnd(r) % 6 == 0)
			e = s;			/* mark */
		gen_add(g, s, e);
		if (rnd(r) % 10 == 0)
			gen_add(g, s, e);	/* exact duplicate */
		if (e - s > 2 && lvl < 12)
			gen_nest(g, r, s, e, lvl + 1, max);
		t = e + (rnd(r) % 3 == 0 ? 0 : rnd_in(r, 1, 30));
	}
}

/*
 * Anything goes: partial overlaps, repeated starts, zero lengths; one event
 * in six is long (up to longmax).
 */
static void
gen_mess(struct gen *g, struct rng *r, size_t n, int64_t span,
    int64_t longmax)
{
	int64_t	s, d;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (i > 0 && rnd(r) % 5 == 0)
			s = g->s[rnd(r) % g->n];
		else
			s = rnd_in(r, -span, span);
		switch (rnd(r) % 6) {
		case 0:
			d = 0;
			break;
		case 1:
			d = rnd_in(r, 0, longmax);
			break;
		default:
			d = rnd_in(r, 1, span / 20 + 1);
			break;
		}
		gen_add(g, s, s + d);
	}
}

/* Brute force. */

static int
bf_match(int64_t s, int64_t e, int64_t t0, int64_t t1)
{
	if (t1 <= t0)
		return 0;
	return (s < t1 && e > t0) || (s == e && t0 <= s && s < t1);
}

static int64_t
bf_busy(const struct lane *l, int64_t t0, int64_t t1)
{
	int64_t	cs = 0, ce = 0, s, e, sum = 0;
	int	have = 0;
	size_t	i;

	if (t1 <= t0)
		return 0;
	for (i = 0; i < l->n; i++) {
		if (!(l->start[i] < t1 && l->end[i] > t0))
			continue;
		s = l->start[i] > t0 ? l->start[i] : t0;
		e = l->end[i] < t1 ? l->end[i] : t1;
		if (!have || s > ce) {
			if (have)
				sum += ce - cs;
			cs = s, ce = e, have = 1;
		} else if (e > ce)
			ce = e;
	}
	return sum + (have ? ce - cs : 0);
}

static int64_t
bf_dominant(const struct lane *l, int64_t t0, int64_t t1)
{
	int64_t	best = -1, bv = -1, v, s, e;
	size_t	i;

	for (i = 0; i < l->n; i++) {
		if (!bf_match(l->start[i], l->end[i], t0, t1))
			continue;
		s = l->start[i] > t0 ? l->start[i] : t0;
		e = l->end[i] < t1 ? l->end[i] : t1;
		v = e - s;
		if (v > bv)
			best = (int64_t)i, bv = v;
	}
	return best;
}

static int64_t
bf_argmax(const struct lane *l, size_t i0, size_t i1)
{
	int64_t	best = -1, bd = -1;
	size_t	i;

	for (i = i0; i < i1 && i < l->n; i++)
		if (l->end[i] - l->start[i] > bd)
			best = (int64_t)i, bd = l->end[i] - l->start[i];
	return best;
}

/* A window: random, on event boundaries, empty, inverted, or outside. */
static void
rand_window(struct rng *r, const struct lane *l, int64_t *t0, int64_t *t1)
{
	int64_t	lo = l->start[0] - 50, hi = l->start[l->n - 1], t;
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (l->end[i] > hi)
			hi = l->end[i];
	hi += 50;
	switch (rnd(r) % 8) {
	case 0:
		*t0 = rnd_in(r, lo, hi);
		*t1 = rnd_in(r, *t0, hi);
		break;
	case 1:
		i = rnd(r) % l->n;
		*t0 = rnd(r) % 2 ? l->start[i] : l->end[i];
		*t1 = *t0 + rnd_in(r, 0, 100);
		break;
	case 2:
		*t0 = l->start[rnd(r) % l->n];
		*t1 = l->end[rnd(r) % l->n];
		if (*t1 < *t0)
			t = *t0, *t0 = *t1, *t1 = t;
		break;
	case 3:
		*t0 = *t1 = rnd_in(r, lo, hi);
		break;
	case 4:
		*t1 = rnd_in(r, lo, hi);
		*t0 = *t1 + rnd_in(r, 1, 100);
		break;
	case 5:
		*t0 = rnd_in(r, lo - 1000, lo);
		*t1 = rnd_in(r, *t0, lo);
		break;
	case 6:
		*t0 = rnd_in(r, hi, hi + 1000);
		*t1 = rnd_in(r, *t0, hi + 2000);
		break;
	default:
		if (rnd(r) % 2) {
			*t0 = lo - rnd_in(r, 0, 10);
			*t1 = hi + rnd_in(r, 0, 10);
		} else {
			/* At the edges of "every event" (lane_whole()). */
			*t0 = l->start[0] - rnd_in(r, 0, 1);
			*t1 = l->start[l->n - 1] + rnd_in(r, 0, 1);
		}
		break;
	}
}

/* Sorted by (start, end desc), push order among equals, fields follow. */
static void
check_sorted(const struct lane *l, const struct gen *g)
{
	size_t		i;
	uint32_t	k;

	assert_int_equal(l->n, g->n);
	for (i = 0; i < l->n; i++) {
		k = l->name[i];
		assert_true(k < g->n);
		assert_int_equal(l->start[i], g->s[k]);
		assert_int_equal(l->end[i], g->e[k]);
		assert_int_equal(l->kind[i], (uint8_t)(k * 7));
		assert_int_equal(l->flags[i], (uint8_t)(k >> 3));
		assert_int_equal(lane_rowid(l, i), (int64_t)k * 3 - 5);
		assert_int_equal(l->corr[i], k + 11);
		assert_int_equal(l->aux[i], k ^ 0x5a5a5a);
		if (i == 0)
			continue;
		assert_true(l->start[i - 1] <= l->start[i]);
		if (l->start[i - 1] == l->start[i]) {
			assert_true(l->end[i - 1] >= l->end[i]);
			if (l->end[i - 1] == l->end[i])
				assert_true(l->name[i - 1] < l->name[i]);
		}
	}
}

/* Index invariants that do not need a window. */
static void
check_index(const struct lane *l)
{
	int64_t		maxend = INT64_MIN, maxdur = 0;
	int		overlaps = 0;
	uint16_t	maxd = 0;
	size_t		i;

	for (i = 0; i < l->n; i++) {
		if (l->start[i] < maxend)
			overlaps = 1;
		if (l->end[i] > maxend)
			maxend = l->end[i];
		if (l->end[i] - l->start[i] > maxdur)
			maxdur = l->end[i] - l->start[i];
		if (l->depth[i] + 1 > maxd)
			maxd = l->depth[i] + 1;
	}
	assert_int_equal(l->overlaps, overlaps);
	assert_int_equal(l->maxdur, maxdur);
	assert_int_equal(l->max_depth, maxd);
	assert_int_equal(!l->cov.view, overlaps);
	assert_int_equal(l->cov.shift, overlaps ? 0 : ISET_SHIFT);
	assert_int_equal(iset_len(&l->cov), bf_busy(l, INT64_MIN / 4,
	    INT64_MAX / 4));
	if (overlaps)
		assert_int_equal(l->cov.pre[l->cov.n], iset_len(&l->cov));
	if (overlaps) {
		for (i = 1; i < l->n; i++)
			assert_true(l->ends_sorted[i - 1] <= l->ends_sorted[i]);
	} else {
		assert_ptr_equal(l->cov.start, l->start);
		assert_null(l->maxend);
	}
	for (i = 0; i < l->cov.n; i++) {
		assert_true(l->cov.start[i] <= l->cov.end[i]);
		if (i > 0)
			assert_true(l->cov.end[i - 1] <= l->cov.start[i]);
	}
}

/* Every query against brute force over nwin windows. */
static void
check_queries(const struct lane *l, struct rng *r, int nwin)
{
	uint32_t	*buf = NULL, *rbuf = NULL;
	size_t		 cap = 0, rcap = 0, k, i, j, i0, i1, lo;
	int64_t		 t0, t1;
	int		 w;

	for (w = 0; w < nwin; w++) {
		rand_window(r, l, &t0, &t1);

		k = lane_overlap(l, t0, t1, &buf, &cap);
		for (i = 0, j = 0; i < l->n; i++) {
			if (!bf_match(l->start[i], l->end[i], t0, t1))
				continue;
			assert_true(j < k);
			assert_int_equal(buf[j], i);
			j++;
		}
		assert_int_equal(j, k);
		assert_int_equal(lane_count(l, t0, t1), k);
		/* The same events as a range where the lane allows. */
		assert_int_equal(lane_overlap_range(l, t0, t1, &rbuf, &rcap,
		    &lo), k);
		/* A list only for overlapping events, and not when the
		 * window holds every event. */
		assert_int_equal(lo == LANE_LIST, l->overlaps &&
		    !(t1 > t0 && l->n > 0 && t0 < l->start[0] &&
		    t1 > l->start[l->n - 1]));
		for (j = 0; j < k; j++)
			assert_int_equal(lane_at(rbuf, lo, j), buf[j]);
		if (!l->overlaps) {
			assert_int_equal(lane_run(l, t0, t1, &i0), k);
			for (j = 0; j < k; j++)
				assert_int_equal(buf[j], i0 + j);
		}

		k = lane_stab(l, t0, &buf, &cap);
		for (i = 0, j = 0; i < l->n; i++) {
			if (!(l->start[i] <= t0 && t0 < l->end[i]))
				continue;
			assert_true(j < k);
			assert_int_equal(buf[j], i);
			j++;
		}
		assert_int_equal(j, k);

		for (i = 0; i < l->n && l->start[i] < t0; i++)
			;
		assert_int_equal(lane_lower(l, t0), i);

		assert_int_equal(lane_busy(l, t0, t1), bf_busy(l, t0, t1));
		assert_int_equal(iset_before(&l->cov, t1) -
		    iset_before(&l->cov, t0),
		    t1 > t0 ? bf_busy(l, t0, t1) : -bf_busy(l, t1, t0));
		assert_int_equal(lane_dominant(l, t0, t1),
		    bf_dominant(l, t0, t1));

		i0 = rnd(r) % (l->n + 1);
		i1 = rnd(r) % 3 == 0 ? i0 + rnd(r) % 200 :
		    i0 + rnd(r) % (l->n + 2 - i0);
		assert_int_equal(lane_argmax_dur(l, i0, i1),
		    bf_argmax(l, i0, i1));
	}
	free(buf);
	free(rbuf);
}

static void
run_lane(struct gen *g, struct rng *r, int nwin, int expect_overlaps)
{
	struct lane	l;

	lane_init(&l);
	gen_shuffle(g, r);
	gen_push(g, &l);
	lane_finalize(&l);
	check_sorted(&l, g);
	check_index(&l);
	if (expect_overlaps >= 0)
		assert_int_equal(l.overlaps, expect_overlaps);
	check_queries(&l, r, nwin);
	lane_free(&l);
}

static void
test_gpu_lanes(void **state)
{
	struct rng	r = { 1 };
	struct gen	g;
	size_t		sizes[] = { 1, 2, 3, 7, 64, 65, 130, 1000, 5000 };
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		memset(&g, 0, sizeof g);
		gen_gpu(&g, &r, sizes[i], 40);
		run_lane(&g, &r, 400, 0);
		gen_free(&g);
	}
}

static void
test_nested_lanes(void **state)
{
	struct rng	r = { 2 };
	struct gen	g;
	int		i;

	(void)state;
	for (i = 0; i < 12; i++) {
		memset(&g, 0, sizeof g);
		gen_nest(&g, &r, rnd_in(&r, -100000, 0), rnd_in(&r, 1, 100000),
		    0, 200 + (size_t)i * 300);
		run_lane(&g, &r, 300, -1);
		gen_free(&g);
	}
}

static void
test_messy_lanes(void **state)
{
	struct rng	r = { 3 };
	struct gen	g;
	size_t		sizes[] = { 2, 5, 17, 64, 200, 1000, 4000 };
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		memset(&g, 0, sizeof g);
		gen_mess(&g, &r, sizes[i], 1000 + (int64_t)sizes[i] * 5,
		    1000 + (int64_t)sizes[i] * 5);
		run_lane(&g, &r, 400, -1);
		gen_free(&g);
	}
}

/* Properly nested input: depth is the number of enclosing events. */
static void
test_nested_depth(void **state)
{
	struct rng	r = { 4 };
	struct gen	g;
	struct lane	l;
	size_t		i, j, enc;
	int		rep;

	(void)state;
	for (rep = 0; rep < 6; rep++) {
		memset(&g, 0, sizeof g);
		gen_nest(&g, &r, -50000, 50000, 0, 2000);
		lane_init(&l);
		gen_shuffle(&g, &r);
		gen_push(&g, &l);
		lane_finalize(&l);
		for (i = 0; i < l.n; i++) {
			enc = 0;
			for (j = 0; j < i; j++)
				if (l.start[j] <= l.start[i] &&
				    l.end[j] >= l.end[i] &&
				    l.end[j] > l.start[i])
					enc++;
			assert_int_equal(l.depth[i], enc);
		}
		lane_free(&l);
		gen_free(&g);
	}
}

/* Depth rules on a hand-made lane, and no two events share a level. */
static void
test_partial_depth(void **state)
{
	static const int64_t ev[][3] = {	/* start, end, depth */
		{ 0, 100, 0 },
		{ 10, 20, 1 },
		{ 15, 30, 2 },		/* partial over [10,20): next free */
		{ 16, 18, 3 },		/* nested in the innermost */
		{ 22, 40, 1 },		/* partial: level 1 is free again */
		{ 101, 110, 0 },
		{ 105, 120, 1 },
		{ 111, 112, 2 },	/* nested in [105,120) */
		{ 130, 130, 0 },
		{ 200, 210, 0 },
		{ 205, 220, 1 },	/* partial: level 1 is free */
		{ 212, 220, 2 },	/* nested, same end: still nested */
	};
	struct rng	 r = { 5 };
	struct gen	 g;
	struct lane	 l;
	int64_t		*last;
	size_t		 i, n = sizeof ev / sizeof ev[0];
	int		 rep;

	(void)state;
	lane_init(&l);
	memset(&g, 0, sizeof g);
	for (i = 0; i < n; i++)
		gen_add(&g, ev[i][0], ev[i][1]);
	gen_push(&g, &l);
	lane_finalize(&l);
	assert_int_equal(l.n, n);
	for (i = 0; i < n; i++)
		assert_int_equal(l.depth[i], ev[i][2]);
	assert_int_equal(l.max_depth, 4);
	lane_free(&l);
	gen_free(&g);

	/* Random irregular lanes: a level never holds overlapping events. */
	for (rep = 0; rep < 8; rep++) {
		memset(&g, 0, sizeof g);
		gen_mess(&g, &r, 3000, 20000, 20000);
		lane_init(&l);
		gen_push(&g, &l);
		lane_finalize(&l);
		last = calloc(l.max_depth, sizeof *last);
		assert_non_null(last);
		for (i = 0; i < l.max_depth; i++)
			last[i] = INT64_MIN;
		for (i = 0; i < l.n; i++) {
			assert_true(l.depth[i] < l.max_depth);
			assert_true(last[l.depth[i]] <= l.start[i]);
			last[l.depth[i]] = l.end[i];
		}
		free(last);
		lane_free(&l);
		gen_free(&g);
	}
}

/*
 * The depth rule, restated as a plain simulation (linear level search, no
 * segment tree), on lanes deep enough that lane.c switches to its tree.
 */
static void
test_depth_rule(void **state)
{
	struct rng	 r = { 10 };
	struct gen	 g;
	struct lane	 l;
	int64_t		*last, s, e;
	size_t		 i, h, d, nlev, deep;
	int		 rep;

	(void)state;
	for (rep = 0; rep < 6; rep++) {
		memset(&g, 0, sizeof g);
		gen_mess(&g, &r, 4000, 20000, rep % 2 ? 20000 : 3000);
		lane_init(&l);
		gen_push(&g, &l);
		lane_finalize(&l);
		last = calloc(l.n + 1, sizeof *last);
		assert_non_null(last);
		h = nlev = deep = 0;
		for (i = 0; i < l.n; i++) {
			s = l.start[i];
			e = l.end[i];
			while (h > 0 && last[h - 1] <= s)
				h--;
			if (h == 0 || last[h - 1] >= e)
				d = h;
			else
				for (d = 0; d < h && last[d] > s; d++)
					;
			if (d == nlev)
				nlev++;
			last[d] = e;
			if (d >= h)
				h = d + 1;
			if (h > 40)
				deep++;
			assert_int_equal(l.depth[i], d);
		}
		assert_int_equal(l.max_depth, nlev);
		if (rep % 2)
			assert_true(deep > 100);
		free(last);
		lane_free(&l);
		gen_free(&g);
	}
}

/* A staircase deeper than uint16_t: the tree path and the overflow level. */
static void
test_depth_overflow(void **state)
{
	struct lane		l;
	struct lane_event	ev;
	uint32_t		*buf = NULL;
	size_t			 cap = 0, i, n = 70000;

	(void)state;
	lane_init(&l);
	memset(&ev, 0, sizeof ev);
	for (i = n; i-- > 0; ) {
		ev.start = (int64_t)i;
		ev.end = (int64_t)i + 100000;
		ev.name = (uint32_t)i;
		lane_push(&l, &ev);
	}
	lane_finalize(&l);
	assert_int_equal(l.name[0], 0);
	assert_int_equal(l.depth[0], 0);
	assert_int_equal(l.depth[1000], 1000);
	assert_int_equal(l.depth[65534], 65534);
	assert_int_equal(l.depth[n - 1], 65534);
	assert_int_equal(l.max_depth, 65535);
	assert_int_equal(lane_count(&l, 50, 51), 51);
	assert_int_equal(lane_overlap(&l, 50, 51, &buf, &cap), 51);
	assert_int_equal(lane_stab(&l, 100000, &buf, &cap), n - 1);
	assert_int_equal(buf[0], 1);
	assert_int_equal(lane_count(&l, 100000 + 60000, 200000), n - 60001);
	assert_int_equal(lane_busy(&l, -5, 1000000), n - 1 + 100000);
	assert_int_equal(lane_dominant(&l, 0, 1000000), 0);
	assert_int_equal(lane_dominant(&l, 5, 100003), 3);
	free(buf);
	lane_free(&l);
}

/* Zero-length events: the window rule and the stab rule. */
static void
test_zero_length(void **state)
{
	struct lane		 l;
	struct lane_event	 ev;
	uint32_t		*buf = NULL;
	size_t			 cap = 0;
	int			 ov;

	(void)state;
	for (ov = 0; ov < 2; ov++) {
		lane_init(&l);
		memset(&ev, 0, sizeof ev);
		ev.start = ev.end = 10;
		lane_push(&l, &ev);
		ev.start = 0, ev.end = 10;
		lane_push(&l, &ev);
		ev.start = ev.end = 20;
		lane_push(&l, &ev);
		if (ov) {
			ev.start = -5, ev.end = 30;	/* forces the tree */
			lane_push(&l, &ev);
		}
		lane_finalize(&l);
		assert_int_equal(l.overlaps, ov);
		/* [10, 11) holds the mark at 10, not [0, 10). */
		assert_int_equal(lane_count(&l, 10, 11), 1 + ov);
		assert_int_equal(lane_overlap(&l, 10, 11, &buf, &cap), 1 + ov);
		assert_int_equal(l.start[buf[ov]], 10);
		assert_int_equal(l.end[buf[ov]], 10);
		/* Half-open: [9, 10) does not hold the mark at 10. */
		assert_int_equal(lane_count(&l, 9, 10), 1 + ov);
		assert_int_equal(lane_count(&l, 20, 20), 0);
		assert_int_equal(lane_stab(&l, 20, &buf, &cap), ov);
		assert_int_equal(lane_stab(&l, 10, &buf, &cap), ov);
		assert_int_equal(lane_dominant(&l, 20, 21), ov ? 0 : 2);
		assert_int_equal(lane_busy(&l, 10, 20), ov ? 10 : 0);
		lane_free(&l);
	}
	free(buf);
}

static void
test_empty(void **state)
{
	struct lane	 l;
	uint32_t	*buf = NULL;
	size_t		 cap = 0;

	(void)state;
	lane_init(&l);
	lane_finalize(&l);
	lane_finalize(&l);
	assert_int_equal(l.max_depth, 0);
	assert_int_equal(lane_lower(&l, 5), 0);
	assert_int_equal(lane_overlap(&l, 0, 10, &buf, &cap), 0);
	assert_int_equal(lane_count(&l, 0, 10), 0);
	assert_int_equal(lane_stab(&l, 0, &buf, &cap), 0);
	assert_int_equal(lane_busy(&l, 0, 10), 0);
	assert_int_equal(lane_dominant(&l, 0, 10), -1);
	assert_int_equal(lane_argmax_dur(&l, 0, 10), -1);
	lane_free(&l);
	free(buf);
}

/* Finalizing twice (the cache path) changes nothing and leaks nothing. */
static void
test_idempotent(void **state)
{
	struct rng	 r = { 6 };
	struct gen	 g;
	struct lane	 l;
	int64_t		*s, *busy;
	uint16_t	*depth;
	uint32_t	*name, *pyr;
	size_t		 n, ncov, npyr;
	int		 shape;

	(void)state;
	for (shape = 0; shape < 2; shape++) {
		memset(&g, 0, sizeof g);
		if (shape == 0)
			gen_gpu(&g, &r, 3000, 40);
		else
			gen_mess(&g, &r, 3000, 30000, 30000);
		gen_shuffle(&g, &r);
		lane_init(&l);
		gen_push(&g, &l);
		lane_finalize(&l);
		n = l.n;
		ncov = iset_npre(&l.cov) - 1;
		npyr = l.npyr;
		assert_true(npyr > 0);
		s = malloc(n * sizeof *s);
		name = malloc(n * sizeof *name);
		depth = malloc(n * sizeof *depth);
		busy = malloc((ncov + 1) * sizeof *busy);
		pyr = malloc(npyr * sizeof *pyr);
		memcpy(s, l.start, n * sizeof *s);
		memcpy(name, l.name, n * sizeof *name);
		memcpy(depth, l.depth, n * sizeof *depth);
		memcpy(busy, l.cov.pre, (ncov + 1) * sizeof *busy);
		memcpy(pyr, l.pyr, npyr * sizeof *pyr);

		lane_finalize(&l);
		lane_shrink(&l);
		lane_finalize(&l);
		assert_int_equal(l.n, n);
		assert_int_equal(iset_npre(&l.cov) - 1, ncov);
		assert_int_equal(l.npyr, npyr);
		assert_memory_equal(s, l.start, n * sizeof *s);
		assert_memory_equal(name, l.name, n * sizeof *name);
		assert_memory_equal(depth, l.depth, n * sizeof *depth);
		assert_memory_equal(busy, l.cov.pre,
		    (ncov + 1) * sizeof *busy);
		assert_memory_equal(pyr, l.pyr, npyr * sizeof *pyr);
		check_index(&l);
		check_queries(&l, &r, 50);
		free(s);
		free(name);
		free(depth);
		free(busy);
		free(pyr);
		lane_free(&l);
		gen_free(&g);
	}
}

/* A sorted-looking input with equal starts in the wrong end order. */
static void
test_sort_ties(void **state)
{
	struct gen	g;
	struct lane	l;
	struct rng	r = { 7 };
	int		i;

	(void)state;
	memset(&g, 0, sizeof g);
	for (i = 0; i < 3000; i++)
		gen_add(&g, (int64_t)(i / 100) - 10, rnd_in(&r, 0, 40));
	for (i = 0; i < 3000; i++)
		if (g.e[i] < g.s[i])
			g.e[i] = g.s[i] + g.e[i] % 3;
	lane_init(&l);
	gen_push(&g, &l);
	lane_finalize(&l);
	check_sorted(&l, &g);
	check_index(&l);
	lane_free(&l);
	gen_free(&g);

	/* Extreme keys exercise every radix byte and the sign flip. */
	memset(&g, 0, sizeof g);
	gen_add(&g, INT64_MAX / 2, INT64_MAX / 2);
	gen_add(&g, -INT64_MAX / 2, -INT64_MAX / 2 + 1);
	gen_add(&g, -1, 0);
	gen_add(&g, 0, 0);
	gen_add(&g, 255, 300);
	gen_add(&g, 256, 256);
	gen_add(&g, -256, -200);
	gen_add(&g, INT64_MAX, INT64_MAX);
	gen_add(&g, INT64_MIN, INT64_MIN);
	gen_add(&g, INT64_MIN, INT64_MIN + 5);
	lane_init(&l);
	gen_push(&g, &l);
	lane_finalize(&l);
	check_sorted(&l, &g);
	assert_int_equal(l.start[0], INT64_MIN);
	assert_int_equal(l.end[0], INT64_MIN + 5);
	assert_int_equal(l.start[2], -INT64_MAX / 2);
	assert_int_equal(l.start[8], INT64_MAX / 2);
	assert_int_equal(l.start[9], INT64_MAX);
	assert_int_equal(l.ends_sorted[0], INT64_MIN);
	assert_int_equal(l.ends_sorted[9], INT64_MAX);
	lane_free(&l);
	gen_free(&g);
}

/* Union of several coverages against the union of all their events. */
static void
test_iset_union_lanes(void **state)
{
	struct rng		 r = { 8 };
	struct gen		 g[6];
	struct lane		 ls[6], all;
	const struct iset	*in[7];
	struct iset		 u, e, ref;
	size_t			 i, j, k;
	int64_t			 t0, t1;
	int			 sc;

	(void)state;
	iset_init(&e);
	iset_init(&u);
	iset_init(&ref);
	iset_build_sorted(&e, NULL, NULL, 0);
	iset_index(&e);
	/* Sparse interleaved GPU-like streams, then a mix with overlaps. */
	for (sc = 0; sc < 2; sc++) {
		lane_init(&all);
		for (i = 0; i < 6; i++) {
			memset(&g[i], 0, sizeof g[i]);
			if (sc == 0 || i % 2 == 0)
				gen_gpu(&g[i], &r, 300 + i * 200,
				    sc == 0 ? 3000 : 40);
			else
				gen_mess(&g[i], &r, 400, 8000, 8000);
			lane_init(&ls[i]);
			gen_push(&g[i], &ls[i]);
			gen_push(&g[i], &all);
			lane_finalize(&ls[i]);
			in[i] = &ls[i].cov;
		}
		in[6] = &e;
		lane_finalize(&all);
		iset_union_many(&u, in, 7);
		iset_index(&u);
		assert_int_equal(u.view, 0);
		assert_int_equal(u.pre[u.n], iset_len(&all.cov));
		assert_int_equal(u.shift, 0);
		for (k = 0; k < u.n; k++) {
			assert_true(u.start[k] < u.end[k]);
			if (k > 0)
				assert_true(u.end[k - 1] < u.start[k]);
		}
		if (sc == 0)
			assert_true(u.n > 1000);
		for (j = 0; j < 2000; j++) {
			rand_window(&r, &all, &t0, &t1);
			assert_int_equal(iset_measure(&u, t0, t1),
			    bf_busy(&all, t0, t1));
		}
		/* The union is canonical: the segments iset_build_sorted
		 * makes. */
		iset_build_sorted(&ref, all.start, all.end, all.n);
		assert_int_equal(u.n, ref.n);
		assert_memory_equal(u.start, ref.start, u.n * sizeof *u.start);
		assert_memory_equal(u.end, ref.end, u.n * sizeof *u.end);
		iset_free(&ref);
		iset_free(&u);

		if (sc == 1) {
			iset_union_many(&u, in + 1, 1);
			iset_index(&u);
			assert_int_equal(ls[1].overlaps, 1);
			assert_int_equal(u.n, ls[1].cov.n);
			assert_memory_equal(u.start, ls[1].cov.start,
			    u.n * sizeof *u.start);
			assert_memory_equal(u.pre, ls[1].cov.pre,
			    (u.n + 1) * sizeof *u.pre);
			iset_free(&u);
		}
		for (i = 0; i < 6; i++) {
			lane_free(&ls[i]);
			gen_free(&g[i]);
		}
		lane_free(&all);
	}

	iset_union_many(&u, in, 0);
	iset_index(&u);
	assert_int_equal(u.n, 0);
	assert_int_equal(iset_measure(&u, -10, 10), 0);
	assert_int_equal(iset_before(&u, 10), 0);
	iset_free(&u);
	iset_union_many(&u, in + 6, 1);
	assert_int_equal(u.n, 0);
	iset_free(&u);
	iset_free(&e);
}

/* A lane with every array of src's index copied, as the cache restores
 * it; lane_adopt() is left to the caller. */
static void
copy_restored(struct lane *d, const struct lane *s)
{
	size_t	n = s->n, nb = iset_npre(&s->cov);

	lane_init(d);
	d->n = d->cap = n;
#define DUP(f, cnt) do {						\
	if (s->f != NULL && (cnt) > 0) {				\
		d->f = malloc((cnt) * sizeof *s->f);			\
		assert_non_null(d->f);					\
		memcpy(d->f, s->f, (cnt) * sizeof *s->f);		\
	}								\
} while (0)
	DUP(start, n);
	DUP(end, n);
	DUP(name, n);
	DUP(kind, n);
	DUP(flags, n);
	DUP(rowid32, n);
	DUP(rowid64, n);
	DUP(corr, n);
	DUP(aux, n);
	d->overlaps = s->overlaps;
	d->max_depth = s->max_depth;
	d->maxdur = s->maxdur;
	DUP(pyr, s->npyr);
	DUP(cov.pre, nb);
	if (s->overlaps) {
		DUP(depth, n);
		DUP(maxend, n);
		DUP(ends_sorted, n);
		d->cov.n = s->cov.n;
		DUP(cov.start, s->cov.n);
		DUP(cov.end, s->cov.n);
	}
#undef DUP
}

/* The restored index answers exactly like the built one; forged ones that
 * would read out of bounds are refused. */
static void
test_adopt(void **state)
{
	struct rng	r = { 77 };
	struct gen	g;
	struct lane	l, a;
	int		shape;

	(void)state;
	for (shape = 0; shape < 4; shape++) {
		memset(&g, 0, sizeof g);
		if (shape == 0)
			gen_gpu(&g, &r, 5000, 40);
		else if (shape == 1)
			gen_mess(&g, &r, 5000, 30000, 30000);
		else if (shape == 2)
			gen_gpu(&g, &r, 3, 40);
		lane_init(&l);
		gen_shuffle(&g, &r);
		gen_push(&g, &l);
		lane_finalize(&l);
		copy_restored(&a, &l);
		assert_int_equal(lane_cov_nsums(l.n, l.overlaps, l.cov.n),
		    iset_npre(&l.cov));
		assert_int_equal(lane_pyr_size(l.n), l.npyr);
		assert_int_equal(lane_adopt(&a), 0);
		assert_int_equal(a.tree_levels, l.tree_levels);
		assert_int_equal(a.pyr_levels, l.pyr_levels);
		assert_int_equal(a.cov.n, l.cov.n);
		assert_int_equal(a.cov.view, l.cov.view);
		assert_int_equal(a.cov.shift, l.cov.shift);
		if (l.n > 0) {
			assert_memory_equal(a.depth, l.depth,
			    l.n * sizeof *l.depth);
			check_index(&a);
			check_queries(&a, &r, 100);
		}
		if (l.pyr_levels > 0)
			assert_memory_equal(a.pyr_off, l.pyr_off,
			    (l.pyr_levels + 1) * sizeof *l.pyr_off);
		lane_free(&a);

		/* Forgeries. */
		if (l.npyr > 0) {
			copy_restored(&a, &l);
			a.pyr[l.npyr - 1] = (uint32_t)l.n;
			assert_int_equal(lane_adopt(&a), -1);
			lane_free(&a);
		}
		if (l.overlaps) {
			copy_restored(&a, &l);
			a.depth[l.n / 2] = l.max_depth;
			assert_int_equal(lane_adopt(&a), -1);
			lane_free(&a);
			copy_restored(&a, &l);
			free(a.maxend);
			a.maxend = NULL;
			assert_int_equal(lane_adopt(&a), -1);
			lane_free(&a);
		}
		if (l.n > 0) {
			copy_restored(&a, &l);
			a.overlaps = !l.overlaps;
			assert_int_equal(lane_adopt(&a), -1);
			lane_free(&a);
			copy_restored(&a, &l);
			a.max_depth = 0;
			assert_int_equal(lane_adopt(&a), -1);
			lane_free(&a);
		}
		lane_free(&l);
		gen_free(&g);
	}
}

/* Row ids stay 32-bit while they fit, and widen (keeping every one) when
 * one does not; sorting and shrinking keep them with their events. */
static void
test_rowid_width(void **state)
{
	struct lane		l;
	struct lane_event	ev;
	int64_t			want[6] = { 7, -1, 4294967294LL, 0, -1,
				    4294967295LL };
	size_t			i, j;

	(void)state;
	for (j = 0; j < 2; j++) {
		lane_init(&l);
		memset(&ev, 0, sizeof ev);
		for (i = 0; i < 6; i++) {
			ev.start = 100 - (int64_t)i;	/* reversed: sorted */
			ev.end = ev.start + 1;
			ev.name = (uint32_t)i;
			ev.rowid = j == 0 && i == 5 ? 12 : want[i];
			lane_push(&l, &ev);
			if (j == 1 && i == 5)
				assert_non_null(l.rowid64);
			else
				assert_null(l.rowid64);
		}
		lane_finalize(&l);
		for (i = 0; i < 6; i++) {
			if (j == 0 && l.name[i] == 5)
				assert_int_equal(lane_rowid(&l, i), 12);
			else
				assert_int_equal(lane_rowid(&l, i),
				    want[l.name[i]]);
		}
		assert_true((l.rowid32 == NULL) == (j == 1));
		lane_free(&l);
	}
	lane_init(&l);
	ev.rowid = -5;		/* negative other than -1: 64 bits */
	lane_push(&l, &ev);
	assert_non_null(l.rowid64);
	assert_int_equal(lane_rowid(&l, 0), -5);
	lane_free(&l);
}

/* Block sums: a lane of every length around the block size. */
static void
test_cov_blocks(void **state)
{
	struct rng	r = { 5 };
	struct gen	g;
	struct lane	l;
	size_t		n;

	(void)state;
	for (n = 1; n < 3 * 64 + 3; n += (n < 70 || n > 125) ? 1 : 29) {
		memset(&g, 0, sizeof g);
		gen_gpu(&g, &r, n, 10);
		lane_init(&l);
		gen_push(&g, &l);
		lane_finalize(&l);
		if (!l.overlaps) {
			assert_int_equal(iset_npre(&l.cov),
			    (l.n >> ISET_SHIFT) + 1);
			check_index(&l);
			check_queries(&l, &r, 40);
		}
		lane_free(&l);
		gen_free(&g);
	}
}

/* CPU seconds of this process: unlike the wall clock, not stretched by a
 * busy machine. */
static double
cpu_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A million events: nothing may be quadratic (a quadratic sort of a
 * million events takes hours; the bound is far above a linear-log one
 * even under sanitizers, and is CPU time, so a loaded machine does not
 * trip it). */
static void
test_large(void **state)
{
	struct rng	 r = { 9 };
	struct gen	 g;
	struct lane	 l;
	uint32_t	*buf = NULL;
	size_t		 cap = 0, i, k;
	int64_t		 t0, t1;
	double		 t;
	int		 shape;

	(void)state;
	for (shape = 0; shape < 2; shape++) {
		memset(&g, 0, sizeof g);
		if (shape == 0)
			gen_gpu(&g, &r, 1000000, 40);
		else
			gen_mess(&g, &r, 1000000, 100000000, 100000);
		gen_shuffle(&g, &r);
		lane_init(&l);
		lane_reserve(&l, g.n);
		gen_push(&g, &l);
		t = cpu_now();
		lane_finalize(&l);
		t = cpu_now() - t;
		assert_true(t < 30.0);
		for (i = 1; i < l.n; i++)
			assert_true(l.start[i - 1] <= l.start[i]);
		for (i = 0; i < 2000; i++) {
			t0 = l.start[rnd(&r) % l.n];
			t1 = t0 + rnd_in(&r, 0, 100000);
			k = lane_overlap(&l, t0, t1, &buf, &cap);
			assert_int_equal(lane_count(&l, t0, t1), k);
		}
		for (i = 0; i < 3; i++) {
			rand_window(&r, &l, &t0, &t1);
			assert_int_equal(lane_busy(&l, t0, t1),
			    bf_busy(&l, t0, t1));
			assert_int_equal(lane_dominant(&l, t0, t1),
			    bf_dominant(&l, t0, t1));
		}
		lane_free(&l);
		gen_free(&g);
	}
	free(buf);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_empty),
	cmocka_unit_test(test_zero_length),
	cmocka_unit_test(test_sort_ties),
	cmocka_unit_test(test_gpu_lanes),
	cmocka_unit_test(test_nested_lanes),
	cmocka_unit_test(test_messy_lanes),
	cmocka_unit_test(test_nested_depth),
	cmocka_unit_test(test_partial_depth),
	cmocka_unit_test(test_depth_rule),
	cmocka_unit_test(test_depth_overflow),
	cmocka_unit_test(test_idempotent),
	cmocka_unit_test(test_iset_union_lanes),
	cmocka_unit_test(test_adopt),
	cmocka_unit_test(test_rowid_width),
	cmocka_unit_test(test_cov_blocks),
	cmocka_unit_test(test_large))
