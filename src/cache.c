/*
 * cache: the finished model as a versioned, zstd-compressed binary file.
 *
 * Layout (native byte order and struct layout; a different machine or
 * compiler that disagrees on either fails the header checks and rebuilds):
 *
 *   header     struct cache_hdr (128 bytes): magic "GPULENSC", format
 *              version, byte-order mark, sizeof of every raw-stored struct,
 *              the trace's size, mtime (ns), inode and device, the payload's
 *              size and raw size, the number of frames, the events per lane
 *              chunk, a CRC32 of the header itself and a CRC32 of everything
 *              after it.
 *   table      nframes x { raw length, compressed length } (uint64 each)
 *   frames     independent zstd frames (content checksum on), in the order
 *              the plan below gives.
 *
 * Frame 0 holds the small things: scalars, entity tables (raw structs),
 * tracks field by field with their lane lengths, metadata and warnings.
 * From it the loader allocates every final array and derives the plan: the
 * list of jobs and the exact raw length of every further frame, which must
 * match the table. Then come the strings (lengths, then bytes, in id order,
 * so re-interning them reproduces the ids), the side tables (kernels,
 * copies, nvtx as raw structs, counters) and for every lane, per chunk of
 * CACHE_CHUNK events, eight frames: start (delta-coded), duration (end -
 * start), name, kind, flags, rowid (delta-coded), corr (delta-coded), aux.
 * The derived indices (depth, trees, coverage, correlation, NVTX tree) are
 * not stored: model_finalize() rebuilds them, and lanes are already sorted.
 *
 * Loading reads the file with one read(), checks the header CRC, the
 * trace identity and then the payload CRC before decompressing anything,
 * then decompresses the jobs with a few threads straight into the final
 * arrays and undoes the transforms in place. Every count is checked against
 * what the file can hold before anything is allocated. Any mismatch is a
 * miss with a reason, never a crash or a trusted wrong model.
 *
 * Writing goes to a mkstemp() file in the destination directory, renamed
 * over the cache path: readers never see a partial file, concurrent writers
 * each rename a complete file (the last one wins), and a symlink at the
 * cache path is replaced, not followed. No fsync: a file left incomplete by
 * a crash fails its CRC and is rebuilt.
 *
 * Locations: "<dir>/.<name>.gpulens" next to the trace when that directory
 * is writable (or, for reading, when that file exists), else
 * "$XDG_CACHE_HOME/gpulens/<name>-<hash of the real path>.gpulens" (default
 * $HOME/.cache/gpulens).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "cache.h"
#include "timing.h"
#include "xmalloc.h"

#define CACHE_MAGIC	"GPULENSC"
#define CACHE_VERSION	1		/* bump on any layout change */
#define CACHE_BOM	0x01020304u
#define CACHE_CHUNK	(1u << 19)	/* events per lane chunk */
#define CACHE_LEVEL	1		/* zstd level */
#define CACHE_THREADS	4		/* most threads used */
#define CACHE_SUFFIX	".gpulens"
/* A zstd block of at most 128 KiB is never smaller than 4 bytes (RLE), so
 * no valid frame expands by more than this. */
#define CACHE_MAXRATIO	32768
#define CACHE_NFIELDS	8		/* frames per lane chunk */

struct cache_hdr {
	char		 magic[8];
	uint32_t	 version;
	uint32_t	 bom;		/* CACHE_BOM in native order */
	uint32_t	 hdr_size;	/* sizeof (struct cache_hdr) */
	uint32_t	 hdr_crc;	/* CRC32 of the header, this field 0 */
	uint16_t	 sz[12];	/* sizeof of the raw-stored structs */
	uint64_t	 trace_size;
	int64_t		 trace_mtime;	/* ns */
	uint64_t	 trace_ino;
	uint64_t	 trace_dev;
	uint64_t	 payload_size;	/* bytes after the header */
	uint64_t	 raw_size;	/* sum of the frames' raw lengths */
	uint32_t	 nframes;
	uint32_t	 payload_crc;	/* CRC32 of the bytes after the header */
	uint32_t	 chunk;		/* CACHE_CHUNK */
	uint32_t	 reserved[5];
};
_Static_assert(sizeof(struct cache_hdr) == 128, "cache header layout");

/* Identity of the trace file: any change invalidates the cache. */
struct cache_ident {
	uint64_t	 size;
	int64_t		 mtime;
	uint64_t	 ino, dev;
};

enum cache_job_type {
	JOB_STRINGS,		/* two frames: lengths, bytes */
	JOB_KERNELS,
	JOB_COPIES,
	JOB_NVTX,
	JOB_COUNTERS,
	JOB_CHUNK		/* CACHE_NFIELDS frames of one lane chunk */
};

struct cache_job {
	enum cache_job_type	 type;
	uint32_t		 track;		/* JOB_CHUNK */
	size_t			 i0, n;		/* JOB_CHUNK: events */
	size_t			 frame;		/* first frame */
};

struct cache_plan {
	struct cache_job	*jobs;
	size_t			 njobs, jobcap;
	uint64_t		*rawlen;	/* per frame, [0] = small */
	size_t			 nframes, framecap;
	uint64_t		 raw_size;
};

/* The string count and bytes (ids 1..n-1), which the plan needs. */
struct cache_strs {
	uint32_t	 n;
	uint64_t	 bytes;
};

/* A growable output buffer for the small frame. */
struct cache_wbuf {
	uint8_t		*p;
	size_t		 n, cap;
};

/* A bounded input cursor: any read past the end sets err. */
struct cache_rbuf {
	const uint8_t	*p;
	size_t		 n, off;
	int		 err;
};

/* A pool of threads working through a list of jobs. */
struct cache_pool {
	atomic_size_t	 next;
	size_t		 njobs;
	int		(*fn)(void *, size_t, unsigned, char **);
	void		*arg;
	atomic_int	 failed;
	pthread_mutex_t	 lock;
	char		*err;		/* first error */
};

struct cache_worker {
	struct cache_pool	*pool;
	unsigned		 tid;
};

static const uint16_t cache_sizes[12] = {
	sizeof(struct device), sizeof(struct process), sizeof(struct thread),
	sizeof(struct stream), sizeof(struct domain), sizeof(struct meta),
	sizeof(struct kernel_info), sizeof(struct copy_info),
	sizeof(struct nvtx_info), sizeof(double), sizeof(struct lane_event),
	sizeof(struct model)
};

/* ------------------------------------------------------------------ */
/* Threads. */

static unsigned
cache_nthreads(uint64_t work)
{
	long	n;

	if (work < (4u << 20))
		return 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > CACHE_THREADS)
		n = CACHE_THREADS;
	return (unsigned)n;
}

static void
cache_pool_fail(struct cache_pool *p, char *msg)
{
	pthread_mutex_lock(&p->lock);
	if (p->err == NULL)
		p->err = msg;
	else
		free(msg);
	pthread_mutex_unlock(&p->lock);
	atomic_store(&p->failed, 1);
}

static void *
cache_pool_main(void *arg)
{
	struct cache_worker	*w = arg;
	struct cache_pool	*p = w->pool;
	size_t			 j;
	char			*cause;

	while (!atomic_load(&p->failed)) {
		j = atomic_fetch_add(&p->next, 1);
		if (j >= p->njobs)
			break;
		cause = NULL;
		if (p->fn(p->arg, j, w->tid, &cause) != 0)
			cache_pool_fail(p, cause != NULL ? cause :
			    xstrdup("failed"));
	}
	return NULL;
}

/*
 * Runs fn(arg, job, tid, &cause) for every job on up to nthreads threads
 * (tid < nthreads); fn returns 0 or -1 with a cause. Returns 0, or -1 with
 * *cause from the first failing job (the others stop taking jobs).
 */
static int
cache_pool_run(size_t njobs, unsigned nthreads, int (*fn)(void *, size_t,
    unsigned, char **), void *arg, char **cause)
{
	struct cache_pool	 p;
	struct cache_worker	 w[CACHE_THREADS];
	pthread_t		 th[CACHE_THREADS];
	unsigned		 i, started = 0;

	atomic_init(&p.next, 0);
	atomic_init(&p.failed, 0);
	p.njobs = njobs;
	p.fn = fn;
	p.arg = arg;
	p.err = NULL;
	pthread_mutex_init(&p.lock, NULL);
	if (nthreads > CACHE_THREADS)
		nthreads = CACHE_THREADS;
	if (nthreads > njobs)
		nthreads = njobs > 0 ? (unsigned)njobs : 1;
	for (i = 0; i < nthreads; i++) {
		w[i].pool = &p;
		w[i].tid = i;
	}
	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&th[i], NULL, cache_pool_main, &w[i]) != 0)
			break;
		started++;
	}
	cache_pool_main(&w[0]);
	for (i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.lock);
	if (p.err != NULL || atomic_load(&p.failed)) {
		if (cause != NULL)
			*cause = p.err != NULL ? p.err : xstrdup("failed");
		else
			free(p.err);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* CRC32 over a large buffer, in parallel halves combined. */

struct cache_crc {
	const uint8_t	*p;
	size_t		 n, part;
	uLong		 crc[CACHE_THREADS];
	size_t		 len[CACHE_THREADS];
};

static uLong
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
	size_t			 off = j * c->part, len;

	(void)tid;
	(void)cause;
	len = off >= c->n ? 0 : (c->n - off < c->part ? c->n - off : c->part);
	c->crc[j] = cache_crc32(crc32(0, Z_NULL, 0), c->p + off, len);
	c->len[j] = len;
	return 0;
}

static uint32_t
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
	cache_pool_run(nt, nt, cache_crc_job, &c, NULL);
	crc = c.crc[0];
	for (i = 1; i < nt; i++)
		crc = crc32_combine(crc, c.crc[i], (z_off_t)c.len[i]);
	return (uint32_t)crc;
}

static uint32_t
cache_hdr_crc(const struct cache_hdr *h)
{
	struct cache_hdr	c = *h;

	c.hdr_crc = 0;
	return (uint32_t)crc32(crc32(0, Z_NULL, 0), (const Bytef *)&c,
	    sizeof c);
}

/* ------------------------------------------------------------------ */
/* The small frame: writer and bounded reader. */

static void
cache_put(struct cache_wbuf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	XGROW(b->p, b->cap, b->n + n);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
cache_put8(struct cache_wbuf *b, uint8_t v)
{
	cache_put(b, &v, 1);
}

static void
cache_put32(struct cache_wbuf *b, uint32_t v)
{
	cache_put(b, &v, sizeof v);
}

static void
cache_put64(struct cache_wbuf *b, uint64_t v)
{
	cache_put(b, &v, sizeof v);
}

static const uint8_t *
cache_get(struct cache_rbuf *b, size_t n)
{
	const uint8_t	*p;

	if (b->err || n > b->n - b->off) {
		b->err = 1;
		return NULL;
	}
	p = b->p + b->off;
	b->off += n;
	return p;
}

static uint8_t
cache_get8(struct cache_rbuf *b)
{
	const uint8_t	*p = cache_get(b, 1);

	return p != NULL ? *p : 0;
}

static uint32_t
cache_get32(struct cache_rbuf *b)
{
	const uint8_t	*p = cache_get(b, 4);
	uint32_t	 v = 0;

	if (p != NULL)
		memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t
cache_get64(struct cache_rbuf *b)
{
	const uint8_t	*p = cache_get(b, 8);
	uint64_t	 v = 0;

	if (p != NULL)
		memcpy(&v, p, sizeof v);
	return v;
}

/* Reads a count of elements of size sz that must all fit in what is left of
 * the buffer; 0 with err set otherwise. */
static size_t
cache_get_count(struct cache_rbuf *b, size_t sz)
{
	uint64_t	n = cache_get64(b);

	if (b->err || n > (b->n - b->off) / sz) {
		b->err = 1;
		return 0;
	}
	return (size_t)n;
}

/* Reads a raw array of n structs of size sz into a new allocation (NULL
 * when n is 0). */
static void *
cache_get_array(struct cache_rbuf *b, size_t n, size_t sz)
{
	const uint8_t	*p;
	void		*a;

	if (n == 0)
		return NULL;
	if ((p = cache_get(b, n * sz)) == NULL)
		return NULL;
	a = xmalloc(n * sz);
	memcpy(a, p, n * sz);
	return a;
}

static void
cache_put_array(struct cache_wbuf *b, const void *a, size_t n, size_t sz)
{
	cache_put64(b, n);
	cache_put(b, a, n * sz);
}

static void
cache_small_write(struct cache_wbuf *b, const struct model *m,
    const struct cache_strs *s)
{
	const struct track	*t;
	size_t			 i, len;

	cache_put8(b, m->source);
	cache_put32(b, m->source_version);
	cache_put32(b, m->schema_version);
	cache_put64(b, (uint64_t)m->origin_ns);
	cache_put64(b, (uint64_t)m->end_ns);
	cache_put64(b, (uint64_t)m->utc_epoch_ns);
	cache_put32(b, s->n);
	cache_put64(b, s->bytes);

	cache_put_array(b, m->devices, m->ndevices, sizeof *m->devices);
	cache_put_array(b, m->processes, m->nprocesses, sizeof *m->processes);
	cache_put_array(b, m->threads, m->nthreads, sizeof *m->threads);
	cache_put_array(b, m->streams, m->nstreams, sizeof *m->streams);
	cache_put_array(b, m->domains, m->ndomains, sizeof *m->domains);
	cache_put_array(b, m->meta, m->nmeta, sizeof *m->meta);

	cache_put64(b, m->ntracks);
	for (i = 0; i < m->ntracks; i++) {
		t = &m->tracks[i];
		cache_put8(b, t->type);
		cache_put32(b, t->device);
		cache_put32(b, t->stream);
		cache_put32(b, t->process);
		cache_put32(b, t->thread);
		cache_put32(b, t->domain);
		cache_put32(b, t->name);
		cache_put64(b, t->lane.n);
	}

	cache_put64(b, m->nkernels);
	cache_put64(b, m->ncopies);
	cache_put64(b, m->nnvtx);
	cache_put64(b, m->ncounters);

	cache_put64(b, m->nwarnings);
	for (i = 0; i < m->nwarnings; i++) {
		len = strlen(m->warnings[i]);
		cache_put64(b, len);
		cache_put(b, m->warnings[i], len);
	}
}

/* Side-table counts from the small frame, bounded only by the frame table
 * (checked against the plan before anything is allocated). */
struct cache_counts {
	uint64_t	 nkernels, ncopies, nnvtx, ncounters;
	uint64_t	*lane_n;	/* per track */
	char		**warnings;
	size_t		  nwarnings;
};

static int
cache_small_read(struct cache_rbuf *b, struct model *m, struct cache_strs *s,
    struct cache_counts *c)
{
	struct track	*t;
	size_t		 i, n, len;
	const uint8_t	*p;

	m->source = cache_get8(b);
	m->source_version = cache_get32(b);
	m->schema_version = cache_get32(b);
	m->origin_ns = (int64_t)cache_get64(b);
	m->end_ns = (int64_t)cache_get64(b);
	m->utc_epoch_ns = (int64_t)cache_get64(b);
	s->n = cache_get32(b);
	s->bytes = cache_get64(b);

#define TABLE(arr, cnt) do {						\
	cnt = cache_get_count(b, sizeof *arr);				\
	arr = cache_get_array(b, cnt, sizeof *arr);			\
} while (0)
	TABLE(m->devices, m->ndevices);
	TABLE(m->processes, m->nprocesses);
	TABLE(m->threads, m->nthreads);
	TABLE(m->streams, m->nstreams);
	TABLE(m->domains, m->ndomains);
	TABLE(m->meta, m->nmeta);
#undef TABLE

	n = cache_get_count(b, 1 + 6 * 4 + 8);
	if (n > 0) {
		m->tracks = xcalloc(n, sizeof *m->tracks);
		c->lane_n = xcalloc(n, sizeof *c->lane_n);
		m->ntracks = n;
	}
	for (i = 0; i < n; i++) {
		t = &m->tracks[i];
		lane_init(&t->lane);
		t->type = cache_get8(b);
		t->device = cache_get32(b);
		t->stream = cache_get32(b);
		t->process = cache_get32(b);
		t->thread = cache_get32(b);
		t->domain = cache_get32(b);
		t->name = cache_get32(b);
		c->lane_n[i] = cache_get64(b);
	}

	c->nkernels = cache_get64(b);
	c->ncopies = cache_get64(b);
	c->nnvtx = cache_get64(b);
	c->ncounters = cache_get64(b);

	n = cache_get_count(b, 8);
	if (n > 0)
		c->warnings = xcalloc(n, sizeof *c->warnings);
	for (i = 0; i < n; i++) {
		len = cache_get_count(b, 1);
		if ((p = cache_get(b, len)) == NULL)
			break;
		c->warnings[c->nwarnings++] = xstrndup((const char *)p, len);
	}
	if (b->err || b->off != b->n)
		return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The plan: the jobs and frame lengths, derived from counts alone. */

static const uint8_t cache_field_size[CACHE_NFIELDS] = {
	8, 8, 4, 1, 1, 8, 4, 4		/* start dur name kind flags rowid
					   corr aux */
};

/* Adds a job of nf frames; returns -1 if a length overflows. */
static int
cache_plan_add(struct cache_plan *p, enum cache_job_type type, uint32_t track,
    size_t i0, size_t n, const uint64_t *lens, size_t nf)
{
	struct cache_job	*j;
	size_t			 f;

	XGROW(p->jobs, p->jobcap, p->njobs + 1);
	j = &p->jobs[p->njobs++];
	j->type = type;
	j->track = track;
	j->i0 = i0;
	j->n = n;
	j->frame = p->nframes;
	XGROW(p->rawlen, p->framecap, p->nframes + nf);
	for (f = 0; f < nf; f++) {
		if (lens[f] > SIZE_MAX / 2 || p->raw_size + lens[f] <
		    p->raw_size)
			return -1;
		p->rawlen[p->nframes++] = lens[f];
		p->raw_size += lens[f];
	}
	return 0;
}

/* Checked n * sz into *out; -1 on overflow. */
static int
cache_mul(uint64_t n, size_t sz, uint64_t *out)
{
	if (n > (SIZE_MAX / 4) / sz)
		return -1;
	*out = n * sz;
	return 0;
}

static int
cache_plan_build(struct cache_plan *p, const struct cache_strs *s,
    const struct cache_counts *c, size_t ntracks)
{
	uint64_t	lens[CACHE_NFIELDS];
	size_t		t, i0, n, f;

	memset(p, 0, sizeof *p);
	XGROW(p->rawlen, p->framecap, 1);
	p->rawlen[0] = 0;	/* the small frame, set by the caller */
	p->nframes = 1;

	if (s->n > 1) {
		if (cache_mul(s->n - 1, 4, &lens[0]) != 0)
			return -1;
		lens[1] = s->bytes;
		if (cache_plan_add(p, JOB_STRINGS, 0, 0, 0, lens, 2) != 0)
			return -1;
	}
#define TABLE(cnt, type, sz) do {					\
	if ((cnt) > 0) {						\
		if (cache_mul((cnt), (sz), &lens[0]) != 0 ||		\
		    cache_plan_add(p, (type), 0, 0, 0, lens, 1) != 0)	\
			return -1;					\
	}								\
} while (0)
	TABLE(c->nkernels, JOB_KERNELS, sizeof(struct kernel_info));
	TABLE(c->ncopies, JOB_COPIES, sizeof(struct copy_info));
	TABLE(c->nnvtx, JOB_NVTX, sizeof(struct nvtx_info));
	TABLE(c->ncounters, JOB_COUNTERS, sizeof(double));
#undef TABLE

	for (t = 0; t < ntracks; t++) {
		if (c->lane_n[t] > UINT32_MAX)
			return -1;
		for (i0 = 0; i0 < c->lane_n[t]; i0 += n) {
			n = c->lane_n[t] - i0;
			if (n > CACHE_CHUNK)
				n = CACHE_CHUNK;
			for (f = 0; f < CACHE_NFIELDS; f++)
				lens[f] = (uint64_t)n * cache_field_size[f];
			if (cache_plan_add(p, JOB_CHUNK, (uint32_t)t, i0, n,
			    lens, CACHE_NFIELDS) != 0)
				return -1;
		}
	}
	return 0;
}

static void
cache_plan_free(struct cache_plan *p)
{
	free(p->jobs);
	free(p->rawlen);
}

/* ------------------------------------------------------------------ */
/* Saving. */

struct cache_wframe {
	uint8_t		*buf;
	size_t		 complen;
};

struct cache_wctx {
	const struct model	*m;
	struct cache_plan	*plan;
	struct cache_wframe	*frames;
	ZSTD_CCtx		*cctx[CACHE_THREADS];
	uint8_t			*scratch[CACHE_THREADS];
};

static int
cache_compress(struct cache_wctx *w, unsigned tid, size_t frame,
    const void *src, size_t len, char **cause)
{
	size_t	bound = ZSTD_compressBound(len), r;

	if (w->cctx[tid] == NULL) {
		w->cctx[tid] = ZSTD_createCCtx();
		if (w->cctx[tid] == NULL)
			goto fail;
		ZSTD_CCtx_setParameter(w->cctx[tid],
		    ZSTD_c_compressionLevel, CACHE_LEVEL);
		ZSTD_CCtx_setParameter(w->cctx[tid], ZSTD_c_checksumFlag, 1);
	}
	w->frames[frame].buf = xmalloc(bound);
	r = ZSTD_compress2(w->cctx[tid], w->frames[frame].buf, bound, src, len);
	if (ZSTD_isError(r)) {
		*cause = xasprintf("zstd: %s", ZSTD_getErrorName(r));
		return -1;
	}
	w->frames[frame].complen = r;
	return 0;

fail:
	*cause = xstrdup("zstd: cannot create a context");
	return -1;
}

/* Delta-codes n int64 values (as unsigned, wrapping) into out. */
static void
cache_delta64(uint64_t *out, const uint64_t *in, size_t n)
{
	uint64_t	prev = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		out[i] = in[i] - prev;
		prev = in[i];
	}
}

static void
cache_delta32(uint32_t *out, const uint32_t *in, size_t n)
{
	uint32_t	prev = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		out[i] = in[i] - prev;
		prev = in[i];
	}
}

static void
cache_strings_pack(const struct model *m, uint32_t **lens, char **data,
    uint64_t *bytes)
{
	uint32_t	 n = strpool_count(m->strs), i;
	size_t		 off = 0, len;

	*bytes = 0;
	for (i = 1; i < n; i++)
		*bytes += strpool_len(m->strs, i);
	*lens = xreallocarray(NULL, n - 1, sizeof **lens);
	*data = xmalloc(*bytes > 0 ? *bytes : 1);
	for (i = 1; i < n; i++) {
		len = strpool_len(m->strs, i);
		(*lens)[i - 1] = (uint32_t)len;
		memcpy(*data + off, strpool_get(m->strs, i), len);
		off += len;
	}
}

static int
cache_save_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job = &w->plan->jobs[j];
	const struct model	*m = w->m;
	const struct lane	*l;
	uint8_t			*sc;
	uint32_t		*lens;
	char			*data;
	uint64_t		 bytes;
	size_t			 f = job->frame, i, n = job->n, i0 = job->i0;
	int			 rc = 0;

	switch (job->type) {
	case JOB_STRINGS:
		cache_strings_pack(m, &lens, &data, &bytes);
		rc = cache_compress(w, tid, f, lens, w->plan->rawlen[f],
		    cause);
		if (rc == 0)
			rc = cache_compress(w, tid, f + 1, data, bytes, cause);
		free(lens);
		free(data);
		break;
	case JOB_KERNELS:
		rc = cache_compress(w, tid, f, m->kernels, w->plan->rawlen[f],
		    cause);
		break;
	case JOB_COPIES:
		rc = cache_compress(w, tid, f, m->copies, w->plan->rawlen[f],
		    cause);
		break;
	case JOB_NVTX:
		rc = cache_compress(w, tid, f, m->nvtx, w->plan->rawlen[f],
		    cause);
		break;
	case JOB_COUNTERS:
		rc = cache_compress(w, tid, f, m->counters, w->plan->rawlen[f],
		    cause);
		break;
	case JOB_CHUNK:
		l = &m->tracks[job->track].lane;
		if (w->scratch[tid] == NULL)
			w->scratch[tid] = xmalloc((size_t)CACHE_CHUNK * 8);
		sc = w->scratch[tid];
		cache_delta64((uint64_t *)sc, (const uint64_t *)l->start + i0,
		    n);
		rc = cache_compress(w, tid, f, sc, n * 8, cause);
		if (rc != 0)
			break;
		for (i = 0; i < n; i++)
			((uint64_t *)sc)[i] = (uint64_t)l->end[i0 + i] -
			    (uint64_t)l->start[i0 + i];
		rc = cache_compress(w, tid, f + 1, sc, n * 8, cause);
		if (rc == 0)
			rc = cache_compress(w, tid, f + 2, l->name + i0, n * 4,
			    cause);
		if (rc == 0)
			rc = cache_compress(w, tid, f + 3, l->kind + i0, n,
			    cause);
		if (rc == 0)
			rc = cache_compress(w, tid, f + 4, l->flags + i0, n,
			    cause);
		if (rc != 0)
			break;
		cache_delta64((uint64_t *)sc, (const uint64_t *)l->rowid + i0,
		    n);
		rc = cache_compress(w, tid, f + 5, sc, n * 8, cause);
		if (rc != 0)
			break;
		cache_delta32((uint32_t *)sc, l->corr + i0, n);
		rc = cache_compress(w, tid, f + 6, sc, n * 4, cause);
		if (rc == 0)
			rc = cache_compress(w, tid, f + 7, l->aux + i0, n * 4,
			    cause);
		break;
	}
	return rc;
}

/* Writes all of buf to fd; -1 with errno on failure. */
static int
cache_write_all(int fd, const void *buf, size_t n)
{
	const uint8_t	*p = buf;
	ssize_t		 r;

	while (n > 0) {
		r = write(fd, p, n > (1u << 30) ? (1u << 30) : n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int
cache_ident_of(const char *trace, struct cache_ident *id, char **cause)
{
	struct stat	st;

	if (stat(trace, &st) != 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", trace, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		if (cause != NULL)
			*cause = xasprintf("%s: not a regular file", trace);
		return -1;
	}
	id->size = (uint64_t)st.st_size;
	id->mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 +
	    st.st_mtim.tv_nsec;
	id->ino = (uint64_t)st.st_ino;
	id->dev = (uint64_t)st.st_dev;
	return 0;
}

/*
 * Writes the serialised cache (header, table, frames) to path through a
 * temporary file in the same directory and rename(). Refuses to replace
 * anything that is the trace itself or not a regular file or symlink.
 */
static int
cache_write_file(const char *path, const struct cache_ident *id,
    const struct cache_hdr *h, const uint8_t *table, size_t tablen,
    const struct cache_wframe *frames, size_t nframes, char **cause)
{
	struct stat	 st;
	char		*tmp;
	int		 fd, e;
	size_t		 i;

	if (lstat(path, &st) == 0) {
		if ((uint64_t)st.st_dev == id->dev &&
		    (uint64_t)st.st_ino == id->ino) {
			*cause = xasprintf("%s: is the trace itself", path);
			return -1;
		}
		if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			*cause = xasprintf("%s: exists and is not a regular "
			    "file", path);
			return -1;
		}
	}
	tmp = xasprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (cache_write_all(fd, h, sizeof *h) != 0 ||
	    cache_write_all(fd, table, tablen) != 0)
		goto fail;
	for (i = 0; i < nframes; i++)
		if (cache_write_all(fd, frames[i].buf, frames[i].complen) != 0)
			goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;

fail:
	e = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	*cause = xasprintf("%s: %s", path, strerror(e));
	free(tmp);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Paths. */

static char *
cache_dirname(const char *trace)
{
	const char	*slash = strrchr(trace, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == trace)
		return xstrdup("/");
	return xstrndup(trace, (size_t)(slash - trace));
}

static const char *
cache_basename(const char *trace)
{
	const char	*slash = strrchr(trace, '/');

	return slash != NULL ? slash + 1 : trace;
}

static char *
cache_local_path(const char *trace)
{
	char	*dir = cache_dirname(trace), *p;

	p = xasprintf("%s%s.%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/",
	    cache_basename(trace), CACHE_SUFFIX);
	free(dir);
	return p;
}

/* mkdir -p with mode 0700 for the components we create. */
static int
cache_mkdirs(const char *dir)
{
	char	*p = xstrdup(dir), *s;
	int	 rc = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		if (s[-1] != '/') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, 0700) != 0 && errno != EEXIST) {
				rc = -1;
				break;
			}
			*s = c;
		}
		if (*s == '\0')
			break;
	}
	free(p);
	return rc;
}

static char *
cache_xdg_dir(char **cause)
{
	const char	*base, *home;

	base = getenv("XDG_CACHE_HOME");
	if (base != NULL && base[0] == '/')
		return xasprintf("%s/gpulens", base);
	home = getenv("HOME");
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.cache/gpulens", home);
	if (cause != NULL)
		*cause = xstrdup("no cache directory: neither XDG_CACHE_HOME "
		    "nor HOME is set to an absolute path");
	return NULL;
}

static char *
cache_xdg_path(const char *trace, int create, char **cause)
{
	char		*dir, *real, *p;
	const char	*base = cache_basename(trace), *s;
	uint64_t	 h = 1469598103934665603ULL;	/* FNV-1a */
	int		 len;

	if ((real = realpath(trace, NULL)) == NULL) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", trace, strerror(errno));
		return NULL;
	}
	for (s = real; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	free(real);
	if ((dir = cache_xdg_dir(cause)) == NULL)
		return NULL;
	if (create && cache_mkdirs(dir) != 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	/* Keep the name well under NAME_MAX with the mkstemp suffix. */
	len = (int)strlen(base);
	if (len > 96)
		len = 96;
	p = xasprintf("%s/%.*s-%016llx%s", dir, len, base,
	    (unsigned long long)h, CACHE_SUFFIX);
	free(dir);
	return p;
}

char *
cache_path(const char *trace, int for_write, char **cause)
{
	struct stat	 st;
	char		*local, *dir;
	int		 ok;

	if (*cache_basename(trace) == '\0') {
		if (cause != NULL)
			*cause = xasprintf("%s: not a file name", trace);
		return NULL;
	}
	local = cache_local_path(trace);
	if (for_write) {
		dir = cache_dirname(trace);
		ok = access(dir, W_OK) == 0;
		free(dir);
	} else
		ok = lstat(local, &st) == 0;
	if (ok)
		return local;
	free(local);
	return cache_xdg_path(trace, for_write, cause);
}

/* ------------------------------------------------------------------ */
/* Saving: serialise, then write next to the trace or to the XDG cache. */

int
cache_save(const char *trace, const struct model *m, char **cause)
{
	struct cache_ident	 id;
	struct cache_hdr	 h;
	struct cache_wbuf	 small = { NULL, 0, 0 };
	struct cache_strs	 s;
	struct cache_counts	 c;
	struct cache_plan	 plan;
	struct cache_wctx	 w;
	uint64_t		*table = NULL;
	char			*path, *dir, *why = NULL, *why2 = NULL;
	size_t			 i, f;
	uLong			 crc;
	unsigned		 nt;
	int			 rc = -1;

	if (cache_ident_of(trace, &id, cause) != 0)
		return -1;

	memset(&c, 0, sizeof c);
	s.n = strpool_count(m->strs);
	s.bytes = 0;
	for (i = 1; i < s.n; i++)
		s.bytes += strpool_len(m->strs, (uint32_t)i);
	c.nkernels = m->nkernels;
	c.ncopies = m->ncopies;
	c.nnvtx = m->nnvtx;
	c.ncounters = m->ncounters;
	if (m->ntracks > 0)
		c.lane_n = xcalloc(m->ntracks, sizeof *c.lane_n);
	for (i = 0; i < m->ntracks; i++)
		c.lane_n[i] = m->tracks[i].lane.n;
	if (cache_plan_build(&plan, &s, &c, m->ntracks) != 0) {
		free(c.lane_n);
		cache_plan_free(&plan);
		if (cause != NULL)
			*cause = xstrdup("model too large for the cache");
		return -1;
	}
	free(c.lane_n);

	memset(&w, 0, sizeof w);
	w.m = m;
	w.plan = &plan;
	w.frames = xcalloc(plan.nframes, sizeof *w.frames);

	cache_small_write(&small, m, &s);
	plan.rawlen[0] = small.n;
	plan.raw_size += small.n;
	{
		char *err = NULL;
		if (cache_compress(&w, 0, 0, small.p, small.n, &err) != 0) {
			why = err;
			goto out;
		}
	}
	nt = cache_nthreads(plan.raw_size);
	if (cache_pool_run(plan.njobs, nt, cache_save_job, &w, &why) != 0)
		goto out;

	table = xreallocarray(NULL, plan.nframes, 2 * sizeof *table);
	for (f = 0; f < plan.nframes; f++) {
		table[2 * f] = plan.rawlen[f];
		table[2 * f + 1] = w.frames[f].complen;
	}
	crc = cache_crc32(crc32(0, Z_NULL, 0), (const uint8_t *)table,
	    plan.nframes * 2 * sizeof *table);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, CACHE_MAGIC, sizeof h.magic);
	h.version = CACHE_VERSION;
	h.bom = CACHE_BOM;
	h.hdr_size = sizeof h;
	memcpy(h.sz, cache_sizes, sizeof h.sz);
	h.trace_size = id.size;
	h.trace_mtime = id.mtime;
	h.trace_ino = id.ino;
	h.trace_dev = id.dev;
	h.payload_size = plan.nframes * 2 * sizeof *table;
	for (f = 0; f < plan.nframes; f++) {
		crc = cache_crc32(crc, w.frames[f].buf, w.frames[f].complen);
		h.payload_size += w.frames[f].complen;
	}
	h.raw_size = plan.raw_size;
	h.nframes = (uint32_t)plan.nframes;
	h.payload_crc = (uint32_t)crc;
	h.chunk = CACHE_CHUNK;
	h.hdr_crc = cache_hdr_crc(&h);

	/* Next to the trace if that directory is writable, else XDG. */
	dir = cache_dirname(trace);
	if (access(dir, W_OK) == 0) {
		path = cache_local_path(trace);
		rc = cache_write_file(path, &id, &h, (const uint8_t *)table,
		    plan.nframes * 2 * sizeof *table, w.frames, plan.nframes,
		    &why);
		free(path);
	}
	free(dir);
	if (rc != 0) {
		path = cache_xdg_path(trace, 1, &why2);
		if (path != NULL) {
			rc = cache_write_file(path, &id, &h,
			    (const uint8_t *)table,
			    plan.nframes * 2 * sizeof *table, w.frames,
			    plan.nframes, &why2);
			free(path);
		}
		if (rc != 0 && why != NULL) {
			char *both = xasprintf("%s; %s", why, why2);
			free(why2);
			why2 = both;
		}
		free(why);
		why = why2;
	}

out:
	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeCCtx(w.cctx[i]);
		free(w.scratch[i]);
	}
	for (f = 0; f < plan.nframes; f++)
		free(w.frames[f].buf);
	free(w.frames);
	free(table);
	free(small.p);
	cache_plan_free(&plan);
	if (rc != 0 && cause != NULL)
		*cause = why != NULL ? why : xstrdup("cannot write the cache");
	else
		free(why);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Loading. */

struct cache_rctx {
	struct model		*m;
	struct cache_plan	*plan;
	const uint8_t		*frames;	/* first frame's bytes */
	uint64_t		*off;		/* per frame, into frames */
	uint64_t		*complen;	/* per frame */
	struct cache_strs	 s;
	ZSTD_DCtx		*dctx[CACHE_THREADS];
};

static int
cache_decompress(struct cache_rctx *r, unsigned tid, size_t frame, void *dst,
    char **cause)
{
	size_t	 len = r->plan->rawlen[frame], res;
	uint8_t	 dummy;

	if (r->dctx[tid] == NULL && (r->dctx[tid] = ZSTD_createDCtx()) ==
	    NULL) {
		*cause = xstrdup("zstd: cannot create a context");
		return -1;
	}
	if (len == 0)
		dst = &dummy;
	res = ZSTD_decompressDCtx(r->dctx[tid], dst, len,
	    r->frames + r->off[frame], r->complen[frame]);
	if (ZSTD_isError(res)) {
		*cause = xasprintf("frame %zu: %s", frame,
		    ZSTD_getErrorName(res));
		return -1;
	}
	if (res != len) {
		*cause = xasprintf("frame %zu: %zu bytes instead of %zu", frame,
		    res, len);
		return -1;
	}
	return 0;
}

static int
cache_load_strings(struct cache_rctx *r, unsigned tid, size_t f,
    char **cause)
{
	struct strpool	*sp = r->m->strs;
	uint32_t	*lens, i, id;
	char		*data;
	uint64_t	 off = 0;
	int		 rc = -1;

	lens = xreallocarray(NULL, r->s.n - 1, sizeof *lens);
	data = xmalloc(r->s.bytes > 0 ? r->s.bytes : 1);
	if (cache_decompress(r, tid, f, lens, cause) != 0 ||
	    cache_decompress(r, tid, f + 1, data, cause) != 0)
		goto out;
	for (i = 1; i < r->s.n; i++) {
		if (lens[i - 1] > r->s.bytes - off)
			break;
		id = strpool_intern(sp, data + off, lens[i - 1]);
		if (id != i)
			break;
		off += lens[i - 1];
	}
	if (i != r->s.n || off != r->s.bytes) {
		*cause = xasprintf("string table inconsistent at id %u", i);
		goto out;
	}
	rc = 0;
out:
	free(lens);
	free(data);
	return rc;
}

/* Undoes cache_delta64 in place. */
static void
cache_undelta64(uint64_t *v, size_t n)
{
	uint64_t	acc = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		acc += v[i];
		v[i] = acc;
	}
}

static void
cache_undelta32(uint32_t *v, size_t n)
{
	uint32_t	acc = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		acc += v[i];
		v[i] = acc;
	}
}

/* Whether aux indices point into the side table their kind uses. */
static int
cache_check_aux(const struct model *m, const uint8_t *kind,
    const uint32_t *aux, size_t n)
{
	size_t	i, lim;

	for (i = 0; i < n; i++) {
		if (aux[i] == NONE32)
			continue;
		switch (kind[i]) {
		case EV_KERNEL:
			lim = m->nkernels;
			break;
		case EV_MEMCPY:
		case EV_MEMSET:
			lim = m->ncopies;
			break;
		case EV_NVTX:
		case EV_MARK:
			lim = m->nnvtx;
			break;
		case EV_COUNTER:
			lim = m->ncounters;
			break;
		default:
			continue;
		}
		if (aux[i] >= lim)
			return -1;
	}
	return 0;
}

static int
cache_load_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_rctx	*r = arg;
	const struct cache_job	*job = &r->plan->jobs[j];
	struct model		*m = r->m;
	struct lane		*l;
	size_t			 f = job->frame, i, n = job->n, i0 = job->i0;

	switch (job->type) {
	case JOB_STRINGS:
		return cache_load_strings(r, tid, f, cause);
	case JOB_KERNELS:
		return cache_decompress(r, tid, f, m->kernels, cause);
	case JOB_COPIES:
		return cache_decompress(r, tid, f, m->copies, cause);
	case JOB_NVTX:
		return cache_decompress(r, tid, f, m->nvtx, cause);
	case JOB_COUNTERS:
		return cache_decompress(r, tid, f, m->counters, cause);
	case JOB_CHUNK:
		l = &m->tracks[job->track].lane;
		if (cache_decompress(r, tid, f, l->start + i0, cause) != 0 ||
		    cache_decompress(r, tid, f + 1, l->end + i0, cause) != 0)
			return -1;
		cache_undelta64((uint64_t *)l->start + i0, n);
		for (i = i0; i < i0 + n; i++)
			l->end[i] = (int64_t)((uint64_t)l->end[i] +
			    (uint64_t)l->start[i]);
		if (cache_decompress(r, tid, f + 2, l->name + i0, cause) != 0 ||
		    cache_decompress(r, tid, f + 3, l->kind + i0, cause) != 0 ||
		    cache_decompress(r, tid, f + 4, l->flags + i0, cause) != 0 ||
		    cache_decompress(r, tid, f + 5, l->rowid + i0, cause) != 0 ||
		    cache_decompress(r, tid, f + 6, l->corr + i0, cause) != 0 ||
		    cache_decompress(r, tid, f + 7, l->aux + i0, cause) != 0)
			return -1;
		cache_undelta64((uint64_t *)l->rowid + i0, n);
		cache_undelta32(l->corr + i0, n);
		if (cache_check_aux(m, l->kind + i0, l->aux + i0, n) != 0) {
			*cause = xasprintf("track %u: side-table index out of "
			    "range", job->track);
			return -1;
		}
		return 0;
	}
	return -1;
}

#define CACHE_REF(v, n)	((v) == NONE32 || (v) < (n))

/* Whether every entity reference is in range (model_finalize and every
 * reader index with them). */
static int
cache_check_refs(const struct model *m)
{
	const struct track	*t;
	size_t			 i;

	for (i = 0; i < m->ndevices; i++)
		if (!CACHE_REF(m->devices[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->nthreads; i++)
		if (!CACHE_REF(m->threads[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->nstreams; i++)
		if (!CACHE_REF(m->streams[i].device, m->ndevices) ||
		    !CACHE_REF(m->streams[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->ndomains; i++)
		if (!CACHE_REF(m->domains[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->ntracks; i++) {
		t = &m->tracks[i];
		if (t->type >= TRACK_TYPE_COUNT ||
		    !CACHE_REF(t->device, m->ndevices) ||
		    !CACHE_REF(t->stream, m->nstreams) ||
		    !CACHE_REF(t->process, m->nprocesses) ||
		    !CACHE_REF(t->thread, m->nthreads) ||
		    !CACHE_REF(t->domain, m->ndomains))
			return -1;
		if (t->type == TRACK_GPU && t->stream == NONE32)
			return -1;
	}
	for (i = 0; i < m->nnvtx; i++)
		if (!CACHE_REF(m->nvtx[i].domain, m->ndomains))
			return -1;
	return 0;
}

/* Reads exactly n bytes at the current offset; -1 with errno, or 0 with
 * *got < n at end of file. */
static int
cache_read_all(int fd, void *buf, size_t n, size_t *got)
{
	uint8_t	*p = buf;
	ssize_t	 r;

	*got = 0;
	while (*got < n) {
		r = read(fd, p + *got, n - *got > (1u << 30) ? (1u << 30) :
		    n - *got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		*got += (size_t)r;
	}
	return 0;
}

/* Allocates n elements of size sz, or NULL for none. */
static void *
cache_alloc(size_t n, size_t sz)
{
	return n > 0 ? xreallocarray(NULL, n, sz) : NULL;
}

/*
 * Decodes a payload (table + frames, CRC already checked) into a model.
 * Returns 0, or -1 with *why.
 */
static int
cache_decode(const struct cache_hdr *h, const uint8_t *payload,
    struct model **out, char **why)
{
	struct cache_plan	 plan;
	struct cache_counts	 c;
	struct cache_rctx	 r;
	struct cache_rbuf	 rb;
	struct model		*m;
	uint64_t		 tablen, left, raw, v = 0;
	uint8_t			*small = NULL;
	size_t			 f, i, t;
	unsigned		 nt;
	double			 t0;
	int			 rc = -1;

	memset(&plan, 0, sizeof plan);
	memset(&c, 0, sizeof c);
	memset(&r, 0, sizeof r);
	m = xcalloc(1, sizeof *m);
	m->strs = strpool_new();
	r.m = m;

	/* The frame table: lengths must add up to the payload exactly. */
	if (h->nframes == 0 || h->nframes > h->payload_size / 16) {
		*why = xasprintf("bad frame count %u", h->nframes);
		goto out;
	}
	tablen = (uint64_t)h->nframes * 16;
	left = h->payload_size - tablen;
	r.off = xreallocarray(NULL, h->nframes, sizeof *r.off);
	r.complen = xreallocarray(NULL, h->nframes, sizeof *r.complen);
	raw = 0;
	for (f = 0; f < h->nframes; f++) {
		uint64_t rl, cl;
		memcpy(&rl, payload + 16 * f, 8);
		memcpy(&cl, payload + 16 * f + 8, 8);
		if (cl > left || rl / CACHE_MAXRATIO > cl) {
			*why = xasprintf("frame %zu: bad length", f);
			goto out;
		}
		r.off[f] = h->payload_size - tablen - left;
		r.complen[f] = cl;
		left -= cl;
		raw += rl;
		if (f == 0)
			v = rl;
	}
	if (left != 0 || raw != h->raw_size) {
		*why = xstrdup("frame lengths do not add up");
		goto out;
	}
	r.frames = payload + tablen;

	/* The small frame. */
	plan.rawlen = &v;
	plan.nframes = 1;
	r.plan = &plan;
	small = xmalloc(v > 0 ? v : 1);
	if (cache_decompress(&r, 0, 0, small, why) != 0)
		goto out;
	plan.rawlen = NULL;
	rb.p = small;
	rb.n = v;
	rb.off = 0;
	rb.err = 0;
	if (cache_small_read(&rb, m, &r.s, &c) != 0) {
		*why = xstrdup("model header truncated or inconsistent");
		goto out;
	}

	/* The plan from the counts must match the frame table exactly. */
	if (cache_plan_build(&plan, &r.s, &c, m->ntracks) != 0 ||
	    plan.nframes != h->nframes) {
		*why = xstrdup("frame table does not match the model");
		goto out;
	}
	plan.rawlen[0] = v;
	for (f = 1; f < plan.nframes; f++) {
		uint64_t rl;
		memcpy(&rl, payload + 16 * f, 8);
		if (rl != plan.rawlen[f]) {
			*why = xasprintf("frame %zu: unexpected length", f);
			goto out;
		}
	}

	/* Sizes are now bounded by the file: allocate the final arrays. */
	m->kernels = cache_alloc(c.nkernels, sizeof *m->kernels);
	m->nkernels = c.nkernels;
	m->copies = cache_alloc(c.ncopies, sizeof *m->copies);
	m->ncopies = c.ncopies;
	m->nvtx = cache_alloc(c.nnvtx, sizeof *m->nvtx);
	m->nnvtx = c.nnvtx;
	m->counters = cache_alloc(c.ncounters, sizeof *m->counters);
	m->ncounters = c.ncounters;
	for (t = 0; t < m->ntracks; t++) {
		struct lane *l = &m->tracks[t].lane;
		size_t n = c.lane_n[t];
		l->start = cache_alloc(n, sizeof *l->start);
		l->end = cache_alloc(n, sizeof *l->end);
		l->name = cache_alloc(n, sizeof *l->name);
		l->kind = cache_alloc(n, sizeof *l->kind);
		l->flags = cache_alloc(n, sizeof *l->flags);
		l->rowid = cache_alloc(n, sizeof *l->rowid);
		l->corr = cache_alloc(n, sizeof *l->corr);
		l->aux = cache_alloc(n, sizeof *l->aux);
		l->n = l->cap = n;
	}

	nt = cache_nthreads(h->raw_size);
	if (getenv("XX_NT")) nt = atoi(getenv("XX_NT"));
	t0 = timing_now();
	if (getenv("XX_TOUCH")) {
		for (t = 0; t < m->ntracks; t++) {
			struct lane *l = &m->tracks[t].lane;
			size_t n = l->n;
			if (!n) continue;
			memset(l->start, 0, n*8); memset(l->end, 0, n*8); memset(l->rowid, 0, n*8);
			memset(l->name, 0, n*4); memset(l->corr, 0, n*4); memset(l->aux, 0, n*4);
			memset(l->kind, 0, n); memset(l->flags, 0, n);
		}
		timing_report("touch", t0);
		t0 = timing_now();
	}
	if (cache_pool_run(plan.njobs, nt, cache_load_job, &r, why) != 0)
		goto out;
	timing_report("cache-decompress", t0);
	if (cache_check_refs(m) != 0) {
		*why = xstrdup("entity reference out of range");
		goto out;
	}
	t0 = timing_now();
	if (model_finalize(m, why) != 0)
		goto out;
	timing_report("cache-finalize", t0);

	/* The saved warnings already include those finalize adds. */
	for (i = 0; i < m->nwarnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	m->warnings = c.warnings;
	m->nwarnings = c.nwarnings;
	c.warnings = NULL;
	c.nwarnings = 0;
	*out = m;
	m = NULL;
	rc = 0;

out:
	if (plan.rawlen == &v)
		plan.rawlen = NULL;
	for (i = 0; i < CACHE_THREADS; i++)
		ZSTD_freeDCtx(r.dctx[i]);
	for (i = 0; i < c.nwarnings; i++)
		free(c.warnings[i]);
	free(c.warnings);
	free(c.lane_n);
	free(r.off);
	free(r.complen);
	free(small);
	cache_plan_free(&plan);
	model_free(m);
	return rc;
}

/* Tries one cache file. Returns 1 with *out on a hit, else 0 with *why. */
static int
cache_try(const char *path, const struct cache_ident *id,
    struct model **out, char **why)
{
	struct cache_hdr	 h;
	struct stat		 st;
	uint8_t			*payload = NULL;
	size_t			 got;
	double			 t0;
	int			 fd, rc = 0;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		*why = xasprintf("%s", errno == ELOOP ? "is a symlink" :
		    strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) != 0) {
		*why = xstrdup(strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = xstrdup("not a regular file");
		goto out;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		*why = xstrdup("owned by another user");
		goto out;
	}
	if (cache_read_all(fd, &h, sizeof h, &got) != 0) {
		*why = xstrdup(strerror(errno));
		goto out;
	}
	if (got < sizeof h || memcmp(h.magic, CACHE_MAGIC, sizeof h.magic) !=
	    0) {
		*why = xstrdup(got < sizeof h ? "truncated header" :
		    "not a gpulens cache");
		goto out;
	}
	if (h.version != CACHE_VERSION || h.bom != CACHE_BOM ||
	    h.hdr_size != sizeof h) {
		*why = xasprintf("cache format %u, expected %u", h.version,
		    CACHE_VERSION);
		goto out;
	}
	if (cache_hdr_crc(&h) != h.hdr_crc) {
		*why = xstrdup("header checksum mismatch");
		goto out;
	}
	if (memcmp(h.sz, cache_sizes, sizeof h.sz) != 0 ||
	    h.chunk != CACHE_CHUNK) {
		*why = xstrdup("written by a build with another data layout");
		goto out;
	}
	if (h.trace_size != id->size || h.trace_mtime != id->mtime ||
	    h.trace_ino != id->ino || h.trace_dev != id->dev) {
		*why = xstrdup("stale: the trace changed");
		goto out;
	}
	if ((uint64_t)st.st_size < sizeof h || h.payload_size !=
	    (uint64_t)st.st_size - sizeof h || h.payload_size > SIZE_MAX / 2) {
		*why = xstrdup("truncated or padded");
		goto out;
	}
	t0 = timing_now();
	payload = xmalloc(h.payload_size > 0 ? h.payload_size : 1);
	if (cache_read_all(fd, payload, h.payload_size, &got) != 0) {
		*why = xstrdup(strerror(errno));
		goto out;
	}
	if (got != h.payload_size) {
		*why = xstrdup("truncated");
		goto out;
	}
	timing_report("cache-read", t0);
	t0 = timing_now();
	if (cache_crc(payload, h.payload_size) != h.payload_crc) {
		*why = xstrdup("checksum mismatch");
		goto out;
	}
	timing_report("cache-crc", t0);
	if (cache_decode(&h, payload, out, why) == 0)
		rc = 1;

out:
	free(payload);
	close(fd);
	return rc;
}

int
cache_load(const char *trace, struct model **out, char **cause)
{
	struct cache_ident	 id;
	struct stat		 st;
	char			*paths[2], *why[2] = { NULL, NULL };
	size_t			 i, n = 0;
	int			 rc = 0;

	*out = NULL;
	if (cache_ident_of(trace, &id, cause) != 0)
		return -1;
	paths[n++] = cache_local_path(trace);
	if ((paths[n] = cache_xdg_path(trace, 0, NULL)) != NULL)
		n++;
	for (i = 0; i < n && rc == 0; i++) {
		if (lstat(paths[i], &st) != 0)
			continue;
		rc = cache_try(paths[i], &id, out, &why[i]);
	}
	if (rc == 0 && cause != NULL) {
		if (why[0] != NULL && why[1] != NULL)
			*cause = xasprintf("%s: %s; %s: %s", paths[0], why[0],
			    paths[1], why[1]);
		else if (why[0] != NULL || why[1] != NULL)
			*cause = xasprintf("%s: %s", why[0] != NULL ?
			    paths[0] : paths[1], why[0] != NULL ? why[0] :
			    why[1]);
		else
			*cause = xstrdup("no cache");
	}
	for (i = 0; i < n; i++) {
		free(paths[i]);
		free(why[i]);
	}
	return rc;
}

int
cache_remove(const char *trace)
{
	char	*p;
	int	 n = 0;

	p = cache_local_path(trace);
	if (unlink(p) == 0)
		n++;
	free(p);
	if ((p = cache_xdg_path(trace, 0, NULL)) != NULL) {
		if (unlink(p) == 0)
			n++;
		free(p);
	}
	return n;
}
