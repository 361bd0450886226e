/*
 * cache-codec: byte shuffling of 4-byte columns with an optional delta
 * transform, and its inverse: the string lengths of the cache's head (the
 * arrays of the model are stored as they are). See cache-int.h.
 *
 * Values are shuffled by value (byte k is bits 8k..8k+7, so the layout
 * does not depend on byte order).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "model/cache-int.h"

void
cache_pack32(uint8_t *out, const uint32_t *a, size_t n, int xform)
{
	uint32_t	v, prev = 0;
	size_t		i;
	int		k;

	for (i = 0; i < n; i++) {
		v = a[i];
		if (xform == XF_DELTA) {
			v -= prev;
			prev = a[i];
		}
		for (k = 0; k < 4; k++)
			out[k * n + i] = (uint8_t)(v >> (8 * k));
	}
}

#define CACHE_GATHER32(p, n, i)						\
	((uint32_t)(p)[i] | (uint32_t)(p)[(n) + (i)] << 8 |		\
	(uint32_t)(p)[2 * (n) + (i)] << 16 |				\
	(uint32_t)(p)[3 * (n) + (i)] << 24)

/*
 * Where SSE2 exists (every x86-64) sixteen values at a time are transposed
 * in registers: four 16-byte loads, two rounds of unpacks; the byte-by-byte
 * gather handles the rest and other machines. Both give the same values:
 * the layout is defined by value.
 */
#ifdef __SSE2__
/* Values i..i+15 of a 4-byte column. */
static inline void
cache_gather32x16(uint32_t *v, const uint8_t *in, size_t n, size_t i)
{
	__m128i	b0, b1, b2, b3, t0, t1, t2, t3;

	b0 = _mm_loadu_si128((const __m128i *)(in + i));
	b1 = _mm_loadu_si128((const __m128i *)(in + n + i));
	b2 = _mm_loadu_si128((const __m128i *)(in + 2 * n + i));
	b3 = _mm_loadu_si128((const __m128i *)(in + 3 * n + i));
	t0 = _mm_unpacklo_epi8(b0, b1);
	t1 = _mm_unpackhi_epi8(b0, b1);
	t2 = _mm_unpacklo_epi8(b2, b3);
	t3 = _mm_unpackhi_epi8(b2, b3);
	_mm_storeu_si128((__m128i *)(v + 0), _mm_unpacklo_epi16(t0, t2));
	_mm_storeu_si128((__m128i *)(v + 4), _mm_unpackhi_epi16(t0, t2));
	_mm_storeu_si128((__m128i *)(v + 8), _mm_unpacklo_epi16(t1, t3));
	_mm_storeu_si128((__m128i *)(v + 12), _mm_unpackhi_epi16(t1, t3));
}
#endif

void
cache_unpack32(uint32_t *out, const uint8_t *in, size_t n, int xform)
{
	uint32_t	acc = 0;
	size_t		i = 0;
#ifdef __SSE2__
	uint32_t	v[16];
	size_t		k;

	for (; i + 16 <= n; i += 16) {
		cache_gather32x16(v, in, n, i);
		if (xform == XF_DELTA) {
			for (k = 0; k < 16; k++) {
				acc += v[k];
				out[i + k] = acc;
			}
		} else
			memcpy(out + i, v, sizeof v);
	}
#endif
	if (xform == XF_DELTA) {
		for (; i < n; i++) {
			acc += CACHE_GATHER32(in, n, i);
			out[i] = acc;
		}
	} else {
		for (; i < n; i++)
			out[i] = CACHE_GATHER32(in, n, i);
	}
}
