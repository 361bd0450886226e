/*
 * lbound: binary searches for partition points. See lbound.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "util/lbound.h"

/* The loop every search shares: [lo, hi) narrows while BELOW(mid). */
#define LBOUND_LOOP(lo, hi, BELOW) do {				\
	size_t	mid_;						\
								\
	while ((lo) < (hi)) {					\
		mid_ = (lo) + ((hi) - (lo)) / 2;		\
		if (BELOW(mid_))				\
			(lo) = mid_ + 1;			\
		else						\
			(hi) = mid_;				\
	}							\
} while (0)

size_t
lbound_i64(const int64_t *a, size_t n, int64_t key)
{
	size_t	lo = 0, hi = n;

#define BELOW(i) (a[i] < key)
	LBOUND_LOOP(lo, hi, BELOW);
#undef BELOW
	return lo;
}

size_t
lbound_i64_above(const int64_t *a, size_t n, int64_t key)
{
	size_t	lo = 0, hi = n;

#define BELOW(i) (a[i] <= key)
	LBOUND_LOOP(lo, hi, BELOW);
#undef BELOW
	return lo;
}

size_t
lbound_u32(const uint32_t *a, size_t n, uint32_t key)
{
	size_t	lo = 0, hi = n;

#define BELOW(i) (a[i] < key)
	LBOUND_LOOP(lo, hi, BELOW);
#undef BELOW
	return lo;
}

size_t
lbound_u32_above(const uint32_t *a, size_t n, uint32_t key)
{
	size_t	lo = 0, hi = n;

#define BELOW(i) (a[i] <= key)
	LBOUND_LOOP(lo, hi, BELOW);
#undef BELOW
	return lo;
}

size_t
lbound_if(size_t lo, size_t hi, int (*below)(const void *, size_t),
    const void *ctx)
{
#define BELOW(i) below(ctx, i)
	LBOUND_LOOP(lo, hi, BELOW);
#undef BELOW
	return lo;
}
