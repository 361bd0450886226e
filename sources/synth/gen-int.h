/*
 * gen-int.h: what the files of the nsys trace writer (gen*.c) share: the
 * simulation's state (struct gen, its ranks and processes), the rows waiting
 * to be written, the kernel, API and NVTX name tables, and the functions
 * each file gives the others, named after their file (gen_rng_* in
 * gen-rng.c, gen_queue_* in gen-queue.c, ...). The public interface is
 * gen.h; nothing outside sources/synth/gen*.c includes this.
 */
#ifndef GPULENS_GEN_INT_H
#define GPULENS_GEN_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "sources/synth/gen.h"

#define US		1000LL
#define MS		1000000LL

#define VM_BITS		(1ULL << 48)		/* globalPid VM id 1, as nsys */
#define SESSION_START	(25 * 1000 * MS)	/* clock at capture start */
#define UTC_EPOCH	1767225600000000000LL	/* 2026-01-01T00:00:00Z */
#define NO_EVENT	4294967295LL		/* eventId of non-event syncs */
#define NO_STREAM	4294967295LL		/* streamId of streamless syncs */
#define NVTX_DEPTH	8

/* Thread ids: pid + 2, 5, 7 are [NSys], CUPTI and cuda-EvtHandlr; a
 * process's k-th rank has these plus k (k = 0's main thread is pid). */
#define TID_MAIN	100
#define TID_AUTOGRAD	300
#define TID_WATCHDOG	500

enum tbl { T_KERNEL, T_MEMCPY, T_MEMSET, T_RUNTIME, T_SYNC, T_NVTX, T_GRAPH,
    T_COUNT };	/* T_GRAPH: plant graph-whole only */
enum { S_COMPUTE, S_NCCL, S_COPY, S_COUNT };		/* streams per GPU */
enum { TH_MAIN, TH_AUTOGRAD, TH_COUNT };		/* threads per rank */
enum { DOM_DEFAULT, DOM_NCCL };				/* NVTX domainId */

/* ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND, ENUM_CUPTI_SYNC_TYPE ids. */
enum { CK_HTOD = 1, CK_DTOH = 2, CK_PTOP = 10 };
enum { MK_PAGEABLE = 0, MK_PINNED = 1, MK_DEVICE = 2 };
enum { SY_STREAM_WAIT = 2, SY_STREAM = 3, SY_CONTEXT = 4 };

/* CUDA API calls, with their ENUM_NSYS_EVENT_CLASS (0 runtime, 1 driver). */
enum api {
	A_LAUNCH, A_LAUNCH_EX, A_MEMCPY, A_PEER, A_MEMSET, A_EVENT_RECORD,
	A_WAIT_EVENT, A_STREAM_SYNC, A_DEVICE_SYNC, A_IS_CAPTURING,
	A_MEMCPY_SYNC, A_MEMSET_SYNC,	/* planted problems only */
	A_GRAPH_LAUNCH,			/* plants graph, graph-whole only */
	A_COUNT
};
#define A_FIRST_PLANT	A_MEMCPY_SYNC
struct gen_api_def {
	const char	*name;
	int		 class;
	int64_t		 base, mean;	/* duration: base + exp(mean), ns */
};

/*
 * Kernels, named as PyTorch 2.x on an H100 names them (nsys demangling).
 * dur is a typical duration in ns; 0 for NCCL kernels, whose duration comes
 * from the collective. mangled NULL: no mangled name; "": the name itself
 * (extern "C" style cuBLAS/nvjet kernels); NCCL kernels get theirs built.
 */
enum kern {
	K_EMBED, K_LN, K_QKV, K_FLASH_FWD, K_OUT, K_ADD, K_FC1, K_GELU, K_FC2,
	K_LMHEAD, K_SOFTMAX, K_NLL, K_MEAN, K_NLL_BWD, K_SOFTMAX_BWD,
	K_DGRAD_A, K_WGRAD_A, K_DGRAD_B, K_WGRAD_B, K_GELU_BWD, K_LN_BWD,
	K_LN_GB, K_FLASH_DOT, K_FLASH_BWD, K_FLASH_CVT, K_ACC, K_EMBED_BWD,
	K_SCALE, K_ADAM, K_FILL, K_ALLREDUCE, K_BROADCAST,
	K_TUNE0, K_TUNE1, K_TUNE2, K_TINY,	/* planted problems only */
	K_COUNT
};
#define K_FIRST_PLANT	K_TUNE0
struct kdef {
	const char	*name;		/* shortName */
	const char	*demangled;	/* NULL: the name */
	const char	*mangled;
	uint32_t	 grid[3], block[3];
	uint32_t	 regs, ssmem, dsmem, smem_exec;
	uint32_t	 cluster;	/* clusterX, 0 none */
	int64_t		 dur;
	int		 comm;		/* NCCL */
};

/* NVTX ranges. Default-domain ranges carry text; NCCL ones a textId. */
enum nv {
	NV_STEP, NV_DATA, NV_FORWARD, NV_LAYER, NV_ATTN, NV_MLP, NV_LOSS,
	NV_BACKWARD, NV_LAYER_BWD, NV_OPT, NV_LOG, NV_INIT, NV_CKPT,
	NV_AUTOTUNE, NV_EVAL, NV_METRICS, NV_STALL,
	NV_ALLREDUCE, NV_BROADCAST, NV_COMM_INIT, NV_DOMAIN_CREATE, NV_COUNT
};
#define NV_FIRST_NCCL	NV_ALLREDUCE

/* A row waiting in a reorder heap. */
struct row {
	int64_t		 start, end;
	uint64_t	 seq;		/* emission order: tie-break */
	uint32_t	 rank;
	uint32_t	 corr;
	union {
		struct {
			uint32_t	 grid_id;
			uint32_t	 gnode, graph;	/* 0: not replayed */
			uint8_t		 k, stream;
		} k;
		struct {
			uint64_t	 bytes;
			uint8_t		 kind, src, dst, stream;
			int32_t		 peer;
		} c;
		struct {
			uint64_t	 bytes;
			uint8_t		 stream;
		} s;
		struct {
			uint8_t		 api, th;
		} a;
		struct {
			uint32_t	 event, sync;
			uint8_t		 type, stream;
		} y;
		struct {
			int32_t		 arg;
			uint8_t		 name, th;
		} n;
	} u;
};

struct heap {
	struct row	*v;
	size_t		 n, cap;
};

struct rng {
	uint64_t	 s[4];
};

struct nvrange {
	int64_t		 start;
	int32_t		 arg;
	uint8_t		 name;
};

struct rank {
	int		 proc;		/* index into gen.procs */
	int		 local;		/* index among its process's ranks */
	uint32_t	 tid[TH_COUNT];
	uint64_t	 gtid[TH_COUNT];
	uint32_t	 ctx;
	uint32_t	 stream[S_COUNT];
	double		 speed;		/* compute duration factor */
	struct rng	 rng;
	int64_t		 cpu;		/* CPU cursor */
	int64_t		 gpu[S_COUNT];	/* when each stream is free */
	struct nvrange	 stk[TH_COUNT][NVTX_DEPTH];
	int		 depth[TH_COUNT];
	int		 coll_k;	/* pending collective kernel or -1 */
	int64_t		 coll_at;	/* its arrival on the GPU */
	uint32_t	 coll_corr;
	uint32_t	 grid_id, event_id, sync_id;
	int		 extra;		/* filler launches, last iteration */
};

struct proc {
	uint32_t	 pid;
	uint64_t	 gpid;
	uint32_t	 corr;		/* last correlation id */
};

struct gen {
	struct gen_opts	 o;
	int		 nranks, nprocs, layers, nbuckets, straggler;
	struct rank	*ranks;
	struct proc	*procs;
	struct rng	 rng;		/* collectives */

	int		 count_only;
	int		 iter, niters, odd;
	uint64_t	 count, rows[T_COUNT], seq;
	uint64_t	 replays, replayed;	/* graph launches, kernels */
	int64_t		 first, last;
	int64_t		 train0, train1;	/* ProfilerStep span */

	struct heap	 heap[T_COUNT];
	sqlite3		*db;
	sqlite3_stmt	*ins[T_COUNT];
	int		 failed;
	char		*cause;
	char		 text[64];

	char		**strs;		/* StringIds: id = index */
	size_t		 nstrs, strcap;
	uint32_t	 ksid[K_COUNT][3];	/* short, demangled, mangled */
	uint32_t	 asid[A_COUNT];
	uint32_t	 nsid[NV_COUNT];
};

extern const struct gen_api_def	 gen_api_defs[A_COUNT];
extern const struct kdef	 gen_kernel_defs[K_COUNT];
extern const char *const	 gen_nvtx_names[NV_COUNT];
extern const char *const	 gen_nvtx_suffix[NV_COUNT];
extern const char		 gen_schema_training[];
extern const char		 gen_schema_thread_name[];
extern const char		 gen_schema_graph[];

/* A rank's index: its device, and the rank of its rows. */
#define RI(g, r)	((uint32_t)((r) - (g)->ranks))

#define BIND(st, i, v)	sqlite3_bind_int64((st), (i), (sqlite3_int64)(v))
#define BINDS(st, i, s)	sqlite3_bind_text((st), (i), (s), -1, SQLITE_STATIC)
#define BINDN(st, i)	sqlite3_bind_null((st), (i))
/* v where c holds, else NULL (v is not evaluated then). */
#define BINDIF(st, i, c, v)	((c) ? BIND(st, i, v) : BINDN(st, i))

static inline int64_t
max64(int64_t a, int64_t b)
{
	return (a > b ? a : b);
}

static inline int64_t
min64(int64_t a, int64_t b)
{
	return (a < b ? a : b);
}

/* gen-rng.c: xoshiro256** seeded through splitmix64. */
uint64_t	 gen_rng_splitmix64(uint64_t *);
void		 gen_rng_seed(struct rng *, uint64_t, uint64_t);
double		 gen_rng_unit(struct rng *);
int64_t		 gen_rng_exp(struct rng *, int64_t);
double		 gen_rng_gauss(struct rng *);

/* gen-sched.c: plant sched (SCHED_EVENTS from the API calls). */
void		 gen_sched_write(struct gen *);

/* gen-sql.c: SQLite statements, errors recorded in the gen. */
void		 gen_sql_fail(struct gen *, const char *);
int		 gen_sql_exec(struct gen *, const char *);
void		 gen_sql_step(struct gen *, sqlite3_stmt *);
sqlite3_stmt	*gen_sql_prep(struct gen *, const char *);
void		 gen_sql_put(struct gen *, sqlite3_stmt *, const char *, ...);
void		 gen_sql_finish(sqlite3_stmt *);

/* gen-strings.c: the StringIds table. */
uint32_t	 gen_strings_intern(struct gen *, const char *);
void		 gen_strings_intern_all(struct gen *);
void		 gen_strings_write(struct gen *);

/* gen-enums.c: the ENUM_* tables. */
void		 gen_enums_write(struct gen *);

/* gen-meta.c: metadata, target, process and thread tables. */
void		 gen_meta_targets(struct gen *);
void		 gen_meta_processes(struct gen *);
void		 gen_meta_export(struct gen *);
void		 gen_meta_analysis(struct gen *);
/* gen-samples.c: plant samples, once the trace is written. */
void		 gen_samples_write(struct gen *);

/* gen-rows.c: the event tables' insert statements and rows. */
void		 gen_rows_prepare(struct gen *);
void		 gen_rows_write(struct gen *, int, const struct row *);

/* gen-queue.c: reorder heaps, event counting, writing in start order;
 * gen_row_init() zeroes a row and sets its times, rank and correlation. */
void		 gen_row_init(struct row *, struct gen *, struct rank *,
		     int64_t, int64_t, uint32_t);
void		 gen_queue_emit(struct gen *, int, struct row *, int);
void		 gen_queue_flush(struct gen *, int64_t, int64_t);
void		 gen_queue_flush_point(struct gen *);

/* gen-api.c: CUDA API calls on the CPU timeline. */
int64_t		 gen_api_dur(struct rank *, int);
void		 gen_api_gap(struct rank *);
uint32_t	 gen_api_call(struct gen *, struct rank *, int, int, int64_t);
uint32_t	 gen_api_quick(struct gen *, struct rank *, int, int);
int64_t		 gen_api_gpu_start(struct rank *, int);

/* gen-kernel.c: kernels. */
void		 gen_kernel_row(struct gen *, struct rank *, int, int, int64_t,
		     int64_t, uint32_t);
void		 gen_kernel_launch(struct gen *, struct rank *, int, int);
void		 gen_kernel_graph(struct gen *, struct rank *, int, const int *,
		    int);

/* gen-mem.c: copies and memsets. */
void		 gen_mem_copy_as(struct gen *, struct rank *, int, int, int,
		     int, int, uint64_t, int, int);
void		 gen_mem_copy(struct gen *, struct rank *, int, int, int, int,
		     uint64_t, int, int);
void		 gen_mem_set(struct gen *, struct rank *, int, uint64_t, int);
void		 gen_mem_set_async(struct gen *, struct rank *, int, uint64_t);

/* gen-sync.c: synchronisations. */
void		 gen_sync_stream(struct gen *, struct rank *, int, int);
void		 gen_sync_device(struct gen *, struct rank *, int);
void		 gen_sync_wait(struct gen *, struct rank *, int, int, int);

/* gen-nvtx.c: NVTX ranges. */
void		 gen_nvtx_push(struct rank *, int, int, int);
void		 gen_nvtx_pop(struct gen *, struct rank *, int);
void		 gen_nvtx_domain_create(struct gen *, struct rank *);

/* gen-comm.c: NCCL collectives and DDP buckets. */
void		 gen_comm_launch(struct gen *, struct rank *, int, int, int);
void		 gen_comm_resolve(struct gen *, uint64_t);
uint64_t	 gen_comm_bucket_bytes(struct gen *, int);
void		 gen_comm_bucket(struct gen *, struct rank *, int);

/* gen-metrics.c, gen-mpi.c: planted GPU and NIC metrics, MPI calls. */
#define GEN_GPU_METRIC_NS	(100 * US)	/* GPU metrics interval */
#define GEN_GPU_METRIC_GAP	(50 * MS)	/* GPU 0's missing samples */
#define GEN_NIC_METRIC_NS	(1 * MS)	/* NIC metrics interval */
#define GEN_NIC_GLOBAL_ID	0x7700000000000001LL
#define GEN_MPI_ROUNDS		10
void		 gen_metrics_write(struct gen *);
void		 gen_mpi_write(struct gen *);

/* gen-plant.c: planted problems and phases. */
int		 gen_plant_on(const struct gen *, unsigned);
void		 gen_plant_sync_stall(struct gen *, struct rank *);
void		 gen_plant_tiny_loop(struct gen *, struct rank *);
void		 gen_plant_warmup(struct gen *, struct rank *);
void		 gen_plant_evaluate(struct gen *, struct rank *, int, int);

/* gen-step.c: one training iteration (ProfilerStep) of a rank. */
void		 gen_step_layer_fwd(struct gen *, struct rank *, int);
void		 gen_step_layer_bwd(struct gen *, struct rank *, int);
void		 gen_step_head(struct gen *, struct rank *, int);
void		 gen_step_tail(struct gen *, struct rank *, int);

/* gen-train.c: the whole run: planning pass and writing pass. */
void		 gen_train_plan(struct gen *);
void		 gen_train_run(struct gen *);

#endif
