/*
 * sort: a stable sort whose comparator takes a context argument, so that
 * no comparator needs the sort's context in a static variable and sorts
 * on different threads (ranks load in parallel) cannot see each other's.
 *
 * sort_stable() sorts n elements of size bytes at base into the order of
 * cmp(a, b, ctx) (negative, zero or positive as for qsort), keeping equal
 * elements in their input order. Stability makes the result depend on
 * cmp alone, never on the algorithm: it is the order glibc's qsort gives
 * (a merge sort too, as long as memory allows). It merges through a
 * scratch buffer of n * size bytes, or in place, more slowly, when that
 * cannot be had; it never fails.
 */
#ifndef GPULENS_SORT_H
#define GPULENS_SORT_H

#include <stddef.h>
#include <stdint.h>

typedef int	(*sort_cmp_fn)(const void *a, const void *b, void *ctx);

void	sort_stable(void *base, size_t n, size_t size, sort_cmp_fn cmp,
	    void *ctx);
/* The same order, merging in place only: it allocates nothing. */
void	sort_stable_inplace(void *base, size_t n, size_t size,
	    sort_cmp_fn cmp, void *ctx);

/*
 * Ascending orders of one scalar of the named type, for qsort() (an array
 * of such values needs no stability).
 */
int	sort_cmp_i64(const void *, const void *);
int	sort_cmp_u32(const void *, const void *);
int	sort_cmp_u64(const void *, const void *);
int	sort_cmp_double(const void *, const void *);

/*
 * The lexicographic order of (a0, a1) and (b0, b1): -1, 0 or 1, for a
 * comparator over two keys (a key in descending order passes its two
 * values swapped). Keys are signed 64-bit: any int, uint32_t or int64_t
 * fits, a uint64_t may not.
 */
static inline int
sort_lex2(int64_t a0, int64_t b0, int64_t a1, int64_t b1)
{
	if (a0 != b0)
		return a0 < b0 ? -1 : 1;
	return (a1 > b1) - (a1 < b1);
}

/* The same over three keys: (a0, a1, a2) and (b0, b1, b2). */
static inline int
sort_lex3(int64_t a0, int64_t b0, int64_t a1, int64_t b1, int64_t a2,
    int64_t b2)
{
	if (a0 != b0)
		return a0 < b0 ? -1 : 1;
	return sort_lex2(a1, b1, a2, b2);
}

#endif
