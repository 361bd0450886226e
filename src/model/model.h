/*
 * model: the shared, immutable-after-load model of one GPU profile.
 *
 * Every reader in sources/ fills a model through builder.h; model_finalize()
 * (called by builder_finish) sorts, indexes and links it, after which nothing
 * changes it. The TUI and the headless verbs only read it.
 *
 * Shape:
 *   devices, processes, threads, streams   the entities, dense indices
 *   tracks                                  one per GPU stream and per CPU
 *                                           (thread, category[, domain]);
 *                                           each track owns a lane: the
 *                                           events of that track as SoA
 *                                           arrays sorted by start
 *   kernels, copies, nvtx                   side tables for kind-specific
 *                                           fields, indexed by an event's aux
 *
 * An event is addressed by a global 32-bit id: track_off[t] + i for event i
 * of track t. model_ev() turns it back into (track, index).
 *
 * Times are signed 64-bit nanoseconds on the source's own clock (nsys session
 * time, Kineto epoch, ...). origin_ns is the smallest event start; verbs
 * present times relative to it. Negative times are valid. Every time lies
 * within +-MODEL_TIME_MAX (about 146 years either side of the clock's
 * zero; the builder drops events beyond it, with a warning) and the span
 * end_ns - origin_ns is at most MODEL_SPAN_MAX (model_span_ok()), so a
 * difference of two times, or a time plus a duration, never overflows;
 * the durations of all events add up to at most MODEL_DURSUM_MAX, so no
 * sum of durations does either, and the same holds of copy sizes
 * (MODEL_BYTESUM_MAX, model_copy_bytes()). Sums of spans over several
 * tracks or devices (busy or idle time of each) may overflow, and are
 * saturated with sat_add64() where they are taken.
 *
 * All strings are ids into m->strs (strpool.h); 0 is "".
 */
#ifndef GPULENS_MODEL_H
#define GPULENS_MODEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strpool.h"
#include "model/callchain.h"
#include "model/lane.h"

#define NONE32	UINT32_MAX		/* "no such index" */

#define MODEL_TIME_MAX	(INT64_C(1) << 62)	/* |time| bound, ns */
#define MODEL_SPAN_MAX	(INT64_C(1) << 62)	/* end_ns - origin_ns bound */
#define MODEL_DURSUM_MAX (INT64_C(1) << 62)	/* all durations, summed */
#define MODEL_BYTESUM_MAX (INT64_C(1) << 62)	/* all copy sizes, summed */
#define MODEL_TIME_MAX_TEXT "146 years"		/* MODEL_TIME_MAX, in words */

/* Whether [origin, end] keeps the time and span bounds above. */
static inline int
model_span_ok(int64_t origin, int64_t end)
{
	/* Both within +-MODEL_TIME_MAX: the unsigned difference is exact. */
	return origin >= -MODEL_TIME_MAX && end <= MODEL_TIME_MAX &&
	    origin <= end &&
	    (uint64_t)end - (uint64_t)origin <= (uint64_t)MODEL_SPAN_MAX;
}

/* a + b, saturated at the int64 limits (sums of many durations). */
static inline int64_t
sat_add64(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* Event kinds. The X-macro gives the enum, the names and the help text. */
#define EV_KIND_LIST(X)						\
	X(KERNEL,	"kernel",	"GPU kernel execution")	\
	X(MEMCPY,	"memcpy",	"GPU memory copy")	\
	X(MEMSET,	"memset",	"GPU memory set")	\
	X(SYNC,		"sync",		"GPU synchronization")	\
	X(API,		"api",		"CUDA/HIP runtime or driver API call") \
	X(OSRT,		"osrt",		"OS runtime call")	\
	X(NVTX,		"nvtx",		"NVTX (or roctx, annotation) range") \
	X(MARK,		"mark",		"NVTX instant marker")	\
	X(GRAPH,	"graph",	"CUDA graph launch")	\
	X(COUNTER,	"counter",	"counter sample")	\
	X(OVERHEAD,	"overhead",	"profiler overhead")

enum ev_kind {
	EV_NONE = 0,
#define X(e, s, h) EV_##e,
	EV_KIND_LIST(X)
#undef X
	EV_KIND_COUNT
};
const char	*ev_kind_name(int kind);		/* "kernel", ... */
int		 ev_kind_parse(const char *);		/* -1 if unknown */

/* GPU work: what occupies a GPU (kernels, graphs, memcpys, memsets; not
 * sync records). analysis/activity.h classifies it. */
static inline int
ev_kind_work(int kind)
{
	return kind == EV_KERNEL || kind == EV_GRAPH || kind == EV_MEMCPY ||
	    kind == EV_MEMSET;
}

/* Per-event flags (lane.flags). */
#define EVF_OPEN	0x01	/* range never closed: end set to trace end */
#define EVF_COMM	0x02	/* communication (NCCL/RCCL kernel or range) */
#define EVF_DRIVER	0x04	/* API: driver API (cu*) rather than runtime */
#define EVF_STARTEND	0x08	/* NVTX: start/end range (not push/pop) */
#define EVF_ENDCLAMP	0x10	/* end < start in the source; clamped */
#define EVF_CROSSTHREAD	0x20	/* NVTX start/end range ended on another thread */
#define EVF_NOTOSRT	0x40	/* OSRT track row whose source event class is
				   not the OS runtime class (nsys eventClass
				   != 27): kept, but not in osrt_sum */

enum track_type {
	TRACK_GPU = 0,		/* a GPU stream: kernels, copies, memsets, syncs */
	TRACK_API,		/* CPU thread: CUDA/HIP runtime and driver calls */
	TRACK_NVTX,		/* CPU thread: NVTX ranges and marks, one domain */
	TRACK_OSRT,		/* CPU thread: OS runtime calls */
	TRACK_COUNTER,		/* counter samples */
	TRACK_OTHER,		/* anything else (profiler overhead, ...) */
	TRACK_SYNC,		/* a GPU stream's synchronization waits (CPU
				   side: they are not GPU work, so they stay
				   out of the stream's busy time) */
	TRACK_TYPE_COUNT
};
const char	*track_type_name(int);

/* Memory-copy direction (normalised across sources). */
#define COPY_KIND_LIST(X)				\
	X(UNKNOWN,	"unknown",	"Unknown")	\
	X(HTOD,		"h2d",		"Host-to-Device")	\
	X(DTOH,		"d2h",		"Device-to-Host")	\
	X(DTOD,		"d2d",		"Device-to-Device")	\
	X(HTOH,		"h2h",		"Host-to-Host")	\
	X(PTOP,		"p2p",		"Peer-to-Peer")	\
	X(HTOA,		"h2a",		"Host-to-Array")	\
	X(ATOH,		"a2h",		"Array-to-Host")	\
	X(ATOA,		"a2a",		"Array-to-Array")	\
	X(ATOD,		"a2d",		"Array-to-Device")	\
	X(DTOA,		"d2a",		"Device-to-Array")	\
	X(UM_HTOD,	"um-h2d",	"Unified Host-to-Device")	\
	X(UM_DTOH,	"um-d2h",	"Unified Device-to-Host")	\
	X(UM_DTOD,	"um-d2d",	"Unified Device-to-Device")

enum copy_kind {
#define X(e, s, l) COPY_##e,
	COPY_KIND_LIST(X)
#undef X
	COPY_KIND_COUNT
};
const char	*copy_kind_name(int);		/* "h2d" */
const char	*copy_kind_label(int);		/* "Host-to-Device" */

/* Memory kinds of copy endpoints and memsets. */
#define MEM_KIND_LIST(X)			\
	X(UNKNOWN,	"unknown",	"Unknown")	\
	X(PAGEABLE,	"pageable",	"Pageable")	\
	X(PINNED,	"pinned",	"Pinned")	\
	X(DEVICE,	"device",	"Device")	\
	X(ARRAY,	"array",	"Array")	\
	X(MANAGED,	"managed",	"Managed")	\
	X(DEVICE_STATIC, "device-static", "Device Static")	\
	X(MANAGED_STATIC, "managed-static", "Managed Static")

enum mem_kind {
#define X(e, s, l) MEM_##e,
	MEM_KIND_LIST(X)
#undef X
	MEM_KIND_COUNT
};
const char	*mem_kind_name(int);
const char	*mem_kind_label(int);

struct device {
	uint32_t	 source_id;	/* deviceId / pid in the source */
	uint32_t	 name;		/* "NVIDIA H100 80GB HBM3" */
	uint32_t	 uuid;
	uint32_t	 bus;		/* bus location */
	uint32_t	 chip;		/* chip name */
	uint32_t	 vendor;	/* "NVIDIA", "AMD" */
	uint32_t	 process;	/* owning process for per-process
					   devices (Kineto), else NONE32 */
	int32_t		 sm_count;	/* SMs / CUs, 0 if unknown */
	int32_t		 cc_major, cc_minor;
	int64_t		 total_mem;	/* bytes, 0 if unknown */
	int64_t		 mem_bw;	/* bytes/s, 0 if unknown */
	int64_t		 clock_hz;	/* SM clock, 0 if unknown */
	int64_t		 l2_bytes;
	int32_t		 max_threads_per_block;
	int32_t		 regs_per_sm;
	int64_t		 smem_per_sm;
	int32_t		 max_warps_per_sm;
	int32_t		 threads_per_warp;
	int32_t		 used;		/* some stream of it ran GPU work
					   (ev_kind_work); set by
					   model_finalize */
};

struct process {
	uint64_t	 source_id;	/* globalPid (nsys), pid (Kineto) */
	uint32_t	 pid;		/* OS pid */
	uint32_t	 name;
	uint32_t	 host;		/* hostname if known */
	uint8_t		 hw_id, vm_id;	/* nsys globalPid bits 56-63, 48-55 */
	int32_t		 rank;		/* distributed rank, -1 if unknown */
};

struct thread {
	uint64_t	 source_id;	/* globalTid (nsys) */
	uint32_t	 tid;		/* OS tid */
	uint32_t	 process;	/* index into processes */
	uint32_t	 name;
};

struct stream {
	uint64_t	 source_id;	/* streamId (nsys), tid (Kineto) */
	uint32_t	 device;	/* index into devices */
	uint32_t	 process;	/* index into processes, NONE32 unknown */
	uint32_t	 context;	/* context id, 0 unknown */
	uint32_t	 name;		/* NVTX-given or source-given name */
	int32_t		 priority;
};

/* NVTX domains (and Kineto/roctx equivalents). Index 0 is the default.
 * DOMAIN_MPI_TABLES is the source_id of the domain "MPI" a reader gives
 * the MPI calls of the MPI_* tables of newer nsys exports (no NVTX domain
 * has it); their unsigned payload is the bytes the call moved. */
#define DOMAIN_MPI_TABLES	UINT64_C(0xFFFFFFFFFFFF0001)
struct domain {
	uint64_t	 source_id;	/* domainId */
	uint32_t	 process;	/* NONE32: all processes */
	uint32_t	 name;		/* "" for the default domain */
};

struct track {
	uint8_t		 type;		/* enum track_type */
	uint32_t	 device;	/* TRACK_GPU: index into devices */
	uint32_t	 stream;	/* TRACK_GPU: index into streams */
	uint32_t	 process;	/* index into processes or NONE32 */
	uint32_t	 thread;	/* CPU tracks: index into threads */
	uint32_t	 domain;	/* TRACK_NVTX: index into domains */
	uint32_t	 name;		/* display label */
	struct lane	 lane;		/* the events, SoA, sorted by start */
};

/*
 * A kernel's fields. The comm_* fields describe a communication kernel's
 * message where the source records it (PyTorch's record_param_comms args,
 * copied by Kineto onto the NCCL/RCCL kernel); every one is 0 when
 * unknown (string ids 0 = ""). The element counts are valid only with
 * their KCOMM_* bit. graph_id is the CUDA graph a replayed kernel belongs
 * to where the source records it (nsys graphId), else 0. Field order keeps
 * the struct free of padding (104 bytes).
 */
#define KCOMM_IN	0x01	/* comm_in_nelems known */
#define KCOMM_OUT	0x02	/* comm_out_nelems known */
#define KCOMM_ANN	0x04	/* comm_* from the annotation around the
				   launch, the kernel having no args */
struct kernel_info {
	uint32_t	 grid[3], block[3];
	uint32_t	 short_name;	/* base name */
	uint32_t	 mangled;	/* mangled name or 0 */
	uint32_t	 static_smem, dynamic_smem;	/* bytes */
	uint32_t	 local_mem;	/* bytes per thread */
	uint16_t	 regs;		/* registers per thread */
	uint8_t		 launch_type;	/* source's enum value */
	uint8_t		 pad;
	uint32_t	 graph_node;	/* lower 32 bits of graphNodeId or 0 */
	uint32_t	 comm_coll;	/* collective as the source names it
					   ("allreduce", "_allgather_base") */
	uint32_t	 comm_dtype;	/* element type ("Float", "BFloat16") */
	uint32_t	 comm_pg_name;	/* process group name ("0") */
	uint32_t	 comm_pg_desc;	/* its description ("default_pg") */
	uint32_t	 comm_pg_ranks;	/* its ranks as written ("[0, 1]") */
	uint32_t	 comm_group_size;	/* ranks in the group */
	uint8_t		 comm_elem_size;	/* bytes per element (dtype) */
	uint8_t		 comm_flags;	/* KCOMM_* */
	uint16_t	 pad2;
	uint64_t	 comm_in_nelems;	/* input elements (KCOMM_IN) */
	uint64_t	 comm_out_nelems;	/* output elements (KCOMM_OUT) */
	uint32_t	 graph_id;	/* lower 32 bits of graphId or 0 */
	uint32_t	 pad3;
};

struct copy_info {
	uint64_t	 bytes;
	uint8_t		 kind;		/* enum copy_kind (memset: UNKNOWN) */
	uint8_t		 src_kind;	/* enum mem_kind (memset: memKind) */
	uint8_t		 dst_kind;
	uint8_t		 pad;
	uint32_t	 src_dev, dst_dev;	/* source device ids or NONE32 */
	uint32_t	 value;		/* memset value */
};

enum nvtx_payload {
	NVTX_PAYLOAD_NONE = 0,
	NVTX_PAYLOAD_INT,
	NVTX_PAYLOAD_UINT,
	NVTX_PAYLOAD_DOUBLE,
};

/* Field order keeps it at 40 bytes (one per NVTX range and mark). */
struct nvtx_info {
	uint32_t	 domain;	/* index into domains */
	uint32_t	 category;	/* category id (0 none) */
	uint32_t	 category_name;	/* string id of its name, 0 if none */
	uint32_t	 color;		/* ARGB, 0 if none */
	union {
		int64_t		 i;
		uint64_t	 u;
		double		 d;
	}		 payload;
	/* Filled by nvtx_build() at finalize: */
	uint32_t	 parent;	/* global event id or NONE32 */
	uint32_t	 iter;		/* index among same-name siblings */
	uint32_t	 nchildren;
	uint8_t		 payload_type;	/* enum nvtx_payload */
};

/*
 * A PyTorch operator's floating-point work (Kineto traces recorded with
 * record_shapes or with_flops): one record per matrix, convolution or
 * attention operator whose count the reader could work out
 * (sources/kineto-ops.c says which operators and how). Sorted by nothing;
 * nvtx names the operator's range (its event's aux). 24 bytes.
 */
#define OPF_ARG		0x01	/* from the trace's "flops" argument */
enum op_kind {
	OPK_NONE = 0,
	OPK_MM,			/* aten::mm */
	OPK_ADDMM,		/* aten::addmm */
	OPK_BMM,		/* aten::bmm */
	OPK_BADDBMM,		/* aten::baddbmm */
	OPK_MATMUL,		/* aten::matmul */
	OPK_LINEAR,		/* aten::linear */
	OPK_CONV,		/* aten::convolution, _convolution, convNd */
	OPK_SDPA,		/* scaled-dot-product and flash attention */
	OPK_COUNT
};
struct op_info {
	uint32_t	 nvtx;		/* index into nvtx */
	uint32_t	 dtype;		/* the first operand's "Input type"
					   ("c10::BFloat16"), 0 unknown */
	double		 flops;
	uint8_t		 kind;		/* enum op_kind */
	uint8_t		 flags;		/* OPF_* */
	uint16_t	 pad;
	uint32_t	 pad2;
};

/*
 * Thread scheduling (nsys SCHED_EVENTS): when each thread ran on a CPU.
 * A side table, outside the tracks, the event counts and the span (the
 * scheduler records every thread of a process, before and after the
 * profiled work): nothing but the scheduling analyses reads it.
 *
 * sched_threads: one per thread seen in the table, by globalTid ascending;
 * its runs are sched_runs[run0 .. run0 + nrun - 1], by start. A run is a
 * sched-in and the next sched-out of the same thread: [start, end] on CPU
 * cpu; state is the thread state the sched-out recorded (the source's
 * enumeration, 0 unknown). A sched-in with no sched-out runs to the last
 * scheduling time of the table (SCHEDF_OPEN); a sched-out with no sched-in
 * before it, and a second sched-in while running, add nothing. 32 and 24
 * bytes.
 */
#define SCHEDF_OPEN	0x01
struct sched_thread {
	uint64_t	 source_id;	/* globalTid */
	uint32_t	 tid, pid;	/* OS ids */
	uint32_t	 name;		/* thread name, 0 unknown */
	uint32_t	 pname;		/* process name, 0 unknown */
	uint32_t	 run0, nrun;	/* its runs in sched_runs */
};
struct sched_run {
	int64_t		 start, end;
	uint32_t	 thread;	/* index into sched_threads */
	uint16_t	 cpu;
	uint8_t		 state;		/* thread state at sched-out */
	uint8_t		 flags;		/* SCHEDF_* */
};

/* Source formats. */
#define SOURCE_KIND_LIST(X)				\
	X(NSYS,		"nsys",		"Nsight Systems SQLite export")	\
	X(KINETO,	"kineto",	"PyTorch profiler (Kineto) trace")	\
	X(ROCPD,	"rocpd",	"rocprofv3 rocpd SQLite")	\
	X(RPD,		"rpd",		"rocmProfileData SQLite")	\
	X(ROCPROF_JSON,	"rocprof-json",	"rocprofv3 JSON")	\
	X(NCU,		"ncu",		"Nsight Compute report")	\
	X(CHROME,	"chrome-trace",	"Chrome trace JSON (generic)")

enum source_kind {
	SOURCE_UNKNOWN = 0,
#define X(e, s, h) SOURCE_##e,
	SOURCE_KIND_LIST(X)
#undef X
	SOURCE_KIND_COUNT
};
const char	*source_kind_name(int);

struct meta {
	uint32_t	 key, value;	/* string ids */
};

struct model {
	struct strpool		*strs;

	uint8_t			 source;	/* enum source_kind */
	uint32_t		 source_version;/* "2026.2.1.210" */
	uint32_t		 schema_version;/* "3.25.0" or 0 */

	int64_t			 origin_ns;	/* smallest start (0 if empty) */
	int64_t			 end_ns;	/* largest end */
	int64_t			 utc_epoch_ns;	/* UTC of source time 0, or 0 */

	struct device		*devices;	size_t ndevices;
	struct process		*processes;	size_t nprocesses;
	struct thread		*threads;	size_t nthreads;
	struct stream		*streams;	size_t nstreams;
	struct domain		*domains;	size_t ndomains;
	struct track		*tracks;	size_t ntracks;
	uint32_t		*track_off;	/* ntracks + 1 global id bases */
	/* The NVTX tracks of thread h: nvtx_trk[nvtx_off[h] ..
	 * nvtx_off[h + 1] - 1], in track order (finalize and adopt build
	 * them; NULL otherwise, and readers then scan the tracks). */
	uint32_t		*nvtx_off, *nvtx_trk;

	struct kernel_info	*kernels;	size_t nkernels;
	struct copy_info	*copies;	size_t ncopies;
	struct nvtx_info	*nvtx;		size_t nnvtx;
	double			*counters;	size_t ncounters; /* values */
	struct op_info		*ops;		size_t nops;	/* operator
								   FLOPs */
	/* Thread scheduling (see struct sched_thread). */
	struct sched_thread	*sched_threads;	size_t nsched_threads;
	struct sched_run	*sched_runs;	size_t nsched_runs;

	/* CPU samples and call chains (callchain.h). */
	struct cpusamp		 cs;

	struct meta		*meta;		size_t nmeta;
	char			**warnings;	size_t nwarnings;

	/*
	 * Correlation, built at finalize by correlate_build() (NULL when
	 * nothing links). launch: for the events of the GPU and sync tracks,
	 * which come first in track order (global ids below nlaunch), the
	 * global id of the launching API call, NONE32 if none; use
	 * correlate_launch() for any other id. gpu_of_api: the linked GPU
	 * events grouped by launching call (calls ascending, each group by GPU
	 * start), so the key of entry i is launch[gpu_of_api[i]];
	 * gpu_of_api_idx holds the key of every CORR_IDX_STEP-th entry, which
	 * makes correlate_gpu() a short binary search.
	 */
	uint32_t		*launch;	/* nlaunch entries */
	size_t			 nlaunch;
	uint32_t		*gpu_of_api;	/* ngpu_of_api GPU global ids */
	size_t			 ngpu_of_api;
	uint32_t		*gpu_of_api_idx;	/* sampled keys */
#define CORR_IDX_STEP	64

	/* Per-device union busy coverage (all streams), built at finalize,
	 * with sums every 1 << ISET_SHIFT segments (iset_len() for
	 * the whole). */
	struct iset		*device_cov;	/* ndevices entries */

	uint64_t		 nevents;	/* == track_off[ntracks] */
	uint64_t		 kind_count[EV_KIND_COUNT]; /* per kind */

	/*
	 * Set by cache_load_summary() (cache.h): only the entities, strings,
	 * metadata, warnings and counts were loaded. Every lane is empty and
	 * there is no index, but nevents, kind_count and track_off describe
	 * the whole trace. Enough for `gpulens info`; nothing else may use
	 * such a model.
	 */
	int			 summary;

	/*
	 * Set by cache_load() (cache.h): the mapping of the cache file that
	 * the lanes' arrays, the side tables, the correlation arrays and the
	 * device coverages point into (they are not malloc'd: model_free()
	 * unmaps it instead of freeing them).
	 */
	void			*map;
	size_t			 maplen;
};

/* An event reference: (track, index in its lane). */
struct evref {
	uint32_t	 track;
	uint32_t	 idx;
};

/* Frees everything a model owns (NULL is fine). */
void		 model_free(struct model *);
/*
 * Sorts lanes, builds indices, NVTX tree, correlation and coverage. Called
 * once by builder_finish(). Idempotent. Returns 0, or -1 with *cause
 * (caller frees).
 */
int		 model_finalize(struct model *, char **cause);
/*
 * model_finalize() for a model whose indices were restored rather than
 * built (the cache loader): tracks already in order, lanes sorted, every
 * index array filled (see lane_adopt()), nvtx parent/iter/nchildren,
 * launch, gpu_of_api, device_cov and kind_count restored, and every global
 * id in them checked in range by the caller (gpu_of_api's below nlaunch).
 * Computes track_off and nevents, checks that launch covers exactly the
 * leading GPU and sync tracks and that no GPU track follows a CPU one, and
 * adopts each lane's index (lane_adopt); nothing is sorted or rebuilt.
 * Returns 0, or -1 with *cause when the parts do not fit together.
 */
int		 model_adopt(struct model *, char **cause);
/*
 * Makes m, whose lanes are empty, a summary model (m->summary) of a trace
 * with lane_n[t] events on track t: sets nevents and track_off. For
 * cache_load_summary(). Returns 0, or -1 with *cause.
 */
int		 model_summary(struct model *, const uint64_t *lane_n,
		    char **cause);

/* Global id <-> (track, idx). model_ev() is O(log ntracks). */
static inline uint32_t
model_gid(const struct model *m, uint32_t track, uint32_t idx)
{
	return m->track_off[track] + idx;
}
struct evref	 model_ev(const struct model *, uint32_t gid);
/*
 * model_ev() for a run of ids that mostly lie on one track (the calls
 * that launched one stream's work): *track, the track of the last answer
 * (NONE32 at first), is tried before the search.
 */
struct evref	 model_ev_near(const struct model *, uint32_t gid,
		    uint32_t *track);
/* Field accessors by global id. */
int64_t		 model_ev_start(const struct model *, uint32_t gid);
/* Orders global event ids (uint32_t) by start, then id; ctx is the model
 * (for sort_stable). */
int		 model_gid_cmp_start(const void *, const void *, void *ctx);
int64_t		 model_ev_end(const struct model *, uint32_t gid);
int		 model_ev_kind(const struct model *, uint32_t gid);
uint32_t	 model_ev_name(const struct model *, uint32_t gid);
const char	*model_str(const struct model *, uint32_t sid);

/* Counts per kind over all tracks (counts[EV_KIND_COUNT]); finalize
 * stores them in m->kind_count. */
void		 model_count_kinds(const struct model *, uint64_t *counts);
/* Adds a formatted warning to the model (used by readers and finalize). */
/* The sizes of all copy and set events added up (each event counts its
 * record), or UINT64_MAX once past MODEL_BYTESUM_MAX. */
uint64_t	 model_copy_bytes(const struct model *);
void		 model_warn(struct model *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
void		 model_vwarn(struct model *, const char *fmt, va_list)
		    __attribute__((format(printf, 2, 0)));
/* Looks up a metadata value by key; NULL if absent. */
const char	*model_meta(const struct model *, const char *key);
/*
 * Sets the metadata of key to value (a model under construction: its meta
 * array has *cap entries allocated); a key already there takes the new
 * value.
 */
void		 model_set_meta(struct model *, size_t *cap, const char *key,
		    const char *value);
/*
 * The host process p ran on: its own host name (Kineto's host_name, rocpd),
 * else the trace's, the metadata "Hostname" (nsys: TARGET_INFO_SYSTEM_ENV),
 * "hostname" or "host", unless the model merges several traces (metadata
 * "ranks": merge.h gives each process its trace's host). NULL if unknown.
 */
const char	*model_host(const struct model *, uint32_t p);
/* Whether a track of tr's type can hold events of this kind (EV_*). */
int		 model_track_holds(const struct track *, int kind);
/*
 * The first track of one type (TRACK_*) at index *t or after, *t set to its
 * index, or NULL (*t = ntracks) when none is left:
 *	for (t = 0; (tr = model_track_next(m, TRACK_GPU, &t)) != NULL; t++)
 */
const struct track *model_track_next(const struct model *, int type,
		    size_t *t);
/*
 * The tracks of one type (TRACK_*) of every device (flags without
 * MODEL_BY_THREAD) or thread (with it) whose device or thread is known, in
 * track order, and with MODEL_BY_EVENTS only those with events: those of
 * device or thread h are idx[off[h]] .. idx[off[h + 1] - 1]. One counting
 * pass, O(tracks + keys), so per-key loops need not scan every track for
 * every key. The caller frees *off and *idx.
 */
#define MODEL_BY_THREAD	1
#define MODEL_BY_EVENTS	2
void		 model_tracks_by(const struct model *, int type, int flags,
		    uint32_t **off, uint32_t **idx);
/*
 * The non-empty NVTX tracks of a thread, in track order, from the model's
 * index (m->nvtx_off) or, without it, a scan of every track:
 *	for (k = model_thread_nvtx_begin(m, th);
 *	    (u = model_thread_nvtx_next(m, th, &k)) != NONE32;)
 */
size_t		 model_thread_nvtx_begin(const struct model *, uint32_t thread);
uint32_t	 model_thread_nvtx_next(const struct model *, uint32_t thread,
		    size_t *k);
/*
 * The devices some stream or track refers to: a calloc'd array of
 * ndevices + 1 flags, 1 for each such device, that the caller frees.
 */
uint8_t		*model_devices_used(const struct model *);
/* model_tracks_by() of the GPU tracks by device. */
void		 model_device_tracks(const struct model *, uint32_t **off,
		    uint32_t **idx);

#endif
