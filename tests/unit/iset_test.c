/*
 * iset_test: the interval-set algebra against a brute force over a small
 * coordinate range (one flag per unit of time), on fixed cases worked out
 * by hand and on random sets, checking the invariant (sorted, disjoint,
 * non-adjacent, non-empty segments) of every result.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/iset.h"
#include "tsupport.h"

#define U	160		/* coordinates: [-U/2, U/2) */
#define LO	(-(U / 2))

static uint64_t rng_state = 0x243F6A8885A308D3ULL;

/* Calls fn (iset_init() or iset_free()) on each of the n sets given
 * after n. */
static void
sets(void (*fn)(struct iset *), int n, ...)
{
	va_list	ap;

	va_start(ap, n);
	while (n-- > 0)
		fn(va_arg(ap, struct iset *));
	va_end(ap);
}

static void
check_invariant(const struct iset *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++) {
		assert_true(a->start[i] < a->end[i]);
		if (i > 0)
			assert_true(a->end[i - 1] < a->start[i]);
	}
}

/* Flags per unit of [LO, LO + U). */
static void
to_bits(const struct iset *a, uint8_t *bits)
{
	size_t	i;
	int64_t	t;

	memset(bits, 0, U);
	for (i = 0; i < a->n; i++)
		for (t = a->start[i]; t < a->end[i]; t++) {
			assert_true(t >= LO && t < LO + U);
			bits[t - LO] = 1;
		}
}

static int64_t
count_bits(const uint8_t *bits, int64_t t0, int64_t t1)
{
	int64_t	t, n = 0;

	for (t = t0; t < t1; t++)
		if (t >= LO && t < LO + U)
			n += bits[t - LO];
	return n;
}

static void
assert_bits(const struct iset *a, const uint8_t *want)
{
	uint8_t	got[U];

	check_invariant(a);
	to_bits(a, got);
	assert_memory_equal(got, want, U);
	assert_int_equal(iset_len(a), count_bits(want, LO, LO + U));
}

/*
 * Up to k (at most 32) random intervals in random order into s and e,
 * some empty or reversed, and the flags of the units they cover; returns
 * how many.
 */
static int
random_intervals(int64_t *s, int64_t *e, uint8_t *bits, int k)
{
	int	i, n = (int)ts_rand(&rng_state, (uint64_t)(k + 1));
	int64_t	t;

	memset(bits, 0, U);
	for (i = 0; i < n; i++) {
		s[i] = LO + (int64_t)ts_rand(&rng_state, U);
		/* Some empty. */
		e[i] = s[i] + (int64_t)ts_rand(&rng_state, 24) - 2;
		if (e[i] > LO + U)
			e[i] = LO + U;
		for (t = s[i]; t < e[i]; t++)
			bits[t - LO] = 1;
	}
	return n;
}

/* A random set of up to k intervals added in random order. */
static void
random_set(struct iset *a, uint8_t *bits, int k)
{
	int64_t	s[32], e[32];
	int	n = random_intervals(s, e, bits, k);

	iset_build(a, s, e, (size_t)n);
}

/*
 * iset_build_clip(): random intervals in any order (some empty, some
 * reversed), clipped to random windows, against the flags of the units
 * that lie in an interval and in the window.
 */
static void
test_build_clip(void **state)
{
	struct iset	out;
	int64_t		s[32], e[32], t0, t1, t;
	uint8_t		want[U];
	int		r, i, n;

	(void)state;
	iset_init(&out);
	for (r = 0; r < 300; r++) {
		n = random_intervals(s, e, want, 16);
		t0 = LO + (int64_t)ts_rand(&rng_state, U) - 8;
		t1 = t0 + (int64_t)ts_rand(&rng_state, U / 2) - 4;
		for (t = LO; t < LO + U; t++)
			if (t < t0 || t >= t1)
				want[t - LO] = 0;
		iset_build_clip(&out, s, e, (size_t)n, t0, t1);
		assert_bits(&out, want);
		for (i = 0; i < (int)out.n; i++)
			assert_true(out.start[i] >= t0 && out.end[i] <= t1);
	}
	iset_free(&out);
}

static void
test_add_merges(void **state)
{
	struct iset	a;

	(void)state;
	iset_init(&a);
	iset_add(&a, 0, 5);
	iset_add(&a, 5, 9);		/* touching: merged */
	iset_add(&a, 3, 4);		/* inside */
	iset_add(&a, 12, 12);		/* empty: ignored */
	iset_add(&a, 12, 15);
	iset_add(&a, 14, 20);		/* overlapping */
	iset_add(&a, 30, 29);		/* inverted: ignored */
	assert_int_equal(a.n, 2);
	assert_int_equal(a.start[0], 0);
	assert_int_equal(a.end[0], 9);
	assert_int_equal(a.start[1], 12);
	assert_int_equal(a.end[1], 20);
	assert_int_equal(iset_len(&a), 17);
	iset_free(&a);
}

static void
test_fixed_ops(void **state)
{
	int64_t		as[] = { -10, 0, 20 }, ae[] = { -5, 10, 30 };
	int64_t		bs[] = { 5, -7, 25 }, be[] = { 22, -6, 26 };
	struct iset	a, b, o;

	(void)state;
	sets(iset_init, 3, &a, &b, &o);
	iset_build(&a, as, ae, 3);	/* [-10,-5) [0,10) [20,30) */
	iset_build(&b, bs, be, 3);	/* [-7,-6) [5,22) [25,26) */
	iset_union(&o, &a, &b);		/* [-10,-5) [0,30) */
	assert_int_equal(o.n, 2);
	assert_int_equal(o.start[1], 0);
	assert_int_equal(o.end[1], 30);
	iset_intersect(&o, &a, &b);	/* [-7,-6) [5,10) [20,22) [25,26) */
	assert_int_equal(o.n, 4);
	assert_int_equal(iset_len(&o), 1 + 5 + 2 + 1);
	assert_int_equal(iset_intersect_len(&a, &b), 9);
	iset_diff(&o, &a, &b);	/* [-10,-7) [-6,-5) [0,5) [22,25) [26,30) */
	assert_int_equal(o.n, 5);
	assert_int_equal(iset_len(&o), 3 + 1 + 5 + 3 + 4);
	assert_int_equal(iset_diff_len(&a, &b), 16);
	assert_int_equal(iset_diff_len(&b, &a), 17 + 1 + 1 - 9);
	iset_clip(&o, &a, -6, 25);	/* [-6,-5) [0,10) [20,25) */
	assert_int_equal(o.n, 3);
	assert_int_equal(o.start[0], -6);
	assert_int_equal(o.end[2], 25);
	iset_index(&a);
	assert_int_equal(iset_measure(&a, -8, 22), 3 + 10 + 2);
	assert_int_equal(iset_measure(&a, 10, 20), 0);
	assert_int_equal(iset_measure(&a, 5, 5), 0);
	sets(iset_free, 3, &a, &b, &o);
}

static void
test_view_and_copy(void **state)
{
	int64_t		s[] = { 1, 5 }, e[] = { 3, 8 };
	struct iset	v, c;

	(void)state;
	iset_view(&v, s, e, 2, 0);
	iset_init(&c);
	iset_copy(&c, &v);
	assert_int_equal(c.n, 2);
	assert_int_equal(iset_len(&v), 5);
	iset_add(&c, 8, 10);		/* touching the last: merged */
	assert_int_equal(c.n, 2);
	assert_int_equal(c.end[1], 10);
	assert_int_equal(e[1], 8);	/* the view's arrays are untouched */
	iset_free(&v);			/* frees nothing it borrowed */
	assert_int_equal(s[0], 1);
	iset_free(&c);
}

/* Empty sets: every query answers 0, every builder keeps nothing. */
static void
test_empty(void **state)
{
	struct iset		 a, b, o;
	const struct iset	*in[2];

	(void)state;
	sets(iset_init, 3, &a, &b, &o);
	assert_int_equal(iset_len(&a), 0);
	assert_int_equal(iset_measure(&a, INT64_MIN, INT64_MAX), 0);
	assert_int_equal(iset_before(&a, 0), 0);
	iset_index(&a);
	assert_int_equal(iset_npre(&a), 1);
	assert_int_equal(a.pre[0], 0);
	assert_int_equal(iset_measure(&a, INT64_MIN, INT64_MAX), 0);
	assert_int_equal(iset_before(&a, INT64_MAX), 0);
	iset_build_sorted(&o, NULL, NULL, 0);
	assert_int_equal(o.n, 0);
	assert_null(o.start);
	in[0] = &a;
	in[1] = &b;
	iset_union_many(&o, in, 2);
	assert_int_equal(o.n, 0);
	iset_union_many(&o, in, 0);
	assert_int_equal(o.n, 0);
	iset_intersect(&o, &a, &b);
	assert_int_equal(o.n, 0);
	iset_diff(&o, &a, &b);
	assert_int_equal(o.n, 0);
	assert_int_equal(iset_intersect_len(&a, &b), 0);
	sets(iset_free, 3, &a, &b, &o);
}

/* Touching, nested and zero-length intervals, built sorted and merged. */
static void
test_touch_nest_zero(void **state)
{
	/* [0,5) [5,9) touch; [10,20) holds [12,14) and [19,20); [25,25)
	 * and [30,30) are empty; [30,31) starts where an empty one sits. */
	int64_t			 s[] = { 0, 5, 10, 12, 19, 25, 30, 30 };
	int64_t			 e[] = { 5, 9, 20, 14, 20, 25, 30, 31 };
	int64_t			 s2[] = { 9, 20, 31 }, e2[] = { 10, 20, 40 };
	struct iset		 a, b, o;
	const struct iset	*in[3];

	(void)state;
	sets(iset_init, 3, &a, &b, &o);
	iset_build_sorted(&a, s, e, 8);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.start[0], 0);
	assert_int_equal(a.end[0], 9);
	assert_int_equal(a.start[1], 10);
	assert_int_equal(a.end[1], 20);
	assert_int_equal(a.start[2], 30);
	assert_int_equal(a.end[2], 31);
	assert_int_equal(a.cap, 3);		/* exactly what is kept */
	assert_int_equal(iset_len(&a), 20);
	/* Same as unordered iset_build(). */
	iset_build(&o, s, e, 8);
	assert_int_equal(o.n, 3);
	assert_memory_equal(o.start, a.start, 3 * sizeof *a.start);
	assert_memory_equal(o.end, a.end, 3 * sizeof *a.end);
	/* The gaps [9,10) and [20,30): b fills them, touching both sides. */
	iset_build_sorted(&b, s2, e2, 3);
	assert_int_equal(b.n, 2);		/* [20,20) dropped */
	in[0] = &a;
	in[1] = &b;
	in[2] = &a;			/* a set twice: no change */
	iset_union_many(&o, in, 3);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.start[0], 0);
	assert_int_equal(o.end[0], 20);
	assert_int_equal(o.start[1], 30);
	assert_int_equal(o.end[1], 40);
	assert_int_equal(iset_intersect_len(&a, &b), 0);
	/* Measures on the edges, with and without prefix sums. */
	assert_int_equal(iset_measure(&a, 9, 10), 0);
	assert_int_equal(iset_measure(&a, 8, 11), 2);
	assert_int_equal(iset_measure(&a, 5, 5), 0);
	assert_int_equal(iset_measure(&a, 7, 3), 0);
	assert_int_equal(iset_before(&a, 15), 14);
	iset_index(&a);
	assert_int_equal(iset_measure(&a, 9, 10), 0);
	assert_int_equal(iset_measure(&a, 8, 11), 2);
	assert_int_equal(iset_before(&a, 15), 14);
	assert_int_equal(iset_before(&a, 31), 20);
	assert_int_equal(iset_before(&a, 100), 20);
	sets(iset_free, 3, &a, &b, &o);
}

/* Coordinates at the int64 limits: no overflow in the queries. */
static void
test_extremes(void **state)
{
	int64_t		 s[] = { INT64_MIN, -1, INT64_MAX - 10 };
	int64_t		 e[] = { INT64_MIN + 10, 1, INT64_MAX };
	struct iset	 a, c;

	(void)state;
	sets(iset_init, 2, &a, &c);
	iset_build_sorted(&a, s, e, 3);
	assert_int_equal(a.n, 3);
	assert_int_equal(iset_len(&a), 22);
	assert_int_equal(iset_measure(&a, INT64_MIN, INT64_MAX), 22);
	assert_int_equal(iset_measure(&a, INT64_MIN, INT64_MIN + 4), 4);
	assert_int_equal(iset_measure(&a, INT64_MAX - 3, INT64_MAX), 3);
	assert_int_equal(iset_measure(&a, 0, INT64_MAX), 11);
	iset_index(&a);
	assert_int_equal(iset_len(&a), 22);
	assert_int_equal(iset_measure(&a, INT64_MIN, INT64_MAX), 22);
	assert_int_equal(iset_measure(&a, INT64_MIN, INT64_MIN + 4), 4);
	assert_int_equal(iset_measure(&a, INT64_MAX - 3, INT64_MAX), 3);
	assert_int_equal(iset_before(&a, INT64_MIN), 0);
	assert_int_equal(iset_before(&a, INT64_MAX), 22);
	iset_clip(&c, &a, -5, 5);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.start[0], -1);
	assert_int_equal(c.end[0], 1);
	sets(iset_free, 2, &a, &c);
}

/*
 * Sparse prefix sums (shift > 0) on a view with touching and empty
 * segments, as a lane's own events are: every window agrees with the
 * dense sums of the canonical set.
 */
static void
test_shift_view(void **state)
{
	int64_t		 s[300], e[300], t0, t1;
	struct iset	 v, c;
	size_t		 i;
	int64_t		 t = -1000;

	(void)state;
	for (i = 0; i < 300; i++) {
		s[i] = t;
		e[i] = t + (int64_t)(i % 3 == 0 ? 0 : i % 7);
		t = e[i] + (i % 5 == 0 ? 0 : 2);
	}
	iset_view(&v, s, e, 300, 6);
	iset_index(&v);
	assert_int_equal(iset_npre(&v), (300 >> 6) + 1);
	iset_init(&c);
	iset_build_sorted(&c, s, e, 300);
	assert_true(c.n < 300);
	iset_index(&c);
	assert_int_equal(iset_len(&v), iset_len(&c));
	for (t0 = -1010; t0 < t + 10; t0 += 7)
		for (t1 = t0 - 1; t1 < t + 10; t1 += 13)
			assert_int_equal(iset_measure(&v, t0, t1),
			    iset_measure(&c, t0, t1));
	iset_free(&v);			/* frees its sums only */
	assert_int_equal(s[0], -1000);
	iset_free(&c);
}

static void
test_random_vs_bits(void **state)
{
	struct iset	 a, b, o, many[5];
	const struct iset *in[5];
	uint8_t		 ba[U], bb[U], bw[U], bm[5][U];
	int		 iter, k, n;
	int64_t		 t0, t1, t;

	(void)state;
	sets(iset_init, 3, &a, &b, &o);
	for (k = 0; k < 5; k++)
		iset_init(&many[k]);
	for (iter = 0; iter < 3000; iter++) {
		random_set(&a, ba, 8);
		random_set(&b, bb, 8);
		assert_bits(&a, ba);
		assert_bits(&b, bb);

		for (k = 0; k < U; k++)
			bw[k] = ba[k] | bb[k];
		iset_union(&o, &a, &b);
		assert_bits(&o, bw);

		for (k = 0; k < U; k++)
			bw[k] = ba[k] & bb[k];
		iset_intersect(&o, &a, &b);
		assert_bits(&o, bw);
		assert_int_equal(iset_intersect_len(&a, &b),
		    count_bits(bw, LO, LO + U));

		for (k = 0; k < U; k++)
			bw[k] = ba[k] & !bb[k];
		iset_diff(&o, &a, &b);
		assert_bits(&o, bw);
		assert_int_equal(iset_diff_len(&a, &b),
		    count_bits(bw, LO, LO + U));

		t0 = LO + (int64_t)ts_rand(&rng_state, U) - 5;
		t1 = t0 + (int64_t)ts_rand(&rng_state, 60) - 10;
		memset(bw, 0, U);
		for (t = t0; t < t1; t++)
			if (t >= LO && t < LO + U)
				bw[t - LO] = ba[t - LO];
		iset_clip(&o, &a, t0, t1);
		assert_bits(&o, bw);
		assert_int_equal(iset_measure(&a, t0, t1),
		    count_bits(ba, t0, t1));
		iset_index(&a);
		assert_int_equal(iset_measure(&a, t0, t1),
		    count_bits(ba, t0, t1));
		assert_int_equal(iset_len(&a), count_bits(ba, LO, LO + U));

		n = 1 + (int)ts_rand(&rng_state, 5);
		memset(bw, 0, U);
		for (k = 0; k < n; k++) {
			random_set(&many[k], bm[k], 4);
			in[k] = &many[k];
			for (t = 0; t < U; t++)
				bw[t] |= bm[k][t];
		}
		iset_union_many(&o, in, (size_t)n);
		assert_bits(&o, bw);
	}
	iset_union_many(&o, in, 0);
	assert_int_equal(o.n, 0);
	sets(iset_free, 3, &a, &b, &o);
	for (k = 0; k < 5; k++)
		iset_free(&many[k]);
}

/*
 * iset_union_many() skips the runs of an input that the segment being
 * grown covers: long runs (past a galloping step or several), inputs that
 * cover each other in turn, and views with touching and empty segments,
 * against a fold of iset_union().
 */
enum { RUN_MAX = 300 };

static void
test_union_many_runs(void **state)
{
	static int64_t	 vs[5][RUN_MAX], ve[5][RUN_MAX];
	struct iset	 in[5], o, acc, tmp;
	const struct iset *pin[5];
	int64_t		 t, d;
	size_t		 n, i;
	int		 iter, k, nin;

	(void)state;
	sets(iset_init, 3, &o, &acc, &tmp);
	for (iter = 0; iter < 400; iter++) {
		nin = 1 + (int)ts_rand(&rng_state, 5);
		iset_clear(&acc);
		for (k = 0; k < nin; k++) {
			/* Dense short segments or sparse long ones. */
			int dense = ts_rand(&rng_state, 2) == 0;
			n = 1 + ts_rand(&rng_state, RUN_MAX - 1);
			t = (int64_t)ts_rand(&rng_state, 50);
			for (i = 0; i < n; i++) {
				d = (int64_t)ts_rand(&rng_state,
				    dense ? 3 : 400);
				vs[k][i] = t;
				ve[k][i] = t + d;
				t += d + (int64_t)ts_rand(&rng_state,
				    dense ? 3 : 60);
			}
			iset_view(&in[k], vs[k], ve[k], n, 0);
			pin[k] = &in[k];
			iset_union(&tmp, &acc, &in[k]);
			iset_copy(&acc, &tmp);
		}
		iset_union_many(&o, pin, (size_t)nin);
		assert_int_equal(o.n, acc.n);
		for (i = 0; i < o.n; i++) {
			assert_int_equal(o.start[i], acc.start[i]);
			assert_int_equal(o.end[i], acc.end[i]);
		}
		for (k = 0; k < nin; k++)
			iset_free(&in[k]);
	}
	sets(iset_free, 3, &o, &acc, &tmp);
}

/*
 * iset_measure_at() answers as iset_measure() for short and long windows
 * on walks that go forward in small and large steps, stand still, and
 * step back (a new lane's walk, an end before the last one), from before
 * the first segment to after the last, over indexed sets of both
 * granularities and one without prefix sums.
 */
static void
test_measure_at(void **state)
{
	static int64_t	 vs[RUN_MAX], ve[RUN_MAX];
	struct iset	 a;
	int64_t		 t, d, t0, t1;
	size_t		 n, i, at0, at1;
	int		 iter, q, shift;

	(void)state;
	for (iter = 0; iter < 300; iter++) {
		n = ts_rand(&rng_state, RUN_MAX);
		t = (int64_t)ts_rand(&rng_state, 50);
		for (i = 0; i < n; i++) {
			d = 1 + (int64_t)ts_rand(&rng_state, 40);
			vs[i] = t;
			ve[i] = t + d;
			t += d + (int64_t)ts_rand(&rng_state, 30);
		}
		shift = iter % 3 == 0 ? 0 : iter % 3 == 1 ? 2 : -1;
		iset_view(&a, vs, ve, n, shift < 0 ? 0 : shift);
		if (shift >= 0)
			iset_index(&a);
		at0 = at1 = 0;
		t0 = -20;
		for (q = 0; q < 400; q++) {
			switch (ts_rand(&rng_state, 8)) {
			case 0:
				t0 -= (int64_t)ts_rand(&rng_state, 500);
				break;
			case 1:
				t0 += (int64_t)ts_rand(&rng_state, 2000);
				break;
			case 2:
				break;
			default:
				t0 += (int64_t)ts_rand(&rng_state, 40);
			}
			/* Short windows add their few segments up, long
			 * ones read prefix sums. */
			t1 = t0 + (int64_t)ts_rand(&rng_state,
			    q % 4 == 0 ? 3000 : 300) - 20;
			assert_int_equal(iset_measure_at(&a, t0, t1, &at0,
			    &at1), iset_measure(&a, t0, t1));
		}
		iset_free(&a);
	}
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_measure_at),
	cmocka_unit_test(test_build_clip),
	cmocka_unit_test(test_add_merges),
	cmocka_unit_test(test_fixed_ops),
	cmocka_unit_test(test_view_and_copy),
	cmocka_unit_test(test_random_vs_bits),
	cmocka_unit_test(test_empty),
	cmocka_unit_test(test_touch_nest_zero),
	cmocka_unit_test(test_extremes),
	cmocka_unit_test(test_shift_view),
	cmocka_unit_test(test_union_many_runs))
