/*
 * gen: a synthetic multi-GPU training trace, written as an Nsight Systems
 * SQLite export (the 2026.x layout, EXPORT_SCHEMA_VERSION 3.25.0), for demos,
 * tests and benchmarks.
 *
 * The trace looks like torchrun data-parallel training: one process per GPU
 * (rank), each with a main thread and an autograd thread, a compute stream,
 * an NCCL stream and a copy stream per GPU. Every iteration is an NVTX
 * "ProfilerStep#N" range holding data loading (H2D copy, memset, P2P copy),
 * the forward pass (per-layer attention and MLP ranges), the backward pass
 * (on the autograd thread, with bucketed NCCL all-reduces overlapping the
 * compute stream) and the optimizer step, closed by a loss.item() copy and
 * a cudaStreamSynchronize. One rank may be a straggler: its compute kernels
 * are slower, so the other ranks' NCCL kernels wait for it.
 *
 * Planted problems and phases (gen_opts.plant, GEN_PLANT_LIST), for
 * testing the analyses (`gpulens phases`, `window`, `findings`): each adds
 * one known feature, scaled to the model's size so that it costs a known
 * share of an iteration (about 5 to 10% unless said otherwise):
 *   warmup       a warm-up phase before training: 30 autotuning candidates
 *                per layer (triton_tem_fused_mm_*), synchronised in groups
 *                of 8, in an NVTX range "autotune"
 *   teardown     an evaluation phase after training: 8 forward-only passes
 *                in an NVTX range "evaluation", each ending in loss.item()
 *   launch       after each step's loss.item(), a Python loop of 30 tiny
 *                kernels per layer (2.5 us each, ~25 us apart): the GPU
 *                waits for launches (NVTX "metrics")
 *   sync         after every layer's forward, cudaStreamSynchronize and
 *                600 us of host work (NVTX "host_work"): the GPU drains
 *   pageable     the data loader also copies 12 MiB per layer with
 *                cudaMemcpyAsync from pageable memory
 *   memcpy-sync  the data loader also copies 24 MiB per layer with a
 *                synchronous cudaMemcpy
 *   memset-sync  the data loader clears 1 GiB per layer with a synchronous
 *                cudaMemset
 *   comm         after backward, an all-reduce of 100 MiB per layer that
 *                nothing overlaps (no effect with one GPU)
 *   bubble       halfway through the forward pass, 2.5 ms of host work per
 *                layer (NVTX "host_work") that outlasts the GPU's backlog
 *   gap          once, halfway through training, the host stalls 600 ms
 *   imbalance    the ranks train without gradient all-reduces (independent
 *                workers) and rank 0's shard is larger: its kernels take
 *                1.3 times as long
 *   graph        the optimizer step (1 scale and 1 + layers / 8 Adam
 *                kernels) is one cudaGraphLaunch replaying a captured
 *                graph, traced as nsys --cuda-graph-trace=node does: every
 *                replayed kernel has a row carrying the launch's
 *                correlation id, its graphNodeId (1, 2, ...) and graphId
 *                (the rank's graph, 1 + its rank)
 *   graph-whole  the same replays traced as --cuda-graph-trace=graph does:
 *                one CUPTI_ACTIVITY_KIND_GRAPH_TRACE row per launch (from
 *                its first kernel's start to its last kernel's end) and no
 *                kernel rows for the replayed kernels; it wins over graph
 *   samples      CPU samples with call chains on every rank's threads and
 *                backtraces of the CUDA runtime calls (gen-samples.c
 *                gives the known answers); no event changes
 *   gpu-metrics  GPU_METRICS samples on every GPU (gen-metrics.c says which
 *                values), with one gap on GPU 0
 *   nic-metrics  NET_NIC_METRIC samples of one NIC (gen-metrics.c)
 *   mpi          MPI calls in the MPI_* tables of newer exports, with
 *                bytes and MPI_RANKS (gen-mpi.c)
 * With no plant, the strings and rows are those of a generator without
 * plants. The straggler (opts.straggler) is one more planted problem; with
 * clean, GEN_STRAGGLER_AUTO means none.
 *
 * The default trace is realistic, imperfections included: a straggler,
 * pageable copies at start-up, 1.2 ms or more of data loading after each
 * step's loss.item() (and a stall in 3% of steps), and the last DDP
 * bucket's all-reduce exposed, ranks 1.5% apart in speed and clock dips
 * that make the others wait. opts.clean removes them (no straggler, pinned
 * copies, a prefetched batch, gradients a quarter of the size and the
 * optimizer overlapped with the last all-reduce, equal ranks, no clock
 * dips), so that a clean trace has no problem worth
 * reporting; plants still apply.
 *
 * The output is a pure function of the options (same options, same bytes):
 * the generator has its own PRNG and writes no wall-clock time.
 *
 * What counts as an event: one row of CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY,
 * _MEMSET, _RUNTIME, _SYNCHRONIZATION, _GRAPH_TRACE, or an NVTX push/pop range (eventType
 * 59). NVTX domain-creation rows (eventType 75, one per process) are not
 * counted. The generator hits opts->events exactly whenever it is at least
 * the size of the smallest complete trace (one iteration: a few hundred
 * events per GPU); below that it writes that smallest trace.
 *
 * Memory is bounded by the size of one iteration, not by the event count:
 * rows are streamed into SQLite, in start order per table (as real exports
 * are), through small reorder heaps.
 *
 * Overwriting: the trace is written to a temporary file next to path and
 * renamed over it at the end. An existing path is replaced only if it is
 * empty, a previous demo trace, or opts->force is set; anything else is
 * refused, so a mistyped --out never clobbers a real profile. A process
 * killed while generating leaves the temporary file (path.tmpXXXXXX).
 */
#ifndef GPULENS_GEN_H
#define GPULENS_GEN_H

#include <stdint.h>

struct progress;

#define GEN_STRAGGLER_AUTO	(-2)	/* the last rank (none with 1 GPU) */
#define GEN_STRAGGLER_NONE	(-1)
#define GEN_MAX_GPUS		64
#define GEN_MAX_LAYERS		64
#define GEN_MAX_EVENTS		2000000000ULL

/* Plants: bit, name for --plant lists, help. */
#define GEN_PLANT_LIST(X)						\
	X(WARMUP,	"warmup",	"a warm-up (autotuning) phase")	\
	X(TEARDOWN,	"teardown",	"an evaluation phase at the end") \
	X(LAUNCH,	"launch",	"launch-bound loops of tiny kernels") \
	X(SYNC,		"sync",		"stream synchronisations in forward") \
	X(PAGEABLE,	"pageable",	"async copies from pageable memory") \
	X(MEMCPY_SYNC,	"memcpy-sync",	"synchronous cudaMemcpy")	\
	X(MEMSET_SYNC,	"memset-sync",	"synchronous cudaMemset")	\
	X(COMM,		"comm",		"an all-reduce nothing overlaps") \
	X(BUBBLE,	"bubble",	"host work that idles the GPU")	\
	X(GAP,		"gap",		"one 600 ms idle gap")		\
	X(IMBALANCE,	"imbalance",	"more work on rank 0, no collectives") \
	X(GRAPH,	"graph",	"the optimizer step as a CUDA graph (node trace)") \
	X(GRAPH_WHOLE,	"graph-whole",	"the same, traced as whole graphs") \
	X(SAMPLES,	"samples",	"CPU samples and CUDA call chains") \
	X(SCHED,	"sched",	"thread scheduling: threads sleep in blocking calls") \
	X(GPU_METRICS,	"gpu-metrics",	"GPU metrics samples (GPU_METRICS)") \
	X(NIC_METRICS,	"nic-metrics",	"NIC metrics samples (NET_NIC_METRIC)") \
	X(MPI,		"mpi",		"MPI calls in the MPI_* tables")

enum gen_plant_bit {
#define X(e, s, h) GEN_PLANT_BIT_##e,
	GEN_PLANT_LIST(X)
#undef X
	GEN_PLANT_COUNT
};
enum gen_plant {
#define X(e, s, h) GEN_PLANT_##e = 1 << GEN_PLANT_BIT_##e,
	GEN_PLANT_LIST(X)
#undef X
	GEN_PLANT_ALL = (1 << GEN_PLANT_COUNT) - 1
};

/* EXPORT_PRODUCT_VERSION of every generated file. */
#define GEN_PRODUCT_VERSION	"gpulens-demo"

/*
 * What the file holds (gen_opts.shape). GEN_SHAPE_TRAINING is the training
 * trace described above. GEN_SHAPE_THREAD_NAME is the smallest export an
 * nsys 2026.2 capture with only NVTX thread naming makes: no CUDA tables,
 * no ThreadNames or PROCESSES rows, and one NVTX_EVENTS row, an NvtxThread
 * (eventType 39) naming a thread ("worker") that appears nowhere else.
 */
enum gen_shape {
	GEN_SHAPE_TRAINING = 0,
	GEN_SHAPE_THREAD_NAME,
};

/*
 * Quirks of real exports the training trace can reproduce (gen_opts.quirks
 * bits):
 *   GEN_QUIRK_SYNC_DEVICE0   every CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row
 *                            carries deviceId 0, whatever GPU its context
 *                            runs on (as in some nsys 2024-2025 exports)
 *   GEN_QUIRK_SYNC_NOSTREAM  context synchronisations are on no stream
 *                            (streamId 0xFFFFFFFF), as CUPTI records them
 */
#define GEN_QUIRK_SYNC_DEVICE0	0x01
#define GEN_QUIRK_SYNC_NOSTREAM	0x02
#define GEN_QUIRK_ALL		0x03

struct gen_opts {
	uint64_t	 events;	/* event rows wanted (see above) */
	int		 gpus;		/* GPUs = ranks, 1..GEN_MAX_GPUS */
	int		 processes;	/* ranks spread over this many
					   processes; 0 = one per GPU */
	uint64_t	 seed;		/* PRNG seed */
	int		 straggler;	/* slow rank, or GEN_STRAGGLER_* */
	double		 slowdown;	/* straggler's compute factor, 1..10 */
	int		 layers;	/* model layers; 0 = from events */
	int		 force;		/* replace path whatever it holds */
	unsigned	 plant;		/* GEN_PLANT_* bits */
	int		 clean;		/* without the default imperfections */
	int		 shape;		/* enum gen_shape */
	unsigned	 quirks;	/* GEN_QUIRK_* bits */
	struct progress	*progress;	/* NULL, or shows phase "generate"
					   (the caller calls progress_done) */
};

/* What a generation wrote. */
struct gen_stats {
	uint64_t	 events;	/* counted events (== the sum below) */
	uint64_t	 kernels, memcpys, memsets, runtime, syncs, nvtx;
	uint64_t	 graphs;		/* GRAPH_TRACE rows */
	uint64_t	 replays;		/* graph launches */
	uint64_t	 replayed;		/* kernels they replayed */
	int		 iterations;
	int		 layers;
	int64_t		 span_ns;	/* first start to last end */
	int64_t		 first_ns;	/* first start (trace clock) */
	int64_t		 train_start;	/* first ProfilerStep start */
	int64_t		 train_end;	/* last ProfilerStep end */
};

/* The name of plant bit b ("warmup"), NULL if none. */
const char *gen_plant_name(int b);
/* One line of help for plant bit b. */
const char *gen_plant_help(int b);
/*
 * Parses a comma-separated list of plant names ("all" for every one,
 * "none" for none) into *out. Returns 0, or -1 with *cause (caller
 * frees).
 */
int	 gen_plant_parse(const char *list, unsigned *out, char **cause);

/* Fills *o with the defaults: 200000 events, 4 GPUs, one process per GPU,
 * seed 1, the last rank a 1.3x straggler, layers chosen from events. */
void	 gen_opts_default(struct gen_opts *o);
/*
 * Writes the trace to path. Returns 0, or -1 with *cause set (caller frees)
 * on bad options, a path it refuses to replace, or an I/O or SQLite error;
 * on failure nothing is left behind and path is untouched. stats may be
 * NULL. Prints nothing.
 */
int	 gen_write_nsys(const char *path, const struct gen_opts *o,
	    struct gen_stats *stats, char **cause);

#endif
