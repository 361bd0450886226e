/*
 * cache-format: the file header (struct sizes, CRCs, the checks a header
 * must pass) and the thread count. See cache-int.h.
 */
#include "config.h"

#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "model/cache-int.h"
#include "util/pool.h"
#include "util/xmalloc.h"

_Static_assert(offsetof(struct lane, depth) ==
    2 * sizeof(size_t) + 9 * sizeof(void *),
    "lane raw arrays changed: update the cache and CACHE_VERSION");
_Static_assert(offsetof(struct track, name) + sizeof(uint32_t) <=
    offsetof(struct track, lane) && sizeof(struct track) ==
    offsetof(struct track, lane) + sizeof(struct lane),
    "track fields changed: update the cache and CACHE_VERSION");
_Static_assert(sizeof(struct kernel_info) == 104,
    "kernel_info fields changed: update the cache and CACHE_VERSION");
_Static_assert(CACHE_CHUNK % (1u << ISET_SHIFT) == 0,
    "chunks hold whole coverage blocks");

const uint16_t cache_sizes[12] = {
	sizeof(struct device), sizeof(struct process), sizeof(struct thread),
	sizeof(struct stream), sizeof(struct domain), sizeof(struct meta),
	sizeof(struct kernel_info), sizeof(struct copy_info),
	sizeof(struct nvtx_info), sizeof(double), sizeof(struct track),
	sizeof(struct lane)
};

const size_t cache_tab_width[TAB_COUNT] = {
	sizeof(struct kernel_info), sizeof(struct copy_info),
	sizeof(struct nvtx_info), sizeof(double), sizeof(struct op_info),
	sizeof(struct cframe), sizeof(uint32_t), sizeof(uint32_t),
	sizeof(struct csthread), sizeof(struct csample),
	sizeof(struct sched_thread), sizeof(struct sched_run)
};
_Static_assert(sizeof(struct cframe) == 8 && sizeof(struct csthread) == 32 &&
    sizeof(struct csample) == 16,
    "callchain structs changed: update the cache and CACHE_VERSION");
_Static_assert(sizeof(struct sched_thread) == 32 &&
    sizeof(struct sched_run) == 24, "sched fields changed: update the cache "
    "and CACHE_VERSION");
_Static_assert(sizeof(struct op_info) == 24 && sizeof(struct op_info) % 4 ==
    0, "op_info fields changed: update the cache and CACHE_VERSION");
_Static_assert(sizeof(struct kernel_info) % 4 == 0 &&
    sizeof(struct copy_info) % 4 == 0 && sizeof(struct nvtx_info) % 4 == 0,
    "side tables are shuffled by 4-byte word");

/* Threads for work bytes: one for small jobs, else the cores this process
 * may run on (at most CACHE_THREADS). */
unsigned
cache_nthreads(uint64_t work)
{
	unsigned	n;

	if (work < (4u << 20))
		return 1;
	n = pool_ncpus();
	return n > CACHE_THREADS ? CACHE_THREADS : n;
}

uLong
cache_crc32(uLong crc, const uint8_t *p, size_t n)
{
	uInt	step;

	while (n > 0) {
		step = n > (1u << 30) ? (1u << 30) : (uInt)n;
		crc = crc32(crc, p, step);
		p += step;
		n -= step;
	}
	return crc;
}

/*
 * The payload's checksum: a Fletcher-style sum per CACHE_SUMBLOCK block
 * (four lanes of 64-bit words, each with its running sum a and the sum of
 * its running sums b, so that a changed, lost or moved word changes the
 * block's value), the blocks' values mixed with their index and added. It
 * runs at memory speed, about four times faster than zlib's CRC32 here
 * (the warm load checks every byte of the model with it), and the blocks
 * are summed in parallel.
 */
#define CACHE_MIX1	0x9e3779b185ebca87ULL
#define CACHE_MIX2	0xc2b2ae3d27d4eb4fULL

static uint64_t
cache_mix(uint64_t v)
{
	v ^= v >> 33;
	v *= CACHE_MIX2;
	v ^= v >> 29;
	v *= CACHE_MIX1;
	return v ^ (v >> 32);
}

/* The 64-bit word at p, as memcpy() reads it (any alignment). */
static inline uint64_t
cache_sum_word(const uint8_t *p)
{
	uint64_t	w;

	memcpy(&w, p, sizeof w);
	return w;
}

/*
 * Sums n bytes at p (the last 32-byte group zero-padded) into the four
 * lanes' a and b: b gains, per word, the word times the groups from its
 * own to the end of the range. Eight scalars, not arrays, and the whole
 * groups loaded straight from p: the sums stay in registers, and the
 * compiler keeps the four lanes in vector registers (twice the speed of
 * a loop that copies each group into w first).
 */
static inline void
cache_sum_body(const uint8_t *p, size_t n, uint64_t a[4], uint64_t b[4])
{
	uint64_t	a0 = 0, a1 = 0, a2 = 0, a3 = 0, w[4];
	uint64_t	b0 = 0, b1 = 0, b2 = 0, b3 = 0;
	size_t		i, whole = n & ~(size_t)31;

	for (i = 0; i < whole; i += 32) {
		a0 += cache_sum_word(p + i);
		a1 += cache_sum_word(p + i + 8);
		a2 += cache_sum_word(p + i + 16);
		a3 += cache_sum_word(p + i + 24);
		b0 += a0;
		b1 += a1;
		b2 += a2;
		b3 += a3;
	}
	if (i < n) {
		memset(w, 0, sizeof w);
		memcpy(w, p + i, n - i);
		a0 += w[0];
		a1 += w[1];
		a2 += w[2];
		a3 += w[3];
		b0 += a0;
		b1 += a1;
		b2 += a2;
		b3 += a3;
	}
	a[0] = a0;
	a[1] = a1;
	a[2] = a2;
	a[3] = a3;
	b[0] = b0;
	b[1] = b1;
	b[2] = b2;
	b[3] = b3;
}

/*
 * On x86 the same loop is also compiled for AVX2, where the four lanes
 * fit one register: twice the speed again on the bytes pread() just
 * copied (the warm load sums every byte of the model). Which one runs is
 * the processor's answer (a flag the compiler's runtime reads at start);
 * both give the same sums.
 */
#ifdef CACHE_AVX2
__attribute__((target("avx2"))) static void
cache_sum_run_avx2(const uint8_t *p, size_t n, uint64_t a[4],
    uint64_t b[4])
{
	cache_sum_body(p, n, a, b);
}
#endif

static void
cache_sum_run(const uint8_t *p, size_t n, uint64_t a[4], uint64_t b[4])
{
#ifdef CACHE_AVX2
	if (__builtin_cpu_supports("avx2")) {
		cache_sum_run_avx2(p, n, a, b);
		return;
	}
#endif
	cache_sum_body(p, n, a, b);
}

/* The value of block j of n bytes from its lanes' sums. */
static uint64_t
cache_sum_value(uint64_t j, size_t n, const uint64_t a[4],
    const uint64_t b[4])
{
	uint64_t	h;

	h = cache_mix(j * CACHE_MIX1 + n);
	h = cache_mix(h ^ a[0]) + cache_mix(h ^ b[0] ^ 1);
	h = cache_mix(h ^ a[1]) + cache_mix(h ^ b[1] ^ 2);
	h = cache_mix(h ^ a[2]) + cache_mix(h ^ b[2] ^ 3);
	h = cache_mix(h ^ a[3]) + cache_mix(h ^ b[3] ^ 4);
	return h;
}

static uint64_t
cache_sum_block(const uint8_t *p, size_t n, uint64_t j)
{
	uint64_t	a[4], b[4];

	cache_sum_run(p, n, a, b);
	return cache_sum_value(j, n, a, b);
}

/*
 * Gives back the whole pages inside [p, p + len) of a private file mapping
 * (they are read again from the page cache when touched): checking a file
 * touches every page, and what the model never reads again need not stay
 * resident. Only for a file mapping, where dropping a clean page loses
 * nothing; does nothing for less than a few pages.
 */
void
cache_drop(const uint8_t *p, size_t len)
{
	uintptr_t	a, e;

	if (len < (64u << 10))
		return;
	a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	e = ((uintptr_t)p + len) & ~(uintptr_t)4095;
	if (e > a)
		madvise((void *)a, e - a, MADV_DONTNEED);
}

struct cache_sum {
	const uint8_t	*p;
	size_t		 n;
	int		 drop;
	uint64_t	 part[CACHE_THREADS];
	size_t		 nparts;
};

static int
cache_sum_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_sum	*s = arg;
	size_t			 nb, b0, b1, b, off, len;
	uint64_t		 h = 0;

	(void)tid;
	(void)cause;
	nb = (s->n + CACHE_SUMBLOCK - 1) / CACHE_SUMBLOCK;
	b0 = nb * j / s->nparts;
	b1 = nb * (j + 1) / s->nparts;
	for (b = b0; b < b1; b++) {
		off = b * CACHE_SUMBLOCK;
		len = s->n - off < CACHE_SUMBLOCK ? s->n - off :
		    CACHE_SUMBLOCK;
		h += cache_sum_block(s->p + off, len, b);
		if (s->drop)
			cache_drop(s->p + off, len);
	}
	s->part[j] = h;
	return 0;
}

uint32_t
cache_sum(const uint8_t *p, size_t n, int drop)
{
	struct cache_sum	s;
	uint64_t		h;
	size_t			i;

	s.p = p;
	s.n = n;
	s.drop = drop;
	s.nparts = cache_nthreads(n);
	if (s.nparts == 1)
		cache_sum_job(&s, 0, 0, NULL);
	else
		pool_run(s.nparts, (unsigned)s.nparts, cache_sum_job, &s,
		    NULL);
	h = cache_mix(n);
	for (i = 0; i < s.nparts; i++)
		h += s.part[i];
	h = cache_mix(h);
	return (uint32_t)(h ^ (h >> 32));
}

/*
 * The same checksum summed piece by piece, in any order and on any
 * thread, so that a pass that reads the payload for its own checks sums
 * what it reads while it is in the processor's cache instead of reading
 * it twice. The Fletcher sums of a block combine: a word's share of b is
 * the word times the groups from its own to the block's end, so a piece
 * ending g groups before the end of its block adds its a to the block's
 * a, and its own b plus g times its a to the block's b (all modulo 2^64).
 */
void
cache_sumacc_init(struct cache_sumacc *s, const uint8_t *p, size_t n)
{
	size_t	i, k;

	s->p = p;
	s->n = n;
	s->nblocks = (n + CACHE_SUMBLOCK - 1) / CACHE_SUMBLOCK;
	s->v = xreallocarray(NULL, s->nblocks > 0 ? s->nblocks : 1,
	    sizeof *s->v);
	for (i = 0; i < s->nblocks; i++)
		for (k = 0; k < 4; k++) {
			atomic_init(&s->v[i].a[k], 0);
			atomic_init(&s->v[i].b[k], 0);
		}
}

/*
 * Sums bytes [off, off + len) of the payload, read at data (a copy of
 * them), or in place where data is NULL: off a multiple of 32, and off +
 * len too unless it is the payload's end. Blocks may be shared between
 * threads: the sums are added atomically.
 */
void
cache_sumacc_add(struct cache_sumacc *s, uint64_t off, uint64_t len,
    const uint8_t *data)
{
	uint64_t	a[4], b[4], bs, be, e, g;
	size_t		j, k;

	while (len > 0) {
		j = (size_t)(off / CACHE_SUMBLOCK);
		bs = (uint64_t)j * CACHE_SUMBLOCK;
		be = s->n - bs < CACHE_SUMBLOCK ? s->n : bs + CACHE_SUMBLOCK;
		e = off + len < be ? off + len : be;
		cache_sum_run(data != NULL ? data : s->p + off,
		    (size_t)(e - off), a, b);
		/* Groups after the piece, to the block's end. */
		g = (be - bs + 31) / 32 - (e - bs + 31) / 32;
		for (k = 0; k < 4; k++) {
			atomic_fetch_add_explicit(&s->v[j].a[k], a[k],
			    memory_order_relaxed);
			atomic_fetch_add_explicit(&s->v[j].b[k], b[k] + g * a[k],
			    memory_order_relaxed);
		}
		if (data != NULL)
			data += e - off;
		len -= e - off;
		off = e;
	}
}

/* The checksum of everything added (each byte exactly once), as
 * cache_sum() gives it; frees the sums. */
uint32_t
cache_sumacc_end(struct cache_sumacc *s)
{
	uint64_t	a[4], b[4], h = 0, n;
	size_t		j, k;

	for (j = 0; j < s->nblocks; j++) {
		for (k = 0; k < 4; k++) {
			a[k] = atomic_load(&s->v[j].a[k]);
			b[k] = atomic_load(&s->v[j].b[k]);
		}
		n = s->n - (uint64_t)j * CACHE_SUMBLOCK;
		h += cache_sum_value(j, n < CACHE_SUMBLOCK ? (size_t)n :
		    CACHE_SUMBLOCK, a, b);
	}
	free(s->v);
	s->v = NULL;
	h = cache_mix(cache_mix(s->n) + h);
	return (uint32_t)(h ^ (h >> 32));
}

uint32_t
cache_hdr_crc(const struct cache_hdr *h)
{
	struct cache_hdr	c = *h;

	c.hdr_crc = 0;
	return (uint32_t)crc32(crc32(0, Z_NULL, 0), (const Bytef *)&c,
	    sizeof c);
}

/* Checks the header of a cache for trace id; NULL if it is usable, else why
 * not. */
const char *
cache_check_hdr(const struct cache_hdr *h, const struct cache_ident *id,
    uint64_t fsize)
{
	if (memcmp(h->magic, CACHE_MAGIC, sizeof h->magic) != 0)
		return "not a gpulens cache";
	if (fsize < sizeof *h)
		return "truncated";
	if (h->version != CACHE_VERSION || h->bom != CACHE_BOM ||
	    h->hdr_size != sizeof *h)
		return "another cache format version";
	if (cache_hdr_crc(h) != h->hdr_crc)
		return "header checksum mismatch";
	if (memcmp(h->sz, cache_sizes, sizeof h->sz) != 0 ||
	    h->chunk != CACHE_CHUNK)
		return "written by a build with another data layout";
	if (h->trace_size != id->size || h->trace_mtime != id->mtime ||
	    h->trace_ino != id->ino || h->trace_dev != id->dev ||
	    h->trace_ctime != id->ctime || h->trace_fp != id->fp)
		return "stale: the trace changed";
	if (h->payload_size != fsize - sizeof *h)
		return fsize - sizeof *h < h->payload_size ? "truncated" :
		    "trailing garbage";
	if (h->payload_size > SIZE_MAX / 4)
		return "too large";
	if (h->head_size > h->payload_size)
		return "bad head size";
	return NULL;
}
