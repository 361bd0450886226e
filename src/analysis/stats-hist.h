/*
 * stats-hist: the statistics of n values without sorting them, in two
 * passes the caller runs over its own values. Every statistic but the
 * order ones comes from exact integer sums, so only the values at the
 * twelve ranks a struct stats reads are needed: a histogram of the keys'
 * top bits (key = value - the smallest, below 2^32) says which buckets
 * hold those ranks, and the second pass gathers just those buckets' keys,
 * which are sorted. The results are those of stats_compute() to the bit.
 *
 * The caller knows the smallest and largest value first, then:
 *   stats_hist_begin(); stats_hist_add() of every key into its sum;
 *   if stats_hist_ranks(): stats_hist_take() of every key;
 *   stats_hist_end().
 * Each pass takes the keys in any order, but in the same order both
 * times. One loop can so feed several histograms, or make its values on
 * the fly instead of storing them (launch-times.c); stats-select.c runs
 * the passes over an array.
 */
#ifndef GPULENS_STATS_HIST_H
#define GPULENS_STATS_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats-int.h"

#ifdef __SIZEOF_INT128__

/* A bucket that holds ranks: where its keys go in the gathered array. */
struct stats_hist_bucket {
	uint32_t	 b;		/* bucket */
	size_t		 at, n, fill;	/* its slice of the gathered keys */
};

/*
 * What the first pass updates for every key: a caller with several
 * histograms in one loop copies these to locals and back (see
 * stats_hist_add()), so that they stay in registers.
 */
struct stats_hist_sum {
	uint32_t		*h;		/* counts, then first ranks */
	uint64_t		 shift;		/* key >> shift: its bucket */
	uint64_t		 sk;		/* sum of the keys */
	unsigned __int128	 sk2;		/* sum of their squares */
};

struct stats_hist {
	struct stats_hist_sum	 sum;
	struct stats_acc	*scratch;	/* holds h, mark and keys */
	unsigned char		*mark;		/* bucket -> sb index + 1 */
	int64_t			*keys;		/* the gathered keys */
	size_t			 n, nb, ns;
	int64_t			 lo;		/* the smallest value */
	size_t			 rk[STATS_RANKS], rb[STATS_RANKS];
	long double		 f[4];
	struct stats_hist_bucket sb[STATS_RANKS];
};

/*
 * Readies hs for n > 0 values from lo to hi (scratch: working memory,
 * reused across calls, that hs uses until stats_hist_end()). Returns 0,
 * touching nothing, where the exact sums do not apply (a spread of 2^32
 * or more, or too many values).
 */
int	stats_hist_begin(struct stats_hist *hs, size_t n, int64_t lo,
	    int64_t hi, struct stats_acc *scratch);
/* Counts key k (value - lo) in the first pass, into hs.sum or a copy. */
static inline void
stats_hist_add(struct stats_hist_sum *s, uint64_t k)
{
	s->h[k >> s->shift]++;
	s->sk += k;
	s->sk2 += k * k;
}
/*
 * After the first pass: finds the buckets of the ranks. Returns whether
 * the second pass is needed (not where every bucket holds one value).
 */
int	stats_hist_ranks(struct stats_hist *hs);
/* Gathers key k in the second pass if its bucket holds a rank. */
static inline void
stats_hist_take(struct stats_hist *hs, uint64_t k)
{
	size_t	j = hs->mark[k >> hs->sum.shift];

	if (j != 0)
		hs->keys[hs->sb[j - 1].fill++] = (int64_t)k;
}
/* The statistics into st (zeroed by the caller). */
void	stats_hist_end(struct stats_hist *hs, struct stats *st);

#endif

#endif
