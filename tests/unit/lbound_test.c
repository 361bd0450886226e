/*
 * lbound_test: the binary searches against a linear scan over random
 * sorted arrays with many duplicates, every key from below the first to
 * above the last (extremes included), empty and one-element arrays, and
 * lbound_if() over a sub-range with a predicate through another array;
 * lbound_i64_from() along walks of non-decreasing keys.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/lbound.h"
#include "util/sort.h"

#include "tsupport.h"

static size_t
lin_i64(const int64_t *a, size_t n, int64_t key, int above)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (above ? a[i] > key : a[i] >= key)
			break;
	return i;
}

static void
test_i64(void **state)
{
	static const int64_t	ext[] = { INT64_MIN, INT64_MIN + 1, -1, 0, 1,
				    INT64_MAX - 1, INT64_MAX };
	int64_t			a[64], key;
	size_t			n, i, e, round, lo;

	(void)state;
	srand(7);
	assert_int_equal(lbound_i64(NULL, 0, 5), 0);
	assert_int_equal(lbound_i64_above(NULL, 0, 5), 0);
	/* An empty array may be NULL; from its end nothing moves. */
	assert_int_equal(lbound_i64_from(NULL, 0, 0, 5), 0);
	a[0] = 1;
	assert_int_equal(lbound_i64_from(a, 1, 1, 5), 1);
	for (round = 0; round < 2000; round++) {
		n = (size_t)rand() % 64;
		for (i = 0; i < n; i++)
			a[i] = round % 5 == 0 ? ext[rand() % 7] :
			    (int64_t)(rand() % 40) - 20;
		qsort(a, n, sizeof *a, sort_cmp_i64);
		for (key = -22; key <= 22; key++) {
			assert_int_equal(lbound_i64(a, n, key),
			    lin_i64(a, n, key, 0));
			assert_int_equal(lbound_i64_above(a, n, key),
			    lin_i64(a, n, key, 1));
		}
		/* A walk over non-decreasing keys, from the last answer. */
		for (key = -22, lo = 0; key <= 22; key += rand() % 4) {
			lo = lbound_i64_from(a, n, lo, key);
			assert_int_equal(lo, lin_i64(a, n, key, 0));
		}
		for (e = 0, lo = 0; e < 7; e++) {
			lo = lbound_i64_from(a, n, lo, ext[e]);
			assert_int_equal(lo, lin_i64(a, n, ext[e], 0));
		}
		for (e = 0; e < 7; e++) {
			assert_int_equal(lbound_i64(a, n, ext[e]),
			    lin_i64(a, n, ext[e], 0));
			assert_int_equal(lbound_i64_above(a, n, ext[e]),
			    lin_i64(a, n, ext[e], 1));
		}
	}
}

static void
test_u32(void **state)
{
	uint32_t	a[48], key;
	size_t		n, i, j, round;

	(void)state;
	srand(11);
	for (round = 0; round < 2000; round++) {
		n = (size_t)rand() % 48;
		a[0] = round % 3 == 0 ? UINT32_MAX - 94 : 0;
		for (i = 1; i < n; i++)
			a[i] = a[i - 1] + (uint32_t)(rand() % 3);
		for (key = 0; key < 40; key++) {
			for (j = 0; j < n && a[j] < key; j++)
				;
			assert_int_equal(lbound_u32(a, n, key), j);
			for (j = 0; j < n && a[j] <= key; j++)
				;
			assert_int_equal(lbound_u32_above(a, n, key), j);
		}
		for (j = 0; j < n && a[j] < UINT32_MAX; j++)
			;
		assert_int_equal(lbound_u32(a, n, UINT32_MAX), j);
		for (j = 0; j < n && a[j] < UINT32_MAX - 40; j++)
			;
		assert_int_equal(lbound_u32(a, n, UINT32_MAX - 40), j);
		assert_int_equal(lbound_u32_above(a, n, UINT32_MAX), n);
	}
	a[0] = 3;
	assert_int_equal(lbound_u32(a, 1, 3), 0);
	assert_int_equal(lbound_u32_above(a, 1, 3), 1);
	assert_int_equal(lbound_u32(a, 1, 4), 1);
	assert_int_equal(lbound_u32_above(a, 1, 2), 0);
}

struct ind {
	const uint32_t	*order;		/* indices into key */
	const int64_t	*key;
	int64_t		 t;
};

static int
ind_below(const void *ctx, size_t i)
{
	const struct ind	*c = ctx;

	return c->key[c->order[i]] < c->t;
}

static void
test_if(void **state)
{
	/* key[order[i]] ascends: 1 2 2 5 8 8 8 9. */
	static const int64_t	key[] = { 8, 2, 9, 1, 8, 5, 2, 8 };
	static const uint32_t	order[] = { 3, 1, 6, 5, 0, 4, 7, 2 };
	struct ind		c = { order, key, 0 };
	size_t			lo, hi, i, want;

	(void)state;
	for (c.t = 0; c.t <= 10; c.t++) {
		for (lo = 0; lo <= 8; lo++) {
			for (hi = lo; hi <= 8; hi++) {
				for (want = lo; want < hi &&
				    key[order[want]] < c.t; want++)
					;
				assert_int_equal(lbound_if(lo, hi, ind_below,
				    &c), want);
			}
		}
	}
	for (i = 0; i < 8; i++)
		assert_true(i == 0 || key[order[i - 1]] <= key[order[i]]);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_i64),
	cmocka_unit_test(test_u32),
	cmocka_unit_test(test_if))
