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
 * The output is a pure function of the options (same options, same bytes):
 * the generator has its own PRNG and writes no wall-clock time.
 *
 * What counts as an event: one row of CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY,
 * _MEMSET, _RUNTIME, _SYNCHRONIZATION, or an NVTX push/pop range (eventType
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

/* EXPORT_PRODUCT_VERSION of every generated file. */
#define GEN_PRODUCT_VERSION	"gpulens-demo"

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
	struct progress	*progress;	/* NULL, or shows phase "generate"
					   (the caller calls progress_done) */
};

/* What a generation wrote. */
struct gen_stats {
	uint64_t	 events;	/* counted events (== the sum below) */
	uint64_t	 kernels, memcpys, memsets, runtime, syncs, nvtx;
	int		 iterations;
	int		 layers;
	int64_t		 span_ns;	/* first start to last end */
};

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
