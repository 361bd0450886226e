/*
 * rdiff: Nsight Compute's baseline comparison, defined once for the
 * `diff` verb (two reports, or two launches of one) and the terminal
 * report view's baseline column.
 *
 * Pairing: two reports are paired launch by launch by kernel name and
 * order, the k-th launch of a kernel on one side with the k-th launch of
 * the same kernel on the other (rdiff_occurrence, rdiff_partner).
 *
 * Comparison: a metric is compared when both launches hold it by name
 * and both values are finite numbers; the change is b - a (a is the
 * baseline) and the relative change is that over |a|, undefined (NaN)
 * when a is 0.
 */
#ifndef GPULENS_RDIFF_H
#define GPULENS_RDIFF_H

#include <stdint.h>

#include "report/report.h"

struct rdiff_cmp {
	double	 a, b;		/* baseline, compared */
	double	 change;	/* b - a */
	double	 change_pct;	/* 100 (b - a) / |a|; NaN when a == 0 */
};

/* How many launches of the same kernel come before launch l in r. */
uint32_t	 rdiff_occurrence(const struct report *r, uint32_t l);
/* The launch of other that pairs with launch l of r (same kernel name,
 * same occurrence), or REPORT_NONE. */
uint32_t	 rdiff_partner(const struct report *r, uint32_t l,
		    const struct report *other);
/*
 * Compares metric ma (of the baseline) with mb. Returns 1 and fills *c
 * when both are finite numbers, else 0.
 */
int		 rdiff_compare(const struct report_metric *ma,
		    const struct report_metric *mb, struct rdiff_cmp *c);

#endif
