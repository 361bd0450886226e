/*
 * lbound: binary searches for partition points. See lbound.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "util/lbound.h"

/* A search over a typed array: [lo, hi) narrows while below holds at mid. */
#define LBOUND_ARRAY(name, type, below)					\
size_t									\
name(const type *a, size_t n, type key)					\
{									\
	size_t	lo = 0, hi = n, mid;					\
									\
	while (lo < hi) {						\
		mid = lo + (hi - lo) / 2;				\
		if (below)						\
			lo = mid + 1;					\
		else							\
			hi = mid;					\
	}								\
	return lo;							\
}

LBOUND_ARRAY(lbound_i64, int64_t, a[mid] < key)
LBOUND_ARRAY(lbound_i64_above, int64_t, a[mid] <= key)
LBOUND_ARRAY(lbound_u32, uint32_t, a[mid] < key)
LBOUND_ARRAY(lbound_u32_above, uint32_t, a[mid] <= key)
LBOUND_ARRAY(lbound_u64, uint64_t, a[mid] < key)

size_t
lbound_i64_from(const int64_t *a, size_t n, size_t lo, int64_t key)
{
	size_t	hi, step;

	if (lo >= n)		/* nothing from lo on (a may be NULL) */
		return lo;
	/* Widen [lo, hi) by doubling steps until a[hi - 1] >= key. */
	for (step = 1, hi = lo; hi < n && a[hi] < key; step *= 2) {
		lo = hi + 1;
		hi = lo + step < n ? lo + step : n;
		if (a[hi - 1] >= key)
			break;
	}
	return lo + lbound_i64(a + lo, hi - lo, key);
}

size_t
lbound_if(size_t lo, size_t hi, int (*below)(const void *, size_t),
    const void *ctx)
{
	size_t	mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (below(ctx, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
