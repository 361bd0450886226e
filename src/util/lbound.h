/*
 * lbound: the one binary search. Every search over a sorted array is a
 * partition point: the first index whose element is not below the key.
 *
 * lbound_i64() and lbound_u32() find the first element >= key (a lower
 * bound), lbound_i64_above() and lbound_u32_above() the first > key (an
 * upper bound); all return n when there is none. A search over part of an
 * array passes a + lo and hi - lo and adds lo back. lbound_if() is the
 * general form, for keys that are reached through another array or
 * compared by more than one field: below(ctx, i) must be true for a prefix
 * of [lo, hi) and false after it, and the first i where it is false (hi if
 * none) is returned.
 *
 * lbound_i64_from() is lbound_i64() for a walk whose keys do not decrease:
 * given that every element before lo is below key, it gallops from lo, so
 * an answer k elements ahead costs O(log k) instead of O(log n).
 */
#ifndef GPULENS_LBOUND_H
#define GPULENS_LBOUND_H

#include <stddef.h>
#include <stdint.h>

size_t	lbound_i64(const int64_t *a, size_t n, int64_t key);
size_t	lbound_i64_above(const int64_t *a, size_t n, int64_t key);
size_t	lbound_u32(const uint32_t *a, size_t n, uint32_t key);
size_t	lbound_u32_above(const uint32_t *a, size_t n, uint32_t key);
size_t	lbound_u64(const uint64_t *a, size_t n, uint64_t key);
size_t	lbound_i64_from(const int64_t *a, size_t n, size_t lo, int64_t key);
size_t	lbound_if(size_t lo, size_t hi,
	    int (*below)(const void *ctx, size_t i), const void *ctx);

#endif
