/*
 * kineto-int: what the files of the Kineto reader share: its state
 * (struct kineto), one event's fields (struct kev), the caches, and the
 * functions each file offers the others. kineto.c streams the event array
 * and dispatches each event; kineto-cat.c classifies events, kineto-ent.c
 * finds their threads, devices and streams, kineto-args.c reads "args",
 * kineto-cpu.c and kineto-range.c map the CPU side, kineto-gpu.c maps GPU
 * work, kineto-meta.c reads the top-level members and settles what depends
 * on the whole file, kineto-ranks.c splits files of several ranks. The
 * public interface is kineto.h; nothing else includes this header.
 */
#ifndef GPULENS_KINETO_INT_H
#define GPULENS_KINETO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/builder.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/srcname.h"
#include "sources/trevent.h"
#include "util/progress.h"

#define K_PROGRESS_STEP	65536		/* events between progress reports */
#define K_PROBE_BYTES	65536
#define K_STREAM_ALL	4294967295ULL	/* device-wide "stream -1" */
#define K_PSEUDO_TID	0xC000000000000000ULL	/* pseudo-thread ids */
#define K_STR_KEY	0x4000000000000000ULL	/* hashed string ids */

enum kcat {
	KC_NONE = 0,		/* no "cat" member */
	KC_CPU_OP,
	KC_USER_ANN,
	KC_PYTHON,
	KC_GPU_ANN,
	KC_INSTANT,
	KC_RUNTIME,
	KC_DRIVER,
	KC_KERNEL,
	KC_PROFRANGE,
	KC_MEMCPY,
	KC_MEMSET,
	KC_SYNC,
	KC_OVERHEAD,
	KC_FLOW,
	KC_TRACE,
	KC_MEMORY,
	KC_OTHER,		/* any other category */
	KC_COUNT
};


/*
 * NVTX-like domains of the CPU range categories (domain source id = enum +
 * 1). Annotations, operators and instants share one domain, "pytorch", as
 * they share PyTorch's RecordFunction stack: ProfilerStep#N then holds the
 * operators of its step (paths like "ProfilerStep#3/aten::linear/
 * aten::addmm"), so the operators are never taken for iterations. Each
 * range's nvtx_info category says which it is (K_CATEGORY_*).
 */
enum kdom {
	KD_TORCH = 0,
	KD_PYTHON,
	KD_COUNT
};
#define K_CATEGORY_USER		1	/* user_annotation */
#define K_CATEGORY_CPU_OP	2	/* cpu_op */
#define K_CATEGORY_INSTANT	3	/* cpu_instant_event */

/* Flags cached per pool string: SF_* (srcname.h), and these. */
#define SF_MARKER	0x08	/* the profiler's own instant markers */
#define SF_FLOPOP	0x10	/* an operator kineto-ops.c counts */

/* Recent categories, and interned names (see kineto_intern). */
#define K_CATCACHE	16
#define K_NAMECACHE	4096
struct kcatcache {
	char		 text[32];
	size_t		 len;
	uint8_t		 cat;
	uint32_t	 name;
};
struct kname {
	uint64_t	 h;
	size_t		 len;
	uint32_t	 sid;
};

/* Per-thread track cache. */
struct kthr {
	uint32_t	 nvtx[KD_COUNT];
	uint32_t	 api, other, counter;
};

/* Per-stream track cache. */
struct kstr {
	uint32_t	 gpu, sync, ann;
};

/* An open B event. */
struct kbegin {
	uint64_t	 pidk, tidk;
	int64_t		 ts;
	int64_t		 rowid;
	uint32_t	 name;
	uint32_t	 corr;
	uint8_t		 cat;
	uint32_t	 catname;
};

/* The fields of one event. */
struct kev {
	uint64_t		 index;
	uint64_t		 offset;
	char			 ph;
	uint8_t			 cat;
	uint32_t		 catname;	/* sid of "cat" (KC_OTHER) */
	struct jsonscan_val	*name;		/* NULL if absent */
	const struct jsonscan_val *pid, *tid, *id;
	int64_t			 ts, dur;
	int			 has_ts, has_dur;
	const struct jsonscan_member *args;	/* members, or NULL */
	size_t			 nargs;
};

/* What the args of GPU, API and memory events hold. */
struct kargs {
	int64_t		 corr, device, stream, regs, smem, bytes, corr_raw;
	int64_t		 grid[3], block[3];
	int64_t		 from_dev, to_dev;
	int64_t		 devtype, devid, total;
	int		 has_corr, has_device, has_stream, has_bytes, has_total;
	int		 has_corr_raw;
	int		 has_from, has_to, coll;
	const struct jsonscan_val *kind;	/* HIP "kind": "DtoD" */
	/* A collective's args (kineto.c's top comment); NULL if absent. */
	const struct jsonscan_val *coll_name, *dtype, *pg_name, *pg_id;
	const struct jsonscan_val *pg_desc, *pg_ranks;
	int64_t		 in_nelems, out_nelems, group_size;
	int		 has_in, has_out, has_group;
};

struct kineto {
	const char		*path;
	struct builder		*b;
	struct model		*m;
	struct progress		*prog;
	struct jsonscan		*js;
	char			*err;

	int64_t			 base_ns;
	int			 have_base;
	int			 amd;

	/* Caches. */
	struct hmap		 thr_of;	/* key(pid, tid) -> thread */
	struct kthr		*thr;		/* by thread index */
	size_t			 thrcap;
	struct hmap		 str_of;	/* key(device, stream) -> stream */
	struct kstr		*str;
	size_t			 strcap;
	uint32_t		 dom[KD_COUNT];
	uint32_t		 catname[4];	/* K_CATEGORY_* names */
	struct hmap		 dom_of;	/* category sid -> domain */
	uint8_t			*sflags;	/* SF_* per pool string */
	size_t			 sflagscap;
	struct hmap		 short_of;	/* kernel name sid -> short */
	struct hmap		 copy_of;	/* memcpy/set name -> info idx */
	struct copy_info	*cinfo;
	size_t			 ncinfo, cinfocap;
	struct kcatcache	 cat[K_CATCACHE];	/* most recent first */
	size_t			 ncat;
	struct kname		*names;		/* K_NAMECACHE entries */

	/* Names from M events, applied at the end. */
	struct hmap		 pname;		/* pid key -> sid */
	struct hmap		 tname;		/* key(pid, tid) -> sid */

	/* Pseudo-threads of GPU annotations (process settled at end). */
	uint32_t		*pseudo;
	size_t			 npseudo, pseudocap;

	/* B/E pairing. */
	struct trevent		 te;		/* open B events, phases */

	/* Memory running totals (2021 traces): key(type, id) -> index. */
	struct hmap		 mem_of;
	int64_t			*mem_total;
	size_t			 nmem, memcap;

	/* One file holding several ranks (kineto-ranks.c): the state of
	 * each, by rank; events without a rank stay in this one. */
	struct kineto		**ranks;
	size_t			 nranks;

	/* Sizes of the NCCL annotations (kineto-comm.c), or NULL. */
	struct kcomm		*comm;

	/* distributedInfo. */
	int			 rank;		/* -1 unknown */
	uint32_t		 host;		/* "host_name" metadata */
	int			 have_dist;

	/* Counts for warnings. */
	uint64_t		 nflows, ntrace, nmarkers;
	uint64_t		 nprofrange;
	uint64_t		 nevents;
};

/* kineto.c: the driver. */
int		 kineto_fail(struct kineto *, const struct kev *,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void		 kineto_init(struct kineto *, const char *path,
		    struct progress *);
void		 kineto_free(struct kineto *);

/* kineto-cat.c: categories and per-string flags. */
uint8_t		 kineto_cat(struct kineto *, struct jsonscan_val *,
		    uint32_t *catname);
uint8_t		 kineto_sflags(struct kineto *, uint32_t sid);

/* kineto-ent.c: ids, names, domains, threads, devices, streams. */
int		 kineto_idkey(const struct jsonscan_val *, uint64_t *key,
		    int64_t *num, int *isnum);
uint32_t	 kineto_intern(struct kineto *, const char *, size_t);
uint32_t	 kineto_domain(struct kineto *, int);
uint32_t	 kineto_other_domain(struct kineto *, uint32_t catname);
void		 kineto_grow_thr(struct kineto *, uint32_t thread);
int		 kineto_thread(struct kineto *, const struct kev *,
		    uint32_t *thr);
uint32_t	 kineto_device(struct kineto *, int64_t id);
uint32_t	 kineto_stream(struct kineto *, int64_t device, int64_t stream);

/* kineto-args.c; KEY(member, "literal") matches an args key. */
static inline int
kineto_key(const struct jsonscan_member *mb, const char *s, size_t n)
{
	return mb->key.len == n && memcmp(mb->key.p, s, n) == 0;
}
#define KEY(mb, lit)	kineto_key((mb), (lit), sizeof(lit) - 1)
void		 kineto_args(const struct kev *, struct kargs *);

/* kineto-cpu.c: X, i, C and M events of the CPU side. */
uint32_t	 kineto_name(struct kineto *, struct kev *);
int		 kineto_end_time(struct kineto *, const struct kev *,
		    int64_t *end);
int		 kineto_cpu(struct kineto *, struct kev *, uint32_t name,
		    int64_t start, int64_t end, uint32_t corr, uint8_t flags);
int		 kineto_x(struct kineto *, struct kev *);
int		 kineto_instant(struct kineto *, struct kev *);
int		 kineto_counter_event(struct kineto *, struct kev *);
int		 kineto_metadata(struct kineto *, struct kev *);

/* kineto-range.c: CPU ranges; B/E pairing. */
int		 kineto_range(struct kineto *, struct kev *, uint32_t name,
		    int64_t start, int64_t end, uint8_t kind, uint8_t flags);
int		 kineto_begin(struct kineto *, struct kev *);
int		 kineto_end(struct kineto *, struct kev *);
/* kineto-gpu.c: bytes per element of a dtype as PyTorch writes it (the
 * ScalarType's name or the C++ type's), 0 unknown. */
uint8_t		 kineto_dtype_size(const char *, size_t);
/* kineto-comm.c: notes an NCCL annotation's message (its rowid, e's
 * index); gives the model's kernels without collective args those of the
 * annotations around their launches; frees the notes. */
void		 kineto_comm_note(struct kineto *, const struct kev *,
		    uint32_t name);
void		 kineto_comm_sizes(struct kineto *, struct model *);
void		 kineto_comm_free(struct kineto *);
int		 kineto_close_open(struct kineto *);

/* kineto-ops.c: the FLOPs of matrix, convolution and attention
 * operators. kineto_op_kind: OPK_* of an operator name, OPK_NONE if not
 * counted; kineto_op: reads the cpu_op's args and adds its op_info (nvtx:
 * its range's nvtx_info index), or nothing. */
int		 kineto_op_kind(const char *, size_t);
void		 kineto_op(struct kineto *, const struct kev *, uint32_t name,
		    uint32_t nvtx);

/* kineto-ranks.c: traces of several ranks merged into one file. */
#define K_MAX_RANKS	65536
struct kineto	*kineto_rank_of(struct kineto *, struct kev *);
struct model	*kineto_ranks_finish(struct kineto *, char **cause);
char		*kineto_ranks_err(struct kineto *);	/* a rank's error */
void		 kineto_ranks_free(struct kineto *);

/* kineto-gpu.c: kernels, copies, memsets, syncs, profiler ranges; the
 * pseudo-thread track of a stream's GPU annotations. */
int		 kineto_gpu_event(struct kineto *, struct kev *);
uint32_t	 kineto_gpu_ann_track(struct kineto *, struct kev *);

/* kineto-meta.c: one top-level member; the end of the file. The keys
 * whose values are read whole (jsonscan_want). */
extern const char *const kineto_meta_keys[];
int		 kineto_meta_member(struct kineto *, struct jsonscan_item *);
int		 kineto_meta_finish(struct kineto *);

#endif
