/*
 * kgen: a synthetic PyTorch profiler (Kineto) trace of data-parallel
 * training, written as the Chrome-trace JSON torch.profiler writes
 * (current layout: cpu_op, user_annotation, gpu_user_annotation,
 * cuda_runtime, kernel, gpu_memcpy, gpu_memset, cuda_sync, ac2g flows,
 * M metadata, deviceProperties, distributedInfo, baseTimeNanoseconds), for
 * benchmarks, tests and demos. Plain JSON, or gzip when opts->gzip is set.
 *
 * One file is one rank of a job of opts->world ranks: a main thread with
 * ProfilerStep#N iterations holding data loading (an H2D copy and a
 * memset), the forward pass (per layer aten::linear > aten::addmm and
 * aten::relu, each launching one kernel), the optimizer step, and a
 * cudaStreamSynchronize; an autograd thread running the backward pass (two
 * kernels per layer) and, with world > 1, one NCCL all-reduce per
 * iteration on a communication stream, with the collective's args as
 * PyTorch records them. Every launch has its ac2g flow pair and the
 * CUPTI correlation id in both sides' args.
 *
 * Ranks are coupled as NCCL couples them: every rank's timeline is
 * simulated (only the chosen rank is written), and an all-reduce kernel
 * starts when its rank arrives and ends a transfer time after the last
 * rank arrives. The straggler's kernels are slowdown times longer, so the
 * other ranks' all-reduce kernels wait for it; files generated for every
 * rank with the same options and seed form one consistent job.
 *
 * The output is a pure function of the options (same options, same bytes).
 * The event count is opts->events rounded to whole layers: every iteration
 * has the same number of events, 24 per layer plus a fixed part.
 *
 * With opts->graph, the optimizer step of each iteration is one
 * cudaGraphLaunch (cbid 311) replaying KGEN_GRAPH_KERNELS optimizer
 * kernels back to back, 1 us apart, each carrying the call's correlation
 * id: two more events per iteration.
 *
 * With opts->chrome, the file is instead a generic Chrome trace of the
 * same iterations, as nsightful converts an Nsight Systems export: a bare
 * array of X events, API calls (cat "cuda_api", pid "Host 0", tid "CUDA
 * API <tid>", args correlationId), kernels (cat "cuda", pid "Device <d>",
 * tid "CUDA API <stream>"), NVTX ranges as B/E pairs (cat "nvtx") and
 * their GPU projection (cat "nvtx-kernel"), plus a process_name M event,
 * an instant and a counter. stats counts kernels, kernel_ns, runtime (API
 * calls), annotations (NVTX ranges), gpu_annotations, metadata, events.
 *
 * With opts->merged, one file holds every rank of the job as TraceLens's
 * TraceFuse writes a merge: rank r's events with args "rank": r, "pid",
 * "id" and "correlation" offset by r times 10^(digits of rank 0's
 * largest value + 1) and the originals kept in args "pid_raw", "id_raw"
 * and "correlation_raw"; no top-level member but traceEvents; the ranks'
 * process_name/process_labels M events replaced by "RANK r - CPU"/"RANK
 * r - GPU" ones. stats counts the whole file.
 *
 * Overwriting: written to a temporary file next to path and renamed; an
 * existing path is replaced only if it is empty, an earlier kgen trace, or
 * opts->force is set.
 */
#ifndef GPULENS_KGEN_H
#define GPULENS_KGEN_H

#include <stdint.h>

#define KGEN_MAX_WORLD		1024
#define KGEN_GENERATOR		"gpulens kgen"	/* "generator" key */

struct kgen_opts {
	uint64_t	 events;	/* trace events wanted (approximate) */
	int		 rank;		/* the rank written, 0..world-1 */
	int		 world;		/* ranks in the job, 1..KGEN_MAX_WORLD */
	int		 straggler;	/* slow rank, or -1 for none */
	double		 slowdown;	/* its compute factor, 1..10 */
	uint64_t	 seed;
	int		 gzip;		/* 0 plain JSON, else gzip level 1-9 */
	int		 force;		/* replace path whatever it holds */
	int64_t		 clock_back_ns;	/* this rank's clock is behind the
					   job's by this much, 0 to
					   KGEN_MAX_CLOCK_BACK_NS (decades
					   behind: not of the job) */
	int		 chrome;	/* a generic Chrome trace instead */
	int		 merged;	/* all world ranks in one file, as
					   TraceLens's TraceFuse merges them */
	int		 generic_nccl;	/* the all-reduce kernel is NCCL's
					   ncclDevKernel_Generic, without
					   collective args: only the
					   nccl:all_reduce annotation around
					   its launch names it */
	int		 graph;		/* the optimizer step is one
					   cudaGraphLaunch replaying
					   KGEN_GRAPH_KERNELS kernels */
	int		 shapes;	/* record_shapes arguments on the
					   GEMM operators: aten::linear X
					   (B,K) W (N,K) bias (N), its
					   aten::addmm, and backward's
					   aten::mm (B,N) x (N,K), in
					   BFloat16, with B KGEN_SHAPE_B, N
					   KGEN_SHAPE_N and K KGEN_SHAPE_K
					   times (layer + 1) */
};
#define KGEN_SHAPE_B		128
#define KGEN_SHAPE_N		512
#define KGEN_SHAPE_K		256
#define KGEN_GRAPH_KERNELS	3
#define KGEN_MAX_CLOCK_BACK_NS	(INT64_C(1600000000) * 1000000000)

/* What a generation wrote (counts of trace events by kind). */
struct kgen_stats {
	uint64_t	 events;	/* elements of traceEvents */
	uint64_t	 kernels, memcpys, memsets, syncs, runtime;
	uint64_t	 cpu_ops, annotations, gpu_annotations, flows, metadata;
	uint64_t	 nccl;		/* all-reduce kernels */
	int		 iterations, layers;
	int64_t		 kernel_ns;	/* total kernel time */
};

/* Defaults: 100000 events, rank 0 of 1, no straggler (slowdown 1.3 when
 * one is set), seed 1, plain JSON. */
void	 kgen_opts_default(struct kgen_opts *);
/*
 * Writes the trace. Returns 0, or -1 with *cause (caller frees) on bad
 * options, a path it refuses to replace, or an I/O error; on failure path
 * is untouched. stats may be NULL. Prints nothing.
 */
int	 kgen_write(const char *path, const struct kgen_opts *,
	    struct kgen_stats *, char **cause);
/* kgen-forms.c: the chrome and merged shapes, for kgen_write (options
 * checked, stats zeroed). */
int	 kgen_forms_write(const char *path, const struct kgen_opts *,
	    struct kgen_stats *, char **cause);

#endif
