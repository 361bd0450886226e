/*
 * cache-codec: byte shuffling with the column transforms (delta, diff),
 * and its inverse, the hot loop of a warm load. See cache-int.h.
 *
 * 8- and 4-byte columns are shuffled by value (byte k is bits 8k..8k+7,
 * so the layout does not depend on byte order) fused with their
 * transform; structs are shuffled by memory byte.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "model/cache-int.h"

static void
cache_pack64(uint8_t *out, const int64_t *a, const int64_t *b, size_t n,
    int xform)
{
	uint64_t	v, prev = 0;
	size_t		i;
	int		k;

	for (i = 0; i < n; i++) {
		v = (uint64_t)a[i];
		if (xform == XF_DELTA) {
			v -= prev;
			prev = (uint64_t)a[i];
		} else if (xform == XF_DIFF)
			v -= (uint64_t)b[i];
		for (k = 0; k < 8; k++)
			out[k * n + i] = (uint8_t)(v >> (8 * k));
	}
}

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

#define CACHE_GATHER64(p, n, i)						\
	((uint64_t)(p)[i] | (uint64_t)(p)[(n) + (i)] << 8 |		\
	(uint64_t)(p)[2 * (n) + (i)] << 16 |				\
	(uint64_t)(p)[3 * (n) + (i)] << 24 |				\
	(uint64_t)(p)[4 * (n) + (i)] << 32 |				\
	(uint64_t)(p)[5 * (n) + (i)] << 40 |				\
	(uint64_t)(p)[6 * (n) + (i)] << 48 |				\
	(uint64_t)(p)[7 * (n) + (i)] << 56)
#define CACHE_GATHER32(p, n, i)						\
	((uint32_t)(p)[i] | (uint32_t)(p)[(n) + (i)] << 8 |		\
	(uint32_t)(p)[2 * (n) + (i)] << 16 |				\
	(uint32_t)(p)[3 * (n) + (i)] << 24)

/*
 * Unshuffling is the hot loop of a warm load (every byte of the model goes
 * through it). Where SSE2 exists (every x86-64) sixteen values at a time
 * are transposed in registers: eight (or four) 16-byte loads, three (two)
 * rounds of unpacks; the byte-by-byte gather handles the rest and other
 * machines. Both give the same values: the layout is defined by value.
 */
#ifdef __SSE2__
/* Values i..i+15 of an 8-byte column whose byte planes lie n apart. */
static inline void
cache_gather64x16(uint64_t *v, const uint8_t *in, size_t n, size_t i)
{
	__m128i	b0, b1, b2, b3, b4, b5, b6, b7, t0, t1, t2, t3, t4, t5, t6, t7;
	__m128i	u0, u1, u2, u3, w0, w1, w2, w3;

	b0 = _mm_loadu_si128((const __m128i *)(in + i));
	b1 = _mm_loadu_si128((const __m128i *)(in + n + i));
	b2 = _mm_loadu_si128((const __m128i *)(in + 2 * n + i));
	b3 = _mm_loadu_si128((const __m128i *)(in + 3 * n + i));
	b4 = _mm_loadu_si128((const __m128i *)(in + 4 * n + i));
	b5 = _mm_loadu_si128((const __m128i *)(in + 5 * n + i));
	b6 = _mm_loadu_si128((const __m128i *)(in + 6 * n + i));
	b7 = _mm_loadu_si128((const __m128i *)(in + 7 * n + i));
	t0 = _mm_unpacklo_epi8(b0, b1);		/* values 0-7, bytes 0-1 */
	t1 = _mm_unpackhi_epi8(b0, b1);		/* values 8-15 */
	t2 = _mm_unpacklo_epi8(b2, b3);
	t3 = _mm_unpackhi_epi8(b2, b3);
	t4 = _mm_unpacklo_epi8(b4, b5);
	t5 = _mm_unpackhi_epi8(b4, b5);
	t6 = _mm_unpacklo_epi8(b6, b7);
	t7 = _mm_unpackhi_epi8(b6, b7);
	u0 = _mm_unpacklo_epi16(t0, t2);	/* values 0-3, bytes 0-3 */
	u1 = _mm_unpackhi_epi16(t0, t2);	/* values 4-7 */
	u2 = _mm_unpacklo_epi16(t1, t3);
	u3 = _mm_unpackhi_epi16(t1, t3);
	w0 = _mm_unpacklo_epi16(t4, t6);	/* values 0-3, bytes 4-7 */
	w1 = _mm_unpackhi_epi16(t4, t6);
	w2 = _mm_unpacklo_epi16(t5, t7);
	w3 = _mm_unpackhi_epi16(t5, t7);
	_mm_storeu_si128((__m128i *)(v + 0), _mm_unpacklo_epi32(u0, w0));
	_mm_storeu_si128((__m128i *)(v + 2), _mm_unpackhi_epi32(u0, w0));
	_mm_storeu_si128((__m128i *)(v + 4), _mm_unpacklo_epi32(u1, w1));
	_mm_storeu_si128((__m128i *)(v + 6), _mm_unpackhi_epi32(u1, w1));
	_mm_storeu_si128((__m128i *)(v + 8), _mm_unpacklo_epi32(u2, w2));
	_mm_storeu_si128((__m128i *)(v + 10), _mm_unpackhi_epi32(u2, w2));
	_mm_storeu_si128((__m128i *)(v + 12), _mm_unpacklo_epi32(u3, w3));
	_mm_storeu_si128((__m128i *)(v + 14), _mm_unpackhi_epi32(u3, w3));
}

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

/* Inverse of cache_pack64; XF_DIFF adds base[i]. */
static void
cache_unpack64(int64_t *out, const uint8_t *in, size_t n, int xform,
    const int64_t *base)
{
	uint64_t	acc = 0;
	size_t		i = 0;
#ifdef __SSE2__
	uint64_t	v[16];
	size_t		k;

	for (; i + 16 <= n; i += 16) {
		cache_gather64x16(v, in, n, i);
		if (xform == XF_DELTA) {
			for (k = 0; k < 16; k++) {
				acc += v[k];
				out[i + k] = (int64_t)acc;
			}
		} else if (xform == XF_DIFF) {
			for (k = 0; k < 16; k++)
				out[i + k] = (int64_t)((uint64_t)base[i + k] +
				    v[k]);
		} else
			memcpy(out + i, v, sizeof v);
	}
#endif
	switch (xform) {
	case XF_DELTA:
		for (; i < n; i++) {
			acc += CACHE_GATHER64(in, n, i);
			out[i] = (int64_t)acc;
		}
		break;
	case XF_DIFF:
		for (; i < n; i++)
			out[i] = (int64_t)((uint64_t)base[i] +
			    CACHE_GATHER64(in, n, i));
		break;
	default:
		for (; i < n; i++)
			out[i] = (int64_t)CACHE_GATHER64(in, n, i);
		break;
	}
}

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

/* Structs: by 4-byte word (their sizes are multiples of 4, see
 * cache_tab_width), each word's bytes by value. */
void
cache_shuffle(uint8_t *out, const uint8_t *in, size_t n, size_t w)
{
	uint32_t	v;
	size_t		i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < w; k += 4) {
			memcpy(&v, in + i * w + k, sizeof v);
			out[k * n + i] = (uint8_t)v;
			out[(k + 1) * n + i] = (uint8_t)(v >> 8);
			out[(k + 2) * n + i] = (uint8_t)(v >> 16);
			out[(k + 3) * n + i] = (uint8_t)(v >> 24);
		}
	}
}

void
cache_unshuffle(uint8_t *out, const uint8_t *in, size_t n, size_t w)
{
	uint32_t	v;
	size_t		i = 0, k;
#ifdef __SSE2__
	uint32_t	vv[16];
	size_t		j;

	for (; i + 16 <= n; i += 16) {
		for (k = 0; k < w; k += 4) {
			cache_gather32x16(vv, in + k * n, n, i);
			for (j = 0; j < 16; j++)
				memcpy(out + (i + j) * w + k, &vv[j],
				    sizeof vv[j]);
		}
	}
#endif
	for (; i < n; i++) {
		for (k = 0; k < w; k += 4) {
			v = CACHE_GATHER32(in + k * n, n, i);
			memcpy(out + i * w + k, &v, sizeof v);
		}
	}
}

static void
cache_pack16(uint8_t *out, const uint16_t *a, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		out[i] = (uint8_t)a[i];
		out[n + i] = (uint8_t)(a[i] >> 8);
	}
}

static void
cache_unpack16(uint16_t *out, const uint8_t *in, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		out[i] = (uint16_t)(in[i] | in[n + i] << 8);
}

/*
 * The bytes to compress for column c of a job (n elements; cols are the
 * job's columns, for XF_DIFF): packed into out, or the column itself when
 * it is one byte wide.
 */
const void *
cache_pack_col(uint8_t *out, const struct cache_col *c,
    const struct cache_col *cols, size_t n)
{
	switch (c->width) {
	case 1:
		return c->p;
	case 2:
		cache_pack16(out, c->p, n);
		break;
	case 4:
		cache_pack32(out, c->p, n, c->xform);
		break;
	default:
		cache_pack64(out, c->p, c->xform == XF_DIFF ?
		    cols[c->ref].p : NULL, n, c->xform);
		break;
	}
	return out;
}

/* Inverse of cache_pack_col, from the decompressed bytes in. */
void
cache_unpack_col(const struct cache_col *c, const struct cache_col *cols,
    const uint8_t *in, size_t n)
{
	switch (c->width) {
	case 2:
		cache_unpack16(c->p, in, n);
		break;
	case 4:
		cache_unpack32(c->p, in, n, c->xform);
		break;
	case 8:
		cache_unpack64(c->p, in, n, c->xform, c->xform == XF_DIFF ?
		    cols[c->ref].p : NULL);
		break;
	}
}
