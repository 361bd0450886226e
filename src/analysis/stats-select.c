/*
 * stats-select: the statistics of a narrow sample (stats_compute_narrow)
 * without sorting it. Every statistic but the order ones comes from exact
 * integer sums, so only the values at the twelve ranks a struct stats reads
 * are needed: a histogram of the keys' top 16 bits (k = offset - smallest,
 * below 2^32) says which buckets hold those ranks, and a second pass
 * gathers just those buckets' keys and sorts them. Both passes read the
 * offsets in order and touch a histogram of at most 2^16 counters, where a
 * radix sort of millions of values writes them all three times over.
 * The results are those of the sorted path to the bit: the same ranks'
 * values, the same exact sums, the same finishing steps (stats-int.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "analysis/stats-int.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

#ifdef __SIZEOF_INT128__

#define SEL_BITS	16	/* the widest histogram: 2^16 buckets */

/* A bucket that holds ranks: where its keys go in the gathered array. */
struct sel_bucket {
	uint32_t	 b;		/* bucket */
	size_t		 at, n, fill;	/* its slice of the gathered keys */
};

/*
 * The key of value i, its distance from the smallest (lo64): from the
 * offsets d (smallest dmin) or the values w.
 */
#define SEL_KEY(i)	(w != NULL ? (uint64_t)(w[i] - lo64) :		\
	(uint64_t)((int64_t)(int32_t)d[i] - dmin))

/* The statistics of n values of spread range from either source. */
static int
stats_select(const uint32_t *d, int32_t dmin, const int64_t *w, size_t n,
    int64_t lo64, uint64_t range, struct stats *st,
    struct stats_acc *scratch)
{
	uint64_t		 sk = 0, k, kq;
	unsigned __int128	 sk2 = 0, s;
	__int128		 sum, q, rem;
	struct sel_bucket	 sb[STATS_RANKS];
	size_t			 rk[STATS_RANKS], rb[STATS_RANKS];
	size_t			 i, j, nb, ns = 0, at = 0;
	size_t			 words, lo;
	long double		 f[4];
	int64_t			 val[STATS_RANKS];
	int64_t			*keys;
	uint32_t		*h, b;
	unsigned char		*mark;
	unsigned		 shift = 0, bits = 0;

	if (!stats_exact_ok(range, n))
		return 0;
	/* About as many buckets as values (up to 2^16): the histogram
	 * costs no more than the values do. */
	while (bits < SEL_BITS && ((size_t)1 << bits) < n)
		bits++;
	while ((range >> shift) >= ((uint64_t)1 << bits))
		shift++;
	nb = (size_t)(range >> shift) + 1;
	/* Scratch: nb + 1 counters (as starts), nb marks, n keys at most. */
	words = (nb + 1 + 1) / 2 + (nb + 7) / 8 + n;
	XGROW(scratch->v, scratch->cap, words);
	scratch->n = 0;
	h = (uint32_t *)scratch->v;
	mark = (unsigned char *)(scratch->v + (nb + 2) / 2);
	keys = scratch->v + (nb + 2) / 2 + (nb + 7) / 8;
	memset(h, 0, (nb + 1) * sizeof *h);
	memset(mark, 0, nb);
	for (i = 0; i < n; i++) {
		k = SEL_KEY(i);
		h[k >> shift]++;
		sk += k;
		sk2 += k * k;
	}
	/* The counts become each bucket's first rank; h[nb] = n. */
	for (i = 0, j = 0; i <= nb; i++) {
		b = h[i];
		h[i] = (uint32_t)j;
		j += b;
	}
	st->count = n;
	stats_rank_list(n, rk, f);
	for (i = 0; i < STATS_RANKS; i++) {
		/* The last bucket whose first rank is at most rk[i]
		 * (h[0] = 0, and the last bucket holds the largest). */
		lo = lbound_u32_above(h, nb, (uint32_t)rk[i]) - 1;
		rb[i] = lo;
		if (shift == 0) {
			val[i] = lo64 + (int64_t)lo;
			continue;
		}
		if (mark[lo] == 0) {
			sb[ns].b = (uint32_t)lo;
			sb[ns].n = h[lo + 1] - h[lo];
			sb[ns].at = sb[ns].fill = at;
			at += sb[ns].n;
			mark[lo] = (unsigned char)++ns;
		}
	}
	if (shift != 0) {
		for (i = 0; i < n; i++) {
			k = SEL_KEY(i);
			if ((j = mark[k >> shift]) != 0)
				keys[sb[j - 1].fill++] = (int64_t)k;
		}
		for (j = 0; j < ns; j++)
			stats_sort(keys + sb[j].at, sb[j].n);
		for (i = 0; i < STATS_RANKS; i++) {
			j = mark[rb[i]] - 1u;
			val[i] = lo64 + keys[sb[j].at + rk[i] - h[sb[j].b]];
		}
	}
	stats_rank_set(st, n, val, f);
	/* The sum, and sum (v - q)^2 from the sums of k and k^2. */
	sum = (__int128)lo64 * (__int128)n + (__int128)sk;
	stats_sum_set(st, sum, &q, &rem);
	kq = (uint64_t)(q - lo64);	/* min <= q <= max */
	s = sk2 - 2 * (unsigned __int128)kq * sk +
	    (unsigned __int128)n * kq * kq;
	stats_sd_exact(st, s, rem);
	return 1;
}

int
stats_select_narrow(const uint32_t *d, size_t n, int64_t base,
    const struct stats_nrange *r, struct stats *st,
    struct stats_acc *scratch)
{
	return stats_select(d, r->dmin, NULL, n, base + r->dmin,
	    (uint64_t)((int64_t)r->dmax - r->dmin), st, scratch);
}

int
stats_select_values(const int64_t *v, size_t n, int64_t min, int64_t max,
    struct stats *st, struct stats_acc *scratch)
{
	return stats_select(NULL, 0, v, n, min,
	    (uint64_t)max - (uint64_t)min, st, scratch);
}

#endif
