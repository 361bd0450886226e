/*
 * cache-int: what the files of the cache share (cache.h is the API).
 *
 * The cache is the finished model as a versioned binary file laid out to
 * be mapped: the second open of an unchanged trace skips parsing and
 * indexing, and the model's arrays point into the mapping instead of being
 * decoded. Its files, one concern each:
 *
 *   cache.c         the API: locations, opening, mapping and checking a
 *                   file, trying the candidates, removal
 *   cache-format.c  the header: struct sizes, CRCs, the payload's
 *                   checksum, header checks, threads
 *   cache-codec.c   byte shuffling of the string lengths
 *   cache-head.c    frame 0 (the small things) and the head: frame table
 *                   and plan check
 *   cache-plan.c    column groups, the job plan, the counts it comes from
 *   cache-write.c   writing the head and the arrays, the atomic rename
 *   cache-decode.c  binding the arrays into a model and checking them (or
 *                   decoding the head into a summary)
 *   cache-pass.c    the one pass of a load: checksum and range checks
 *   cache-check.c   the range checks a decoded model must pass
 *   cache-nvtx.c    the NVTX records' checks: references, parents, forest
 *
 * The jobs of both directions run on a util/pool.h thread pool.
 *
 * File layout (native byte order and struct layout; a machine or build that
 * disagrees on either fails the header checks and rebuilds):
 *
 *   header   struct cache_hdr, 128 bytes: magic "GPULENSC", format version,
 *            byte-order mark, sizeof every raw-stored struct, the trace's
 *            size, mtime (ns), inode and device, payload size, raw size,
 *            frame count, events per chunk, the length and CRC32 of the
 *            head (below), a CRC32 of the header and a checksum of
 *            everything after it (cache_sum).
 *   table    nframes x { raw length, stored length }, uint64 each.
 *   frames   the head's frames: independent zstd frames (content
 *            checksums on); every further frame: one array of the model
 *            as it is in memory, after zero bytes that align it to
 *            CACHE_ALIGN in the file (stored length = padding + raw
 *            length, the padding below CACHE_ALIGN).
 *
 * Frame 0 holds the small things: scalars, per-kind event counts, entity
 * tables (raw structs), tracks field by field with their lane lengths and
 * index sizes, the correlation and device-coverage sizes, metadata and
 * warnings. From those counts alone the loader derives the plan: the list
 * of jobs and the exact raw length of every further frame, which must match
 * the table before anything large is allocated. The jobs, in file order,
 * one per array group (a job's frames are its columns, whole):
 *   strings   lengths (shuffled) and bytes in id order (re-interning
 *             reproduces ids);
 *   tables    kernels, copies, nvtx (raw structs, the NVTX tree included),
 *             counters, operator FLOPs (raw structs), then the CPU
 *             samples' frames, chain offsets, chain frames, sampled
 *             threads and samples (callchain.h), then the threads'
 *             scheduling runs;
 *   lanes     the events of one lane: start, end, name, kind, flags, row id
 *             (32 or 64 bits), corr and aux; for a lane whose events
 *             overlap also depth, maxend and ends_sorted;
 *   indices   per lane its coverage sums and pyramid, and for an
 *             overlapping lane its coverage segments; then the correlation
 *             arrays (launch, GPU ids by call, their sampled keys) and
 *             every device's coverage (segments and sums).
 * The table, frame 0 and the string frames form the head: `gpulens info`
 * reads only the head (cache_load_summary), checked by its own CRC.
 *
 * Every index model_finalize() builds is stored, so a warm load sorts and
 * rebuilds nothing: model_adopt() only numbers the events and adopts each
 * lane's index (lane_adopt).
 *
 * Why mapped and not compressed: the zstd frames (byte-shuffled, delta
 * coded) of format 7 were 6.5 bytes per event against 48 here, but
 * decompressing them made a whole-model warm load only 8 times faster than
 * parsing the trace; mapped, the load is the page-table set-up, the
 * checksum and the range checks, each at memory speed. The cost is disk:
 * see man/gpulens.1, FILES.
 *
 * Loading maps the file privately (or reads it into an anonymous mapping
 * where it cannot be mapped), checks the header CRC and the trace
 * identity, reads the head, points the model's arrays at their frames
 * (model.h: m->map, which model_free() unmaps), then makes one pass over
 * the payload on a few threads (cache-pass.c): every byte goes into the
 * payload's checksum (cache_sum: a Fletcher-style sum per block that can
 * be summed piece by piece, in any order), and every column a query
 * follows is range-checked piece by piece right after the piece is
 * summed, while it is in the processor's cache. The pass reads the file
 * with pread() into a small buffer per thread, not through the mapping:
 * bringing a mapped page in costs a fault (under a hypervisor that
 * shadows page tables, an exit) per 4 KiB, several times the copy and the
 * sum, and a verb reads a fraction of the model's pages, which it alone
 * then brings in. Every count is bounded by what the file can hold, every
 * frame is aligned, and every stored index that a query follows
 * (side-table indices, global event ids, depths, pyramid entries) is
 * checked in range; any mismatch is a miss with a reason (damage that
 * breaks a check is still reported as a checksum mismatch), never a crash
 * nor a model that reads out of bounds. The mapping is writable and
 * private: a page written is copied, never the file; a cache is replaced
 * by rename(), never written in place, so the pages the pass read are
 * those the mapping holds.
 *
 * Writing goes to a mkstemp() file in the destination directory renamed
 * over the cache path, the head first, then every array written in place
 * by the threads, the header and table last: readers never see a partial file,
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
 * new CACHE_VERSION; the static assertions in cache-format.c catch the lane
 * and track.
 */
#ifndef GPULENS_CACHE_INT_H
#define GPULENS_CACHE_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <zlib.h>
#include <zstd.h>

#include "model/cachedir.h"
#include "util/bytebuf.h"
#include "model/model.h"

#define CACHE_MAGIC	"GPULENSC"
#define CACHE_VERSION	11		/* bump on any layout change, and when
					   a reader starts to fill a field its
					   older caches lack (10: nsys hosts;
					   11: Kineto collectives' sizes from
					   their annotations, and no Python
					   frame flagged communication) */
#define CACHE_BOM	0x01020304u
#ifndef CACHE_CHUNK
#define CACHE_CHUNK	(1u << 17)	/* elements per chunk */
#endif
#ifndef CACHE_LEVEL
#define CACHE_LEVEL	1		/* zstd level */
#endif
#define CACHE_THREADS	4		/* at most */
#define CACHE_ALIGN	64		/* file offset of every array */
#define CACHE_SUMBLOCK	(1u << 20)	/* bytes per checksum block */
/* The hottest loops of the warm load (the checksum, the lanes' times) are
 * built a second time for AVX2 where the compiler can, and chosen by what
 * the processor has. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define CACHE_AVX2	1
#endif
#ifndef CACHE_DROPMIN
#define CACHE_DROPMIN	((uint64_t)1 << 30)	/* bytes: pages given back
						   once checked */
#endif
#define CACHE_MAXCOLS	11		/* frames per job, at most */
/* A zstd block holds at most 128 KiB and takes at least 4 bytes (RLE), so
 * no valid frame expands more than this. */
#define CACHE_MAXRATIO	32768

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
	uint32_t	 payload_crc;	/* cache_sum() of all after the
					   header */
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

/* The trace file's identity: any change invalidates the cache. */
#define cache_ident	cachedir_ident

enum cache_table {
	TAB_KERNELS,
	TAB_COPIES,
	TAB_NVTX,
	TAB_COUNTERS,
	TAB_OPS,
	/* CPU samples and call chains (callchain.h) */
	TAB_CFRAMES,		/* cs.frame */
	TAB_CHOFF,		/* cs.off: nchains + 1, or none */
	TAB_CHFR,		/* cs.fr */
	TAB_STHREADS,		/* cs.th */
	TAB_SAMPLES,		/* cs.s */
	TAB_SCHEDTHR,		/* m->sched_threads */
	TAB_SCHED,		/* m->sched_runs */
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

struct cache_rctx {
	struct model		*m;
	struct cache_counts	 c;
	struct cache_plan	*plan;
	const uint8_t		*frames;	/* the first frame's bytes */
	uint8_t			*body;		/* the same, writable (NULL:
						   the head only) */
	int			 drop;		/* a file mapping: give back
						   pages once checked */
	uint64_t		*off;		/* per frame, into frames */
	uint64_t		*clen;		/* per frame, compressed */
	ZSTD_DCtx		*dctx[CACHE_THREADS];
	uint64_t		 kinds[CACHE_THREADS][256];	/* events */
	int64_t			 dursum[CACHE_THREADS];	/* saturated */
	uint32_t		 auxlim[256];	/* per kind: aux below this */
	/* Where the NVTX checks find a parent (cache_nvtx_index): */
	uint32_t		*evoff;		/* per track, its first global
						   id; [ntracks]: every event */
	uint32_t		*evbucket;	/* the track of every
						   2^CACHE_EVSHIFT-th id */
	_Atomic int		 nvtx_tangled;	/* a parent link not known to
						   point back (a walk checks) */
	_Atomic int		 nvtx_refbad;	/* a name or domain out of
						   range */
};

/* The payload checksum summed piece by piece (cache_sumacc_add). */
struct cache_sumblk {
	_Atomic uint64_t	 a[4], b[4];
};
struct cache_sumacc {
	const uint8_t		*p;
	size_t			 n, nblocks;
	struct cache_sumblk	*v;		/* per CACHE_SUMBLOCK block */
};

/* cache-format.c */
extern const uint16_t	cache_sizes[12];	/* sizeof the raw-stored
						   structs, as in the header */
extern const size_t	cache_tab_width[TAB_COUNT];
unsigned	 cache_nthreads(uint64_t work);
uLong		 cache_crc32(uLong crc, const uint8_t *, size_t);
uint32_t	 cache_sum(const uint8_t *, size_t, int drop);
void		 cache_drop(const uint8_t *, size_t);
void		 cache_sumacc_init(struct cache_sumacc *, const uint8_t *,
		    size_t);
void		 cache_sumacc_add(struct cache_sumacc *, uint64_t off,
		    uint64_t len, const uint8_t *data);
uint32_t	 cache_sumacc_end(struct cache_sumacc *);
uint32_t	 cache_hdr_crc(const struct cache_hdr *);
const char	*cache_check_hdr(const struct cache_hdr *,
		    const struct cache_ident *, uint64_t fsize);

/* cache-codec.c */
void		 cache_pack32(uint8_t *out, const uint32_t *, size_t n,
		    int xform);
void		 cache_unpack32(uint32_t *out, const uint8_t *in, size_t n,
		    int xform);

/* cache-head.c */
void		 cache_small_write(struct bytebuf *, const struct model *,
		    const struct cache_counts *);
int		 cache_read_head(const struct cache_hdr *,
		    const uint8_t *payload, struct cache_rctx *,
		    struct cache_plan *, char ***warn, size_t *nwarn,
		    char **why);

/* cache-plan.c */
size_t		 cache_group_cols(const struct model *, int g, uint32_t which,
		    int lflags, size_t i0, struct cache_col *cols);
size_t		 cache_group_bind(struct model *, int g, uint32_t which,
		    int lflags, uint8_t *const *frames);
void		 cache_table_bind(struct model *, int k, void *);
int		 cache_lflags(const struct cache_lanedim *);
int		 cache_lane_lflags(const struct lane *);
int		 cache_plan_build(struct cache_plan *,
		    const struct cache_counts *);
void		 cache_plan_free(struct cache_plan *);
void		 cache_counts_of(const struct model *, struct cache_counts *);
void		 cache_counts_free(struct cache_counts *);
uint8_t		*cache_table(const struct model *, int k);


/* cache.c */
void		 cache_set_dropmin(uint64_t bytes);
void		 cache_set_copy(int);

/* cache-decode.c */
int		 cache_decompress(struct cache_rctx *, unsigned tid,
		    size_t frame, void *dst, char **cause);
int		 cache_load_job(void *, size_t, unsigned, char **);
int		 cache_decode(const struct cache_hdr *, int fd, uint8_t *base,
		    size_t len, int drop, struct model **out, char **why);
int		 cache_decode_summary(const struct cache_hdr *,
		    const uint8_t *head, struct model **out, char **why);

/* cache-pass.c */
int		 cache_pass(struct cache_rctx *, int fd, const uint8_t *payload,
		    uint64_t size, uint32_t want, char **why);
uint64_t	 cache_piece_elems(const struct cache_col *, size_t ncol);

/* cache-check.c */
void		 cache_auxlim(struct cache_rctx *);
int		 cache_check_cols(struct cache_rctx *, const struct cache_job *,
		    const struct cache_col *cols, unsigned tid);
int		 cache_check_refs(const struct model *, uint32_t nstrs,
		    int nvtx);
int		 cache_check_whole(struct cache_rctx *, char **why);

/* cache-nvtx.c */
void		 cache_nvtx_index(struct cache_rctx *);
int		 cache_check_nvtx(struct cache_rctx *, size_t n);
int		 cache_check_nvtx_forest(const struct model *, int tangled,
		    char **why);

#endif
