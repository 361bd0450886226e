/*
 * lane: the events of one track as struct-of-arrays, sorted by start, with
 * the interval index that answers every time query in O(log n).
 *
 * Design (../shared/docs/STYLE.md, "lanes first, a tree only where needed"):
 *   - Readers append events in any order (lane_push). lane_finalize() sorts
 *     them by (start, longer first) with a stable radix sort on start when
 *     they are not already sorted, then builds:
 *   - depth[]: nesting depth from a stack sweep (0 = outermost); for events
 *     that do not nest properly (partial overlap) the smallest free level.
 *   - overlaps: whether any two events overlap. When they do, maxend[] is a
 *     cgranges-style implicit augmented interval tree over the sorted array,
 *     and ends_sorted[] holds the ends in ascending order (for counts).
 *   - cov: the union of the events as disjoint segments with prefix sums of
 *     busy time (for a non-overlapping lane the segments are the events,
 *     with a sum every 64 of them).
 *   - pyr: a block-max pyramid of durations (blocks of 64) for "dominant
 *     event in an index range" queries.
 *
 * Query functions take caller-owned, reusable result buffers
 * (uint32_t **buf, size_t *cap) and return the number of results; they make
 * no allocation once the buffer is large enough.
 *
 * Ownership: a lane owns all its arrays; lane_free() releases them.
 */
#ifndef GPULENS_LANE_H
#define GPULENS_LANE_H

#include <stddef.h>
#include <stdint.h>

#include "model/iset.h"
#include "util/xmalloc.h"

struct lane {
	size_t		 n, cap;
	int64_t		*start;		/* ns, ascending after finalize */
	int64_t		*end;		/* ns, end >= start */
	uint32_t	*name;		/* string id */
	uint8_t		*kind;		/* enum ev_kind */
	uint8_t		*flags;		/* EVF_* */
	uint32_t	*rowid32;	/* row id in the source, LANE_NOROW
					   none; NULL when rowid64 is used */
	int64_t		*rowid64;	/* row ids, -1 none, when one does not
					   fit rowid32 (else NULL) */
	uint32_t	*corr;		/* correlation id, 0 none */
	uint32_t	*aux;		/* kind-specific index, NONE32 none */

	/* Built by lane_finalize() (or restored, see lane_adopt()): */
	uint16_t	*depth;		/* nesting depth */
	uint16_t	 max_depth;	/* deepest level + 1 (0 if empty) */
	int		 overlaps;	/* any two events overlap */
	int64_t		*maxend;	/* implicit tree (overlaps only) */
	int		 tree_levels;	/* cgranges max level */
	int64_t		*ends_sorted;	/* overlaps only */
	int64_t		 maxdur;	/* longest event */
	struct iset	 cov;
	uint32_t	*pyr;		/* block-max pyramid (argmax indices) */
	size_t		 npyr;
	size_t		*pyr_off;	/* level offsets into pyr */
	int		 pyr_levels;
};

/*
 * The arrays of a lane, by offset in struct lane: the LANE_NEVENTS
 * per-event arrays, then those lane_finalize() builds; the first
 * LANE_NMAPPED (all but pyr_off) are those a cache's mapping may hold,
 * besides the coverage's (cov). LANE_ARRAY(l, i) is array i of lane l.
 */
extern const size_t	 lane_arrays[];
#define LANE_NEVENTS	9
#define LANE_NMAPPED	13
#define LANE_NARRAYS	14
#define LANE_ARRAY(l, i)	XARRAY_AT(l, lane_arrays[i])

/*
 * Row ids take 32 bits while every one is -1 or in [0, LANE_NOROW), which
 * SQLite row ids are in practice, and 64 once one is not: read them with
 * lane_rowid().
 */
#define LANE_NOROW	UINT32_MAX

static inline int64_t
lane_rowid(const struct lane *l, size_t i)
{
	if (l->rowid64 != NULL)
		return l->rowid64[i];
	return l->rowid32[i] == LANE_NOROW ? -1 : (int64_t)l->rowid32[i];
}

/* The fields of one event as readers push it. */
struct lane_event {
	int64_t		 start, end;
	uint32_t	 name;
	uint8_t		 kind, flags;
	int64_t		 rowid;
	uint32_t	 corr;
	uint32_t	 aux;
};

void	 lane_init(struct lane *);
void	 lane_free(struct lane *);
/* Appends one event (amortised O(1)); an end before start is clamped to
 * start. Pushing after lane_finalize() needs another lane_finalize(). */
void	 lane_push(struct lane *, const struct lane_event *);
/* Reserves room for n more events. */
void	 lane_reserve(struct lane *, size_t n);
/*
 * Sorts the events (all arrays move together; aux indices into the model's
 * side tables stay valid) and builds the index. Idempotent. Also shrinks
 * the arrays to n (lane_shrink).
 */
void	 lane_finalize(struct lane *);
/* Shrinks the arrays to n (after loading). */
void	 lane_shrink(struct lane *);
/*
 * Adopts an index restored from elsewhere (the cache) instead of building
 * it. The caller has filled the sorted event arrays (cap == n; one of
 * rowid32 and rowid64), overlaps, max_depth, maxdur, cov.pre
 * (lane_cov_nsums() entries) and pyr (lane_pyr_size() entries); for an
 * overlapping lane also depth, maxend, ends_sorted and the coverage's
 * segments (cov.n, start, end: the lane owns them from the call on,
 * whatever it returns). lane_adopt() derives the rest (tree levels,
 * pyramid offsets, the coverage of a non-overlapping lane, its all-zero
 * depth) and checks what the queries rely on to stay inside the arrays:
 * depths below max_depth, pyramid entries below n, sizes that agree. A
 * restored index that passes answers every query without reading out of
 * bounds; its values are trusted. Returns 0, or -1 if the parts do not fit
 * (lane_free() still releases everything).
 */
int	 lane_adopt(struct lane *);
/* Entries of the block-max pyramid of a lane of n events. */
size_t	 lane_pyr_size(size_t n);
/* Entries of cov.pre for a lane of n events: overlapping lanes have an
 * owned coverage of cov_n segments, the others cover their n events. */
size_t	 lane_cov_nsums(size_t n, int overlaps, size_t cov_n);

/* Index of the first event with start >= t (n if none). */
size_t	 lane_lower(const struct lane *, int64_t t);
/*
 * Events overlapping [t0, t1) (start < t1 && end > t0; zero-length events
 * at t0 <= start < t1 count too), in start order. Returns their number and
 * stores indices in *buf (grown as needed).
 */
size_t	 lane_overlap(const struct lane *, int64_t t0, int64_t t1,
	    uint32_t **buf, size_t *cap);
/*
 * The same events without a list where none is needed: when the lane's
 * events do not overlap, or the window holds all of them, they are the
 * index range [*lo, *lo + n) and *buf is left alone; else *lo is
 * LANE_LIST and *buf holds them. Returns n; lane_at() gives the k-th.
 */
#define LANE_LIST	SIZE_MAX
size_t	 lane_overlap_range(const struct lane *, int64_t t0, int64_t t1,
	    uint32_t **buf, size_t *cap, size_t *lo);
static inline size_t
lane_at(const uint32_t *buf, size_t lo, size_t k)
{
	return lo == LANE_LIST ? buf[k] : lo + k;
}
/* Number of events overlapping [t0, t1), same rule as lane_overlap.
 * In every window query a window with t1 <= t0 is empty. */
size_t	 lane_count(const struct lane *, int64_t t0, int64_t t1);
/*
 * On a lane whose events do not overlap (overlaps == 0), the events
 * lane_overlap() gives are a run: *lo .. *lo + n - 1. Returns n, with no
 * buffer to fill.
 */
size_t	 lane_run(const struct lane *, int64_t t0, int64_t t1, size_t *lo);
/* Events containing t (start <= t < end), in start order. */
size_t	 lane_stab(const struct lane *, int64_t t, uint32_t **buf,
	    size_t *cap);
/* Union busy time of the lane's events within [t0, t1), O(log n). */
int64_t	 lane_busy(const struct lane *, int64_t t0, int64_t t1);
/*
 * The dominant event in [t0, t1): the one covering the most time inside the
 * window (ties: earlier). Returns its index or -1 when the window is empty.
 */
int64_t	 lane_dominant(const struct lane *, int64_t t0, int64_t t1);
/* The longest event with index in [i0, i1) (-1 if empty), via the pyramid. */
int64_t	 lane_argmax_dur(const struct lane *, size_t i0, size_t i1);

#endif
