/*
 * cache-format: the file header (struct sizes, CRCs, the checks a header
 * must pass) and the thread count. See cache-int.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zlib.h>

#include "model/cache-int.h"
#include "util/pool.h"

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

/* CRC32, in parallel parts combined with crc32_combine(). */
struct cache_crc {
	const uint8_t	*p;
	size_t		 n, part;
	uLong		 crc[CACHE_THREADS];
	size_t		 len[CACHE_THREADS];
};

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

static int
cache_crc_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_crc	*c = arg;
	size_t			 off = j * c->part;

	(void)tid;
	(void)cause;
	c->len[j] = off >= c->n ? 0 : (c->n - off < c->part ? c->n - off :
	    c->part);
	c->crc[j] = cache_crc32(crc32(0, Z_NULL, 0), c->p + off, c->len[j]);
	return 0;
}

uint32_t
cache_crc(const uint8_t *p, size_t n)
{
	struct cache_crc	c;
	unsigned		nt = cache_nthreads(n), i;
	uLong			crc;

	if (nt == 1)
		return (uint32_t)cache_crc32(crc32(0, Z_NULL, 0), p, n);
	c.p = p;
	c.n = n;
	c.part = (n + nt - 1) / nt;
	pool_run(nt, nt, cache_crc_job, &c, NULL);
	crc = c.crc[0];
	for (i = 1; i < nt; i++)
		crc = crc32_combine(crc, c.crc[i], (z_off_t)c.len[i]);
	return (uint32_t)crc;
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
