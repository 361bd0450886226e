/*
 * stats: count, total, min, max, mean, median, sample standard deviation and
 * percentiles over int64 samples, defined exactly as `nsys stats` defines
 * them (see stats.h and ../shared/docs/FORMATS.md section 2).
 *
 * The values are sorted first (median and percentiles need the order
 * anyway). Small arrays use insertion sort; large ones an LSD radix sort on
 * the sign-flipped 64-bit keys, one byte per pass, skipping the passes in
 * which every key has the same byte (durations rarely use the top bytes),
 * so sorting is O(n) for the sizes that matter. Sorted input is detected
 * in one pass and left alone.
 *
 * The total is accumulated in 128-bit integers where the compiler has them
 * and saturates to INT64_MIN/INT64_MAX when it does not fit; the mean comes
 * from the exact sum. The standard deviation is two-pass: deviations are
 * taken from the exact mean (integer quotient plus remainder/n) in long
 * double, so a pair like {2971823, 333015608} gives 233376198.5 exactly as
 * nsys prints it, and large values (1e15) keep their precision.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xmalloc.h"

#define STATS_SMALL	64	/* insertion sort below this */

void
stats_acc_init(struct stats_acc *a)
{
	memset(a, 0, sizeof *a);
}

void
stats_acc_free(struct stats_acc *a)
{
	free(a->v);
	memset(a, 0, sizeof *a);
}

void
stats_acc_reset(struct stats_acc *a)
{
	a->n = 0;
}

void
stats_acc_add(struct stats_acc *a, int64_t x)
{
	XGROW(a->v, a->cap, a->n + 1);
	a->v[a->n++] = x;
}

void
stats_acc_compute(struct stats_acc *a, struct stats *st)
{
	stats_compute(a->v, a->n, st);
}

static void
stats_isort(int64_t *v, size_t n)
{
	size_t	i, j;
	int64_t	x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * LSD radix sort, 8 passes of 8 bits over the key (x ^ sign bit) so that the
 * unsigned order of keys is the signed order of values. One read pass builds
 * all eight histograms; a pass whose byte is the same for every key is
 * skipped.
 */
static void
stats_radix(int64_t *v, size_t n)
{
	size_t		(*cnt)[256], pass, i, sum, c;
	uint64_t	*a, *b, *t, k;
	const uint64_t	 flip = (uint64_t)1 << 63;
	int		 swapped = 0;

	cnt = xcalloc(8, sizeof *cnt);
	for (i = 0; i < n; i++) {
		k = (uint64_t)v[i] ^ flip;
		for (pass = 0; pass < 8; pass++)
			cnt[pass][(k >> (8 * pass)) & 0xff]++;
	}
	a = (uint64_t *)v;
	b = xreallocarray(NULL, n, sizeof *b);
	for (i = 0; i < n; i++)
		a[i] ^= flip;
	for (pass = 0; pass < 8; pass++) {
		size_t	*h = cnt[pass];
		int	 shift = 8 * (int)pass;

		if (h[(a[0] >> shift) & 0xff] == n)
			continue;	/* every key has this byte */
		for (sum = 0, c = 0; c < 256; c++) {
			size_t tmp = h[c];
			h[c] = sum;
			sum += tmp;
		}
		for (i = 0; i < n; i++)
			b[h[(a[i] >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
		swapped = !swapped;
	}
	if (swapped) {
		/* a is the scratch buffer; b is v. */
		memcpy(b, a, n * sizeof *a);
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < n; i++)
		a[i] ^= flip;
	free(b);
	free(cnt);
}

void
stats_sort(int64_t *v, size_t n)
{
	size_t	i;

	if (n < 2)
		return;
	for (i = 1; i < n && v[i - 1] <= v[i]; i++)
		;
	if (i == n)
		return;		/* already sorted: callers often re-sort */
	if (n < STATS_SMALL)
		stats_isort(v, n);
	else
		stats_radix(v, n);
}

double
stats_percentile(const int64_t *s, size_t n, double p)
{
	long double	h, f;
	size_t		lo;

	if (n == 0)
		return 0;
	if (!(p > 0))		/* also NaN */
		return (double)s[0];
	if (p >= 100)
		return (double)s[n - 1];
	/* h = (n - 1) p, interpolate between floor(h) and floor(h)+1. */
	h = (long double)(n - 1) * (long double)p / 100.0L;
	lo = (size_t)h;
	if (lo >= n - 1)
		return (double)s[n - 1];
	f = h - (long double)lo;
	return (double)((long double)s[lo] +
	    f * ((long double)s[lo + 1] - (long double)s[lo]));
}

void
stats_compute(int64_t *v, size_t n, struct stats *st)
{
	long double	 mean, d, ss;
	size_t		 i;
#ifdef __SIZEOF_INT128__
	__int128	 sum = 0, q, r;
#else
	long double	 sum = 0;
#endif

	memset(st, 0, sizeof *st);
	if (n == 0)
		return;
	stats_sort(v, n);

	st->count = n;
	st->min = v[0];
	st->max = v[n - 1];
	for (i = 0; i < n; i++)
		sum += v[i];
#ifdef __SIZEOF_INT128__
	if (sum > INT64_MAX)
		st->total = INT64_MAX;
	else if (sum < INT64_MIN)
		st->total = INT64_MIN;
	else
		st->total = (int64_t)sum;
	/* Exact mean as q + r/n with |r| < n. */
	q = sum / (__int128)n;
	r = sum % (__int128)n;
	mean = (long double)q + (long double)r / (long double)n;
	ss = 0;
	for (i = 0; i < n; i++) {
		d = (long double)((__int128)v[i] - q) -
		    (long double)r / (long double)n;
		ss += d * d;
	}
#else
	if (sum > (long double)INT64_MAX)
		st->total = INT64_MAX;
	else if (sum < (long double)INT64_MIN)
		st->total = INT64_MIN;
	else
		st->total = (int64_t)sum;
	mean = sum / (long double)n;
	ss = 0;
	for (i = 0; i < n; i++) {
		d = (long double)v[i] - mean;
		ss += d * d;
	}
#endif
	st->mean = (double)mean;
	st->stddev = n > 1 ? (double)sqrtl(ss / (long double)(n - 1)) : 0;
	if (n % 2 == 1)
		st->median = (double)v[n / 2];
	else
		st->median = (double)(((long double)v[n / 2 - 1] +
		    (long double)v[n / 2]) / 2);
	st->p25 = stats_percentile(v, n, 25);
	st->p75 = stats_percentile(v, n, 75);
	st->p90 = stats_percentile(v, n, 90);
	st->p99 = stats_percentile(v, n, 99);
}
