/*
 * stats-int: what stats.c and stats-select.c share, the steps from the
 * values at a sample's ranks and its exact sums to a struct stats, so that
 * the sorted path and the selection path give the same bits.
 */
#ifndef GPULENS_STATS_INT_H
#define GPULENS_STATS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"

/* The ranks a struct stats reads: min, max, the median's two, and the two
 * each of p25, p75, p90 and p99 interpolate between. */
#define STATS_RANKS	12

/* The narrow offsets' range: the smallest, the largest, whether sorted. */
struct stats_nrange {
	int32_t		 dmin, dmax;
	size_t		 inv;		/* descents: 0 when in order */
};

/* The STATS_RANKS ranks of n > 0 values, and the 4 percentiles' steps. */
void	stats_rank_list(size_t n, size_t rk[STATS_RANKS], long double f[4]);
/* min, max, median and percentiles from the values at those ranks. */
void	stats_rank_set(struct stats *, size_t n,
	    const int64_t val[STATS_RANKS], const long double f[4]);
#ifdef __SIZEOF_INT128__
/* total (saturated) and mean from the exact sum (st->count set); the mean
 * as q + r/n with |r| < n. */
void	stats_sum_set(struct stats *, __int128 sum, __int128 *q,
	    __int128 *r);
/* Whether sum (v - q)^2 and count times it fit 127 bits: a spread below
 * 2^32 and fewer than 2^31 values. */
int	stats_exact_ok(uint64_t spread, uint64_t n);
/* stddev from s = sum (v - q)^2, exact, and the mean's remainder r. */
void	stats_sd_exact(struct stats *, unsigned __int128 s, __int128 r);
/*
 * The statistics of n unsorted narrow values base + (int32_t)d[i] of range
 * r, without sorting them: sums and a histogram of their top 16 bits in
 * one pass, then only the buckets that hold the ranks gathered and sorted.
 * Returns 0, leaving st alone, where the exact sums do not apply.
 */
int	stats_select_narrow(const uint32_t *d, size_t n, int64_t base,
	    const struct stats_nrange *r, struct stats *st,
	    struct stats_acc *scratch);
/* The same over n values v of that smallest and largest (v unchanged). */
int	stats_select_values(const int64_t *v, size_t n, int64_t min,
	    int64_t max, struct stats *st, struct stats_acc *scratch);
#endif

#endif
