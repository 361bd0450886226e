/*
 * coverage: the union of a set of intervals, as disjoint sorted segments
 * with prefix sums of their lengths; a lane's busy time, and a device's
 * (the union of its lanes').
 *
 * Ownership: an owned coverage (coverage_build, coverage_union) holds its
 * segments; a lane's own coverage aliases the lane's arrays. Either way
 * coverage_free() releases what it holds.
 */
#ifndef GPULENS_COVERAGE_H
#define GPULENS_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Disjoint, sorted segments with prefix sums of their lengths kept every
 * 1 << shift segments: sums[k] is the total length of segments
 * [0, k << shift), for k = 0 .. n >> shift. Coverages built by
 * coverage_build() and coverage_union() have shift 0 (sums[n] is the
 * total); a non-overlapping lane's own coverage (its events) and a device's
 * union have COVERAGE_SHIFT, which costs one eighth of a byte per segment
 * instead of eight, and a query adds at most (1 << shift) - 1 lengths to
 * the nearest sum. coverage_total() gives the total for any shift.
 */
#define COVERAGE_SHIFT	6

struct coverage {
	size_t		 n;
	int64_t		*start, *end;
	int64_t		*sums;		/* coverage_nsums() entries */
	int		 owned;		/* start/end allocated here (else
					   they alias a lane's arrays) */
	int		 shift;		/* sums[] granularity, see above */
};

void	 coverage_free(struct coverage *);
/* Builds the union of sorted-by-start intervals (start[i], end[i]):
 * maximal segments of positive length, touching ones merged. Overwrites
 * *c without freeing it; free the result with coverage_free(). */
void	 coverage_build(struct coverage *, const int64_t *start,
	    const int64_t *end, size_t n);
/* Merges several coverages into their union (same form as coverage_build),
 * O(total log nin). Overwrites *out without freeing it. */
void	 coverage_union(struct coverage *out, const struct coverage *const *in,
	    size_t nin);
/* Busy time of the coverage within [t0, t1), O(log n + (1 << shift)). */
int64_t	 coverage_busy(const struct coverage *, int64_t t0, int64_t t1);
/* B(t): busy time before t. */
int64_t	 coverage_busy_before(const struct coverage *, int64_t t);
/* Total length of the segments. */
int64_t	 coverage_total(const struct coverage *);
/* Number of entries of c->sums: (n >> shift) + 1. */
size_t	 coverage_nsums(const struct coverage *);
/*
 * Fills c->sums (allocated here, coverage_nsums() entries) from the
 * segments c->start/c->end and c->shift; any previous sums are freed.
 */
void	 coverage_sums(struct coverage *);

#endif
