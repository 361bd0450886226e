/*
 * stats_test: the nsys-stats aggregates against a brute-force reference
 * computed here with qsort and plain doubles, on fixed and random data.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/stats.h"
#include "util/sort.h"
#include "tsupport.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* Reference: qsort, double sums, R-7 percentile. */
static double
ref_pct(const int64_t *s, size_t n, double p)
{
	double	h, f;
	size_t	lo;

	if (n == 0)
		return 0;
	h = (double)(n - 1) * p / 100.0;
	lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return (double)s[n - 1];
	f = h - (double)lo;
	return (double)s[lo] + f * ((double)s[lo + 1] - (double)s[lo]);
}

static void
ref_stats(const int64_t *in, size_t n, struct stats *st, int64_t *sorted)
{
	double	sum = 0, mean, ss = 0;
	size_t	i;

	memset(st, 0, sizeof *st);
	memcpy(sorted, in, n * sizeof *in);
	qsort(sorted, n, sizeof *sorted, sort_cmp_i64);
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += (double)sorted[i];
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += ((double)sorted[i] - mean) * ((double)sorted[i] - mean);
	st->count = n;
	st->min = sorted[0];
	st->max = sorted[n - 1];
	st->mean = mean;
	st->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	st->median = n % 2 ? (double)sorted[n / 2] :
	    ((double)sorted[n / 2 - 1] + (double)sorted[n / 2]) / 2;
	st->p25 = ref_pct(sorted, n, 25);
	st->p75 = ref_pct(sorted, n, 75);
	st->p90 = ref_pct(sorted, n, 90);
	st->p99 = ref_pct(sorted, n, 99);
}

static void
assert_close(double got, double want)
{
	double	tol = 1e-9 * fabs(want) + 1e-6;

	if (fabs(got - want) > tol) {
		print_error("got %.17g, want %.17g\n", got, want);
		fail();
	}
}

/* Checks stats_compute and stats_sort on values against the reference. */
static void
check_against_ref(const int64_t *values, size_t n)
{
	int64_t		*a, *ref;
	struct stats	 got, want;
	uint64_t	 exact = 0;	/* wraps; the real sums fit */
	size_t		 i;

	a = malloc((n + 1) * sizeof *a);
	ref = malloc((n + 1) * sizeof *ref);
	memcpy(a, values, n * sizeof *a);
	ref_stats(values, n, &want, ref);
	stats_compute(a, n, &got);
	for (i = 0; i < n; i++)
		exact += (uint64_t)values[i];
	assert_memory_equal(a, ref, n * sizeof *a);
	assert_int_equal(got.count, n);
	assert_true((uint64_t)got.total == exact);
	assert_int_equal(got.min, want.min);
	assert_int_equal(got.max, want.max);
	assert_close(got.mean, want.mean);
	assert_close(got.median, want.median);
	assert_close(got.stddev, want.stddev);
	assert_close(got.p25, want.p25);
	assert_close(got.p75, want.p75);
	assert_close(got.p90, want.p90);
	assert_close(got.p99, want.p99);
	free(a);
	free(ref);
}

static void
test_nsys_pair(void **state)
{
	int64_t		v[2] = { 333015608, 2971823 };
	struct stats	st;

	(void)state;
	stats_compute(v, 2, &st);
	assert_int_equal(v[0], 2971823);	/* sorted in place */
	assert_int_equal(st.count, 2);
	assert_int_equal(st.total, 335987431);
	assert_int_equal(st.min, 2971823);
	assert_int_equal(st.max, 333015608);
	assert_true(fabs(st.stddev - 233376198.5) < 0.1);
	assert_true(fabs(st.median - 167993715.5) < 1e-6);
	assert_true(fabs(st.mean - 167993715.5) < 1e-6);
}

static void
test_empty_and_one(void **state)
{
	int64_t		v[1] = { -42 };
	struct stats	st;

	(void)state;
	memset(&st, 0xff, sizeof st);
	stats_compute(NULL, 0, &st);
	assert_int_equal(st.count, 0);
	assert_int_equal(st.total, 0);
	assert_int_equal(st.min, 0);
	assert_int_equal(st.max, 0);
	assert_true(st.mean == 0 && st.median == 0 && st.stddev == 0);
	assert_true(st.p99 == 0);
	assert_true(stats_percentile(NULL, 0, 50) == 0);

	stats_compute(v, 1, &st);
	assert_int_equal(st.count, 1);
	assert_int_equal(st.total, -42);
	assert_int_equal(st.min, -42);
	assert_int_equal(st.max, -42);
	assert_true(st.mean == -42 && st.median == -42);
	assert_true(st.stddev == 0);
	assert_true(st.p25 == -42 && st.p99 == -42);
}

static void
test_small_known(void **state)
{
	int64_t		v[5] = { 5, 1, 4, 2, 3 }, w[4] = { 10, 40, 20, 30 };
	struct stats	st;

	(void)state;
	stats_compute(v, 5, &st);
	assert_true(st.median == 3);
	assert_true(st.mean == 3);
	/* sample variance of 1..5 = 2.5 */
	assert_true(fabs(st.stddev - sqrt(2.5)) < 1e-12);
	assert_true(st.p25 == 2 && st.p75 == 4);
	assert_true(fabs(st.p90 - 4.6) < 1e-12);	/* 4 + 0.6 */
	stats_compute(w, 4, &st);
	assert_true(st.median == 25);
	assert_true(fabs(st.p25 - 17.5) < 1e-12);	/* h = 0.75 */
	assert_true(fabs(st.p75 - 32.5) < 1e-12);
	assert_true(stats_percentile(w, 4, 0) == 10);
	assert_true(stats_percentile(w, 4, 100) == 40);
	assert_true(stats_percentile(w, 4, -5) == 10);
	assert_true(stats_percentile(w, 4, 250) == 40);
	assert_true(fabs(stats_percentile(w, 4, 50) - st.median) < 1e-12);
}

static void
test_duplicates_and_negatives(void **state)
{
	int64_t	dup[7] = { 7, 7, 7, 7, 7, 7, 7 };
	int64_t	neg[6] = { -5, 3, -5, 0, -1000000000000LL, 12 };
	int64_t	mix[9] = { 0, -1, 1, INT32_MAX, INT32_MIN, 2, -2, 0, 0 };
	struct stats st;

	(void)state;
	check_against_ref(dup, 7);
	memcpy(dup, (int64_t[7]){ 7, 7, 7, 7, 7, 7, 7 }, sizeof dup);
	stats_compute(dup, 7, &st);
	assert_true(st.stddev == 0);		/* exactly, not 1e-9 */
	check_against_ref(neg, 6);
	check_against_ref(mix, 9);
}

static void
test_large_values(void **state)
{
	int64_t		v[1000];
	struct stats	st;
	size_t		i;

	(void)state;
	/* 1e15 + small noise: a naive one-pass variance loses it all. */
	for (i = 0; i < 1000; i++)
		v[i] = 1000000000000000LL + (int64_t)(i % 10);
	stats_compute(v, 1000, &st);
	/* each residue 0..9 appears 100 times: mean 4.5 above the base */
	assert_true(fabs(st.mean - 1000000000000004.5) < 0.5);
	/* sample variance = 100 * sum((k-4.5)^2) / 999 = 8250 / 999 */
	assert_true(fabs(st.stddev - sqrt(8250.0 / 999.0)) < 1e-9);
	assert_true(st.median == 1000000000000004.5);
	assert_int_equal(st.total, 1000000000000004500LL);
}

static void
test_total_saturates(void **state)
{
	int64_t		v[3] = { INT64_MAX, INT64_MAX, 5 };
	int64_t		w[2] = { INT64_MIN, INT64_MIN };
	struct stats	st;

	(void)state;
	stats_compute(v, 3, &st);
	assert_true(st.total == INT64_MAX);
	/* The mean comes from the exact sum, not the saturated total. */
	assert_true(fabs(st.mean / ((double)INT64_MAX * 2 / 3) - 1) < 1e-12);
	assert_true(st.max == INT64_MAX && st.min == 5);
	stats_compute(w, 2, &st);
	assert_true(st.total == INT64_MIN);
	assert_true(st.stddev == 0);
	assert_true(st.median == (double)INT64_MIN);
}

static void
test_random_sizes(void **state)
{
	static const size_t sizes[] = { 2, 3, 10, 63, 64, 65, 100, 1001,
	    4096, 100000 };
	int64_t		*v;
	size_t		 k, i, n;

	(void)state;
	v = malloc(100000 * sizeof *v);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		n = sizes[k];
		/* Durations: small positive. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, 5000000);
		check_against_ref(v, n);
		/* Signed, wide range, with duplicates. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, 2000001) - 1000000;
		check_against_ref(v, n);
		/* Large values around 1e15, both signs. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state,
			    2000000000000000ULL) - 1000000000000000LL;
		check_against_ref(v, n);
	}
	free(v);
}

static void
test_sort_full_range(void **state)
{
	size_t		 n = 50000, i;
	int64_t		*v, *r;

	(void)state;
	v = malloc(n * sizeof *v);
	r = malloc(n * sizeof *r);
	/* Full 64-bit keys: every radix pass is needed. */
	for (i = 0; i < n; i++)
		v[i] = (int64_t)ts_xorshift(&rng_state);
	v[0] = INT64_MIN;
	v[1] = INT64_MAX;
	v[2] = 0;
	v[3] = -1;
	memcpy(r, v, n * sizeof *v);
	qsort(r, n, sizeof *r, sort_cmp_i64);
	stats_sort(v, n);
	assert_memory_equal(v, r, n * sizeof *v);
	assert_true(v[0] == INT64_MIN && v[n - 1] == INT64_MAX);
	/* Already sorted and reverse sorted input. */
	stats_sort(v, n);
	assert_memory_equal(v, r, n * sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = r[n - 1 - i];
	stats_sort(v, n);
	assert_memory_equal(v, r, n * sizeof *v);
	/* An odd number of active passes (only byte 1 differs). */
	for (i = 0; i < n; i++)
		v[i] = (int64_t)((ts_xorshift(&rng_state) & 0xff) << 8);
	memcpy(r, v, n * sizeof *v);
	qsort(r, n, sizeof *r, sort_cmp_i64);
	stats_sort(v, n);
	assert_memory_equal(v, r, n * sizeof *v);
	free(v);
	free(r);
}

static void
test_acc(void **state)
{
	struct stats_acc	acc;
	struct stats		st;
	int			i;

	(void)state;
	stats_acc_init(&acc);
	stats_acc_compute(&acc, &st);
	assert_int_equal(st.count, 0);
	for (i = 100; i >= 1; i--)
		stats_acc_add(&acc, i);
	stats_acc_compute(&acc, &st);
	assert_int_equal(st.count, 100);
	assert_int_equal(st.total, 5050);
	assert_true(st.median == 50.5);
	assert_int_equal(acc.v[0], 1);
	assert_true(fabs(st.p99 - 99.01) < 1e-9);
	stats_acc_reset(&acc);
	assert_int_equal(acc.n, 0);
	stats_acc_add(&acc, 9);
	stats_acc_compute(&acc, &st);
	assert_int_equal(st.count, 1);
	assert_int_equal(st.total, 9);
	stats_acc_free(&acc);
	assert_null(acc.v);
	stats_acc_free(&acc);		/* twice is fine */
}

/*
 * A sample of values gives exactly what stats_compute() gives on them (the
 * same doubles, not merely close ones). Returns whether the sample went
 * wide.
 */
static int
check_sample(const int64_t *values, size_t n, struct stats_acc *scratch)
{
	struct stats_sample	 smp;
	struct stats		 got, want;
	int64_t			*a;
	size_t			 i;
	int			 wide;

	a = malloc((n + 1) * sizeof *a);
	memcpy(a, values, n * sizeof *a);
	stats_compute(a, n, &want);
	stats_sample_init(&smp);
	for (i = 0; i < n; i++)
		stats_sample_add(&smp, values[i]);
	assert_int_equal(smp.n, n);
	stats_sample_compute(&smp, &got, scratch);
	assert_memory_equal(&got, &want, sizeof got);
	wide = smp.w != NULL;
	/* The same values in their own order, not sorted. */
	memcpy(a, values, n * sizeof *a);
	stats_compute_any(a, n, &got, scratch);
	assert_memory_equal(&got, &want, sizeof got);
	/* Computing again gives the same (the sample is not consumed). */
	stats_sample_compute(&smp, &got, scratch);
	assert_memory_equal(&got, &want, sizeof got);
	stats_sample_free(&smp);
	assert_null(smp.d);
	assert_null(smp.w);
	free(a);
	return wide;
}

static void
test_sample(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 100000 };
	struct stats_acc	 scratch;
	int64_t			*v;
	size_t			 k, i, n;
	int			 wide;

	(void)state;
	stats_acc_init(&scratch);
	v = malloc(100000 * sizeof *v);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		n = sizes[k];
		/* Durations: narrow, one to three radix passes. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, 30000) + 3000;
		assert_false(check_sample(v, n, &scratch));
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, 2000000000) -
			    1000000000;
		assert_false(check_sample(v, n, &scratch));
		/* Around a large base, both sides of it, and sorted. */
		for (i = 0; i < n; i++)
			v[i] = 1000000000000000LL +
			    (int64_t)ts_rand(&rng_state, 4000001) - 2000000;
		assert_false(check_sample(v, n, &scratch));
		for (i = 0; i < n; i++)
			v[i] = (int64_t)i * 7 - 100;
		assert_false(check_sample(v, n, &scratch));
		/* Spread beyond int32 offsets: widens at the first such. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, 5000) +
			    (i == n / 2 ? 3000000000LL : 0);
		assert_int_equal(check_sample(v, n, &scratch), n > 1);
		/* Full-range values: wide from the first beyond 2^62. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_xorshift(&rng_state);
		wide = check_sample(v, n, &scratch);
		if (n > 1)
			assert_true(wide);
	}
	/* Offsets that fit only by wrapping around stay wide: x - base is
	 * 10 modulo 2^64 but not in fact. */
	v[0] = INT64_MAX - 5;
	v[1] = INT64_MIN + 4;
	v[2] = INT64_MAX;
	assert_true(check_sample(v, 3, &scratch));
	/* Narrow values lie in [-2^62, 2^62). */
	v[0] = ((int64_t)1 << 62) - 1;
	v[1] = v[0] - 1;
	assert_false(check_sample(v, 2, &scratch));
	v[1] = v[0] + 1;
	assert_true(check_sample(v, 2, &scratch));
	v[0] = -((int64_t)1 << 62);
	v[1] = v[0] + 1;
	assert_false(check_sample(v, 2, &scratch));
	v[1] = v[0] - 1;
	assert_true(check_sample(v, 2, &scratch));
	stats_acc_free(&scratch);
	free(v);
}

/*
 * The counting sort of a narrow sample (a histogram of a window from the
 * smallest value, the values above it sorted apart) against the plain
 * sort: dense ranges, a window's last value and the first above it, a few
 * far values above the bulk (kept apart), too many of them (the radix
 * sort then), negative values, and even and odd counts.
 */
static void
test_sample_counts(void **state)
{
	static const size_t sizes[] = { 64, 65, 999, 4096, 100001 };
	struct stats_acc	 scratch;
	int64_t			*v;
	size_t			 k, i, n, w;

	(void)state;
	stats_acc_init(&scratch);
	v = malloc(100001 * sizeof *v);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		n = sizes[k];
		w = 2 * n < (1 << 20) ? 2 * n : (1 << 20);
		/* Dense: every value in the window, many repeated. */
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, 50) + 7000;
		assert_false(check_sample(v, n, &scratch));
		for (i = 0; i < n; i++)
			v[i] = (int64_t)ts_rand(&rng_state, (uint32_t)w) -
			    500000;
		assert_false(check_sample(v, n, &scratch));
		/* The window's edges: min, min + w - 1, min + w. */
		for (i = 0; i < n; i++)
			v[i] = 100 + (int64_t)(i % 8 == 0 ? 0 : i % 8 == 1 ?
			    w - 1 : i % 8 == 2 ? w : ts_rand(&rng_state, w));
		assert_false(check_sample(v, n, &scratch));
		/* A bulk with a tail far above it: one in ten, then one
		 * in two (too many for the window). */
		for (i = 0; i < n; i++)
			v[i] = 2000 + (int64_t)ts_rand(&rng_state, 3000) +
			    (ts_rand(&rng_state, 10) == 0 ?
			    (int64_t)ts_rand(&rng_state, 2000000000) : 0);
		assert_false(check_sample(v, n, &scratch));
		for (i = 0; i < n; i++)
			v[i] = 2000 + (int64_t)ts_rand(&rng_state, 3000) +
			    (ts_rand(&rng_state, 2) == 0 ?
			    (int64_t)ts_rand(&rng_state, 2000000000) : 0);
		assert_false(check_sample(v, n, &scratch));
	}
	stats_acc_free(&scratch);
	free(v);
}

/*
 * The standard deviation from exact integer sums: closed forms, to the
 * last bits of a double, for a sample that takes the exact path and one
 * whose spread (2^33) takes the long double sum.
 */
static void
test_stddev_exact(void **state)
{
	static int64_t	v[100001];
	int64_t		w[2] = { 0, (int64_t)1 << 33 };
	struct stats	st;
	double		n = 100001, want;
	size_t		i, j;
	int64_t		t;

	(void)state;
	for (i = 0; i < 100001; i++)
		v[i] = 3000000000LL + (int64_t)i;
	for (i = 100000; i > 0; i--) {
		j = ts_rand(&rng_state, (uint32_t)i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
	stats_compute(v, 100001, &st);
	want = sqrt(n * (n + 1) / 12);	/* the variance of 0..n-1 */
	assert_true(fabs(st.stddev / want - 1) < 4e-16);
	assert_true(st.mean == 3000050000.0);
	stats_compute(w, 2, &st);
	want = sqrt(2.0) * (double)((int64_t)1 << 32);
	assert_true(fabs(st.stddev / want - 1) < 4e-16);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_nsys_pair),
	cmocka_unit_test(test_empty_and_one),
	cmocka_unit_test(test_small_known),
	cmocka_unit_test(test_duplicates_and_negatives),
	cmocka_unit_test(test_large_values),
	cmocka_unit_test(test_total_saturates),
	cmocka_unit_test(test_random_sizes),
	cmocka_unit_test(test_sort_full_range),
	cmocka_unit_test(test_acc),
	cmocka_unit_test(test_sample),
	cmocka_unit_test(test_sample_counts),
	cmocka_unit_test(test_stddev_exact))
