/*
 * stats: the aggregates every verb and view uses, defined as `nsys stats`
 * defines them (../shared/docs/FORMATS.md section 2):
 *   count, total, min, max;
 *   mean   = total / count;
 *   median = middle value, or the mean of the two middle values for an even
 *            count;
 *   stddev = sample standard deviation (n - 1 denominator), 0 for n = 1;
 *   percentiles by linear interpolation between closest ranks (the "R-7"
 *   rule numpy uses by default): p in [0, 100].
 * Values are int64 (durations in ns or byte counts). Sums use 128-bit
 * integer arithmetic where available so totals never overflow silently.
 */
#ifndef GPULENS_STATS_H
#define GPULENS_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats {
	uint64_t	 count;
	int64_t		 total;
	int64_t		 min, max;
	double		 mean, median, stddev;
	double		 p25, p75, p90, p99;
};

/* A growable sample of int64 values (caller-owned; reuse across groups). */
struct stats_acc {
	int64_t		*v;
	size_t		 n, cap;
};

void	 stats_acc_init(struct stats_acc *);
void	 stats_acc_free(struct stats_acc *);
void	 stats_acc_reset(struct stats_acc *);
/* Makes room for one more value (stats_acc_add's slow path). */
void	 stats_acc_grow(struct stats_acc *);
/* Appends x (amortised O(1), inline: it runs once per event). */
static inline void
stats_acc_add(struct stats_acc *a, int64_t x)
{
	if (a->n == a->cap)
		stats_acc_grow(a);
	a->v[a->n++] = x;
}
/* Computes stats over the accumulated values (sorts them in place). */
void	 stats_acc_compute(struct stats_acc *, struct stats *);
/*
 * A sample that keeps its values as 32-bit offsets from the first one while
 * they all fit (durations of one kind nearly always do), half the memory of
 * a stats_acc for the verbs that hold millions of values, and as int64
 * values from the first one that does not fit on. Caller-owned: init,
 * add, compute, free.
 */
struct stats_sample {
	int64_t		 base;		/* the first value */
	uint32_t	*d;		/* value - base, while narrow */
	int64_t		*w;		/* the values, once wide (d NULL) */
	size_t		 n, cap;
};

void	 stats_sample_init(struct stats_sample *);
void	 stats_sample_free(struct stats_sample *);
/*
 * Whether x can be kept as an offset: x - base fits in int32, and
 * |x| < 2^62, so that it does not fit only by wrapping around.
 */
static inline int
stats_sample_narrow(const struct stats_sample *s, int64_t x)
{
	return (uint64_t)x - (uint64_t)s->base + 0x80000000ULL <=
	    0xffffffffULL &&
	    (uint64_t)x + ((uint64_t)1 << 62) < ((uint64_t)1 << 63);
}
/* stats_sample_add's slow path: the first value, growth, widening. */
void	 stats_sample_slow(struct stats_sample *, int64_t);
/* Appends x (amortised O(1)). */
static inline void
stats_sample_add(struct stats_sample *s, int64_t x)
{
	if (s->n < s->cap && s->d != NULL && stats_sample_narrow(s, x)) {
		s->d[s->n++] = (uint32_t)((uint64_t)x - (uint64_t)s->base);
		return;
	}
	stats_sample_slow(s, x);
}
/* Value i (< n) of a sample, in the order they were added. */
static inline int64_t
stats_sample_at(const struct stats_sample *s, size_t i)
{
	return s->w != NULL ? s->w[i] : s->base + (int32_t)s->d[i];
}
/*
 * Computes stats over the sample, exactly as stats_compute() over the same
 * values. scratch is a stats_acc reused across samples as working memory
 * (a wide sample is sorted in place instead).
 */
void	 stats_sample_compute(struct stats_sample *, struct stats *,
	    struct stats_acc *scratch);
/*
 * Computes stats over the n values base + (int32_t)d[i], exactly as
 * stats_compute() over them; scratch is working memory reused across
 * calls. The values are not sorted: only those at the ranks the
 * statistics read are found (stats-select.c).
 */
void	 stats_compute_narrow(const uint32_t *d, size_t n, int64_t base,
	    struct stats *, struct stats_acc *scratch);
/*
 * Computes stats over values exactly as stats_compute(), but leaves them in
 * any order: where their spread is below 2^32 they are not sorted (only
 * the values at the ranks the statistics read are found, in scratch).
 */
void	 stats_compute_any(int64_t *values, size_t n, struct stats *,
	    struct stats_acc *scratch);
/*
 * Only count, total, min, max and mean over the n values base +
 * (int32_t)d[i], or v[i]: the bits stats_compute() gives them, the other
 * fields 0. Returns 0, or -1 (st untouched) where this build cannot give
 * the same mean without the sorted order (no 128-bit integers).
 */
int	 stats_sums_narrow(const uint32_t *d, size_t n, int64_t base,
	    struct stats *);
int	 stats_sums(const int64_t *v, size_t n, struct stats *);
/*
 * The same sums where the caller added the values up itself: st's count
 * (> 0), total (the exact sum, not saturated), min and max are set; sets
 * the mean to the bits stats_sums() gives it. Returns 0, or -1 (st
 * untouched) without 128-bit integers.
 */
int	 stats_sums_mean(struct stats *);
/* Computes stats over values (sorted in place). n == 0 gives all zeros. */
void	 stats_compute(int64_t *values, size_t n, struct stats *);
/* Percentile p (0-100) of sorted values; 0 if n == 0. */
double	 stats_percentile(const int64_t *sorted, size_t n, double p);
/* Sorts int64 values ascending (radix sort on v - min for large n). */
void	 stats_sort(int64_t *values, size_t n);

#endif
