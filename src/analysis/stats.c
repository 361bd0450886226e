/*
 * stats: count, total, min, max, mean, median, sample standard deviation and
 * percentiles over int64 samples, defined exactly as `nsys stats` defines
 * them (see stats.h and ../shared/docs/FORMATS.md section 2).
 *
 * The values are sorted first (median and percentiles need the order).
 * Small arrays use insertion sort; large ones an LSD radix sort on the keys
 * v - min: 32-bit keys when the spread max - min fits (durations of one
 * kind nearly always do), else 64-bit ones, in digits of at most 11 bits
 * (2048 counters each), skipping the passes in which every key has the
 * same digit, so sorting is O(n) for the sizes that matter. The pass that
 * finds min and max also detects sorted input, which is left alone. The
 * 32-bit sort runs inside the values' own memory (its two halves), so it
 * allocates nothing.
 *
 * A stats_sample holds values as 32-bit offsets from its first value while
 * they fit: half the memory, and so half the page faults, of a stats_acc
 * for the verbs that keep millions of durations. Computing over it needs
 * no sort: stats-select.c finds the values at the ranks the statistics read
 * from a histogram of the offsets' top bits and sorts only the buckets
 * that hold them; the sums are exact, so the results are the same to the
 * bit as stats_compute()'s over the same values.
 *
 * The total is accumulated in 128-bit integers where the compiler has them
 * and saturates to INT64_MIN/INT64_MAX when it does not fit; the mean comes
 * from the exact sum (integer quotient plus remainder/n). The standard
 * deviation comes from the exact integer sum of (v - q)^2 for that
 * quotient q, so a pair like {2971823, 333015608} gives 233376198.5
 * exactly as nsys prints it, large values (1e15) keep their precision, and
 * the order of the values does not matter; where that sum could overflow
 * (a spread of 2^32 or more) the deviations from the exact mean are summed
 * in long double, in sorted order.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats-int.h"
#include "util/bigarr.h"
#include "util/xmalloc.h"

#define STATS_SMALL	64	/* insertion sort below this */
#define STATS_DIGIT	11	/* widest radix digit: 2048 counters */

static void	stats_finish(const int64_t *, size_t, struct stats *);

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
stats_acc_grow(struct stats_acc *a)
{
	XGROW(a->v, a->cap, a->n + 1);
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
 * The radix digits for keys below 2^bits: the fewest passes of at most
 * STATS_DIGIT bits, of equal width. Returns the number of passes.
 */
static int
stats_digits(uint64_t range, int *width)
{
	int	bits = 0, passes;

	while (bits < 64 && (range >> bits) != 0)
		bits++;
	if (bits == 0)
		bits = 1;	/* (callers sort only spread values) */
	passes = (bits + STATS_DIGIT - 1) / STATS_DIGIT;
	*width = (bits + passes - 1) / passes;
	return passes;
}

/*
 * Prefix sums of the histograms of the passes that move something: a pass
 * whose digit is the same for every key is dropped. Returns the number of
 * passes kept; pass[] lists them in order.
 */
static int
stats_prefix(size_t (*cnt)[1 << STATS_DIGIT], int passes, int width,
    size_t n, int *pass)
{
	size_t	sum, tmp, c;
	int	p, kept = 0;

	for (p = 0; p < passes; p++) {
		for (c = 0; c < ((size_t)1 << width); c++)
			if (cnt[p][c] != 0)
				break;
		if (cnt[p][c] == n)
			continue;	/* every key has this digit */
		for (sum = 0, c = 0; c < ((size_t)1 << width); c++) {
			tmp = cnt[p][c];
			cnt[p][c] = sum;
			sum += tmp;
		}
		pass[kept++] = p;
	}
	return kept;
}

/*
 * The histograms of the digits of n 32-bit keys (one loop per number of
 * passes, so each key costs a fixed run of increments).
 */
static void
stats_hist32(const uint32_t *a, size_t n, size_t (*cnt)[1 << STATS_DIGIT],
    int passes, int width)
{
	uint32_t	mask = ((uint32_t)1 << width) - 1, k;
	size_t		i;
	int		w2 = 2 * width;

	switch (passes) {
	case 1:
		for (i = 0; i < n; i++)
			cnt[0][a[i]]++;
		break;
	case 2:
		for (i = 0; i < n; i++) {
			k = a[i];
			cnt[0][k & mask]++;
			cnt[1][k >> width]++;
		}
		break;
	default:
		for (i = 0; i < n; i++) {
			k = a[i];
			cnt[0][k & mask]++;
			cnt[1][(k >> width) & mask]++;
			cnt[2][k >> w2]++;
		}
		break;
	}
}

/*
 * The passes of an LSD radix sort on 32-bit keys held in the lower half of
 * ws (n int64 slots), with cnt the histograms of their digits: ws's two
 * halves hold the keys and the pass buffer, so the sort allocates nothing.
 * The last step widens the sorted keys into the values min + key, in ws:
 * downwards when they lie in the lower half and upwards from the upper
 * one, so no key is overwritten before it is read. (memcpy: the memory is
 * read and written as two types.)
 */
static void
stats_radix32_passes(int64_t *ws, size_t n, int64_t min,
    size_t (*cnt)[1 << STATS_DIGIT], int passes, int width)
{
	uint32_t	*a = (uint32_t *)ws, *b = a + n, *t, k;
	uint32_t	 mask = ((uint32_t)1 << width) - 1;
	size_t		 i, *h;
	int64_t		 x;
	int		 pass[3], kept, p, shift;

	kept = stats_prefix(cnt, passes, width, n, pass);
	for (p = 0; p < kept; p++) {
		h = cnt[pass[p]];
		shift = width * pass[p];
		for (i = 0; i < n; i++)
			b[h[(a[i] >> shift) & mask]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	if (a == (uint32_t *)ws) {
		for (i = n; i-- > 0; ) {
			memcpy(&k, &a[i], sizeof k);
			x = (int64_t)((uint64_t)min + k);
			memcpy(&ws[i], &x, sizeof x);
		}
	} else {
		for (i = 0; i < n; i++) {
			memcpy(&k, &a[i], sizeof k);
			x = (int64_t)((uint64_t)min + k);
			memcpy(&ws[i], &x, sizeof x);
		}
	}
}

/*
 * LSD radix sort of values whose spread max - min is below 2^32: the keys
 * v - min are sorted as 32-bit integers in at most three passes, inside
 * v's own memory. Writing key i over the lower half never overtakes the
 * reading of value i.
 */
static void
stats_radix32(int64_t *v, size_t n, int64_t min, uint64_t range)
{
	size_t		(*cnt)[1 << STATS_DIGIT], i;
	uint32_t	*a = (uint32_t *)v, k;
	int64_t		 x;
	int		 passes, width;

	passes = stats_digits(range, &width);
	cnt = xcalloc((size_t)passes, sizeof *cnt);
	for (i = 0; i < n; i++) {
		memcpy(&x, &v[i], sizeof x);
		k = (uint32_t)((uint64_t)x - (uint64_t)min);
		memcpy(&a[i], &k, sizeof k);
	}
	stats_hist32(a, n, cnt, passes, width);
	stats_radix32_passes(v, n, min, cnt, passes, width);
	free(cnt);
}

/*
 * The same on 64-bit keys v - min (up to six passes), for wider spreads.
 * The keys are made in place; the last pass writes the values back.
 */
static void
stats_radix64(int64_t *v, size_t n, int64_t min, uint64_t range)
{
	size_t		(*cnt)[1 << STATS_DIGIT], i, *h;
	uint64_t	*a = (uint64_t *)v, *b, *t, *buf, k, mask;
	int		 passes, width, pass[6], kept, p, shift;

	passes = stats_digits(range, &width);
	mask = ((uint64_t)1 << width) - 1;
	cnt = xcalloc((size_t)passes, sizeof *cnt);
	buf = b = xreallocarray(NULL, n, sizeof *b);
	for (i = 0; i < n; i++) {
		k = (uint64_t)v[i] - (uint64_t)min;
		a[i] = k;
		for (p = 0; p < passes; p++)
			cnt[p][(k >> (width * p)) & mask]++;
	}
	kept = stats_prefix(cnt, passes, width, n, pass);
	for (p = 0; p < kept; p++) {
		h = cnt[pass[p]];
		shift = width * pass[p];
		t = p == kept - 1 ? (uint64_t *)v : b;
		if (t == a) {
			/* An even number of passes ends in v itself. */
			memcpy(buf, a, n * sizeof *a);
			a = buf;
		}
		for (i = 0; i < n; i++)
			t[h[(a[i] >> shift) & mask]++] = a[i];
		b = a;
		a = t;
	}
	for (i = 0; i < n; i++)
		v[i] = (int64_t)(a[i] + (uint64_t)min);
	free(buf);
	free(cnt);
}

/* The smallest and largest of n > 0 values, and their descents (0 when in
 * order). */
static size_t
stats_scan(const int64_t *v, size_t n, int64_t *min, int64_t *max)
{
	size_t	i, inv = 0;
	int64_t	lo = v[0], hi = v[0];

	for (i = 1; i < n; i++) {
		inv += v[i - 1] > v[i];
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	*min = lo;
	*max = hi;
	return inv;
}

void
stats_sort(int64_t *v, size_t n)
{
	int64_t		min, max;
	uint64_t	range;

	if (n < 2)
		return;
	if (stats_scan(v, n, &min, &max) == 0)
		return;		/* already sorted: callers often re-sort */
	if (n < STATS_SMALL) {
		stats_isort(v, n);
		return;
	}
	range = (uint64_t)max - (uint64_t)min;
	if (range <= UINT32_MAX)
		stats_radix32(v, n, min, range);
	else
		stats_radix64(v, n, min, range);
}

/*
 * The R-7 percentile p of n > 0 sorted values: the value at rank lo plus
 * f times the step to the value at rank *hi (f = 0 and *hi = lo at the
 * ends).
 */
static size_t
stats_pct_rank(size_t n, double p, size_t *hi, long double *f)
{
	long double	h;
	size_t		lo;

	*f = 0;
	*hi = n - 1;
	if (!(p > 0))		/* also NaN */
		return *hi = 0;
	if (p >= 100)
		return n - 1;
	/* h = (n - 1) p, interpolate between floor(h) and floor(h)+1. */
	h = (long double)(n - 1) * (long double)p / 100.0L;
	lo = (size_t)h;
	if (lo >= n - 1)
		return n - 1;
	*f = h - (long double)lo;
	*hi = lo + 1;
	return lo;
}

/* The interpolation of stats_pct_rank() between the values a and b. */
static double
stats_pct_value(int64_t a, int64_t b, long double f)
{
	return (double)((long double)a + f * ((long double)b -
	    (long double)a));
}

double
stats_percentile(const int64_t *s, size_t n, double p)
{
	long double	f;
	size_t		lo, hi;

	if (n == 0)
		return 0;
	lo = stats_pct_rank(n, p, &hi, &f);
	return stats_pct_value(s[lo], s[hi], f);
}

/* stats_sums_narrow() and stats_sums(): value i is d's (base + offset)
 * or v's. */
static int
stats_sums_of(const uint32_t *d, const int64_t *v, size_t n, int64_t base,
    struct stats *st)
{
#ifdef __SIZEOF_INT128__
	__int128	isum = 0, q, r;
	int64_t		x, min = 0, max = 0;
	size_t		i;

	memset(st, 0, sizeof *st);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		x = d != NULL ? base + (int32_t)d[i] : v[i];
		if (i == 0 || x < min)
			min = x;
		if (i == 0 || x > max)
			max = x;
		isum += x;
	}
	st->count = n;
	st->min = min;
	st->max = max;
	stats_sum_set(st, isum, &q, &r);
	return 0;
#else
	(void)d;
	(void)v;
	(void)n;
	(void)base;
	(void)st;
	return -1;
#endif
}

int
stats_sums_narrow(const uint32_t *d, size_t n, int64_t base,
    struct stats *st)
{
	return stats_sums_of(d, NULL, n, base, st);
}

int
stats_sums(const int64_t *v, size_t n, struct stats *st)
{
	return stats_sums_of(NULL, v, n, 0, st);
}

int
stats_sums_mean(struct stats *st)
{
#ifdef __SIZEOF_INT128__
	__int128	q, r;

	stats_sum_set(st, st->total, &q, &r);
	return 0;
#else
	(void)st;
	return -1;
#endif
}

void
stats_compute(int64_t *v, size_t n, struct stats *st)
{
	memset(st, 0, sizeof *st);
	if (n == 0)
		return;
	stats_sort(v, n);
	stats_finish(v, n, st);
}

void
stats_rank_list(size_t n, size_t rk[STATS_RANKS], long double f[4])
{
	static const double	pct[4] = { 25, 75, 90, 99 };
	size_t			i;

	rk[0] = 0;
	rk[1] = n - 1;
	rk[2] = n / 2;
	rk[3] = n % 2 == 1 ? n / 2 : n / 2 - 1;
	for (i = 0; i < 4; i++)
		rk[4 + 2 * i] = stats_pct_rank(n, pct[i], &rk[5 + 2 * i],
		    &f[i]);
}

void
stats_rank_set(struct stats *st, size_t n, const int64_t val[STATS_RANKS],
    const long double f[4])
{
	double	*out[4] = { &st->p25, &st->p75, &st->p90, &st->p99 };
	size_t	 i, x;

	st->min = val[0];
	st->max = val[1];
	if (n % 2 == 1)
		st->median = (double)val[2];
	else
		st->median = (double)(((long double)val[3] +
		    (long double)val[2]) / 2);
	for (i = 0; i < 4; i++) {
		x = 4 + 2 * i;
		*out[i] = stats_pct_value(val[x], val[x + 1], f[i]);
	}
}

#ifdef __SIZEOF_INT128__
void
stats_sum_set(struct stats *st, __int128 sum, __int128 *q, __int128 *r)
{
	long double	mean;

	if (sum > INT64_MAX)
		st->total = INT64_MAX;
	else if (sum < INT64_MIN)
		st->total = INT64_MIN;
	else
		st->total = (int64_t)sum;
	/* Exact mean as q + r/n with |r| < n. */
	*q = sum / (__int128)st->count;
	*r = sum % (__int128)st->count;
	mean = (long double)*q + (long double)*r / (long double)st->count;
	st->mean = (double)mean;
}

/* The number of bits of x (0 for 0). */
static unsigned
stats_bits(uint64_t x)
{
	unsigned	b = 0;

	while (x != 0) {
		x >>= 1;
		b++;
	}
	return b;
}

int
stats_exact_ok(uint64_t spread, uint64_t n)
{
	return spread < ((uint64_t)1 << 32) && 64 + 2 * stats_bits(n) <= 126;
}

void
stats_sd_exact(struct stats *st, unsigned __int128 s, __int128 r)
{
	unsigned __int128	n = st->count;
	long double		ss;

	s = n * s - (unsigned __int128)(r * r);
	ss = (long double)s / (long double)n;
	st->stddev = st->count > 1 ?
	    (double)sqrtl(ss / (long double)(st->count - 1)) : 0;
}
#endif

/* The aggregates of n > 0 sorted values (st zeroed). */
static void
stats_finish(const int64_t *v, size_t n, struct stats *st)
{
	int64_t		val[STATS_RANKS];
	size_t		rk[STATS_RANKS], i;
	long double	f[4], d, ss;
#ifdef __SIZEOF_INT128__
	__int128		 isum = 0, q, r;
	unsigned __int128	 s = 0;
	long double		 rn;
	uint64_t		 a;
	int64_t			 q64;
#else
	long double		 sum = 0, mean;
#endif

	st->count = n;
	stats_rank_list(n, rk, f);
	for (i = 0; i < STATS_RANKS; i++)
		val[i] = v[rk[i]];
	stats_rank_set(st, n, val, f);
#ifdef __SIZEOF_INT128__
	for (i = 0; i < n; i++)
		isum += v[i];
	stats_sum_set(st, isum, &q, &r);
	if (stats_exact_ok((uint64_t)st->max - (uint64_t)st->min, n)) {
		/*
		 * sum (v - q)^2 exactly: min <= q <= max, so each |v - q|
		 * is below 2^32 and its square fits 64 bits.
		 */
		q64 = (int64_t)q;
		for (i = 0; i < n; i++) {
			a = (uint64_t)(v[i] < q64 ? q64 - v[i] : v[i] - q64);
			s += a * a;
		}
		stats_sd_exact(st, s, r);
		return;
	}
	/* A spread of 2^32 or more: the terms summed in long double. */
	ss = 0;
	rn = (long double)r / (long double)n;
	if ((uint64_t)st->max - (uint64_t)st->min <= INT64_MAX) {
		/* v[i] - q fits 64 bits (min <= q <= max). */
		q64 = (int64_t)q;
		for (i = 0; i < n; i++) {
			d = (long double)(v[i] - q64) - rn;
			ss += d * d;
		}
	} else {
		for (i = 0; i < n; i++) {
			d = (long double)((__int128)v[i] - q) - rn;
			ss += d * d;
		}
	}
#else
	for (i = 0; i < n; i++)
		sum += v[i];
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
	st->mean = (double)mean;
#endif
	st->stddev = n > 1 ? (double)sqrtl(ss / (long double)(n - 1)) : 0;
}

void
stats_sample_init(struct stats_sample *s)
{
	memset(s, 0, sizeof *s);
}

void
stats_sample_free(struct stats_sample *s)
{
	bigarr_free(s->d, s->cap * sizeof *s->d);
	bigarr_free(s->w, s->cap * sizeof *s->w);
	memset(s, 0, sizeof *s);
}

/* Doubles the capacity of a sample's array (at least 64), which grows
 * without a copy once big (bigarr.h). */
static void
stats_sample_double(void **p, size_t *cap, size_t sz)
{
	size_t	ncap = *cap < 64 ? 64 : *cap * 2;

	if (ncap > SIZE_MAX / sz)
		xmalloc_fail(SIZE_MAX);
	*p = bigarr_resize(*p, *cap * sz, ncap * sz);
	*cap = ncap;
}

void
stats_sample_slow(struct stats_sample *s, int64_t x)
{
	size_t	i;

	if (s->w == NULL && s->n == 0)
		s->base = x;
	if (s->w == NULL && stats_sample_narrow(s, x)) {
		/* Doubling: a sample grows beside others, so every growth
		 * is a copy; the pages past n are never touched. */
		if (s->n + 1 > s->cap)
			stats_sample_double((void **)&s->d, &s->cap,
			    sizeof *s->d);
		s->d[s->n++] = (uint32_t)((uint64_t)x - (uint64_t)s->base);
		return;
	}
	if (s->w == NULL) {
		/* x does not fit: widen the sample for good. */
		s->w = bigarr_resize(NULL, 0, (s->n + 1) * sizeof *s->w);
		for (i = 0; i < s->n; i++)
			s->w[i] = s->base + (int32_t)s->d[i];
		bigarr_free(s->d, s->cap * sizeof *s->d);
		s->d = NULL;
		s->cap = s->n + 1;
	}
	if (s->n + 1 > s->cap)
		stats_sample_double((void **)&s->w, &s->cap, sizeof *s->w);
	s->w[s->n++] = x;
}

static void
stats_narrow_range(const uint32_t *dv, size_t n, struct stats_nrange *r)
{
	size_t	i, inv = 0;
	int32_t	d, dmin, dmax;

	dmin = dmax = (int32_t)dv[0];
	for (i = 1; i < n; i++) {
		d = (int32_t)dv[i];
		inv += (int32_t)dv[i - 1] > d;
		if (d < dmin)
			dmin = d;
		if (d > dmax)
			dmax = d;
	}
	r->dmin = dmin;
	r->dmax = dmax;
	r->inv = inv;
}

/*
 * Sorts n narrow values (base + (int32_t)d[i]) of range r into out (n
 * slots): the radix sort takes its keys (offset - smallest, below 2^32)
 * straight from the offsets into out's lower half.
 */
static void
stats_narrow_sort(const uint32_t *dv, size_t n, int64_t base,
    const struct stats_nrange *r, int64_t *out)
{
	size_t		(*cnt)[1 << STATS_DIGIT], i;
	uint32_t	 k;
	int		 passes, width;

	if (r->inv == 0 || n < STATS_SMALL) {
		for (i = 0; i < n; i++)
			out[i] = base + (int32_t)dv[i];
		if (r->inv != 0)
			stats_isort(out, n);
		return;
	}
	passes = stats_digits((uint64_t)((int64_t)r->dmax - r->dmin),
	    &width);
	cnt = xcalloc((size_t)passes, sizeof *cnt);
	for (i = 0; i < n; i++) {
		k = (uint32_t)((int64_t)(int32_t)dv[i] - r->dmin);
		memcpy((uint32_t *)out + i, &k, sizeof k);
	}
	stats_hist32((uint32_t *)out, n, cnt, passes, width);
	stats_radix32_passes(out, n, base + r->dmin, cnt, passes, width);
	free(cnt);
}

void
stats_compute_narrow(const uint32_t *d, size_t n, int64_t base,
    struct stats *st, struct stats_acc *scratch)
{
	struct stats_nrange	r;

	memset(st, 0, sizeof *st);
	if (n == 0)
		return;
	stats_narrow_range(d, n, &r);
#ifdef __SIZEOF_INT128__
	if (r.inv != 0 && n >= STATS_SMALL &&
	    stats_select_narrow(d, n, base, &r, st, scratch))
		return;
#endif
	XGROW(scratch->v, scratch->cap, n);
	scratch->n = n;
	stats_narrow_sort(d, n, base, &r, scratch->v);
	stats_finish(scratch->v, n, st);
}

void
stats_compute_any(int64_t *v, size_t n, struct stats *st,
    struct stats_acc *scratch)
{
	size_t	inv;
	int64_t	min, max;

	memset(st, 0, sizeof *st);
	if (n == 0)
		return;
	inv = stats_scan(v, n, &min, &max);
#ifdef __SIZEOF_INT128__
	if (inv != 0 && n >= STATS_SMALL &&
	    stats_select_values(v, n, min, max, st, scratch))
		return;
#endif
	(void)scratch;
	if (inv != 0)
		stats_sort(v, n);
	stats_finish(v, n, st);
}

void
stats_sample_compute(struct stats_sample *s, struct stats *st,
    struct stats_acc *scratch)
{
	if (s->w != NULL) {
		stats_compute(s->w, s->n, st);
		return;
	}
	stats_compute_narrow(s->d, s->n, s->base, st, scratch);
}
