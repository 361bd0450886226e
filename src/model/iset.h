/*
 * iset: the one interval-set implementation, for every busy/idle question
 * (a lane's busy time, a device's, the activity classes, idle gaps,
 * exposed communication, copy/compute overlap).
 *
 * An interval set is a list of half-open segments [start, end) kept sorted,
 * disjoint and non-adjacent (touching segments are merged, so [0,5) and
 * [5,9) are stored as [0,9)); empty segments are never stored. Lengths are
 * in the same unit as the coordinates (ns).
 *
 * Building: iset_add() appends segments in non-decreasing start order and
 * merges as it goes (the union of intervals sorted by start, in O(1)
 * amortised each); iset_build_sorted() does that for whole arrays in one
 * allocation, iset_build() takes intervals in any order (O(n log n)).
 * The binary operations are linear merges, O(|a| + |b|); their output must
 * be a different set from both inputs; iset_union_many() merges any number
 * of sets with a heap, O(total log nin).
 *
 * Measuring: iset_index() adds prefix sums of the lengths, kept every
 * 1 << shift segments (shift 0: every segment; ISET_SHIFT for the large
 * per-lane and per-device sets, one eighth of a byte per segment instead
 * of eight), so that iset_measure() answers "covered time inside [t0, t1)"
 * in O(log n + (1 << shift)). Without them it walks the segments inside.
 *
 * A union can also be taken on the fly without storing it: struct iset_run
 * takes intervals in non-decreasing start order and hands back each
 * finished segment of their union (the sweeps of the analyses run in O(1)
 * memory this way).
 *
 * A set may also borrow arrays owned elsewhere: a lane whose events never
 * overlap is its own busy set, and iset_view() makes such a view. A view
 * needs only sorted segments with end[i] <= start[i + 1] (empty and touching
 * segments may occur); it must not be grown, only read and passed as an
 * input. Its prefix sums are its own.
 *
 * Ownership: a set owns start and end unless it is a view, and always owns
 * pre; iset_free() releases them and leaves an empty set.
 */
#ifndef GPULENS_ISET_H
#define GPULENS_ISET_H

#include <stddef.h>
#include <stdint.h>

/* The prefix-sum granularity of the large sets (lanes, devices). */
#define ISET_SHIFT	6

struct iset {
	size_t		 n, cap;	/* segments; allocated (0: view) */
	int64_t		*start, *end;
	int64_t		*pre;		/* iset_npre() prefix lengths after
					   iset_index(): pre[k] is the length
					   of segments [0, k << shift); else
					   NULL */
	int		 shift;		/* pre[] granularity */
	int		 view;		/* borrows start and end */
};

void	 iset_init(struct iset *);
void	 iset_free(struct iset *);
/* Empties the set, keeping its storage. */
void	 iset_clear(struct iset *);
/* A read-only view of n sorted, disjoint segments owned by someone else
 * (overwrites the set without freeing it; shift for iset_index()). */
void	 iset_view(struct iset *, int64_t *start, int64_t *end, size_t n,
	    int shift);
/* Makes room for need segments in all (the first reservation is exact:
 * pages never written stay out of memory). */
void	 iset_reserve(struct iset *, size_t need);
/* Cuts an owned set's arrays down to its segments. */
void	 iset_shrink(struct iset *);
/* Replaces dst's content by a copy of src. */
void	 iset_copy(struct iset *dst, const struct iset *src);
/*
 * Appends [s, e). s must be >= the start of every segment added before
 * (it may lie before their ends: the segments then merge). Empty or
 * inverted intervals are ignored.
 */
void	 iset_add(struct iset *, int64_t s, int64_t e);
/* Replaces the content by the union of n intervals sorted by start, in
 * one allocation of exactly the segments kept (no prefix sums). */
void	 iset_build_sorted(struct iset *, const int64_t *start,
	    const int64_t *end, size_t n);
/* Replaces the content by the union of n intervals in any order. */
void	 iset_build(struct iset *, const int64_t *start, const int64_t *end,
	    size_t n);
/* Total covered length. */
int64_t	 iset_len(const struct iset *);

/* out = a | b, a & b, a \ b (out distinct from a and b). */
void	 iset_union(struct iset *out, const struct iset *a,
	    const struct iset *b);
void	 iset_intersect(struct iset *out, const struct iset *a,
	    const struct iset *b);
void	 iset_diff(struct iset *out, const struct iset *a,
	    const struct iset *b);
/* out = the union of nin sets (a heap merge, O(total log nin), one
 * allocation of exactly the segments kept; no prefix sums). out must not be
 * one of the inputs. */
void	 iset_union_many(struct iset *out, const struct iset *const *in,
	    size_t nin);
/* |a & b| and |a \ b| without building the result. */
int64_t	 iset_intersect_len(const struct iset *a, const struct iset *b);
int64_t	 iset_diff_len(const struct iset *a, const struct iset *b);
/* out = a & [t0, t1), found by binary search: O(log n + result). */
void	 iset_clip(struct iset *out, const struct iset *a, int64_t t0,
	    int64_t t1);
/* out = the union of n intervals in any order, & [t0, t1). */
void	 iset_build_clip(struct iset *out, const int64_t *start,
	    const int64_t *end, size_t n, int64_t t0, int64_t t1);
/* Index of the first segment with end > t (n if none). */
size_t	 iset_lower(const struct iset *, int64_t t);

/* The length of [s, e) inside [a, b) (0 if they do not meet). */
static inline int64_t
iset_span_in(int64_t s, int64_t e, int64_t a, int64_t b)
{
	if (s < a)
		s = a;
	if (e > b)
		e = b;
	return e > s ? e - s : 0;
}

/* The union of intervals fed in start order, one segment at a time. */
struct iset_run {
	int64_t		 start, end;	/* the segment being grown */
	int		 open;		/* a segment is being grown */
	int64_t		 len;		/* length of the finished segments */
};

void	 iset_run_init(struct iset_run *);
/*
 * Adds [s, e) (s >= every earlier start; empty intervals are ignored).
 * Returns 1 with the finished segment in *fs, *fe when [s, e) starts a new
 * one, else 0.
 */
int	 iset_run_add(struct iset_run *, int64_t s, int64_t e, int64_t *fs,
	    int64_t *fe);
/* Finishes: returns 1 with the last segment, 0 if there is none. */
int	 iset_run_end(struct iset_run *, int64_t *fs, int64_t *fe);

/* Builds the prefix sums every 1 << a->shift segments (again after any
 * change). */
void	 iset_index(struct iset *);
/* Number of prefix sums iset_index() keeps: (n >> shift) + 1. */
size_t	 iset_npre(const struct iset *);
/* Covered length inside [t0, t1): O(log n + (1 << shift)) after
 * iset_index(), else linear in the segments inside. */
int64_t	 iset_measure(const struct iset *, int64_t t0, int64_t t1);
/* Covered length before t (B(t)), as iset_measure(). */
int64_t	 iset_before(const struct iset *, int64_t t);
/*
 * iset_measure()'s answer for a walk whose times mostly do not decrease
 * (the events of a lane in start order): *at0 and *at1 keep where the last
 * search of each end stopped (0 to begin with) and the next one gallops
 * from there, O(log k) for an answer k segments ahead; a time before it is
 * a binary search.
 */
int64_t	 iset_measure_at(const struct iset *, int64_t t0, int64_t t1,
	    size_t *at0, size_t *at1);

#endif
