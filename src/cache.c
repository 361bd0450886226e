/*
 * cache: the finished model as a versioned, zstd-compressed binary file, so
 * the second open of an unchanged trace skips parsing.
 *
 * File layout (native byte order and struct layout; a machine or build that
 * disagrees on either fails the header checks and rebuilds):
 *
 *   header   struct cache_hdr, 128 bytes: magic "GPULENSC", format version,
 *            byte-order mark, sizeof every raw-stored struct, the trace's
 *            size, mtime (ns), inode and device, payload size, raw size,
 *            frame count, events per chunk, a CRC32 of the header and a
 *            CRC32 of everything after it.
 *   table    nframes x { raw length, compressed length }, uint64 each.
 *   frames   independent zstd frames (content checksums on).
 *
 * Frame 0 holds the small things: scalars, entity tables (raw structs),
 * tracks field by field with their lane lengths, metadata and warnings. From
 * those counts alone the loader derives the plan: the list of jobs and the
 * exact raw length of every further frame, which must match the table before
 * anything large is allocated. The jobs are
 *   strings   lengths and bytes in id order (re-interning reproduces ids);
 *   tables    kernels, copies, nvtx (raw structs), counters, in chunks;
 *   chunks    CACHE_CHUNK events of one lane: eight frames, start
 *             (delta-coded), duration (end - start), name, kind, flags,
 *             rowid, corr and aux (the last three delta-coded).
 * Every multi-byte column is byte-shuffled before compression (byte k of
 * every value together, as Blosc does): on our traces timestamps and ids
 * then compress about 30% smaller and decompress about four times faster
 * than plain zstd, which more than pays for the unshuffle. The
 * derived indices (depth, trees, coverage, correlation, NVTX tree) are not
 * stored: model_finalize() rebuilds them, on lanes that are already sorted.
 *
 * Loading reads the file with one read(), checks the header CRC and the trace
 * identity, then the payload CRC, and only then decompresses: a few threads
 * take jobs, decompress each frame into a small per-thread buffer and
 * unshuffle and undo the delta coding from there into the final arrays.
 * Every count is bounded by what the file can hold; any mismatch is a miss
 * with a reason, never a crash nor a trusted wrong model.
 *
 * Writing goes to a mkstemp() file in the destination directory renamed over
 * the cache path: readers never see a partial file, concurrent writers each
 * rename a complete file (the last one wins), and a symlink at the cache path
 * is replaced, not followed. There is no fsync: a file left incomplete by a
 * crash fails its CRC and is rebuilt.
 *
 * Locations: "<dir>/.<name>.gpulens" next to the trace when that directory is
 * writable (for reading: when that file exists), else
 * "$XDG_CACHE_HOME/gpulens/<name>-<hash of the real path>.gpulens"
 * ($HOME/.cache when XDG_CACHE_HOME is unset). Caches owned by another user
 * and symlinks are ignored.
 *
 * Adding a raw field to a lane, a track or the model needs a change here and
 * a new CACHE_VERSION; the static assertions below catch the lane and track.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
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
#ifndef CACHE_CHUNK
#define CACHE_CHUNK	(1u << 17)	/* events per lane chunk */
#endif
#define CACHE_SCRATCH	((size_t)CACHE_CHUNK * 8)	/* bytes */
#ifndef CACHE_LEVEL
#define CACHE_LEVEL	1		/* zstd level */
#endif
#define CACHE_THREADS	4		/* at most */
#define CACHE_SUFFIX	".gpulens"
#define CACHE_NFIELDS	8		/* frames per lane chunk */
/* A zstd block holds at most 128 KiB and takes at least 4 bytes (RLE), so
 * no valid frame expands more than this. */
#define CACHE_MAXRATIO	32768

_Static_assert(offsetof(struct lane, depth) ==
    2 * sizeof(size_t) + CACHE_NFIELDS * sizeof(void *),
    "lane raw arrays changed: update cache.c and CACHE_VERSION");
_Static_assert(offsetof(struct track, name) + sizeof(uint32_t) <=
    offsetof(struct track, lane) && sizeof(struct track) ==
    offsetof(struct track, lane) + sizeof(struct lane),
    "track fields changed: update cache.c and CACHE_VERSION");

struct cache_hdr {
	char		 magic[8];
	uint32_t	 version;
	uint32_t	 bom;		/* CACHE_BOM in native order */
	uint32_t	 hdr_size;	/* sizeof(struct cache_hdr) */
	uint32_t	 hdr_crc;	/* CRC32 of the header, this field 0 */
	uint16_t	 sz[12];	/* sizeof the raw-stored structs */
	uint64_t	 trace_size;
	int64_t		 trace_mtime;	/* ns */
	uint64_t	 trace_ino;
	uint64_t	 trace_dev;
	uint64_t	 payload_size;	/* bytes after the header */
	uint64_t	 raw_size;	/* sum of the frames' raw lengths */
	uint32_t	 nframes;
	uint32_t	 payload_crc;	/* CRC32 of all after the header */
	uint32_t	 chunk;		/* CACHE_CHUNK */
	uint32_t	 level;		/* zstd level (informative) */
	uint32_t	 reserved[4];
};
_Static_assert(sizeof(struct cache_hdr) == 128, "cache header layout");

static const uint16_t cache_sizes[12] = {
	sizeof(struct device), sizeof(struct process), sizeof(struct thread),
	sizeof(struct stream), sizeof(struct domain), sizeof(struct meta),
	sizeof(struct kernel_info), sizeof(struct copy_info),
	sizeof(struct nvtx_info), sizeof(double), sizeof(struct track),
	sizeof(struct lane)
};

/* The trace file's identity: any change invalidates the cache. */
struct cache_ident {
	uint64_t	 size;
	int64_t		 mtime;
	uint64_t	 ino, dev;
};

enum cache_table {
	TAB_KERNELS,
	TAB_COPIES,
	TAB_NVTX,
	TAB_COUNTERS,
	TAB_COUNT
};

enum cache_job_type {
	JOB_STRINGS,		/* two frames: lengths, bytes */
	JOB_TABLE,		/* one frame: entries [i0, i0 + n) */
	JOB_CHUNK		/* CACHE_NFIELDS frames: events [i0, i0 + n) */
};

struct cache_job {
	enum cache_job_type	 type;
	uint32_t		 which;		/* table or track */
	size_t			 i0, n;
	size_t			 frame;		/* first frame */
};

struct cache_plan {
	struct cache_job	*jobs;
	size_t			 njobs, jobcap;
	uint64_t		*rawlen;	/* per frame; [0]: small */
	size_t			 nframes, framecap;
	uint64_t		 raw_size;
};

/* What the plan is derived from. */
struct cache_counts {
	uint32_t	 nstrs;		/* strings, including "" */
	uint64_t	 strbytes;	/* bytes of strings 1..nstrs-1 */
	uint64_t	 ntab[TAB_COUNT];
	size_t		 ntracks;
	uint64_t	*lane_n;	/* per track */
};

/* Lane columns: width in bytes and the transform applied before shuffling. */
enum cache_xform {
	XF_NONE,
	XF_DELTA,		/* v[i] - v[i-1] (wrapping) */
	XF_DIFF			/* end - start */
};

static const struct {
	uint8_t		 width;
	uint8_t		 xform;
} cache_fields[CACHE_NFIELDS] = {
	{ 8, XF_DELTA },	/* start */
	{ 8, XF_DIFF },		/* end, as duration */
	{ 4, XF_NONE },		/* name */
	{ 1, XF_NONE },		/* kind */
	{ 1, XF_NONE },		/* flags */
	{ 8, XF_DELTA },	/* rowid */
	{ 4, XF_DELTA },	/* corr */
	{ 4, XF_DELTA }		/* aux */
};

static const size_t cache_tab_width[TAB_COUNT] = {
	sizeof(struct kernel_info), sizeof(struct copy_info),
	sizeof(struct nvtx_info), sizeof(double)
};
_Static_assert(sizeof(struct kernel_info) % 4 == 0 &&
    sizeof(struct copy_info) % 4 == 0 && sizeof(struct nvtx_info) % 4 == 0,
    "side tables are shuffled by 4-byte word");

/* Output and bounded input buffers for the small frame. */
struct cache_wbuf {
	uint8_t		*p;
	size_t		 n, cap;
};

struct cache_rbuf {
	const uint8_t	*p;
	size_t		 n, off;
	int		 err;		/* a read ran past the end */
};

/* ------------------------------------------------------------------ */
/* A pool of threads working through a list of jobs. */

struct cache_pool {
	atomic_size_t	 next;
	atomic_int	 failed;
	size_t		 njobs;
	int		(*fn)(void *, size_t, unsigned, char **);
	void		*arg;
	pthread_mutex_t	 lock;
	char		*err;		/* the first failure's cause */
};

struct cache_worker {
	struct cache_pool	*pool;
	unsigned		 tid;
};

/* Threads for work bytes: one for small jobs, else the cores this process
 * may run on (at most CACHE_THREADS). */
static unsigned
cache_nthreads(uint64_t work)
{
	long		n;
#ifdef CPU_COUNT
	cpu_set_t	set;
#endif

	if (work < (4u << 20))
		return 1;
#ifdef CPU_COUNT
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	else
#endif
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > CACHE_THREADS ? CACHE_THREADS : (unsigned)n;
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
		if (p->fn(p->arg, j, w->tid, &cause) == 0)
			continue;
		pthread_mutex_lock(&p->lock);
		if (p->err == NULL)
			p->err = cause != NULL ? cause : xstrdup("failed");
		else
			free(cause);
		pthread_mutex_unlock(&p->lock);
		atomic_store(&p->failed, 1);
	}
	return NULL;
}

/*
 * Runs fn(arg, job, tid, &cause) for every job on up to nthreads threads
 * (the caller's included; tid < nthreads); fn returns 0, or -1 with a cause.
 * Returns 0, or -1 with *cause from the first failure, after which no new
 * job starts.
 */
static int
cache_pool_run(size_t njobs, unsigned nthreads,
    int (*fn)(void *, size_t, unsigned, char **), void *arg, char **cause)
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
			break;	/* fewer threads do the same work */
		started++;
	}
	cache_pool_main(&w[0]);
	for (i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.lock);
	if (p.err == NULL)
		return 0;
	if (cause != NULL)
		*cause = p.err;
	else
		free(p.err);
	return -1;
}

/* ------------------------------------------------------------------ */
/* CRC32, in parallel parts combined with crc32_combine(). */

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
	size_t			 off = j * c->part;

	(void)tid;
	(void)cause;
	c->len[j] = off >= c->n ? 0 : (c->n - off < c->part ? c->n - off :
	    c->part);
	c->crc[j] = cache_crc32(crc32(0, Z_NULL, 0), c->p + off, c->len[j]);
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
/*
 * Byte shuffling. 8- and 4-byte columns are shuffled by value (byte k is
 * bits 8k..8k+7, so the layout does not depend on byte order) fused with
 * their transform; structs are shuffled by memory byte.
 */

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

static void
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

/* Inverse of cache_pack64; XF_DIFF adds base[i]. One loop per transform so
 * each stays branch-free. */
static void
cache_unpack64(int64_t *out, const uint8_t *in, size_t n, int xform,
    const int64_t *base)
{
	uint64_t	acc = 0;
	size_t		i;

	switch (xform) {
	case XF_DELTA:
		for (i = 0; i < n; i++) {
			acc += CACHE_GATHER64(in, n, i);
			out[i] = (int64_t)acc;
		}
		break;
	case XF_DIFF:
		for (i = 0; i < n; i++)
			out[i] = (int64_t)((uint64_t)base[i] +
			    CACHE_GATHER64(in, n, i));
		break;
	default:
		for (i = 0; i < n; i++)
			out[i] = (int64_t)CACHE_GATHER64(in, n, i);
		break;
	}
}

static void
cache_unpack32(uint32_t *out, const uint8_t *in, size_t n, int xform)
{
	uint32_t	acc = 0;
	size_t		i;

	if (xform == XF_DELTA) {
		for (i = 0; i < n; i++) {
			acc += CACHE_GATHER32(in, n, i);
			out[i] = acc;
		}
	} else {
		for (i = 0; i < n; i++)
			out[i] = CACHE_GATHER32(in, n, i);
	}
}

/* Structs: by 4-byte word (their sizes are multiples of 4, see
 * cache_tab_width), each word's bytes by value. */
static void
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

static void
cache_unshuffle(uint8_t *out, const uint8_t *in, size_t n, size_t w)
{
	uint32_t	v;
	size_t		i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < w; k += 4) {
			v = CACHE_GATHER32(in + k * n, n, i);
			memcpy(out + i * w + k, &v, sizeof v);
		}
	}
}

/* ------------------------------------------------------------------ */
/* The small frame. */

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
	cache_put(b, &v, sizeof v);
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

static void
cache_put_array(struct cache_wbuf *b, const void *a, size_t n, size_t sz)
{
	cache_put64(b, n);
	cache_put(b, a, n * sz);
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

/* A count of items of at least sz bytes each that must fit in what is
 * left; 0 with err set otherwise. */
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

/* A raw array of structs into a new allocation (NULL when empty). */
static void *
cache_get_array(struct cache_rbuf *b, size_t *np, size_t sz)
{
	const uint8_t	*p;
	void		*a;
	size_t		 n = cache_get_count(b, sz);

	*np = 0;
	if (n == 0 || (p = cache_get(b, n * sz)) == NULL)
		return NULL;
	a = xreallocarray(NULL, n, sz);
	memcpy(a, p, n * sz);
	*np = n;
	return a;
}

static void
cache_small_write(struct cache_wbuf *b, const struct model *m,
    const struct cache_counts *c)
{
	const struct track	*t;
	size_t			 i, len;
	int			 k;

	cache_put8(b, m->source);
	cache_put32(b, m->source_version);
	cache_put32(b, m->schema_version);
	cache_put64(b, (uint64_t)m->origin_ns);
	cache_put64(b, (uint64_t)m->end_ns);
	cache_put64(b, (uint64_t)m->utc_epoch_ns);
	cache_put32(b, c->nstrs);
	cache_put64(b, c->strbytes);
	for (k = 0; k < TAB_COUNT; k++)
		cache_put64(b, c->ntab[k]);

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

	cache_put64(b, m->nwarnings);
	for (i = 0; i < m->nwarnings; i++) {
		len = strlen(m->warnings[i]);
		cache_put64(b, len);
		cache_put(b, m->warnings[i], len);
	}
}

#define CACHE_TRACK_BYTES	(1 + 6 * 4 + 8)

/* Reads frame 0 into m (entities, tracks with empty lanes) and c; the
 * warnings go to *warn (not m: finalize would add its own again). */
static int
cache_small_read(struct cache_rbuf *b, struct model *m,
    struct cache_counts *c, char ***warn, size_t *nwarn)
{
	struct track	*t;
	const uint8_t	*p;
	size_t		 i, n, len;
	int		 k;

	m->source = cache_get8(b);
	m->source_version = cache_get32(b);
	m->schema_version = cache_get32(b);
	m->origin_ns = (int64_t)cache_get64(b);
	m->end_ns = (int64_t)cache_get64(b);
	m->utc_epoch_ns = (int64_t)cache_get64(b);
	c->nstrs = cache_get32(b);
	c->strbytes = cache_get64(b);
	for (k = 0; k < TAB_COUNT; k++)
		c->ntab[k] = cache_get64(b);

	m->devices = cache_get_array(b, &m->ndevices, sizeof *m->devices);
	m->processes = cache_get_array(b, &m->nprocesses,
	    sizeof *m->processes);
	m->threads = cache_get_array(b, &m->nthreads, sizeof *m->threads);
	m->streams = cache_get_array(b, &m->nstreams, sizeof *m->streams);
	m->domains = cache_get_array(b, &m->ndomains, sizeof *m->domains);
	m->meta = cache_get_array(b, &m->nmeta, sizeof *m->meta);

	n = cache_get_count(b, CACHE_TRACK_BYTES);
	if (n > 0) {
		m->tracks = xcalloc(n, sizeof *m->tracks);
		c->lane_n = xcalloc(n, sizeof *c->lane_n);
		m->ntracks = c->ntracks = n;
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

	n = cache_get_count(b, 8);
	if (n > 0)
		*warn = xcalloc(n, sizeof **warn);
	for (i = 0; i < n; i++) {
		len = cache_get_count(b, 1);
		if ((p = cache_get(b, len)) == NULL)
			break;
		(*warn)[(*nwarn)++] = xstrndup((const char *)p, len);
	}
	return b->err || b->off != b->n ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* The plan. */

/* Adds a job of nf frames; -1 if the lengths overflow. */
static int
cache_plan_add(struct cache_plan *p, enum cache_job_type type, uint32_t which,
    size_t i0, size_t n, const uint64_t *lens, size_t nf)
{
	struct cache_job	*j;
	size_t			 f;

	XGROW(p->jobs, p->jobcap, p->njobs + 1);
	j = &p->jobs[p->njobs++];
	j->type = type;
	j->which = which;
	j->i0 = i0;
	j->n = n;
	j->frame = p->nframes;
	XGROW(p->rawlen, p->framecap, p->nframes + nf);
	for (f = 0; f < nf; f++) {
		if (lens[f] > SIZE_MAX / 4 || p->raw_size + lens[f] >
		    SIZE_MAX / 4)
			return -1;
		p->rawlen[p->nframes++] = lens[f];
		p->raw_size += lens[f];
	}
	return 0;
}

/* Builds the jobs and frame lengths from the counts alone (frame 0's
 * length is set by the caller). Returns -1 if a count is absurd. */
static int
cache_plan_build(struct cache_plan *p, const struct cache_counts *c)
{
	uint64_t	lens[CACHE_NFIELDS], per;
	size_t		t, i0, n, f;
	int		k;

	memset(p, 0, sizeof *p);
	XGROW(p->rawlen, p->framecap, 1);
	p->rawlen[0] = 0;
	p->nframes = 1;

	if (c->nstrs > 1) {
		lens[0] = (uint64_t)(c->nstrs - 1) * 4;
		lens[1] = c->strbytes;
		if (cache_plan_add(p, JOB_STRINGS, 0, 0, 0, lens, 2) != 0)
			return -1;
	}
	for (k = 0; k < TAB_COUNT; k++) {
		if (c->ntab[k] > UINT32_MAX)
			return -1;
		per = CACHE_SCRATCH / cache_tab_width[k];
		for (i0 = 0; i0 < c->ntab[k]; i0 += n) {
			n = c->ntab[k] - i0 < per ? c->ntab[k] - i0 : per;
			lens[0] = (uint64_t)n * cache_tab_width[k];
			if (cache_plan_add(p, JOB_TABLE, (uint32_t)k, i0, n,
			    lens, 1) != 0)
				return -1;
		}
	}
	for (t = 0; t < c->ntracks; t++) {
		if (c->lane_n[t] > UINT32_MAX)
			return -1;
		for (i0 = 0; i0 < c->lane_n[t]; i0 += n) {
			n = c->lane_n[t] - i0;
			if (n > CACHE_CHUNK)
				n = CACHE_CHUNK;
			for (f = 0; f < CACHE_NFIELDS; f++)
				lens[f] = (uint64_t)n * cache_fields[f].width;
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

/* A model's side table k as bytes. */
static uint8_t *
cache_table(const struct model *m, int k)
{
	switch (k) {
	case TAB_KERNELS:
		return (uint8_t *)m->kernels;
	case TAB_COPIES:
		return (uint8_t *)m->copies;
	case TAB_NVTX:
		return (uint8_t *)m->nvtx;
	default:
		return (uint8_t *)m->counters;
	}
}

/* ------------------------------------------------------------------ */
/* Saving. */

struct cache_wframe {
	uint8_t		*buf;
	size_t		 len;		/* compressed */
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
    const void *src, char **cause)
{
	size_t	len = w->plan->rawlen[frame], bound, r;

	if (w->cctx[tid] == NULL) {
		if ((w->cctx[tid] = ZSTD_createCCtx()) == NULL) {
			*cause = xstrdup("zstd: cannot create a context");
			return -1;
		}
		ZSTD_CCtx_setParameter(w->cctx[tid], ZSTD_c_compressionLevel,
		    CACHE_LEVEL);
		ZSTD_CCtx_setParameter(w->cctx[tid], ZSTD_c_checksumFlag, 1);
	}
	bound = ZSTD_compressBound(len);
	w->frames[frame].buf = xmalloc(bound);
	r = ZSTD_compress2(w->cctx[tid], w->frames[frame].buf, bound, src, len);
	if (ZSTD_isError(r)) {
		*cause = xasprintf("zstd: %s", ZSTD_getErrorName(r));
		return -1;
	}
	w->frames[frame].len = r;
	return 0;
}

static int
cache_save_strings(struct cache_wctx *w, unsigned tid, size_t f,
    char **cause)
{
	const struct strpool	*sp = w->m->strs;
	uint32_t		*lens, n = strpool_count(sp), i;
	uint8_t			*packed, *data;
	size_t			 off = 0, len;
	int			 rc;

	lens = xreallocarray(NULL, n - 1, sizeof *lens);
	packed = xreallocarray(NULL, n - 1, sizeof *lens);
	data = xmalloc(w->plan->rawlen[f + 1] + 1);
	for (i = 1; i < n; i++) {
		len = strpool_len(sp, i);
		lens[i - 1] = (uint32_t)len;
		memcpy(data + off, strpool_get(sp, i), len);
		off += len;
	}
	cache_pack32(packed, lens, n - 1, XF_NONE);
	rc = cache_compress(w, tid, f, packed, cause);
	if (rc == 0)
		rc = cache_compress(w, tid, f + 1, data, cause);
	free(lens);
	free(packed);
	free(data);
	return rc;
}

static int
cache_save_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job = &w->plan->jobs[j];
	const struct lane	*l;
	uint8_t			*sc;
	size_t			 f = job->frame, n = job->n, i0 = job->i0, wd;

	if (w->scratch[tid] == NULL)
		w->scratch[tid] = xmalloc(CACHE_SCRATCH);
	sc = w->scratch[tid];
	switch (job->type) {
	case JOB_STRINGS:
		return cache_save_strings(w, tid, f, cause);
	case JOB_TABLE:
		wd = cache_tab_width[job->which];
		cache_shuffle(sc, cache_table(w->m, job->which) + i0 * wd, n,
		    wd);
		return cache_compress(w, tid, f, sc, cause);
	case JOB_CHUNK:
		l = &w->m->tracks[job->which].lane;
		cache_pack64(sc, l->start + i0, NULL, n, XF_DELTA);
		if (cache_compress(w, tid, f, sc, cause) != 0)
			return -1;
		cache_pack64(sc, l->end + i0, l->start + i0, n, XF_DIFF);
		if (cache_compress(w, tid, f + 1, sc, cause) != 0)
			return -1;
		cache_pack32(sc, l->name + i0, n, XF_NONE);
		if (cache_compress(w, tid, f + 2, sc, cause) != 0 ||
		    cache_compress(w, tid, f + 3, l->kind + i0, cause) != 0 ||
		    cache_compress(w, tid, f + 4, l->flags + i0, cause) != 0)
			return -1;
		cache_pack64(sc, l->rowid + i0, NULL, n, XF_DELTA);
		if (cache_compress(w, tid, f + 5, sc, cause) != 0)
			return -1;
		cache_pack32(sc, l->corr + i0, n, XF_DELTA);
		if (cache_compress(w, tid, f + 6, sc, cause) != 0)
			return -1;
		cache_pack32(sc, l->aux + i0, n, XF_DELTA);
		return cache_compress(w, tid, f + 7, sc, cause);
	}
	return -1;
}

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

/* The serialised cache, ready to be written. */
struct cache_out {
	struct cache_hdr	 h;
	uint64_t		*table;
	size_t			 tablen;	/* bytes */
	struct cache_wframe	*frames;
	size_t			 nframes;
};

/*
 * Writes o to path through a mkstemp() file in the same directory and
 * rename(). Refuses to replace the trace itself or anything that is not a
 * regular file or a symlink.
 */
static int
cache_write_file(const char *path, const struct cache_ident *id,
    const struct cache_out *o, char **cause)
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
			*cause = xasprintf("%s: not a regular file", path);
			return -1;
		}
	}
	tmp = xasprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (cache_write_all(fd, &o->h, sizeof o->h) != 0 ||
	    cache_write_all(fd, o->table, o->tablen) != 0)
		goto fail;
	for (i = 0; i < o->nframes; i++)
		if (cache_write_all(fd, o->frames[i].buf, o->frames[i].len) !=
		    0)
			goto fail;
	e = close(fd);
	fd = -1;
	if (e != 0 || rename(tmp, path) != 0)
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

/* mkdir -p; the components it creates get mode 0700. */
static int
cache_mkdirs(const char *dir)
{
	char	*p = xstrdup(dir), *s, c;
	int	 rc = 0;

	for (s = p + 1; rc == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (s[-1] != '/' && mkdir(p, 0700) != 0 && errno != EEXIST)
			rc = -1;
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

static char *
cache_xdg_path(const char *trace, int create, char **cause)
{
	const char	*base = cache_basename(trace), *env, *s;
	char		*dir, *real, *p;
	uint64_t	 h = 1469598103934665603ULL;	/* FNV-1a */
	int		 len;

	if ((env = getenv("XDG_CACHE_HOME")) != NULL && env[0] == '/')
		dir = xasprintf("%s/gpulens", env);
	else if ((env = getenv("HOME")) != NULL && env[0] == '/')
		dir = xasprintf("%s/.cache/gpulens", env);
	else {
		if (cause != NULL)
			*cause = xstrdup("no cache directory: neither "
			    "XDG_CACHE_HOME nor HOME is an absolute path");
		return NULL;
	}
	if ((real = realpath(trace, NULL)) == NULL) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", trace, strerror(errno));
		free(dir);
		return NULL;
	}
	for (s = real; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	free(real);
	if (create && cache_mkdirs(dir) != 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	/* Stay well under NAME_MAX, mkstemp suffix included. */
	len = (int)strlen(base);
	p = xasprintf("%s/%.*s-%016llx%s", dir, len > 96 ? 96 : len, base,
	    (unsigned long long)h, CACHE_SUFFIX);
	free(dir);
	return p;
}

/*
 * A directory is writable for the cache when access() says so and it has a
 * write bit: root passes access() everywhere, but a directory marked
 * read-only (a shared fixture tree, a read-only export) must stay untouched
 * even then.
 */
static int
cache_dir_writable(const char *trace)
{
	char		*dir = cache_dirname(trace);
	struct stat	 st;
	int		 ok;

	ok = access(dir, W_OK) == 0 && stat(dir, &st) == 0 &&
	    (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0;
	free(dir);
	return ok;
}

char *
cache_path(const char *trace, int for_write, char **cause)
{
	struct stat	 st;
	char		*local;

	if (*cache_basename(trace) == '\0') {
		if (cause != NULL)
			*cause = xasprintf("%s: not a file name", trace);
		return NULL;
	}
	local = cache_local_path(trace);
	if (for_write ? cache_dir_writable(trace) : lstat(local, &st) == 0)
		return local;
	free(local);
	return cache_xdg_path(trace, for_write, cause);
}

/* ------------------------------------------------------------------ */

/* Serialises m into o. Returns 0, or -1 with *cause. */
static int
cache_serialise(const struct model *m, const struct cache_ident *id,
    struct cache_out *o, char **cause)
{
	struct cache_counts	 c;
	struct cache_plan	 plan;
	struct cache_wctx	 w;
	struct cache_wbuf	 small = { NULL, 0, 0 };
	size_t			 i, f;
	uLong			 crc;
	int			 rc = -1;

	memset(o, 0, sizeof *o);
	memset(&c, 0, sizeof c);
	memset(&w, 0, sizeof w);
	c.nstrs = strpool_count(m->strs);
	for (i = 1; i < c.nstrs; i++)
		c.strbytes += strpool_len(m->strs, (uint32_t)i);
	c.ntab[TAB_KERNELS] = m->nkernels;
	c.ntab[TAB_COPIES] = m->ncopies;
	c.ntab[TAB_NVTX] = m->nnvtx;
	c.ntab[TAB_COUNTERS] = m->ncounters;
	c.ntracks = m->ntracks;
	if (m->ntracks > 0)
		c.lane_n = xcalloc(m->ntracks, sizeof *c.lane_n);
	for (i = 0; i < m->ntracks; i++)
		c.lane_n[i] = m->tracks[i].lane.n;
	if (cache_plan_build(&plan, &c) != 0) {
		*cause = xstrdup("model too large for the cache");
		goto out;
	}

	cache_small_write(&small, m, &c);
	plan.rawlen[0] = small.n;
	plan.raw_size += small.n;
	w.m = m;
	w.plan = &plan;
	w.frames = o->frames = xcalloc(plan.nframes, sizeof *w.frames);
	o->nframes = plan.nframes;
	if (cache_compress(&w, 0, 0, small.p, cause) != 0 ||
	    cache_pool_run(plan.njobs, cache_nthreads(plan.raw_size),
	    cache_save_job, &w, cause) != 0)
		goto out;

	o->tablen = plan.nframes * 2 * sizeof *o->table;
	o->table = xreallocarray(NULL, plan.nframes, 2 * sizeof *o->table);
	for (f = 0; f < plan.nframes; f++) {
		o->table[2 * f] = plan.rawlen[f];
		o->table[2 * f + 1] = w.frames[f].len;
	}
	crc = cache_crc32(crc32(0, Z_NULL, 0), (const uint8_t *)o->table,
	    o->tablen);
	memcpy(o->h.magic, CACHE_MAGIC, sizeof o->h.magic);
	o->h.version = CACHE_VERSION;
	o->h.bom = CACHE_BOM;
	o->h.hdr_size = sizeof o->h;
	memcpy(o->h.sz, cache_sizes, sizeof o->h.sz);
	o->h.trace_size = id->size;
	o->h.trace_mtime = id->mtime;
	o->h.trace_ino = id->ino;
	o->h.trace_dev = id->dev;
	o->h.payload_size = o->tablen;
	for (f = 0; f < plan.nframes; f++) {
		crc = cache_crc32(crc, w.frames[f].buf, w.frames[f].len);
		o->h.payload_size += w.frames[f].len;
	}
	o->h.raw_size = plan.raw_size;
	o->h.nframes = (uint32_t)plan.nframes;
	o->h.payload_crc = (uint32_t)crc;
	o->h.chunk = CACHE_CHUNK;
	o->h.level = (uint32_t)CACHE_LEVEL;
	o->h.hdr_crc = cache_hdr_crc(&o->h);
	rc = 0;

out:
	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeCCtx(w.cctx[i]);
		free(w.scratch[i]);
	}
	free(c.lane_n);
	free(small.p);
	cache_plan_free(&plan);
	return rc;
}

static void
cache_out_free(struct cache_out *o)
{
	size_t	f;

	for (f = 0; f < o->nframes; f++)
		free(o->frames[f].buf);
	free(o->frames);
	free(o->table);
}

int
cache_save(const char *trace, const struct model *m, char **cause)
{
	struct cache_ident	 id;
	struct cache_out	 o;
	char			*path, *why = NULL, *why2 = NULL;
	double			 t0 = timing_now();
	int			 rc = -1;

	if (cache_ident_of(trace, &id, cause) != 0)
		return -1;
	if (cache_serialise(m, &id, &o, &why) != 0)
		goto out;
	timing_report("cache-encode", t0);

	/* Next to the trace if that directory is writable, else XDG. */
	if (cache_dir_writable(trace)) {
		path = cache_local_path(trace);
		rc = cache_write_file(path, &id, &o, &why);
		free(path);
	}
	if (rc != 0 && (path = cache_xdg_path(trace, 1, &why2)) != NULL) {
		rc = cache_write_file(path, &id, &o, &why2);
		free(path);
	}
	if (rc != 0 && why2 != NULL) {
		if (why != NULL) {
			path = xasprintf("%s; %s", why, why2);
			free(why2);
			why2 = path;
		}
		free(why);
		why = why2;
		why2 = NULL;
	}

out:
	cache_out_free(&o);
	if (rc != 0 && cause != NULL)
		*cause = why != NULL ? why : xstrdup("cannot write the cache");
	else
		free(why);
	free(why2);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Loading. */

/*
 * Maps the pages of [p, p + len) before they are written: one system call
 * instead of a page fault per 4 KiB, which in a VM costs more than the
 * decompression itself. Only a hint; does nothing where unsupported.
 */
static void
cache_prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t	a, e;

	if (len < (64u << 10))
		return;
	a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	e = ((uintptr_t)p + len) & ~(uintptr_t)4095;
	if (e > a)
		madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

struct cache_rctx {
	struct model		*m;
	struct cache_counts	 c;
	struct cache_plan	*plan;
	const uint8_t		*frames;	/* the first frame's bytes */
	uint64_t		*off;		/* per frame, into frames */
	uint64_t		*clen;		/* per frame, compressed */
	ZSTD_DCtx		*dctx[CACHE_THREADS];
	uint8_t			*scratch[CACHE_THREADS];
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
	res = ZSTD_decompressDCtx(r->dctx[tid], len > 0 ? dst : &dummy, len,
	    r->frames + r->off[frame], r->clen[frame]);
	if (ZSTD_isError(res)) {
		*cause = xasprintf("frame %zu: %s", frame,
		    ZSTD_getErrorName(res));
		return -1;
	}
	if (res != len) {
		*cause = xasprintf("frame %zu: %zu bytes, expected %zu", frame,
		    res, len);
		return -1;
	}
	return 0;
}

static int
cache_load_strings(struct cache_rctx *r, unsigned tid, size_t f,
    char **cause)
{
	uint32_t	 n = r->c.nstrs, *lens, i;
	uint8_t		*packed;
	char		*data;
	uint64_t	 off = 0, bytes = r->c.strbytes;
	int		 rc = -1;

	packed = xreallocarray(NULL, n - 1, sizeof *lens);
	lens = xreallocarray(NULL, n - 1, sizeof *lens);
	data = xmalloc(bytes + 1);
	if (cache_decompress(r, tid, f, packed, cause) != 0 ||
	    cache_decompress(r, tid, f + 1, data, cause) != 0)
		goto out;
	cache_unpack32(lens, packed, n - 1, XF_NONE);
	for (i = 1; i < n; i++) {
		if (lens[i - 1] > bytes - off || strpool_intern(r->m->strs,
		    data + off, lens[i - 1]) != i)
			break;
		off += lens[i - 1];
	}
	if (i != n || off != bytes) {
		*cause = xasprintf("string table inconsistent at id %u", i);
		goto out;
	}
	rc = 0;
out:
	free(packed);
	free(lens);
	free(data);
	return rc;
}

/* Whether aux indices point into the side table of their kind. */
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
cache_load_chunk(struct cache_rctx *r, const struct cache_job *job,
    unsigned tid, char **cause)
{
	struct lane	*l = &r->m->tracks[job->which].lane;
	uint8_t		*sc = r->scratch[tid];
	size_t		 f = job->frame, n = job->n, i0 = job->i0;

	cache_prefault(l->start + i0, n * sizeof *l->start);
	cache_prefault(l->end + i0, n * sizeof *l->end);
	cache_prefault(l->name + i0, n * sizeof *l->name);
	cache_prefault(l->rowid + i0, n * sizeof *l->rowid);
	cache_prefault(l->corr + i0, n * sizeof *l->corr);
	cache_prefault(l->aux + i0, n * sizeof *l->aux);
	if (cache_decompress(r, tid, f, sc, cause) != 0)
		return -1;
	cache_unpack64(l->start + i0, sc, n, XF_DELTA, NULL);
	if (cache_decompress(r, tid, f + 1, sc, cause) != 0)
		return -1;
	cache_unpack64(l->end + i0, sc, n, XF_DIFF, l->start + i0);
	if (cache_decompress(r, tid, f + 2, sc, cause) != 0)
		return -1;
	cache_unpack32(l->name + i0, sc, n, XF_NONE);
	if (cache_decompress(r, tid, f + 3, l->kind + i0, cause) != 0 ||
	    cache_decompress(r, tid, f + 4, l->flags + i0, cause) != 0 ||
	    cache_decompress(r, tid, f + 5, sc, cause) != 0)
		return -1;
	cache_unpack64(l->rowid + i0, sc, n, XF_DELTA, NULL);
	if (cache_decompress(r, tid, f + 6, sc, cause) != 0)
		return -1;
	cache_unpack32(l->corr + i0, sc, n, XF_DELTA);
	if (cache_decompress(r, tid, f + 7, sc, cause) != 0)
		return -1;
	cache_unpack32(l->aux + i0, sc, n, XF_DELTA);
	if (cache_check_aux(r->m, l->kind + i0, l->aux + i0, n) != 0) {
		*cause = xasprintf("track %u: side-table index out of range",
		    job->which);
		return -1;
	}
	return 0;
}

static int
cache_load_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_rctx	*r = arg;
	const struct cache_job	*job = &r->plan->jobs[j];
	size_t			 wd;

	if (r->scratch[tid] == NULL)
		r->scratch[tid] = xmalloc(CACHE_SCRATCH);
	switch (job->type) {
	case JOB_STRINGS:
		return cache_load_strings(r, tid, job->frame, cause);
	case JOB_TABLE:
		wd = cache_tab_width[job->which];
		if (cache_decompress(r, tid, job->frame, r->scratch[tid],
		    cause) != 0)
			return -1;
		cache_prefault(cache_table(r->m, job->which) + job->i0 * wd,
		    job->n * wd);
		cache_unshuffle(cache_table(r->m, job->which) + job->i0 * wd,
		    r->scratch[tid], job->n, wd);
		return 0;
	case JOB_CHUNK:
		return cache_load_chunk(r, job, tid, cause);
	}
	return -1;
}

#define CACHE_REF(v, n)	((v) == NONE32 || (v) < (n))

/* Whether every entity reference is in range: finalize and every reader of
 * the model index with them. */
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
		    !CACHE_REF(t->domain, m->ndomains) ||
		    (t->type == TRACK_GPU && t->stream == NONE32))
			return -1;
	}
	for (i = 0; i < m->nnvtx; i++)
		if (!CACHE_REF(m->nvtx[i].domain, m->ndomains))
			return -1;
	return 0;
}

/* n elements of size sz, or NULL for none. */
static void *
cache_alloc(size_t n, size_t sz)
{
	void	*p;

	if (n == 0)
		return NULL;
	p = xreallocarray(NULL, n, sz);
	return p;
}

/* Parses the frame table into r; -1 with *why if it does not add up. */
static int
cache_parse_table(const struct cache_hdr *h, const uint8_t *payload,
    struct cache_rctx *r, char **why)
{
	uint64_t	tablen, left, raw = 0, rl, cl;
	size_t		f;

	if (h->nframes == 0 || h->nframes > h->payload_size / 16) {
		*why = xasprintf("bad frame count %u", h->nframes);
		return -1;
	}
	tablen = (uint64_t)h->nframes * 16;
	left = h->payload_size - tablen;
	r->off = xreallocarray(NULL, h->nframes, sizeof *r->off);
	r->clen = xreallocarray(NULL, h->nframes, sizeof *r->clen);
	for (f = 0; f < h->nframes; f++) {
		memcpy(&rl, payload + 16 * f, 8);
		memcpy(&cl, payload + 16 * f + 8, 8);
		if (cl > left || rl / CACHE_MAXRATIO > cl ||
		    rl > SIZE_MAX / 4) {
			*why = xasprintf("frame %zu: bad length", f);
			return -1;
		}
		r->off[f] = h->payload_size - tablen - left;
		r->clen[f] = cl;
		left -= cl;
		raw += rl;
	}
	if (left != 0 || raw != h->raw_size) {
		*why = xstrdup("frame lengths do not add up");
		return -1;
	}
	r->frames = payload + tablen;
	return 0;
}

/* Allocates the final arrays of m from r->c (checked against the file). */
static void
cache_alloc_model(struct model *m, const struct cache_counts *c)
{
	struct lane	*l;
	size_t		 t, n;

	m->kernels = cache_alloc(c->ntab[TAB_KERNELS], sizeof *m->kernels);
	m->nkernels = c->ntab[TAB_KERNELS];
	m->copies = cache_alloc(c->ntab[TAB_COPIES], sizeof *m->copies);
	m->ncopies = c->ntab[TAB_COPIES];
	m->nvtx = cache_alloc(c->ntab[TAB_NVTX], sizeof *m->nvtx);
	m->nnvtx = c->ntab[TAB_NVTX];
	m->counters = cache_alloc(c->ntab[TAB_COUNTERS], sizeof *m->counters);
	m->ncounters = c->ntab[TAB_COUNTERS];
	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		n = c->lane_n[t];
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
}

/*
 * Decodes a CRC-checked payload into a model. Returns 0, or -1 with *why.
 * Frees *payload once decompressed, before finalize allocates the indices.
 */
static int
cache_decode(const struct cache_hdr *h, uint8_t **pp, struct model **out,
    char **why)
{
	const uint8_t		*payload = *pp;
	struct cache_plan	 plan, small_plan;
	struct cache_rctx	 r;
	struct cache_rbuf	 rb;
	struct model		*m;
	uint8_t			*small = NULL;
	char			**warn = NULL;
	size_t			 nwarn = 0, f, i;
	uint64_t		 rl;
	double			 t0;
	int			 rc = -1;

	memset(&plan, 0, sizeof plan);
	memset(&r, 0, sizeof r);
	m = xcalloc(1, sizeof *m);
	m->strs = strpool_new();
	r.m = m;
	if (cache_parse_table(h, payload, &r, why) != 0)
		goto out;

	/* Frame 0, whose length the table alone gives. */
	memset(&small_plan, 0, sizeof small_plan);
	memcpy(&rl, payload, 8);
	small_plan.rawlen = &rl;
	r.plan = &small_plan;
	small = xmalloc(rl + 1);
	if (cache_decompress(&r, 0, 0, small, why) != 0)
		goto out;
	rb.p = small;
	rb.n = rl;
	rb.off = 0;
	rb.err = 0;
	if (cache_small_read(&rb, m, &r.c, &warn, &nwarn) != 0) {
		*why = xstrdup("model header truncated or inconsistent");
		goto out;
	}

	/* The plan from the counts must match the table exactly. */
	if (cache_plan_build(&plan, &r.c) != 0 || plan.nframes != h->nframes) {
		*why = xstrdup("frame table does not match the model");
		goto out;
	}
	plan.rawlen[0] = rl;
	for (f = 1; f < plan.nframes; f++) {
		memcpy(&rl, payload + 16 * f, 8);
		if (rl != plan.rawlen[f]) {
			*why = xasprintf("frame %zu: unexpected length", f);
			goto out;
		}
	}
	r.plan = &plan;

	t0 = timing_now();
	cache_alloc_model(m, &r.c);
	if (cache_pool_run(plan.njobs, cache_nthreads(h->raw_size),
	    cache_load_job, &r, why) != 0)
		goto out;
	free(*pp);
	*pp = NULL;
	timing_report("cache-decode", t0);
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
	m->warnings = warn;
	m->nwarnings = nwarn;
	warn = NULL;
	nwarn = 0;
	*out = m;
	m = NULL;
	rc = 0;

out:
	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeDCtx(r.dctx[i]);
		free(r.scratch[i]);
	}
	for (i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	free(r.c.lane_n);
	free(r.off);
	free(r.clen);
	free(small);
	cache_plan_free(&plan);
	model_free(m);
	return rc;
}

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

/* Checks the header of a cache for trace id; NULL if it is usable, else why
 * not. */
static const char *
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
	    h->trace_ino != id->ino || h->trace_dev != id->dev)
		return "stale: the trace changed";
	if (h->payload_size != fsize - sizeof *h)
		return fsize - sizeof *h < h->payload_size ? "truncated" :
		    "trailing garbage";
	if (h->payload_size > SIZE_MAX / 4)
		return "too large";
	return NULL;
}

/* Tries one cache file: 1 with *out on a hit, else 0 with *why. */
static int
cache_try(const char *path, const struct cache_ident *id,
    struct model **out, char **why)
{
	struct cache_hdr	 h;
	struct stat		 st;
	const char		*bad;
	uint8_t			*payload = NULL;
	size_t			 got;
	double			 t0;
	int			 fd, rc = 0;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		*why = xstrdup(errno == ELOOP ? "a symlink" : strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) != 0)
		bad = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		bad = "not a regular file";
	else if (st.st_uid != geteuid() && st.st_uid != 0)
		bad = "owned by another user";
	else if (cache_read_all(fd, &h, sizeof h, &got) != 0)
		bad = strerror(errno);
	else if (got < sizeof h)
		bad = "truncated header";
	else
		bad = cache_check_hdr(&h, id, (uint64_t)st.st_size);
	if (bad != NULL) {
		*why = xstrdup(bad);
		goto out;
	}

	t0 = timing_now();
	payload = xmalloc(h.payload_size + 1);
	cache_prefault(payload, h.payload_size);
	if (cache_read_all(fd, payload, h.payload_size, &got) != 0) {
		*why = xstrdup(strerror(errno));
		goto out;
	}
	if (got != h.payload_size) {
		*why = xstrdup("truncated");
		goto out;
	}
	timing_report("cache-file-read", t0);
	t0 = timing_now();
	if (cache_crc(payload, h.payload_size) != h.payload_crc) {
		*why = xstrdup("checksum mismatch");
		goto out;
	}
	timing_report("cache-crc", t0);
	if (cache_decode(&h, &payload, out, why) == 0)
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
	char			*path[2], *why[2] = { NULL, NULL };
	size_t			 i, n = 0;
	int			 rc = 0;

	*out = NULL;
	if (cache_ident_of(trace, &id, cause) != 0)
		return -1;
	path[n++] = cache_local_path(trace);
	if ((path[n] = cache_xdg_path(trace, 0, NULL)) != NULL)
		n++;
	for (i = 0; i < n && rc == 0; i++)
		if (lstat(path[i], &st) == 0)
			rc = cache_try(path[i], &id, out, &why[i]);
	if (rc == 0 && cause != NULL) {
		if (why[0] != NULL && why[1] != NULL)
			*cause = xasprintf("%s: %s; %s: %s", path[0], why[0],
			    path[1], why[1]);
		else if (why[0] != NULL || why[1] != NULL)
			*cause = xasprintf("%s: %s", why[0] != NULL ?
			    path[0] : path[1], why[0] != NULL ? why[0] :
			    why[1]);
		else
			*cause = xstrdup("no cache");
	}
	for (i = 0; i < n; i++) {
		free(path[i]);
		free(why[i]);
	}
	return rc;
}

/* Removes path if it is a regular file that starts like a cache. */
static int
cache_unlink(const char *path)
{
	char	magic[sizeof CACHE_MAGIC - 1];
	size_t	got;
	int	fd, ok;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return 0;
	ok = cache_read_all(fd, magic, sizeof magic, &got) == 0 &&
	    got == sizeof magic && memcmp(magic, CACHE_MAGIC, sizeof magic) ==
	    0;
	close(fd);
	return ok && unlink(path) == 0;
}

int
cache_remove(const char *trace)
{
	char	*p;
	int	 n;

	p = cache_local_path(trace);
	n = cache_unlink(p);
	free(p);
	if ((p = cache_xdg_path(trace, 0, NULL)) != NULL) {
		n += cache_unlink(p);
		free(p);
	}
	return n;
}
