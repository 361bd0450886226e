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
void	 stats_acc_add(struct stats_acc *, int64_t);
/* Computes stats over the accumulated values (sorts them in place). */
void	 stats_acc_compute(struct stats_acc *, struct stats *);
/* Computes stats over values (sorted in place). n == 0 gives all zeros. */
void	 stats_compute(int64_t *values, size_t n, struct stats *);
/* Percentile p (0-100) of sorted values; 0 if n == 0. */
double	 stats_percentile(const int64_t *sorted, size_t n, double p);
/* Sorts int64 values ascending (radix sort for large n). */
void	 stats_sort(int64_t *values, size_t n);

#endif
