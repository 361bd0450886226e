/*
 * stats-select: the statistics of a narrow sample (stats_compute_narrow)
 * or of unsorted values (stats_compute_any) without sorting them: the two
 * passes of stats-hist.h over the array, keys offset - smallest (below
 * 2^32) from the offsets, or value - smallest from the values.
 */
#include "config.h"

#include <stdint.h>

#include "analysis/stats-hist.h"

#ifdef __SIZEOF_INT128__

/*
 * The key of value i, its distance from the smallest (lo64): from the
 * offsets d (smallest dmin) or the values w.
 */
#define SEL_KEY(i)	(w != NULL ? (uint64_t)(w[i] - lo64) :		\
	(uint64_t)((int64_t)(int32_t)d[i] - dmin))

/* The statistics of n values from lo64 to hi64 from either source. */
static int
stats_select(const uint32_t *d, int32_t dmin, const int64_t *w, size_t n,
    int64_t lo64, int64_t hi64, struct stats *st,
    struct stats_acc *scratch)
{
	struct stats_hist	hs;
	struct stats_hist_sum	s;
	size_t			i;

	if (!stats_hist_begin(&hs, n, lo64, hi64, scratch))
		return 0;
	s = hs.sum;
	for (i = 0; i < n; i++)
		stats_hist_add(&s, SEL_KEY(i));
	hs.sum = s;
	if (stats_hist_ranks(&hs))
		for (i = 0; i < n; i++)
			stats_hist_take(&hs, SEL_KEY(i));
	stats_hist_end(&hs, st);
	return 1;
}

int
stats_select_narrow(const uint32_t *d, size_t n, int64_t base,
    const struct stats_nrange *r, struct stats *st,
    struct stats_acc *scratch)
{
	return stats_select(d, r->dmin, NULL, n, base + r->dmin,
	    base + r->dmax, st, scratch);
}

int
stats_select_values(const int64_t *v, size_t n, int64_t min, int64_t max,
    struct stats *st, struct stats_acc *scratch)
{
	return stats_select(NULL, 0, v, n, min, max, st, scratch);
}

#endif
