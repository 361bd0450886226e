/*
 * stats-hist: the statistics of values found from a histogram of their
 * keys' top bits (stats-hist.h). Both passes read the keys in order and
 * touch a histogram of at most 2^16 counters, where a radix sort of
 * millions of values writes them all three times over. The results are
 * those of the sorted path to the bit: the same ranks' values, the same
 * exact sums, the same finishing steps (stats-int.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "analysis/stats-hist.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

#ifdef __SIZEOF_INT128__

#define HIST_BITS	16	/* the widest histogram: 2^16 buckets */

/* The int64 slots of scratch that the counters and the marks take. */
static size_t
stats_hist_words(size_t nb)
{
	return (nb + 2) / 2 + (nb + 7) / 8;
}

int
stats_hist_begin(struct stats_hist *hs, size_t n, int64_t lo, int64_t hi,
    struct stats_acc *scratch)
{
	uint64_t	range = (uint64_t)hi - (uint64_t)lo;
	unsigned	bits = 0;
	uint64_t	shift = 0;

	if (!stats_exact_ok(range, n))
		return 0;
	/* About as many buckets as values (up to 2^16): the histogram
	 * costs no more than the values do. */
	while (bits < HIST_BITS && ((size_t)1 << bits) < n)
		bits++;
	while ((range >> shift) >= ((uint64_t)1 << bits))
		shift++;
	memset(hs, 0, sizeof *hs);
	hs->scratch = scratch;
	hs->n = n;
	hs->lo = lo;
	hs->sum.shift = shift;
	hs->nb = (size_t)(range >> shift) + 1;
	/* nb + 1 counters (as starts), nb marks; the keys come after. */
	XGROW(scratch->v, scratch->cap, stats_hist_words(hs->nb));
	scratch->n = 0;
	hs->sum.h = (uint32_t *)scratch->v;
	hs->mark = (unsigned char *)(scratch->v + (hs->nb + 2) / 2);
	memset(hs->sum.h, 0, (hs->nb + 1) * sizeof *hs->sum.h);
	memset(hs->mark, 0, hs->nb);
	return 1;
}

int
stats_hist_ranks(struct stats_hist *hs)
{
	struct stats_hist_bucket	*sb;
	struct stats_acc		*sc = hs->scratch;
	uint32_t			 b, *h = hs->sum.h;
	size_t				 i, j, lo, at = 0, nb = hs->nb;

	/* The counts become each bucket's first rank; h[nb] = n. */
	for (i = 0, j = 0; i <= nb; i++) {
		b = h[i];
		h[i] = (uint32_t)j;
		j += b;
	}
	stats_rank_list(hs->n, hs->rk, hs->f);
	for (i = 0; i < STATS_RANKS; i++) {
		/* The last bucket whose first rank is at most rk[i]
		 * (h[0] = 0, and the last bucket holds the largest). */
		lo = lbound_u32_above(h, nb, (uint32_t)hs->rk[i]) - 1;
		hs->rb[i] = lo;
		if (hs->sum.shift == 0 || hs->mark[lo] != 0)
			continue;
		sb = &hs->sb[hs->ns];
		sb->b = (uint32_t)lo;
		sb->n = h[lo + 1] - h[lo];
		sb->at = sb->fill = at;
		at += sb->n;
		hs->mark[lo] = (unsigned char)++hs->ns;
	}
	if (hs->sum.shift == 0)
		return 0;
	/* Room for the gathered keys: the counters and marks move. */
	XGROW(sc->v, sc->cap, stats_hist_words(nb) + at);
	hs->sum.h = (uint32_t *)sc->v;
	hs->mark = (unsigned char *)(sc->v + (nb + 2) / 2);
	hs->keys = sc->v + stats_hist_words(nb);
	return 1;
}

void
stats_hist_end(struct stats_hist *hs, struct stats *st)
{
	const struct stats_hist_bucket	*sb;
	unsigned __int128		 s;
	__int128			 sum, q, rem;
	int64_t				 val[STATS_RANKS];
	uint64_t			 kq;
	size_t				 i, n = hs->n;

	for (i = 0; i < hs->ns; i++)
		stats_sort(hs->keys + hs->sb[i].at, hs->sb[i].n);
	for (i = 0; i < STATS_RANKS; i++) {
		if (hs->sum.shift == 0) {
			val[i] = hs->lo + (int64_t)hs->rb[i];
			continue;
		}
		sb = &hs->sb[hs->mark[hs->rb[i]] - 1u];
		val[i] = hs->lo + hs->keys[sb->at + hs->rk[i] -
		    hs->sum.h[sb->b]];
	}
	st->count = n;
	stats_rank_set(st, n, val, hs->f);
	/* The sum, and sum (v - q)^2 from the sums of k and k^2. */
	sum = (__int128)hs->lo * (__int128)n + (__int128)hs->sum.sk;
	stats_sum_set(st, sum, &q, &rem);
	kq = (uint64_t)(q - hs->lo);	/* min <= q <= max */
	s = hs->sum.sk2 - 2 * (unsigned __int128)kq * hs->sum.sk +
	    (unsigned __int128)n * kq * kq;
	stats_sd_exact(st, s, rem);
}

#endif
