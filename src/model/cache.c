/*
 * cache: the finished model as a versioned, zstd-compressed binary file, so
 * the second open of an unchanged trace skips parsing and indexing.
 *
 * File layout (native byte order and struct layout; a machine or build that
 * disagrees on either fails the header checks and rebuilds):
 *
 *   header   struct cache_hdr, 128 bytes: magic "GPULENSC", format version,
 *            byte-order mark, sizeof every raw-stored struct, the trace's
 *            size, mtime (ns), inode and device, payload size, raw size,
 *            frame count, events per chunk, the length and CRC32 of the
 *            head (below), a CRC32 of the header and a CRC32 of everything
 *            after it.
 *   table    nframes x { raw length, compressed length }, uint64 each.
 *   frames   independent zstd frames (content checksums on).
 *
 * Frame 0 holds the small things: scalars, per-kind event counts, entity
 * tables (raw structs), tracks field by field with their lane lengths and
 * index sizes, the correlation and device-coverage sizes, metadata and
 * warnings. From those counts alone the loader derives the plan: the list
 * of jobs and the exact raw length of every further frame, which must match
 * the table before anything large is allocated. The jobs, in file order:
 *   strings   lengths and bytes in id order (re-interning reproduces ids);
 *   tables    kernels, copies, nvtx (raw structs, the NVTX tree included),
 *             counters, in chunks;
 *   lanes     CACHE_CHUNK events of one lane: start (delta-coded),
 *             duration (end - start), name, kind, flags, row id (32 or 64
 *             bits), corr and aux (the last three delta-coded); for a lane
 *             whose events overlap also depth, maxend (- end) and
 *             ends_sorted (delta-coded);
 *   indices   per lane its coverage sums and pyramid, and for an
 *             overlapping lane its coverage segments; then the correlation
 *             arrays (launch, GPU ids by call, their sampled keys) and
 *             every device's coverage (segments and sums), all in chunks.
 * The table, frame 0 and the string frames form the head: `gpulens info`
 * reads only the head (cache_load_summary), checked by its own CRC.
 *
 * Every multi-byte column is byte-shuffled before compression (byte k of
 * every value together, as Blosc does): on our traces timestamps and ids
 * then compress about 30% smaller and decompress about four times faster
 * than plain zstd, which more than pays for the unshuffle.
 *
 * Every index model_finalize() builds is stored, so a warm load sorts and
 * rebuilds nothing: the loader decodes the arrays and model_adopt() only
 * numbers the events and adopts each lane's index (lane_adopt). On a
 * 10-million-event demo trace that takes the warm load from about 0.9 s to
 * 0.25 s; the stored indices make the file about a third larger.
 *
 * Loading maps the file (or reads it with one read() where it cannot be
 * mapped), checks the header CRC and the trace identity, then the payload
 * CRC, and only then decompresses: a few threads take jobs, decompress each
 * frame into a small per-thread buffer and unshuffle and undo the delta
 * coding from there into the final arrays, and give back the pages of the
 * compressed frames they are done with, so the file and the model are never
 * both resident. Every count is bounded by what the file can hold, and
 * every stored index that a query follows (side-table indices, global event
 * ids, depths, pyramid entries) is checked in range while decoding; any
 * mismatch is a miss with a reason, never a crash nor a model that reads
 * out of bounds.
 *
 * Writing goes to a mkstemp() file in the destination directory renamed
 * over the cache path, the frames streamed out in order as the threads
 * compress them (header and table written last, so only the frames of jobs
 * finished out of order are ever held): readers never see a partial file,
 * concurrent writers each rename a complete file (the last one wins), and a
 * symlink at the cache path is replaced, not followed. There is no fsync: a
 * file left incomplete by a crash fails its CRC and is rebuilt.
 *
 * Locations, trace identity and upkeep of the cache directory: cachedir.h.
 * The header records the identity of the trace the model was read from
 * (size, mtime, ctime, inode, device and a fingerprint of its end blocks,
 * taken from the descriptor before the read and checked again after it);
 * a cache whose identity differs from the trace's now is stale.
 *
 * Adding a field to a lane, a track or the model needs a change here and a
 * new CACHE_VERSION; the static assertions below catch the lane and track.
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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "model/cache.h"
#include "model/cachedir.h"
#include "util/timing.h"
#include "util/tmpreg.h"
#include "util/xmalloc.h"

#define CACHE_MAGIC	"GPULENSC"
#define CACHE_VERSION	4		/* bump on any layout change */
#define CACHE_BOM	0x01020304u
#ifndef CACHE_CHUNK
#define CACHE_CHUNK	(1u << 17)	/* elements per chunk */
#endif
#define CACHE_SCRATCH	((size_t)CACHE_CHUNK * 8)	/* bytes */
#ifndef CACHE_LEVEL
#define CACHE_LEVEL	1		/* zstd level */
#endif
#define CACHE_THREADS	4		/* at most */
#define CACHE_MAXCOLS	11		/* frames per job, at most */
/* A zstd block holds at most 128 KiB and takes at least 4 bytes (RLE), so
 * no valid frame expands more than this. */
#define CACHE_MAXRATIO	32768

_Static_assert(offsetof(struct lane, depth) ==
    2 * sizeof(size_t) + 9 * sizeof(void *),
    "lane raw arrays changed: update cache.c and CACHE_VERSION");
_Static_assert(offsetof(struct track, name) + sizeof(uint32_t) <=
    offsetof(struct track, lane) && sizeof(struct track) ==
    offsetof(struct track, lane) + sizeof(struct lane),
    "track fields changed: update cache.c and CACHE_VERSION");
_Static_assert(sizeof(struct kernel_info) == 96,
    "kernel_info fields changed: update cache.c and CACHE_VERSION");
_Static_assert(CACHE_CHUNK % (1u << COVERAGE_SHIFT) == 0,
    "chunks hold whole coverage blocks");

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
	uint64_t	 head_size;	/* bytes of the head: table, frame 0,
					   string frames */
	uint32_t	 head_crc;	/* CRC32 of the head */
	uint32_t	 reserved;
	int64_t		 trace_ctime;	/* ns */
	uint64_t	 trace_fp;	/* fingerprint (cachedir_ident) */
};
_Static_assert(sizeof(struct cache_hdr) == 144, "cache header layout");

static const uint16_t cache_sizes[12] = {
	sizeof(struct device), sizeof(struct process), sizeof(struct thread),
	sizeof(struct stream), sizeof(struct domain), sizeof(struct meta),
	sizeof(struct kernel_info), sizeof(struct copy_info),
	sizeof(struct nvtx_info), sizeof(double), sizeof(struct track),
	sizeof(struct lane)
};

/* The trace file's identity: any change invalidates the cache. */
#define cache_ident	cachedir_ident

enum cache_table {
	TAB_KERNELS,
	TAB_COPIES,
	TAB_NVTX,
	TAB_COUNTERS,
	TAB_COUNT
};

/*
 * Column groups: the arrays one job moves, all over the same element range
 * [i0, i0 + n) of one owner (a track, a device, or the model).
 */
enum cache_group {
	GRP_LANE,		/* the events of a lane (+ depth, maxend, ends) */
	GRP_LBUSY,		/* a lane's coverage sums */
	GRP_PYR,		/* a lane's pyramid */
	GRP_LCOV,		/* an overlapping lane's coverage segments */
	GRP_LAUNCH,		/* m->launch */
	GRP_GPU,		/* m->gpu_of_api */
	GRP_GIDX,		/* m->gpu_of_api_idx */
	GRP_DCOV,		/* a device's coverage segments */
	GRP_DBUSY		/* a device's coverage sums */
};

enum cache_job_type {
	JOB_STRINGS,		/* two frames: lengths, bytes */
	JOB_TABLE,		/* one frame: entries [i0, i0 + n) */
	JOB_COLS		/* a column group: elements [i0, i0 + n) */
};

struct cache_job {
	uint8_t			 type;		/* enum cache_job_type */
	uint8_t			 group;		/* enum cache_group */
	uint8_t			 ncols;		/* frames */
	uint32_t		 which;		/* table, track or device */
	size_t			 i0, n;
	size_t			 frame;		/* first frame */
};

struct cache_plan {
	struct cache_job	*jobs;
	size_t			 njobs, jobcap;
	uint64_t		*rawlen;	/* per frame; [0]: small */
	size_t			 nframes, framecap;
	uint64_t		 raw_size;
	size_t			 nhead;		/* frames in the head */
};

/* A lane's sizes, as frame 0 stores them. */
struct cache_lanedim {
	uint64_t	 n;
	uint64_t	 cov_n;		/* overlapping lanes: coverage segments */
	uint8_t		 overlaps;
	uint8_t		 wide;		/* row ids in rowid64 */
};

/* A lane's layout in the file: LANE_* bits. */
#define LANE_OVERLAPS	0x1
#define LANE_WIDE	0x2

/* What the plan is derived from. */
struct cache_counts {
	uint32_t		 nstrs;		/* strings, including "" */
	uint64_t		 strbytes;	/* bytes of strings 1..nstrs-1 */
	uint64_t		 ntab[TAB_COUNT];
	size_t			 ntracks;
	struct cache_lanedim	*lanes;		/* per track */
	uint64_t		 nevents;	/* sum of the lanes' n */
	uint8_t			 has_launch;	/* m->launch != NULL */
	uint64_t		 nlaunch;	/* events of the leading GPU and
						   sync tracks */
	uint64_t		 nlinks;	/* m->ngpu_of_api */
	size_t			 ndcov;		/* device coverages (ndevices) */
	uint64_t		*dcov_n;	/* their segment counts */
};

/* Column transforms, applied before shuffling. */
enum cache_xform {
	XF_NONE,
	XF_DELTA,		/* v[i] - v[i-1] (wrapping), per chunk */
	XF_DIFF			/* v[i] - ref[i], ref another column */
};

/* One column of a job: the array at the job's first element. */
struct cache_col {
	void		*p;
	uint8_t		 width;		/* 1, 2, 4 or 8 bytes */
	uint8_t		 xform;
	int8_t		 ref;		/* XF_DIFF: column index in the job */
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

static void
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
static const void *
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
static void
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
	for (k = 0; k < EV_KIND_COUNT; k++)
		cache_put64(b, m->kind_count[k]);

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
		cache_put8(b, c->lanes[i].overlaps);
		cache_put8(b, c->lanes[i].wide);
		cache_put32(b, t->lane.max_depth);
		cache_put64(b, (uint64_t)t->lane.maxdur);
		cache_put64(b, c->lanes[i].cov_n);
	}

	cache_put8(b, c->has_launch);
	cache_put64(b, c->nlinks);
	cache_put64(b, c->ndcov);
	for (i = 0; i < c->ndcov; i++)
		cache_put64(b, c->dcov_n[i]);

	cache_put64(b, m->nwarnings);
	for (i = 0; i < m->nwarnings; i++) {
		len = strlen(m->warnings[i]);
		cache_put64(b, len);
		cache_put(b, m->warnings[i], len);
	}
}

#define CACHE_TRACK_BYTES	(1 + 6 * 4 + 8 + 1 + 1 + 4 + 8 + 8)

/*
 * Reads frame 0 into m (scalars, kind counts, entities, tracks with empty
 * lanes but their index flags) and c; the warnings go to *warn (not m:
 * finalize would add its own again). Sizes that cannot belong to a
 * finalized model are refused.
 */
static int
cache_small_read(struct cache_rbuf *b, struct model *m,
    struct cache_counts *c, char ***warn, size_t *nwarn)
{
	struct track		*t;
	struct cache_lanedim	*ld;
	const uint8_t		*p;
	uint32_t		 md;
	size_t			 i, n, len;
	int			 k;

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
	for (k = 0; k < EV_KIND_COUNT; k++)
		m->kind_count[k] = cache_get64(b);

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
		c->lanes = xcalloc(n, sizeof *c->lanes);
		m->ntracks = c->ntracks = n;
	}
	c->nevents = 0;
	for (i = 0; i < n; i++) {
		t = &m->tracks[i];
		ld = &c->lanes[i];
		lane_init(&t->lane);
		t->type = cache_get8(b);
		t->device = cache_get32(b);
		t->stream = cache_get32(b);
		t->process = cache_get32(b);
		t->thread = cache_get32(b);
		t->domain = cache_get32(b);
		t->name = cache_get32(b);
		ld->n = cache_get64(b);
		ld->overlaps = cache_get8(b);
		ld->wide = cache_get8(b);
		md = cache_get32(b);
		t->lane.maxdur = (int64_t)cache_get64(b);
		ld->cov_n = cache_get64(b);
		if (ld->overlaps > 1 || ld->wide > 1 || md > UINT16_MAX ||
		    ld->n >= NONE32 ||
		    ld->cov_n > ld->n || (!ld->overlaps && ld->cov_n != 0))
			b->err = 1;
		t->lane.overlaps = ld->overlaps;
		t->lane.max_depth = (uint16_t)md;
		c->nevents += ld->n;
		if (c->nevents >= NONE32)
			b->err = 1;
	}

	/* launch covers the GPU and sync tracks, first in track order. */
	c->nlaunch = 0;
	for (i = 0; i < m->ntracks && (m->tracks[i].type == TRACK_GPU ||
	    m->tracks[i].type == TRACK_SYNC); i++)
		c->nlaunch += c->lanes[i].n;
	c->has_launch = cache_get8(b);
	c->nlinks = cache_get64(b);
	if (c->has_launch > 1 || c->nlinks > c->nlaunch ||
	    (c->has_launch ? c->nlinks == 0 : c->nlinks != 0))
		b->err = 1;
	n = cache_get_count(b, 8);
	if (n != 0 && n != m->ndevices)
		b->err = 1;
	if (n > 0 && !b->err) {
		c->dcov_n = xcalloc(n, sizeof *c->dcov_n);
		c->ndcov = n;
		for (i = 0; i < n; i++)
			c->dcov_n[i] = cache_get64(b);
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
/* Column groups and the plan. */

/*
 * Fills cols[] with the columns of group g for owner which, starting at
 * element i0, and returns their number. lflags are the lane's LANE_* bits
 * (for GRP_LANE). With m NULL only widths and transforms are filled (the plan
 * needs no more).
 */
static size_t
cache_group_cols(const struct model *m, int g, uint32_t which, int lflags,
    size_t i0, struct cache_col *cols)
{
	const struct lane	*l = NULL;
	const struct coverage	*dc = NULL;
	size_t			 n = 0;

#define COL(ptr, w, xf, rf) do {					\
	cols[n].p = m != NULL ? (void *)((ptr) + i0) : NULL;		\
	cols[n].width = (w);						\
	cols[n].xform = (xf);						\
	cols[n++].ref = (rf);						\
} while (0)
	if (m != NULL && (g == GRP_LANE || g == GRP_LBUSY || g == GRP_PYR ||
	    g == GRP_LCOV))
		l = &m->tracks[which].lane;
	if (m != NULL && (g == GRP_DCOV || g == GRP_DBUSY))
		dc = &m->device_cov[which];
	switch (g) {
	case GRP_LANE:
		COL(l->start, 8, XF_DELTA, 0);
		COL(l->end, 8, XF_DIFF, 0);		/* the duration */
		COL(l->name, 4, XF_NONE, 0);
		COL(l->kind, 1, XF_NONE, 0);
		COL(l->flags, 1, XF_NONE, 0);
		if (lflags & LANE_WIDE)
			COL(l->rowid64, 8, XF_DELTA, 0);
		else
			COL(l->rowid32, 4, XF_DELTA, 0);
		COL(l->corr, 4, XF_DELTA, 0);
		COL(l->aux, 4, XF_DELTA, 0);
		if (lflags & LANE_OVERLAPS) {
			COL(l->depth, 2, XF_NONE, 0);
			COL(l->maxend, 8, XF_DIFF, 1);	/* maxend - end */
			COL(l->ends_sorted, 8, XF_DELTA, 0);
		}
		break;
	case GRP_LBUSY:
		COL(l->cov.sums, 8, XF_DELTA, 0);
		break;
	case GRP_PYR:
		COL(l->pyr, 4, XF_DELTA, 0);
		break;
	case GRP_LCOV:
		COL(l->cov.start, 8, XF_DELTA, 0);
		COL(l->cov.end, 8, XF_DIFF, 0);
		break;
	case GRP_LAUNCH:
		COL(m->launch, 4, XF_DELTA, 0);
		break;
	case GRP_GPU:
		COL(m->gpu_of_api, 4, XF_DELTA, 0);
		break;
	case GRP_GIDX:
		COL(m->gpu_of_api_idx, 4, XF_DELTA, 0);
		break;
	case GRP_DCOV:
		COL(dc->start, 8, XF_DELTA, 0);
		COL(dc->end, 8, XF_DIFF, 0);
		break;
	case GRP_DBUSY:
		COL(dc->sums, 8, XF_DELTA, 0);
		break;
	}
#undef COL
	return n;
}

static int
cache_lflags(const struct cache_lanedim *ld)
{
	return (ld->overlaps ? LANE_OVERLAPS : 0) | (ld->wide ? LANE_WIDE : 0);
}

static int
cache_lane_lflags(const struct lane *l)
{
	return (l->overlaps ? LANE_OVERLAPS : 0) |
	    (l->rowid64 != NULL ? LANE_WIDE : 0);
}

/* Adds a job of nf frames; -1 if the lengths overflow. */
static int
cache_plan_add(struct cache_plan *p, int type, int group, uint32_t which,
    size_t i0, size_t n, const uint64_t *lens, size_t nf)
{
	struct cache_job	*j;
	size_t			 f;

	XGROW(p->jobs, p->jobcap, p->njobs + 1);
	j = &p->jobs[p->njobs++];
	j->type = (uint8_t)type;
	j->group = (uint8_t)group;
	j->ncols = (uint8_t)nf;
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

/* Adds the jobs of a column group of count elements, in chunks. */
static int
cache_plan_group(struct cache_plan *p, int g, uint32_t which, int lflags,
    uint64_t count)
{
	struct cache_col	cols[CACHE_MAXCOLS];
	uint64_t		lens[CACHE_MAXCOLS];
	size_t			i0, n, k, ncol;

	if (count > UINT32_MAX)
		return -1;
	ncol = cache_group_cols(NULL, g, which, lflags, 0, cols);
	for (i0 = 0; i0 < count; i0 += n) {
		n = count - i0 < CACHE_CHUNK ? count - i0 : CACHE_CHUNK;
		for (k = 0; k < ncol; k++)
			lens[k] = (uint64_t)n * cols[k].width;
		if (cache_plan_add(p, JOB_COLS, g, which, i0, n, lens,
		    ncol) != 0)
			return -1;
	}
	return 0;
}

/* Builds the jobs and frame lengths from the counts alone (frame 0's
 * length is set by the caller). Returns -1 if a count is absurd. */
static int
cache_plan_build(struct cache_plan *p, const struct cache_counts *c)
{
	const struct cache_lanedim	*ld;
	uint64_t			 lens[2], per;
	size_t				 t, i0, n;
	int				 k;

	memset(p, 0, sizeof *p);
	XGROW(p->rawlen, p->framecap, 1);
	p->rawlen[0] = 0;
	p->nframes = 1;

	if (c->nstrs > 1) {
		lens[0] = (uint64_t)(c->nstrs - 1) * 4;
		lens[1] = c->strbytes;
		if (cache_plan_add(p, JOB_STRINGS, 0, 0, 0, 0, lens, 2) != 0)
			return -1;
	}
	p->nhead = p->nframes;
	for (k = 0; k < TAB_COUNT; k++) {
		if (c->ntab[k] > UINT32_MAX)
			return -1;
		per = CACHE_SCRATCH / cache_tab_width[k];
		for (i0 = 0; i0 < c->ntab[k]; i0 += n) {
			n = c->ntab[k] - i0 < per ? c->ntab[k] - i0 : per;
			lens[0] = (uint64_t)n * cache_tab_width[k];
			if (cache_plan_add(p, JOB_TABLE, 0, (uint32_t)k, i0, n,
			    lens, 1) != 0)
				return -1;
		}
	}
	for (t = 0; t < c->ntracks; t++)
		if (cache_plan_group(p, GRP_LANE, (uint32_t)t,
		    cache_lflags(&c->lanes[t]), c->lanes[t].n) != 0)
			return -1;
	for (t = 0; t < c->ntracks; t++) {
		ld = &c->lanes[t];
		if (cache_plan_group(p, GRP_LBUSY, (uint32_t)t, 0,
		    lane_cov_nsums(ld->n, ld->overlaps, ld->cov_n)) != 0 ||
		    cache_plan_group(p, GRP_PYR, (uint32_t)t, 0,
		    lane_pyr_size(ld->n)) != 0 ||
		    cache_plan_group(p, GRP_LCOV, (uint32_t)t, 0,
		    ld->cov_n) != 0)
			return -1;
	}
	if (c->has_launch && (cache_plan_group(p, GRP_LAUNCH, 0, 0,
	    c->nlaunch) != 0 || cache_plan_group(p, GRP_GPU, 0, 0,
	    c->nlinks) != 0 || cache_plan_group(p, GRP_GIDX, 0, 0,
	    (c->nlinks + CORR_IDX_STEP - 1) / CORR_IDX_STEP) != 0))
		return -1;
	for (t = 0; t < c->ndcov; t++)
		if (cache_plan_group(p, GRP_DCOV, (uint32_t)t, 0,
		    c->dcov_n[t]) != 0 || cache_plan_group(p, GRP_DBUSY,
		    (uint32_t)t, 0, (c->dcov_n[t] >> COVERAGE_SHIFT) + 1) != 0)
			return -1;
	return 0;
}

static void
cache_plan_free(struct cache_plan *p)
{
	free(p->jobs);
	free(p->rawlen);
}

static void
cache_counts_free(struct cache_counts *c)
{
	free(c->lanes);
	free(c->dcov_n);
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

/*
 * The writer streams: the frames of job j go to the file as soon as those
 * of every earlier job are there, so only the frames of the jobs still out
 * of order are held, never the whole file, while the model is resident.
 */
struct cache_wctx {
	const struct model	*m;
	struct cache_plan	*plan;
	struct cache_wframe	*frames;	/* compressed, until written */
	ZSTD_CCtx		*cctx[CACHE_THREADS];
	uint8_t			*scratch[CACHE_THREADS];
	int			 fd;
	pthread_mutex_t		 lock;
	uint8_t			*done;		/* per job: compressed */
	size_t			 nextjob;	/* the next job to write */
	size_t			 nout;		/* frames written */
	uLong			 crc, hcrc;	/* of the frames written, and of
						   the head's frames */
	uint64_t		 len, hlen;	/* their bytes */
	int			 err;		/* errno of a failed write */
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
	/* Keep what is written, not the bound, until the file is. */
	w->frames[frame].buf = xreallocarray(w->frames[frame].buf,
	    r > 0 ? r : 1, 1);
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
cache_save_frames(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job = &w->plan->jobs[j];
	struct cache_col	 cols[CACHE_MAXCOLS];
	const void		*src;
	uint8_t			*sc;
	size_t			 f = job->frame, n = job->n, i0 = job->i0, wd;
	size_t			 k, ncol;

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
	case JOB_COLS:
		ncol = cache_group_cols(w->m, job->group, job->which,
		    job->group == GRP_LANE ?
		    cache_lane_lflags(&w->m->tracks[job->which].lane) : 0, i0,
		    cols);
		for (k = 0; k < ncol; k++) {
			src = cache_pack_col(sc, &cols[k], cols, n);
			if (cache_compress(w, tid, f + k, src, cause) != 0)
				return -1;
		}
		return 0;
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
cache_pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	const uint8_t	*p = buf;
	ssize_t		 r;

	while (n > 0) {
		r = pwrite(fd, p, n > (1u << 30) ? (1u << 30) : n, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		off += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Writes frame f (the next one) to the file and lets its bytes go. With
 * the lock held, or before the workers start. */
static void
cache_emit(struct cache_wctx *w, size_t f)
{
	struct cache_wframe	*fr = &w->frames[f];

	if (w->err == 0 && cache_write_all(w->fd, fr->buf, fr->len) != 0)
		w->err = errno != 0 ? errno : EIO;
	w->crc = cache_crc32(w->crc, fr->buf, fr->len);
	w->len += fr->len;
	if (++w->nout == w->plan->nhead) {
		w->hcrc = w->crc;
		w->hlen = w->len;
	}
	free(fr->buf);
	fr->buf = NULL;
}

/* A job: compress its frames, then write every job now in order. */
static int
cache_save_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job;
	size_t			 f, nf;

	if (cache_save_frames(arg, j, tid, cause) != 0)
		return -1;
	pthread_mutex_lock(&w->lock);
	w->done[j] = 1;
	while (w->nextjob < w->plan->njobs && w->done[w->nextjob]) {
		job = &w->plan->jobs[w->nextjob++];
		nf = job->type == JOB_COLS ? job->ncols :
		    job->type == JOB_STRINGS ? 2 : 1;
		for (f = 0; f < nf; f++)
			cache_emit(w, job->frame + f);
	}
	pthread_mutex_unlock(&w->lock);
	return 0;
}

/*
 * Writes the cache of m to path through a mkstemp() file in the same
 * directory and rename(): header and frame table last (pwrite), frames
 * streamed in between as they are compressed. Refuses to replace the trace
 * itself or anything that is not a regular file or a symlink.
 */
static int
cache_write_file(const char *path, const struct cache_ident *id,
    struct cache_wctx *w, const struct cache_wbuf *small, char **cause)
{
	struct cache_plan	*plan = w->plan;
	struct cache_hdr	 h;
	struct stat		 st;
	uint64_t		*table = NULL;
	size_t			 f, tablen = plan->nframes * 16;
	char			*tmp, *why = NULL;
	uLong			 tcrc;
	int			 e;

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
	if ((w->fd = tmpreg_create(path, &tmp)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	w->nextjob = w->nout = 0;
	w->len = w->hlen = 0;
	w->crc = w->hcrc = crc32(0, Z_NULL, 0);
	w->err = 0;
	free(w->done);
	w->done = xcalloc(plan->njobs + 1, 1);
	if (lseek(w->fd, (off_t)(sizeof h + tablen), SEEK_SET) == -1)
		goto fail;
	if (cache_compress(w, 0, 0, small->p, &why) != 0)
		goto fail;
	cache_emit(w, 0);
	if (cache_pool_run(plan->njobs, cache_nthreads(plan->raw_size),
	    cache_save_job, w, &why) != 0)
		goto fail;
	if (w->err != 0) {
		errno = w->err;
		goto fail;
	}

	table = xreallocarray(NULL, plan->nframes, 2 * sizeof *table);
	for (f = 0; f < plan->nframes; f++) {
		table[2 * f] = plan->rawlen[f];
		table[2 * f + 1] = w->frames[f].len;
	}
	tcrc = cache_crc32(crc32(0, Z_NULL, 0), (const uint8_t *)table,
	    tablen);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, CACHE_MAGIC, sizeof h.magic);
	h.version = CACHE_VERSION;
	h.bom = CACHE_BOM;
	h.hdr_size = sizeof h;
	memcpy(h.sz, cache_sizes, sizeof h.sz);
	h.trace_size = id->size;
	h.trace_mtime = id->mtime;
	h.trace_ino = id->ino;
	h.trace_dev = id->dev;
	h.trace_ctime = id->ctime;
	h.trace_fp = id->fp;
	h.payload_size = tablen + w->len;
	h.raw_size = plan->raw_size;
	h.nframes = (uint32_t)plan->nframes;
	h.payload_crc = (uint32_t)crc32_combine(tcrc, w->crc,
	    (z_off_t)w->len);
	h.head_size = tablen + w->hlen;
	h.head_crc = (uint32_t)crc32_combine(tcrc, w->hcrc,
	    (z_off_t)w->hlen);
	h.chunk = CACHE_CHUNK;
	h.level = (uint32_t)CACHE_LEVEL;
	h.hdr_crc = cache_hdr_crc(&h);
	if (cache_pwrite_all(w->fd, table, tablen, (off_t)sizeof h) != 0 ||
	    cache_pwrite_all(w->fd, &h, sizeof h, 0) != 0)
		goto fail;
	free(table);
	table = NULL;
	e = close(w->fd);
	w->fd = -1;
	if (e != 0 || rename(tmp, path) != 0)
		goto fail;
	tmpreg_forget(tmp);
	free(tmp);
	return 0;

fail:
	e = errno;
	if (w->fd != -1)
		close(w->fd);
	w->fd = -1;
	tmpreg_discard(tmp);
	if (why != NULL)
		*cause = xasprintf("%s: %s", path, why);
	else
		*cause = xasprintf("%s: %s", path, strerror(e));
	free(why);
	free(table);
	free(tmp);
	for (f = 0; f < plan->nframes; f++) {
		free(w->frames[f].buf);
		w->frames[f].buf = NULL;
	}
	return -1;
}

static int	cache_check_nvtx_forest(const struct model *, char **);

/* ------------------------------------------------------------------ */
/* Paths. */

char *
cache_path(const char *trace, int for_write, char **cause)
{
	struct stat	 st;
	char		*beside;

	if ((beside = cachedir_beside(trace)) == NULL) {
		if (cause != NULL)
			*cause = xasprintf("%s: not a file name", trace);
		return NULL;
	}
	if (for_write ? cachedir_get_mode() == CACHEDIR_BESIDE :
	    lstat(beside, &st) == 0)
		return beside;
	free(beside);
	return cachedir_entry(trace, for_write, cause);
}

/* ------------------------------------------------------------------ */

/* The counts that describe m's file layout. */
static void
cache_counts_of(const struct model *m, struct cache_counts *c)
{
	const struct lane	*l;
	size_t			 i;

	memset(c, 0, sizeof *c);
	c->nstrs = strpool_count(m->strs);
	for (i = 1; i < c->nstrs; i++)
		c->strbytes += strpool_len(m->strs, (uint32_t)i);
	c->ntab[TAB_KERNELS] = m->nkernels;
	c->ntab[TAB_COPIES] = m->ncopies;
	c->ntab[TAB_NVTX] = m->nnvtx;
	c->ntab[TAB_COUNTERS] = m->ncounters;
	c->ntracks = m->ntracks;
	if (m->ntracks > 0)
		c->lanes = xcalloc(m->ntracks, sizeof *c->lanes);
	for (i = 0; i < m->ntracks; i++) {
		l = &m->tracks[i].lane;
		c->lanes[i].n = l->n;
		c->lanes[i].overlaps = l->overlaps != 0;
		c->lanes[i].wide = l->rowid64 != NULL;
		c->lanes[i].cov_n = l->overlaps ? l->cov.n : 0;
		c->nevents += l->n;
	}
	c->has_launch = m->launch != NULL;
	if (c->has_launch) {
		c->nlaunch = m->nlaunch;
		c->nlinks = m->ngpu_of_api;
	}
	if (m->device_cov != NULL && m->ndevices > 0) {
		c->ndcov = m->ndevices;
		c->dcov_n = xcalloc(m->ndevices, sizeof *c->dcov_n);
		for (i = 0; i < m->ndevices; i++)
			c->dcov_n[i] = m->device_cov[i].n;
	}
}

int
cache_save(const char *trace, const struct model *m, char **cause)
{
	struct cache_ident	 id;

	if (cachedir_ident(trace, &id, cause) != 0)
		return -1;
	return cache_save_ident(trace, &id, m, cause);
}

int
cache_save_ident(const char *trace, const struct cache_ident *idp,
    const struct model *m, char **cause)
{
	struct cache_ident	 id = *idp;
	struct cache_counts	 c;
	struct cache_plan	 plan;
	struct cache_wctx	 w;
	struct cache_wbuf	 small = { NULL, 0, 0 };
	char			*path, *why = NULL;
	double			 t0 = timing_now();
	size_t			 i;
	int			 rc = -1;

	if (m->summary) {
		if (cause != NULL)
			*cause = xstrdup("a summary model cannot be cached");
		return -1;
	}
	if (cachedir_get_mode() == CACHEDIR_OFF) {
		if (cause != NULL)
			*cause = xstrdup("caching is off (--no-cache)");
		return -1;
	}
	memset(&w, 0, sizeof w);
	memset(&plan, 0, sizeof plan);
	cache_counts_of(m, &c);
	if (cache_plan_build(&plan, &c) != 0) {
		why = xstrdup("model too large for the cache");
		goto out;
	}
	cache_small_write(&small, m, &c);
	plan.rawlen[0] = small.n;
	plan.raw_size += small.n;
	w.m = m;
	w.plan = &plan;
	w.fd = -1;
	w.frames = xcalloc(plan.nframes, sizeof *w.frames);
	pthread_mutex_init(&w.lock, NULL);

	/* The cache directory; beside the trace only when asked. */
	if ((path = cache_path(trace, 1, &why)) != NULL) {
		rc = cache_write_file(path, &id, &w, &small, &why);
		if (rc == 0 && cachedir_get_mode() != CACHEDIR_BESIDE)
			cachedir_maintain(path);
		free(path);
	}
	pthread_mutex_destroy(&w.lock);
	timing_report("cache-encode", t0);

out:
	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeCCtx(w.cctx[i]);
		free(w.scratch[i]);
	}
	if (w.frames != NULL)
		for (i = 0; i < plan.nframes; i++)
			free(w.frames[i].buf);
	free(w.frames);
	free(w.done);
	cache_counts_free(&c);
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

/*
 * The file is mapped (cache_map), or read into an anonymous mapping of its
 * own, so that the pages of frames already decoded can be given back while
 * the model grows (cache_buf_drop): the peak is the model plus a little,
 * not the model plus the file.
 */
static uint8_t *
cache_buf_new(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void
cache_buf_free(uint8_t *p, size_t len)
{
	if (p != NULL)
		munmap(p, len);
}

/* Gives back the whole pages inside [p, p + len) (read-only from now on
 * would fault in zeros: only for bytes never read again). */
static void
cache_buf_drop(const uint8_t *p, size_t len)
{
	uintptr_t	a, e;

	if (len < (64u << 10))
		return;
	a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	e = ((uintptr_t)p + len) & ~(uintptr_t)4095;
	if (e > a)
		madvise((void *)a, e - a, MADV_DONTNEED);
}

struct cache_rctx {
	struct model		*m;
	struct cache_counts	 c;
	struct cache_plan	*plan;
	const uint8_t		*frames;	/* the first frame's bytes */
	uint64_t		*off;		/* per frame, into frames */
	uint64_t		*clen;		/* per frame, compressed */
	int			 drop;		/* give back decoded frames */
	ZSTD_DCtx		*dctx[CACHE_THREADS];
	uint8_t			*scratch[CACHE_THREADS];
	uint64_t		 kinds[CACHE_THREADS][256];	/* events */
	int64_t			 dursum[CACHE_THREADS];	/* saturated */
	uint32_t		 auxlim[256];	/* per kind: aux below this */
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

static uint32_t
cache_lim32(size_t n)
{
	return n < NONE32 ? (uint32_t)n : NONE32;
}

/* The bound of aux indices per event kind: the size of the side table of
 * the kind, or none (aux unused) for the others. */
static void
cache_auxlim(struct cache_rctx *r)
{
	const struct model	*m = r->m;
	size_t			 k;

	for (k = 0; k < 256; k++)
		r->auxlim[k] = NONE32;
	r->auxlim[EV_KERNEL] = cache_lim32(m->nkernels);
	r->auxlim[EV_MEMCPY] = cache_lim32(m->ncopies);
	r->auxlim[EV_MEMSET] = cache_lim32(m->ncopies);
	r->auxlim[EV_NVTX] = cache_lim32(m->nnvtx);
	r->auxlim[EV_MARK] = cache_lim32(m->nnvtx);
	r->auxlim[EV_COUNTER] = cache_lim32(m->ncounters);
}

/* Whether every id is below lim (or NONE32 when none_ok). */
static int
cache_check_ids(const uint32_t *v, size_t n, uint64_t lim, int none_ok)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (v[i] >= lim && !(none_ok && v[i] == NONE32))
			return -1;
	return 0;
}

/* Checks what the queries follow in a decoded chunk of group g. */
static int
cache_check_cols(struct cache_rctx *r, const struct cache_job *job,
    const struct cache_col *cols, unsigned tid)
{
	const uint8_t	*kind;
	const uint32_t	*v;
	const int64_t	*st, *en;
	int64_t		 lo, hi;
	uint64_t	 cnt[4][256], dlo, dhi, d, a, span;
	uint32_t	 nstrs;
	size_t		 i, n = job->n;
	int		 bad = 0;

	switch (job->group) {
	case GRP_LANE:
		/* Times inside the span, end >= start, names in the pool. */
		st = cols[0].p;
		en = cols[1].p;
		v = cols[2].p;
		lo = r->m->origin_ns;
		hi = r->m->end_ns;
		nstrs = r->c.nstrs;
		/* The durations' sum in two unsigned halves: no branch and no
		 * overflow whatever the bytes (this runs over every event of a
		 * warm load). */
		dlo = dhi = 0;
		span = (uint64_t)hi - (uint64_t)lo;
		for (i = 0; i < n; i++) {
			/* a: start - origin; d: the duration; in range iff
			 * a <= span and d <= span - a (end <= hi). */
			a = (uint64_t)st[i] - (uint64_t)lo;
			d = (uint64_t)en[i] - (uint64_t)st[i];
			bad |= (a > span) | (d > span - a) | (v[i] >= nstrs);
			dlo += d & 0xffffffff;
			dhi += d >> 32;
		}
		if (bad)
			return -1;
		if (dhi > (uint64_t)MODEL_DURSUM_MAX >> 32 ||
		    dlo > (uint64_t)MODEL_DURSUM_MAX)
			r->dursum[tid] = INT64_MAX;
		else
			r->dursum[tid] = sat_add64(r->dursum[tid],
			    (int64_t)((dhi << 32) + dlo));
		kind = cols[3].p;
		v = cols[7].p;
		memset(cnt, 0, sizeof cnt);
		/* Four counters per kind: a lane is mostly one kind, and one
		 * counter would make every increment wait for the last. */
		for (i = 0; i + 4 <= n; i += 4) {
			cnt[0][kind[i]]++;
			cnt[1][kind[i + 1]]++;
			cnt[2][kind[i + 2]]++;
			cnt[3][kind[i + 3]]++;
			bad |= (v[i] != NONE32) & (v[i] >= r->auxlim[kind[i]]);
			bad |= (v[i + 1] != NONE32) &
			    (v[i + 1] >= r->auxlim[kind[i + 1]]);
			bad |= (v[i + 2] != NONE32) &
			    (v[i + 2] >= r->auxlim[kind[i + 2]]);
			bad |= (v[i + 3] != NONE32) &
			    (v[i + 3] >= r->auxlim[kind[i + 3]]);
		}
		for (; i < n; i++) {
			cnt[0][kind[i]]++;
			bad |= (v[i] != NONE32) & (v[i] >= r->auxlim[kind[i]]);
		}
		for (i = 0; i < 256; i++)
			r->kinds[tid][i] += cnt[0][i] + cnt[1][i] + cnt[2][i] +
			    cnt[3][i];
		return bad ? -1 : 0;
	case GRP_LAUNCH:
		return cache_check_ids(cols[0].p, n, r->c.nevents, 1);
	case GRP_GPU:
		/* correlate_gpu() reads launch[] at every one of them. */
		return cache_check_ids(cols[0].p, n, r->c.nlaunch, 0);
	}
	return 0;
}

static int
cache_load_cols(struct cache_rctx *r, const struct cache_job *job,
    unsigned tid, char **cause)
{
	const struct model	*m = r->m;
	struct cache_col	 cols[CACHE_MAXCOLS];
	uint8_t			*sc = r->scratch[tid];
	size_t			 f = job->frame, n = job->n, k, ncol;

	ncol = cache_group_cols(m, job->group, job->which,
	    job->group == GRP_LANE ? cache_lflags(&r->c.lanes[job->which]) : 0,
	    job->i0, cols);
	if (ncol != job->ncols) {
		*cause = xstrdup("plan mismatch");
		return -1;
	}
	for (k = 0; k < ncol; k++)
		cache_prefault(cols[k].p, n * cols[k].width);
	for (k = 0; k < ncol; k++) {
		if (cols[k].width == 1) {
			if (cache_decompress(r, tid, f + k, cols[k].p,
			    cause) != 0)
				return -1;
			continue;
		}
		if (cache_decompress(r, tid, f + k, sc, cause) != 0)
			return -1;
		cache_unpack_col(&cols[k], cols, sc, n);
	}
	if (cache_check_cols(r, job, cols, tid) != 0) {
		*cause = xasprintf("frame %zu: index out of range", f);
		return -1;
	}
	return 0;
}

static int
cache_load_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_rctx	*r = arg;
	const struct cache_job	*job = &r->plan->jobs[j];
	const struct nvtx_info	*ni;
	size_t			 wd, i, last;
	int			 rc = 0;

	if (r->scratch[tid] == NULL)
		r->scratch[tid] = xmalloc(CACHE_SCRATCH);
	switch (job->type) {
	case JOB_STRINGS:
		rc = cache_load_strings(r, tid, job->frame, cause);
		break;
	case JOB_TABLE:
		wd = cache_tab_width[job->which];
		if (cache_decompress(r, tid, job->frame, r->scratch[tid],
		    cause) != 0)
			return -1;
		cache_prefault(cache_table(r->m, job->which) + job->i0 * wd,
		    job->n * wd);
		cache_unshuffle(cache_table(r->m, job->which) + job->i0 * wd,
		    r->scratch[tid], job->n, wd);
		if (job->which != TAB_NVTX)
			break;
		ni = r->m->nvtx + job->i0;
		for (i = 0; i < job->n; i++) {
			if (ni[i].parent != NONE32 &&
			    ni[i].parent >= r->c.nevents) {
				*cause = xstrdup("NVTX parent out of range");
				return -1;
			}
		}
		break;
	case JOB_COLS:
		rc = cache_load_cols(r, job, tid, cause);
		break;
	default:
		return -1;
	}
	if (rc == 0 && r->drop) {
		last = job->frame + (job->type == JOB_COLS ? job->ncols :
		    job->type == JOB_STRINGS ? 2 : 1) - 1;
		cache_buf_drop(r->frames + r->off[job->frame],
		    r->off[last] + r->clen[last] - r->off[job->frame]);
	}
	return rc;
}

#define CACHE_REF(v, n)	((v) == NONE32 || (v) < (n))

/* Whether every entity reference is in range: finalize and every reader of
 * the model index with them; so are string ids (below nstrs), and the span
 * keeps the bounds model.h promises. */
static int
cache_check_refs(const struct model *m, uint32_t nstrs)
{
	const struct track	*t;
	size_t			 i;

#define CACHE_STR(v)	((v) < nstrs)
	if (!model_span_ok(m->origin_ns, m->end_ns))
		return -1;
	for (i = 0; i < m->ndevices; i++)
		if (!CACHE_STR(m->devices[i].name) ||
		    !CACHE_STR(m->devices[i].uuid) ||
		    !CACHE_STR(m->devices[i].bus) ||
		    !CACHE_STR(m->devices[i].chip) ||
		    !CACHE_STR(m->devices[i].vendor))
			return -1;
	for (i = 0; i < m->nprocesses; i++)
		if (!CACHE_STR(m->processes[i].name) ||
		    !CACHE_STR(m->processes[i].host))
			return -1;
	for (i = 0; i < m->nthreads; i++)
		if (!CACHE_STR(m->threads[i].name))
			return -1;
	for (i = 0; i < m->nstreams; i++)
		if (!CACHE_STR(m->streams[i].name))
			return -1;
	for (i = 0; i < m->ndomains; i++)
		if (!CACHE_STR(m->domains[i].name))
			return -1;
	for (i = 0; i < m->ntracks; i++)
		if (!CACHE_STR(m->tracks[i].name))
			return -1;
	for (i = 0; i < m->nkernels; i++)
		if (!CACHE_STR(m->kernels[i].short_name) ||
		    !CACHE_STR(m->kernels[i].mangled) ||
		    !CACHE_STR(m->kernels[i].comm_coll) ||
		    !CACHE_STR(m->kernels[i].comm_dtype) ||
		    !CACHE_STR(m->kernels[i].comm_pg_name) ||
		    !CACHE_STR(m->kernels[i].comm_pg_desc) ||
		    !CACHE_STR(m->kernels[i].comm_pg_ranks))
			return -1;
	for (i = 0; i < m->nnvtx; i++)
		if (!CACHE_STR(m->nvtx[i].category_name))
			return -1;
	for (i = 0; i < m->nmeta; i++)
		if (!CACHE_STR(m->meta[i].key) || !CACHE_STR(m->meta[i].value))
			return -1;
#undef CACHE_STR
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

	if (h->nframes == 0 || h->nframes > h->payload_size / 16 ||
	    h->nframes > h->head_size / 16) {
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

/* Allocates the final arrays of m from the counts (checked against the
 * file): every array the decode jobs fill. */
static void
cache_alloc_model(struct model *m, const struct cache_counts *c)
{
	const struct cache_lanedim	*ld;
	struct coverage			*dc;
	struct lane			*l;
	size_t				 t, n;

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
		ld = &c->lanes[t];
		n = ld->n;
		l->start = cache_alloc(n, sizeof *l->start);
		l->end = cache_alloc(n, sizeof *l->end);
		l->name = cache_alloc(n, sizeof *l->name);
		l->kind = cache_alloc(n, sizeof *l->kind);
		l->flags = cache_alloc(n, sizeof *l->flags);
		if (ld->wide)
			l->rowid64 = cache_alloc(n, sizeof *l->rowid64);
		else
			l->rowid32 = cache_alloc(n, sizeof *l->rowid32);
		l->corr = cache_alloc(n, sizeof *l->corr);
		l->aux = cache_alloc(n, sizeof *l->aux);
		l->n = l->cap = n;
		if (ld->overlaps) {
			l->depth = cache_alloc(n, sizeof *l->depth);
			l->maxend = cache_alloc(n, sizeof *l->maxend);
			l->ends_sorted = cache_alloc(n, sizeof *l->ends_sorted);
			l->cov.n = ld->cov_n;
			l->cov.start = cache_alloc(ld->cov_n,
			    sizeof *l->cov.start);
			l->cov.end = cache_alloc(ld->cov_n, sizeof *l->cov.end);
			l->cov.owned = 1;
		}
		l->cov.sums = xreallocarray(NULL, lane_cov_nsums(n,
		    ld->overlaps, ld->cov_n), sizeof *l->cov.sums);
		l->pyr = cache_alloc(lane_pyr_size(n), sizeof *l->pyr);
	}
	if (c->has_launch) {
		m->launch = cache_alloc(c->nlaunch, sizeof *m->launch);
		m->nlaunch = c->nlaunch;
		m->gpu_of_api = cache_alloc(c->nlinks, sizeof *m->gpu_of_api);
		m->ngpu_of_api = c->nlinks;
		m->gpu_of_api_idx = cache_alloc((c->nlinks + CORR_IDX_STEP -
		    1) / CORR_IDX_STEP, sizeof *m->gpu_of_api_idx);
	}
	if (c->ndcov > 0) {
		m->device_cov = xcalloc(c->ndcov, sizeof *m->device_cov);
		for (t = 0; t < c->ndcov; t++) {
			dc = &m->device_cov[t];
			dc->n = c->dcov_n[t];
			dc->start = cache_alloc(dc->n, sizeof *dc->start);
			dc->end = cache_alloc(dc->n, sizeof *dc->end);
			dc->owned = 1;
			dc->shift = COVERAGE_SHIFT;
			dc->sums = xreallocarray(NULL, coverage_nsums(dc),
			    sizeof *dc->sums);
		}
	}
}

/*
 * Decodes the head of a CRC-checked file image (payload: the bytes after
 * the header, of which at least h->head_size are present): the frame table,
 * frame 0 into m and r->c (warnings to *warn), and the plan, which must
 * match the table. The string frames are left to their job. Returns 0, or
 * -1 with *why.
 */
static int
cache_read_head(const struct cache_hdr *h, const uint8_t *payload,
    struct cache_rctx *r, struct cache_plan *plan, char ***warn,
    size_t *nwarn, char **why)
{
	struct cache_plan	 small_plan;
	struct cache_rbuf	 rb;
	uint8_t			*small;
	uint64_t		 rl, head;
	size_t			 f;
	int			 rc = -1;

	memset(plan, 0, sizeof *plan);
	if (cache_parse_table(h, payload, r, why) != 0)
		return -1;

	/* Frame 0, whose length the table alone gives. */
	memset(&small_plan, 0, sizeof small_plan);
	memcpy(&rl, payload, 8);
	small_plan.rawlen = &rl;
	r->plan = &small_plan;
	if (r->off[0] + r->clen[0] > h->head_size - 16 * (uint64_t)h->nframes) {
		*why = xstrdup("head size mismatch");
		return -1;
	}
	small = xmalloc(rl + 1);
	if (cache_decompress(r, 0, 0, small, why) != 0)
		goto out;
	rb.p = small;
	rb.n = rl;
	rb.off = 0;
	rb.err = 0;
	if (cache_small_read(&rb, r->m, &r->c, warn, nwarn) != 0) {
		*why = xstrdup("model header truncated or inconsistent");
		goto out;
	}

	/* The plan from the counts must match the table exactly. */
	if (cache_plan_build(plan, &r->c) != 0 ||
	    plan->nframes != h->nframes) {
		*why = xstrdup("frame table does not match the model");
		goto out;
	}
	plan->rawlen[0] = rl;
	for (f = 1; f < plan->nframes; f++) {
		memcpy(&rl, payload + 16 * f, 8);
		if (rl != plan->rawlen[f]) {
			*why = xasprintf("frame %zu: unexpected length", f);
			goto out;
		}
	}
	head = 16 * (uint64_t)h->nframes;
	for (f = 0; f < plan->nhead; f++)
		head += r->clen[f];
	if (head != h->head_size) {
		*why = xstrdup("head size mismatch");
		goto out;
	}
	r->plan = plan;
	rc = 0;
out:
	if (rc != 0)
		r->plan = NULL;
	free(small);
	return rc;
}

static void
cache_rctx_free(struct cache_rctx *r)
{
	size_t	i;

	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeDCtx(r->dctx[i]);
		free(r->scratch[i]);
	}
	cache_counts_free(&r->c);
	free(r->off);
	free(r->clen);
}

/*
 * Whether the sizes of all copies and sets add up within MODEL_BYTESUM_MAX
 * (model.h): at once when the largest times their number does, else by
 * adding them up (model_copy_bytes(), a pass over every event).
 */
static int
cache_check_bytes(const struct model *m)
{
	uint64_t	max = 0, n;
	size_t		i;

	for (i = 0; i < m->ncopies; i++)
		if (m->copies[i].bytes > max)
			max = m->copies[i].bytes;
	n = m->kind_count[EV_MEMCPY] + m->kind_count[EV_MEMSET];
	if (max == 0 || n <= (uint64_t)MODEL_BYTESUM_MAX / max)
		return 0;
	return model_copy_bytes(m) > (uint64_t)MODEL_BYTESUM_MAX ? -1 : 0;
}

/* Checks, after every job ran, what no single job could: the per-kind
 * counts against frame 0's, and the entity references. */
static int
cache_check_whole(struct cache_rctx *r, char **why)
{
	const struct model	*m = r->m;
	uint64_t		 cnt;
	int64_t			 dsum;
	size_t			 i, k;

	/* No event of no kind or of a kind this build does not know. */
	for (k = 0; k < 256; k++) {
		for (cnt = 0, i = 0; i < CACHE_THREADS; i++)
			cnt += r->kinds[i][k];
		if (cnt != (k > EV_NONE && k < EV_KIND_COUNT ?
		    m->kind_count[k] : 0)) {
			*why = xstrdup("event counts inconsistent");
			return -1;
		}
	}
	for (dsum = 0, i = 0; i < CACHE_THREADS; i++)
		dsum = sat_add64(dsum, r->dursum[i]);
	if (dsum > MODEL_DURSUM_MAX) {
		*why = xstrdup("durations add up past the model's bound");
		return -1;
	}
	if (cache_check_bytes(m) != 0) {
		*why = xstrdup("copy sizes add up past the model's bound");
		return -1;
	}
	if (cache_check_refs(m, r->c.nstrs) != 0) {
		*why = xstrdup("entity reference out of range");
		return -1;
	}
	return 0;
}

/* Moves the saved warnings into m: they already include those finalize
 * adds. */
static void
cache_set_warnings(struct model *m, char ***warn, size_t *nwarn)
{
	size_t	i;

	for (i = 0; i < m->nwarnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	m->warnings = *warn;
	m->nwarnings = *nwarn;
	*warn = NULL;
	*nwarn = 0;
}

/*
 * Decodes a CRC-checked payload (an anonymous mapping of len bytes that it
 * gives back page by page as frames are decoded) into a model. Returns 0,
 * or -1 with *why.
 */
static int
cache_decode(const struct cache_hdr *h, uint8_t *payload,
    struct model **out, char **why)
{
	struct cache_plan	 plan;
	struct cache_rctx	 r;
	struct model		*m;
	char			**warn = NULL;
	size_t			 nwarn = 0, i;
	double			 t0;
	int			 rc = -1;

	memset(&plan, 0, sizeof plan);
	memset(&r, 0, sizeof r);
	m = xcalloc(1, sizeof *m);
	m->strs = strpool_new();
	r.m = m;
	if (cache_read_head(h, payload, &r, &plan, &warn, &nwarn, why) != 0)
		goto out;

	t0 = timing_now();
	cache_alloc_model(m, &r.c);
	cache_auxlim(&r);
	r.drop = 1;
	if (cache_pool_run(plan.njobs, cache_nthreads(h->raw_size),
	    cache_load_job, &r, why) != 0)
		goto out;
	timing_report("cache-decode", t0);
	if (cache_check_whole(&r, why) != 0)
		goto out;
	t0 = timing_now();
	if (model_adopt(m, why) != 0 || cache_check_nvtx_forest(m, why) != 0)
		goto out;
	timing_report("cache-adopt", t0);
	cache_set_warnings(m, &warn, &nwarn);
	*out = m;
	m = NULL;
	rc = 0;

out:
	for (i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	cache_rctx_free(&r);
	cache_plan_free(&plan);
	model_free(m);
	return rc;
}

/*
 * The NVTX parent links must form a forest: every parent an NVTX event,
 * and no chain that comes back to where it started (a forged cache could
 * make a range its own ancestor, and every walk up the tree would never
 * end). One pass, each range visited once: 0 or -1 with *why.
 */
static int
cache_check_nvtx_forest(const struct model *m, char **why)
{
	const struct lane	*l;
	struct evref		 r;
	uint8_t			*state;		/* 0 new, 1 on the walk, 2 done */
	uint32_t		*walk, k, p, aux;
	size_t			 t, i, nw, w;
	int			 rc = 0;

	if (m->nnvtx == 0)
		return 0;
	state = xcalloc(m->nnvtx, 1);
	walk = xreallocarray(NULL, m->nnvtx, sizeof *walk);
	for (t = 0; t < m->ntracks && rc == 0; t++) {
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n && rc == 0; i++) {
			if (l->aux[i] >= m->nnvtx || (l->kind[i] != EV_NVTX &&
			    l->kind[i] != EV_MARK))
				continue;
			nw = 0;
			for (k = l->aux[i]; state[k] == 0; k = aux) {
				state[k] = 1;
				walk[nw++] = k;
				if ((p = m->nvtx[k].parent) == NONE32)
					break;
				r = model_ev(m, p);
				aux = m->tracks[r.track].lane.aux[r.idx];
				if (aux >= m->nnvtx || m->tracks[r.track].lane.
				    kind[r.idx] != EV_NVTX) {
					*why = xstrdup("NVTX parent is not an "
					    "NVTX range");
					rc = -1;
					break;
				}
				if (state[aux] == 1) {
					*why = xstrdup("NVTX parents form a "
					    "cycle");
					rc = -1;
					break;
				}
			}
			for (w = 0; w < nw; w++)
				state[walk[w]] = 2;
		}
	}
	free(walk);
	free(state);
	return rc;
}

/* Decodes the CRC-checked head of a cache into a summary model. */
static int
cache_decode_summary(const struct cache_hdr *h, const uint8_t *head,
    struct model **out, char **why)
{
	struct cache_plan	 plan;
	struct cache_rctx	 r;
	struct model		*m;
	uint64_t		*lane_n = NULL;
	char			**warn = NULL;
	size_t			 nwarn = 0, i;
	int			 rc = -1;

	memset(&plan, 0, sizeof plan);
	memset(&r, 0, sizeof r);
	m = xcalloc(1, sizeof *m);
	m->strs = strpool_new();
	r.m = m;
	if (cache_read_head(h, head, &r, &plan, &warn, &nwarn, why) != 0)
		goto out;
	if (plan.njobs > 0 && plan.jobs[0].type == JOB_STRINGS &&
	    cache_load_job(&r, 0, 0, why) != 0)
		goto out;
	if (cache_check_refs(m, r.c.nstrs) != 0) {
		*why = xstrdup("entity reference out of range");
		goto out;
	}
	if (m->ntracks > 0)
		lane_n = xcalloc(m->ntracks, sizeof *lane_n);
	for (i = 0; i < m->ntracks; i++) {
		lane_n[i] = r.c.lanes[i].n;
		m->tracks[i].lane.overlaps = 0;
		m->tracks[i].lane.max_depth = 0;
		m->tracks[i].lane.maxdur = 0;
	}
	if (model_summary(m, lane_n, why) != 0)
		goto out;
	cache_set_warnings(m, &warn, &nwarn);
	*out = m;
	m = NULL;
	rc = 0;

out:
	for (i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	free(lane_n);
	cache_rctx_free(&r);
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

/*
 * Opens one cache file and reads and checks its header: the descriptor, or
 * -1 with *why.
 */
static int
cache_open(const char *path, const struct cache_ident *id,
    struct cache_hdr *h, char **why)
{
	struct stat	 st;
	const char	*bad;
	size_t		 got;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		*why = xstrdup(errno == ELOOP ? "a symlink" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0)
		bad = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		bad = "not a regular file";
	else if (st.st_uid != geteuid() && st.st_uid != 0 &&
	    st.st_uid != id->uid)
		bad = "owned by another user";
	else if (cache_read_all(fd, h, sizeof *h, &got) != 0)
		bad = strerror(errno);
	else if (got < sizeof *h)
		bad = "truncated header";
	else
		bad = cache_check_hdr(h, id, (uint64_t)st.st_size);
	if (bad != NULL) {
		*why = xstrdup(bad);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The file's bytes: a private read-only mapping of the whole file where
 * that works (the pages come straight from the page cache: no copy, no
 * zeroing), else an anonymous mapping read() into. Either way *base, *len
 * are what to munmap, and the payload starts sizeof header in. Our caches
 * are only ever replaced by rename(), never truncated in place, so the
 * mapping stays backed.
 */
static int
cache_map(int fd, const struct cache_hdr *h, uint8_t **base, size_t *len,
    char **why)
{
	size_t	got;
	void	*p;

	*len = sizeof *h + h->payload_size;
#ifdef MAP_POPULATE
	p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
#else
	p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
#endif
	if (p != MAP_FAILED) {
		*base = p;
		return 0;
	}
	if ((*base = cache_buf_new(*len)) == NULL) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	cache_prefault(*base, *len);
	memcpy(*base, h, sizeof *h);
	if (cache_read_all(fd, *base + sizeof *h, h->payload_size, &got) !=
	    0) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	if (got != h->payload_size) {
		*why = xstrdup("truncated");
		return -1;
	}
	return 0;
}

/* Tries one cache file: 1 with *out on a hit, else 0 with *why. */
static int
cache_try(const char *path, const struct cache_ident *id,
    struct model **out, char **why)
{
	struct cache_hdr	 h;
	uint8_t			*base = NULL, *payload;
	size_t			 len = 0;
	double			 t0;
	int			 fd, rc = 0;

	if ((fd = cache_open(path, id, &h, why)) == -1)
		return 0;
	t0 = timing_now();
	if (cache_map(fd, &h, &base, &len, why) != 0)
		goto out;
	payload = base + sizeof h;
	timing_report("cache-file-read", t0);
	t0 = timing_now();
	if (cache_crc(payload, h.payload_size) != h.payload_crc) {
		*why = xstrdup("checksum mismatch");
		goto out;
	}
	timing_report("cache-crc", t0);
	if (cache_decode(&h, payload, out, why) == 0)
		rc = 1;

out:
	cache_buf_free(base, len);
	close(fd);
	return rc;
}

/* Tries the head of one cache file: 1 with *out on a hit, else 0. */
static int
cache_try_summary(const char *path, const struct cache_ident *id,
    struct model **out, char **why)
{
	struct cache_hdr	 h;
	uint8_t			*head = NULL;
	size_t			 got;
	int			 fd, rc = 0;

	if ((fd = cache_open(path, id, &h, why)) == -1)
		return 0;
	head = xmalloc(h.head_size + 1);
	if (cache_read_all(fd, head, h.head_size, &got) != 0) {
		*why = xstrdup(strerror(errno));
		goto out;
	}
	if (got != h.head_size) {
		*why = xstrdup("truncated");
		goto out;
	}
	if ((uint32_t)cache_crc32(crc32(0, Z_NULL, 0), head, h.head_size) !=
	    h.head_crc) {
		*why = xstrdup("head checksum mismatch");
		goto out;
	}
	if (cache_decode_summary(&h, head, out, why) == 0)
		rc = 1;

out:
	free(head);
	close(fd);
	return rc;
}

/*
 * Tries trace's cache with try(): the one beside the trace (prep --beside)
 * first, then the cache directory's.
 */
static int
cache_load_with(const char *trace, const struct cache_ident *id,
    struct model **out, char **cause,
    int (*try)(const char *, const struct cache_ident *, struct model **,
    char **))
{
	struct stat		 st;
	char			*path[2], *why[2] = { NULL, NULL };
	size_t			 i, n = 0;
	int			 rc = 0;

	*out = NULL;
	if (cachedir_get_mode() == CACHEDIR_OFF) {
		if (cause != NULL)
			*cause = xstrdup("caching is off (--no-cache)");
		return 0;
	}
	if ((path[n] = cachedir_beside(trace)) != NULL)
		n++;
	/* prep --beside makes the cache beside the trace even when the
	 * cache directory holds one. */
	if (cachedir_get_mode() != CACHEDIR_BESIDE &&
	    (path[n] = cachedir_entry(trace, 0, NULL)) != NULL)
		n++;
	for (i = 0; i < n && rc == 0; i++)
		if (lstat(path[i], &st) == 0) {
			rc = try(path[i], id, out, &why[i]);
			if (rc == 1)
				cachedir_used(path[i]);
		}
	if (rc == 0 && cause != NULL) {
		for (i = 0; i < n && why[i] == NULL; i++)
			;
		if (i == n)
			*cause = xstrdup("no cache");
		else if (i + 1 < n && why[i + 1] != NULL)
			*cause = xasprintf("%s: %s; %s: %s", path[i], why[i],
			    path[i + 1], why[i + 1]);
		else
			*cause = xasprintf("%s: %s", path[i], why[i]);
	}
	for (i = 0; i < n; i++) {
		free(path[i]);
		free(why[i]);
	}
	return rc;
}

int
cache_load_ident(const char *trace, const struct cache_ident *id,
    struct model **out, char **cause)
{
	return cache_load_with(trace, id, out, cause, cache_try);
}

int
cache_load(const char *trace, struct model **out, char **cause)
{
	struct cache_ident	id;

	*out = NULL;
	if (cachedir_ident(trace, &id, cause) != 0)
		return -1;
	return cache_load_ident(trace, &id, out, cause);
}

int
cache_load_summary(const char *trace, struct model **out, char **cause)
{
	struct cache_ident	id;

	*out = NULL;
	if (cachedir_ident(trace, &id, cause) != 0)
		return -1;
	return cache_load_with(trace, &id, out, cause, cache_try_summary);
}

int
cache_remove(const char *trace)
{
	return cachedir_remove_trace(trace, NULL);
}
