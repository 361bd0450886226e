/*
 * iset: the algebra of interval sets, for the analyses that combine busy
 * times (idle gaps, exposed communication, copy/compute overlap).
 *
 * An interval set is a list of half-open segments [start, end) kept sorted,
 * disjoint and non-adjacent (touching segments are merged, so [0,5) and
 * [5,9) are stored as [0,9)); empty segments are never stored. Lengths are
 * in the same unit as the coordinates (ns).
 *
 * Building: iset_add() appends segments in non-decreasing start order and
 * merges as it goes (the union of intervals sorted by start, in O(1)
 * amortised each); iset_build() takes intervals in any order (O(n log n)).
 * The binary operations are linear merges, O(|a| + |b|); their output must
 * be a different set from both inputs. iset_index() adds prefix sums so that
 * iset_measure() answers "covered time inside [t0, t1)" in O(log n).
 *
 * A union can also be taken on the fly without storing it: struct iset_run
 * takes intervals in non-decreasing start order and hands back each
 * finished segment of their union (the sweeps of the analysis verbs run in
 * O(1) memory this way).
 *
 * A set may also borrow arrays owned elsewhere (a lane's struct coverage
 * already is such a list): iset_view() makes a read-only view that must not
 * be grown or freed, only read and passed as an input.
 *
 * Ownership: a set owns start, end and pre unless it is a view; iset_free()
 * releases them and leaves an empty set.
 */
#ifndef GPULENS_ISET_H
#define GPULENS_ISET_H

#include <stddef.h>
#include <stdint.h>

struct iset {
	size_t		 n, cap;	/* segments; allocated (0: view) */
	int64_t		*start, *end;
	int64_t		*pre;		/* n + 1 prefix lengths, after
					   iset_index(), else NULL */
	int		 view;		/* borrows its arrays */
};

void	 iset_init(struct iset *);
void	 iset_free(struct iset *);
/* Empties the set, keeping its storage. */
void	 iset_clear(struct iset *);
/* A read-only view of n sorted, disjoint segments owned by someone else. */
void	 iset_view(struct iset *, int64_t *start, int64_t *end, size_t n);
/* Replaces dst's content by a copy of src. */
void	 iset_copy(struct iset *dst, const struct iset *src);
/*
 * Appends [s, e). s must be >= the start of every segment added before
 * (it may lie before their ends: the segments then merge). Empty or
 * inverted intervals are ignored.
 */
void	 iset_add(struct iset *, int64_t s, int64_t e);
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
/* out = the union of nin sets (pairwise merges, O(total log nin)). */
void	 iset_union_many(struct iset *out, const struct iset *const *in,
	    size_t nin);
/* |a & b| and |a \ b| without building the result. */
int64_t	 iset_intersect_len(const struct iset *a, const struct iset *b);
int64_t	 iset_diff_len(const struct iset *a, const struct iset *b);
/* out = a & [t0, t1), found by binary search: O(log n + result). */
void	 iset_clip(struct iset *out, const struct iset *a, int64_t t0,
	    int64_t t1);
/* Index of the first segment with end > t (n if none). */
size_t	 iset_lower(const struct iset *, int64_t t);

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

/* Builds the prefix sums (again after any change). */
void	 iset_index(struct iset *);
/* Covered length inside [t0, t1): O(log n) after iset_index(). */
int64_t	 iset_measure(const struct iset *, int64_t t0, int64_t t1);

#endif
