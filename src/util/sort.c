/*
 * sort: stable merge sort with a comparator context. See sort.h.
 *
 * Runs of SORT_RUN elements are insertion-sorted, then merged: through a
 * scratch buffer when one can be allocated (top-down, with the merge of
 * two halves already in order skipped), else in place by the SymMerge of
 * Kim and Kutzner (rotations; O(n log^2 n) moves).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

#define SORT_RUN	12

struct sort_ctx {
	char		*base;
	size_t		 size;
	sort_cmp_fn	 cmp;
	void		*ctx;
	char		*tmp;		/* n * size bytes, or NULL */
};

#define SORT_AT(s, i)	((s)->base + (i) * (s)->size)

static int
sort_cmp(const struct sort_ctx *s, size_t i, size_t j)
{
	return s->cmp(SORT_AT(s, i), SORT_AT(s, j), s->ctx);
}

/* Swaps the n-byte blocks at a and b (which do not overlap). */
static void
sort_swap(char *a, char *b, size_t n)
{
	char	t[64];
	size_t	k;

	while (n > 0) {
		k = n < sizeof t ? n : sizeof t;
		memcpy(t, a, k);
		memcpy(a, b, k);
		memcpy(b, t, k);
		a += k;
		b += k;
		n -= k;
	}
}

/* Insertion sort of [lo, hi): stable, swapping neighbours. */
static void
sort_insertion(const struct sort_ctx *s, size_t lo, size_t hi)
{
	size_t	i, j;

	for (i = lo + 1; i < hi; i++)
		for (j = i; j > lo && sort_cmp(s, j - 1, j) > 0; j--)
			sort_swap(SORT_AT(s, j - 1), SORT_AT(s, j), s->size);
}

/* Reverses the elements of [lo, hi). */
static void
sort_reverse(const struct sort_ctx *s, size_t lo, size_t hi)
{
	while (lo + 1 < hi) {
		hi--;
		sort_swap(SORT_AT(s, lo), SORT_AT(s, hi), s->size);
		lo++;
	}
}

/* Exchanges the blocks [lo, mid) and [mid, hi). */
static void
sort_rotate(const struct sort_ctx *s, size_t lo, size_t mid, size_t hi)
{
	if (lo == mid || mid == hi)
		return;
	sort_reverse(s, lo, mid);
	sort_reverse(s, mid, hi);
	sort_reverse(s, lo, hi);
}

/* Merges the sorted [lo, mid) and [mid, hi) in place (SymMerge). */
static void
sort_symmerge(const struct sort_ctx *s, size_t a, size_t m, size_t b)
{
	size_t	i, j, h, k, mid, n, start, r, p;

	if (m - a == 1) {
		/* Insert a into [m, b): after the last element < it. */
		for (i = m, j = b; i < j; ) {
			h = i + (j - i) / 2;
			if (sort_cmp(s, h, a) < 0)
				i = h + 1;
			else
				j = h;
		}
		for (k = a; k < i - 1; k++)
			sort_swap(SORT_AT(s, k), SORT_AT(s, k + 1), s->size);
		return;
	}
	if (b - m == 1) {
		/* Insert m into [a, m): after the last element <= it. */
		for (i = a, j = m; i < j; ) {
			h = i + (j - i) / 2;
			if (sort_cmp(s, m, h) >= 0)
				i = h + 1;
			else
				j = h;
		}
		for (k = m; k > i; k--)
			sort_swap(SORT_AT(s, k), SORT_AT(s, k - 1), s->size);
		return;
	}
	mid = a + (b - a) / 2;
	n = mid + m;
	if (m > mid) {
		start = n - b;
		r = mid;
	} else {
		start = a;
		r = m;
	}
	p = n - 1;
	while (start < r) {
		h = start + (r - start) / 2;
		if (sort_cmp(s, p - h, h) >= 0)
			start = h + 1;
		else
			r = h;
	}
	k = n - start;
	if (start < m && m < k)
		sort_rotate(s, start, m, k);
	if (a < start && start < mid)
		sort_symmerge(s, a, start, mid);
	if (mid < k && k < b)
		sort_symmerge(s, mid, k, b);
}

/* Merges the sorted [lo, mid) and [mid, hi) through s->tmp. */
static void
sort_merge(const struct sort_ctx *s, size_t lo, size_t mid, size_t hi)
{
	size_t	i = lo, j = mid, o = 0, z = s->size;

	while (i < mid && j < hi) {
		if (sort_cmp(s, j, i) < 0)
			memcpy(s->tmp + o++ * z, SORT_AT(s, j++), z);
		else
			memcpy(s->tmp + o++ * z, SORT_AT(s, i++), z);
	}
	/* What is left of the right half is in place already. */
	if (i < mid)
		memcpy(s->tmp + o * z, SORT_AT(s, i), (mid - i) * z);
	memcpy(SORT_AT(s, lo), s->tmp, (j - lo) * z);
}

static void
sort_range(const struct sort_ctx *s, size_t lo, size_t hi)
{
	size_t	mid;

	if (hi - lo <= SORT_RUN) {
		sort_insertion(s, lo, hi);
		return;
	}
	mid = lo + (hi - lo) / 2;
	sort_range(s, lo, mid);
	sort_range(s, mid, hi);
	if (sort_cmp(s, mid - 1, mid) <= 0)
		return;		/* already in order */
	if (s->tmp != NULL)
		sort_merge(s, lo, mid, hi);
	else
		sort_symmerge(s, lo, mid, hi);
}

static void
sort_run(void *base, size_t n, size_t size, sort_cmp_fn cmp, void *ctx,
    int inplace)
{
	struct sort_ctx	s;

	if (n < 2 || size == 0)
		return;
	s.base = base;
	s.size = size;
	s.cmp = cmp;
	s.ctx = ctx;
	s.tmp = NULL;
	if (!inplace && n > SORT_RUN && n <= SIZE_MAX / size)
		s.tmp = malloc(n * size);	/* NULL: merge in place */
	sort_range(&s, 0, n);
	free(s.tmp);
}

void
sort_stable(void *base, size_t n, size_t size, sort_cmp_fn cmp, void *ctx)
{
	sort_run(base, n, size, cmp, ctx, 0);
}

void
sort_stable_inplace(void *base, size_t n, size_t size, sort_cmp_fn cmp,
    void *ctx)
{
	sort_run(base, n, size, cmp, ctx, 1);
}

/* The ascending scalar orders: sort_cmp_NAME compares two values of type. */
#define SORT_CMP_SCALAR(name, type)					\
int									\
sort_cmp_##name(const void *a, const void *b)				\
{									\
	type	x = *(const type *)a, y = *(const type *)b;		\
									\
	return (x > y) - (x < y);					\
}
SORT_CMP_SCALAR(i64, int64_t)
SORT_CMP_SCALAR(u32, uint32_t)
SORT_CMP_SCALAR(u64, uint64_t)
SORT_CMP_SCALAR(double, double)
#undef SORT_CMP_SCALAR
