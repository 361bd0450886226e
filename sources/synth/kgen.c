/*
 * kgen: writes a synthetic, deterministic Kineto trace of one rank of a
 * data-parallel training job (kgen.h says what it holds).
 *
 * Simulation: every rank has a CPU cursor (its main and autograd threads
 * share it, as the main thread blocks in backward) and a cursor per GPU
 * stream (7 compute, 20 NCCL). A runtime call occupies the CPU; the kernel
 * it launches starts after the call returns plus a queue delay, and after
 * the previous work on its stream. Durations come from a hash of (seed,
 * rank, iteration, layer, kind), never from a sequential PRNG, so a rank's
 * timeline does not depend on which rank is written.
 *
 * An iteration runs in two phases for every rank. Phase A (data loading,
 * forward, backward, the all-reduce launch) ends with the rank's arrival
 * at the collective: the time its NCCL kernel starts. Phase B knows the
 * last arrival: the all-reduce kernel ends a transfer time after it, the
 * optimizer waits for it on the compute stream, and the iteration ends
 * with a stream synchronisation. Only the chosen rank's events are written;
 * the others are simulated (cheap arithmetic) to know the arrivals.
 *
 * Events are written as they are produced (children before their parents,
 * whose end is only known then; Chrome traces need no order), through a
 * 256 KiB buffer into a plain file or a gzip stream: memory is constant.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "sources/synth/kgen.h"
#include "sources/synth/synth.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

#define US		1000LL
#define KG_BASE_NS	1767225600000000000LL	/* 2026-01-01T00:00:00Z */
#define KG_BUF		(256u * 1024)
#define KG_FIXED	23	/* events per iteration besides the layers */
#define KG_NCCL_EVENTS	6	/* ... plus these with world > 1 */
#define KG_PER_LAYER	24
#define KG_STREAM	7
#define KG_NCCL_STREAM	20
#define KG_MAX_EVENTS	2000000000ULL

/* Kernel kinds (hash salts and names). */
enum {
	K_GEMM, K_RELU, K_GEMM_BWD, K_RELU_BWD, K_OPT, K_H2D, K_MEMSET,
	K_NCCL, K_CPU, K_COUNT
};

/* Real PyTorch kernel names (long, templated: what a reader interns). */
static const char kg_relu[] =
	"void at::native::vectorized_elementwise_kernel<4, at::native::"
	"(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "
	"c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::"
	"{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
	"{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::"
	"(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "
	"c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::"
	"{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
	"{lambda(float)#1}, at::detail::Array<char*, 2>)";
static const char kg_relu_bwd[] =
	"void at::native::vectorized_elementwise_kernel<4, at::native::"
	"(anonymous namespace)::threshold_kernel_impl<float>(at::"
	"TensorIteratorBase&, float, float)::{lambda(float, float)#1}, "
	"at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)"
	"::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
	"float)::{lambda(float, float)#1}, at::detail::Array<char*, 3>)";
static const char kg_opt[] =
	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<"
	"at::native::(anonymous namespace)::TensorListMetadata<2>, at::native"
	"::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
	"std::plus<float>, float>(at::native::(anonymous namespace)::"
	"TensorListMetadata<2>, at::native::(anonymous namespace)::"
	"BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)";
static const char kg_nccl[] =
	"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, "
	"ncclWork*)";

/* opts->generic_nccl: the kernel NCCL 2.19+ launches for every collective. */
static const char kg_nccl_generic[] =
	"ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)";

static const char *const kg_kernel_name[] = {
	"ampere_sgemm_128x64_tn",
	kg_relu,
	"ampere_sgemm_128x128_nn",
	kg_relu_bwd,
	kg_opt,
	"Memcpy HtoD (Pageable -> Device)",
	"Memset (Device)",
	kg_nccl,
};

/* Base durations (ns) of the kinds above. */
static const int64_t kg_base[K_COUNT] = {
	48 * US, 9 * US, 95 * US, 11 * US, 30 * US, 180 * US, 4 * US,
	250 * US, 3 * US
};

struct kg_rank {
	int64_t		 cpu;		/* CPU cursor */
	int64_t		 s7, s20;	/* stream cursors */
	int64_t		 step_start;
	int64_t		 arrive;	/* NCCL kernel start */
	int64_t		 nccl_launch;	/* its launch call's end */
	uint32_t	 corr_nccl;
};

struct kg {
	const struct kgen_opts	*o;
	int			 layer;		/* of the launch being written */
	struct kgen_stats	*st;
	int			 layers, iters;
	struct kg_rank		*r;
	uint32_t		 corr, ext;	/* the written rank's ids */
	int			 pid, tid_main, tid_bwd, device;

	int			 fd;
	gzFile			 gz;
	char			*buf;
	size_t			 nbuf;
	int			 ioerr;
	int			 first;		/* no comma before the event */
};

/* splitmix64 of a mix of the inputs. */
static uint64_t
kg_hash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t	z = seed ^ (a * 0x9E3779B97F4A7C15ULL) ^
	    (b * 0xC2B2AE3D27D4EB4FULL) ^ (c * 0x165667B19E3779F9ULL) ^
	    (d * 0xD6E8FEB86659FD93ULL);

	z += 0x9E3779B97F4A7C15ULL;
	return synth_mix64(z);
}

/* Duration of kind k for (rank, iter, layer): base x [0.9, 1.1) x the
 * straggler's slowdown for its compute kernels. */
static int64_t
kg_dur(const struct kg *g, int rank, int iter, int layer, int k)
{
	uint64_t	h = kg_hash(g->o->seed, (uint64_t)rank, (uint64_t)iter,
	    (uint64_t)layer, (uint64_t)k);
	double		f = 0.9 + 0.2 * (double)(h >> 11) / 9007199254740992.0;

	if (rank == g->o->straggler && k != K_NCCL && k != K_CPU &&
	    k != K_H2D && k != K_MEMSET)
		f *= g->o->slowdown;
	return (int64_t)((double)kg_base[k] * f);
}

/* Output. */

static void
kg_flush(struct kg *g)
{
	size_t	off = 0;
	ssize_t	w;

	if (g->nbuf == 0 || g->ioerr)
		return;
	if (g->gz != NULL) {
		if (gzwrite(g->gz, g->buf, (unsigned)g->nbuf) != (int)g->nbuf)
			g->ioerr = EIO;
	} else {
		while (off < g->nbuf) {
			w = write(g->fd, g->buf + off, g->nbuf - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				g->ioerr = w < 0 ? errno : EIO;
				break;
			}
			off += (size_t)w;
		}
	}
	g->nbuf = 0;
}

static void
kg_printf(struct kg *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
kg_printf(struct kg *g, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (KG_BUF - g->nbuf < 4096)
		kg_flush(g);
	va_start(ap, fmt);
	n = vsnprintf(g->buf + g->nbuf, KG_BUF - g->nbuf, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < KG_BUF - g->nbuf)
		g->nbuf += (size_t)n;
	else
		g->ioerr = ENOSPC;	/* cannot happen: events are short */
}

/* Starts an event object (the comma between events). */
static void
kg_begin(struct kg *g)
{
	kg_printf(g, "%s\n  ", g->first ? "" : ",");
	g->first = 0;
	g->st->events++;
}

/* The record_shapes arguments of a GEMM operator (kgen_opts.shapes). */
static void
kg_shapes(const struct kg *g, const char *name, char *buf, size_t len)
{
	long	B = KGEN_SHAPE_B, N = KGEN_SHAPE_N;
	long	K = (long)KGEN_SHAPE_K * (g->layer + 1);
	const char *bf = "\"c10::BFloat16\"";

	buf[0] = '\0';
	if (!g->o->shapes)
		return;
	if (strcmp(name, "aten::linear") == 0)
		snprintf(buf, len, ", \"Input Dims\": [[%ld, %ld], [%ld, %ld], "
		    "[%ld]], \"Input type\": [%s, %s, %s]", B, K, N, K, N, bf,
		    bf, bf);
	else if (strcmp(name, "aten::addmm") == 0)
		snprintf(buf, len, ", \"Input Dims\": [[%ld], [%ld, %ld], "
		    "[%ld, %ld], [], []], \"Input type\": [%s, %s, %s, "
		    "\"Scalar\", \"Scalar\"]", N, B, K, K, N, bf, bf, bf);
	else if (strcmp(name, "aten::mm") == 0)
		snprintf(buf, len, ", \"Input Dims\": [[%ld, %ld], [%ld, %ld]], "
		    "\"Input type\": [%s, %s]", B, N, N, K, bf, bf);
}

static void
kg_cpu_op(struct kg *g, const char *cat, const char *name, int tid,
    int64_t start, int64_t end)
{
	char	a[32], b[32], sh[256];

	kg_shapes(g, name, sh, sizeof sh);
	kg_begin(g);
	kg_printf(g, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", "
	    "\"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s, \"args\": "
	    "{\"External id\": %u, \"Record function id\": 0, \"Ev Idx\": "
	    "%llu%s}}", cat, name, g->pid, tid, synth_us(a, sizeof a, start),
	    synth_us(b, sizeof b, end - start), ++g->ext,
	    (unsigned long long)g->st->events, sh);
	if (strcmp(cat, "cpu_op") == 0)
		g->st->cpu_ops++;
	else
		g->st->annotations++;
}

static void
kg_flow(struct kg *g, char ph, uint32_t id, int pid, int tid, int64_t ts)
{
	char	a[32];

	kg_begin(g);
	kg_printf(g, "{\"ph\": \"%c\", \"id\": %u, \"pid\": %d, \"tid\": %d, "
	    "\"ts\": %s, \"cat\": \"ac2g\", \"name\": \"ac2g\"%s}", ph, id, pid,
	    tid, synth_us(a, sizeof a, ts), ph == 'f' ? ", \"bp\": \"e\"" : "");
	g->st->flows++;
}

static void
kg_runtime(struct kg *g, const char *name, int tid, int64_t start,
    int64_t end, uint32_t corr, int cbid)
{
	char	a[32], b[32];

	kg_begin(g);
	kg_printf(g, "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
	    "\"%s\", \"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s, "
	    "\"args\": {\"External id\": %u, \"cbid\": %d, \"correlation\": "
	    "%u}}", name, g->pid, tid, synth_us(a, sizeof a, start),
	    synth_us(b, sizeof b, end - start), g->ext, cbid, corr);
	g->st->runtime++;
	kg_flow(g, 's', corr, g->pid, tid, start);
}

/* A GPU activity of kind k on stream s. */
static void
kg_gpu(struct kg *g, int k, int s, int64_t start, int64_t end,
    uint32_t corr, int layer)
{
	char	a[32], b[32];
	int	width = 64 + (layer % 16) * 64;

	kg_begin(g);
	if (k == K_H2D || k == K_MEMSET) {
		kg_printf(g, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\""
		    ", \"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s, "
		    "\"args\": {\"External id\": %u, \"device\": %d, "
		    "\"context\": 1, \"stream\": %d, \"correlation\": %u, "
		    "\"bytes\": %d, \"memory bandwidth (GB/s)\": %.3f}}",
		    k == K_H2D ? "gpu_memcpy" : "gpu_memset",
		    kg_kernel_name[k], g->device, s,
		    synth_us(a, sizeof a, start), synth_us(b, sizeof b,
		    end - start), g->ext, g->device, s, corr,
		    k == K_H2D ? 12582912 : 262144, k == K_H2D ? 69.9 : 65.5);
		if (k == K_H2D)
			g->st->memcpys++;
		else
			g->st->memsets++;
	} else {
		kg_printf(g, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
		    "\"%s\", \"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s, "
		    "\"args\": {\"External id\": %u, \"queued\": 0, \"device\": "
		    "%d, \"context\": 1, \"stream\": %d, \"correlation\": %u, "
		    "\"registers per thread\": %d, \"shared memory\": %d, "
		    "\"blocks per SM\": %.6f, \"warps per SM\": %.6f, \"grid\": "
		    "[%d, 1, 1], \"block\": [%d, 1, 1], \"est. achieved "
		    "occupancy %%\": %d", k == K_NCCL && g->o->generic_nccl ?
		    kg_nccl_generic : kg_kernel_name[k], g->device, s,
		    synth_us(a, sizeof a, start),
		    synth_us(b, sizeof b, end - start),
		    g->ext, g->device, s, corr, k == K_GEMM ||
		    k == K_GEMM_BWD ? 122 : 16, k == K_GEMM || k == K_GEMM_BWD ?
		    32768 : 0, width / 108.0, width * 4 / 108.0, width, 128,
		    k == K_GEMM ? 25 : 50);
		if (k == K_NCCL && !g->o->generic_nccl)
			kg_printf(g, ", \"Collective name\": \"allreduce\", "
			    "\"In msg nelems\": %d, \"Out msg nelems\": %d, "
			    "\"Group size\": %d, \"dtype\": \"Float\", "
			    "\"In split size\": \"[]\", \"Out split size\": "
			    "\"[]\", \"Process Group Name\": \"0\", "
			    "\"Process Group Description\": \"default_pg\", "
			    "\"Process Group Ranks\": \"[0, ..., %d]\"",
			    g->layers * 1024, g->layers * 1024, g->o->world,
			    g->o->world - 1);
		kg_printf(g, "}}");
		g->st->kernels++;
		g->st->kernel_ns += end - start;
		if (k == K_NCCL)
			g->st->nccl++;
	}
	kg_flow(g, 'f', corr, g->device, s, start);
}

/*
 * One launch: cpu_op parents (outer..inner, up to 2) around a runtime call
 * launching GPU work of kind k on stream s. Advances the CPU and stream
 * cursors; returns the GPU work's start.
 */
static int64_t
kg_launch(struct kg *g, int rank, int emit, int it, int layer, int k,
    int s, const char *outer, const char *inner, int tid, int64_t not_before)
{
	struct kg_rank	*r = &g->r[rank];
	int64_t		 t0 = r->cpu, t1, rs, re, gs, ge, *cur;
	int64_t		 cpu = kg_dur(g, rank, it, layer, K_CPU);
	uint32_t	 corr = 0;

	t1 = t0 + (outer != NULL ? 2 * US : 0);
	rs = t1 + (inner != NULL ? 2 * US : 0);
	re = rs + cpu;
	cur = s == KG_NCCL_STREAM ? &r->s20 : &r->s7;
	gs = re + 5 * US;
	if (gs < *cur)
		gs = *cur;
	if (gs < not_before)
		gs = not_before;
	ge = gs + kg_dur(g, rank, it, layer, k);
	*cur = ge;
	r->cpu = re + (inner != NULL ? 1 * US : 0) + (outer != NULL ? 1 * US :
	    0);
	if (!emit)
		return gs;
	corr = ++g->corr;
	g->layer = layer;
	if (outer != NULL)
		kg_cpu_op(g, "cpu_op", outer, tid, t0, r->cpu);
	if (inner != NULL)
		kg_cpu_op(g, "cpu_op", inner, tid, t1, re + 1 * US);
	kg_runtime(g, k == K_H2D ? "cudaMemcpyAsync" : k == K_MEMSET ?
	    "cudaMemsetAsync" : "cudaLaunchKernel", tid, rs, re, corr,
	    k == K_H2D ? 41 : k == K_MEMSET ? 51 : 211);
	if (k != K_NCCL)
		kg_gpu(g, k, s, gs, ge, corr, layer);
	else
		r->corr_nccl = corr;	/* written in phase B */
	return gs;
}

/*
 * opts->graph: the optimizer step is one cudaGraphLaunch replaying
 * KGEN_GRAPH_KERNELS kernels back to back, each with the call's correlation
 * id, as PyTorch's CUDA graph replay records them.
 */
static void
kg_graph(struct kg *g, int rank, int emit, int it, int tid,
    int64_t not_before)
{
	struct kg_rank	*r = &g->r[rank];
	int64_t		 rs = r->cpu, re, gs, ge = 0;
	uint32_t	 corr = 0;
	int		 i;

	re = rs + kg_dur(g, rank, it, 0, K_CPU);
	gs = re + 5 * US;
	if (gs < r->s7)
		gs = r->s7;
	if (gs < not_before)
		gs = not_before;
	if (emit) {
		corr = ++g->corr;
		kg_runtime(g, "cudaGraphLaunch", tid, rs, re, corr, 311);
	}
	for (i = 0; i < KGEN_GRAPH_KERNELS; i++) {
		ge = gs + kg_dur(g, rank, it, i, K_OPT);
		if (emit)
			kg_gpu(g, K_OPT, KG_STREAM, gs, ge, corr, i);
		gs = ge + 1 * US;
	}
	r->s7 = ge;
	r->cpu = re + 1 * US;
}

/* Phase A: data loading, forward, backward, all-reduce launch. */
static void
kg_phase_a(struct kg *g, int rank, int emit, int it)
{
	struct kg_rank	*r = &g->r[rank];
	int64_t		 fwd0;
	int		 l, tm = g->tid_main, tb = g->tid_bwd;

	r->step_start = r->cpu;
	r->cpu += 10 * US;
	kg_launch(g, rank, emit, it, 0, K_H2D, KG_STREAM, "aten::to", NULL,
	    tm, 0);
	kg_launch(g, rank, emit, it, 0, K_MEMSET, KG_STREAM, "aten::zero_",
	    NULL, tm, 0);
	fwd0 = r->cpu;
	r->cpu += 2 * US;
	for (l = 0; l < g->layers; l++) {
		kg_launch(g, rank, emit, it, l, K_GEMM, KG_STREAM,
		    "aten::linear", "aten::addmm", tm, 0);
		kg_launch(g, rank, emit, it, l, K_RELU, KG_STREAM,
		    "aten::relu", "aten::clamp_min", tm, 0);
	}
	r->cpu += 2 * US;
	if (emit)
		kg_cpu_op(g, "user_annotation", "## forward ##", tm, fwd0,
		    r->cpu);
	for (l = g->layers - 1; l >= 0; l--) {
		kg_launch(g, rank, emit, it, l, K_RELU_BWD, KG_STREAM,
		    "autograd::engine::evaluate_function: ReluBackward0",
		    "aten::threshold_backward", tb, 0);
		kg_launch(g, rank, emit, it, l, K_GEMM_BWD, KG_STREAM,
		    "autograd::engine::evaluate_function: AddmmBackward0",
		    "aten::mm", tb, 0);
	}
	if (g->o->world > 1) {
		int64_t c0 = r->cpu;
		r->cpu += 3 * US;
		/* NCCL waits for the compute stream (an event wait). */
		r->arrive = kg_launch(g, rank, emit, it, 0, K_NCCL,
		    KG_NCCL_STREAM, "record_param_comms", NULL, tb, r->s7);
		r->nccl_launch = r->cpu;
		r->cpu += 2 * US;
		if (emit) {
			kg_cpu_op(g, "user_annotation", "nccl:all_reduce", tb,
			    c0, r->cpu);
		}
	}
}

/* Phase B: the all-reduce completes, optimizer, synchronisation. */
static void
kg_phase_b(struct kg *g, int rank, int emit, int it, int64_t last_arrival)
{
	struct kg_rank	*r = &g->r[rank];
	int64_t		 o0, ss, se, nend = 0;
	int		 tm = g->tid_main;
	char		 a[32], b[32], name[64];

	if (g->o->world > 1) {
		nend = last_arrival + kg_dur(g, 0, it, 0, K_NCCL) +
		    (int64_t)g->layers * 200;
		r->s20 = nend;
		if (emit) {
			g->ext++;
			kg_gpu(g, K_NCCL, KG_NCCL_STREAM, r->arrive, nend,
			    r->corr_nccl, 0);
		}
	}
	o0 = r->cpu;
	r->cpu += 2 * US;
	if (g->o->graph)
		kg_graph(g, rank, emit, it, tm, nend);
	else
		kg_launch(g, rank, emit, it, 0, K_OPT, KG_STREAM,
		    "aten::_foreach_add_", NULL, tm, nend);
	r->cpu += 2 * US;
	if (emit)
		kg_cpu_op(g, "user_annotation", "Optimizer.step#SGD.step", tm,
		    o0, r->cpu);

	/* cudaStreamSynchronize: the CPU waits for the compute stream. */
	ss = r->cpu;
	se = (r->s7 > ss ? r->s7 : ss) + 3 * US;
	if (emit) {
		uint32_t corr = ++g->corr;
		kg_runtime(g, "cudaStreamSynchronize", tm, ss, se, corr, 131);
		kg_begin(g);
		kg_printf(g, "{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": "
		    "\"Stream Sync\", \"pid\": %d, \"tid\": %d, \"ts\": %s, "
		    "\"dur\": %s, \"args\": {\"External id\": %u, "
		    "\"cuda_sync_kind\": \"Stream Sync\", \"stream\": %d, "
		    "\"correlation\": %u, \"device\": %d, \"context\": 1}}",
		    g->device, KG_STREAM, synth_us(a, sizeof a, ss + 1 * US),
		    synth_us(b, sizeof b, se - ss - 2 * US), g->ext, KG_STREAM,
		    corr, g->device);
		g->st->syncs++;
		kg_flow(g, 'f', corr, g->device, KG_STREAM, ss + 1 * US);
	}
	r->cpu = se + 1 * US;
	if (emit) {
		snprintf(name, sizeof name, "ProfilerStep#%d", it);
		kg_cpu_op(g, "user_annotation", name, tm, r->step_start,
		    r->cpu);
		kg_begin(g);
		kg_printf(g, "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", "
		    "\"name\": \"%s\", \"pid\": %d, \"tid\": %d, \"ts\": %s, "
		    "\"dur\": %s, \"args\": {\"External id\": %u}}", name,
		    g->device, KG_STREAM, synth_us(a, sizeof a, r->step_start),
		    synth_us(b, sizeof b, r->s7 - r->step_start), g->ext);
		g->st->gpu_annotations++;
	}
	r->cpu += 40 * US;	/* the data loader's next batch */
}

static void
kg_header(struct kg *g)
{
	const struct kgen_opts	*o = g->o;
	int			 i, n = o->world < 8 ? o->world : 8;

	kg_printf(g, "{\n  \"schemaVersion\": 1,\n  \"generator\": \"%s\",\n"
	    "  \"deviceProperties\": [", KGEN_GENERATOR);
	for (i = 0; i < n; i++)
		kg_printf(g, "%s\n    {\"id\": %d, \"name\": \"NVIDIA H100 80GB "
		    "HBM3\", \"totalGlobalMem\": 84929347584, \"computeMajor\": "
		    "9, \"computeMinor\": 0, \"maxThreadsPerBlock\": 1024, "
		    "\"maxThreadsPerMultiprocessor\": 2048, \"regsPerBlock\": "
		    "65536, \"regsPerMultiprocessor\": 65536, \"warpSize\": 32, "
		    "\"sharedMemPerBlock\": 49152, "
		    "\"sharedMemPerMultiprocessor\": 233472, \"numSms\": 132, "
		    "\"sharedMemPerBlockOptin\": 232448}", i > 0 ? "," : "", i);
	kg_printf(g, "\n  ],\n  \"cupti_version\": 24,\n  "
	    "\"cuda_runtime_version\": 12040,\n  \"cuda_driver_version\": "
	    "12040,\n  \"distributedInfo\": {\"backend\": \"nccl\", "
	    "\"rank\": %d, \"world_size\": %d, \"pg_count\": 1, \"pg_config\": "
	    "[{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
	    "\"backend_config\": \"cuda:nccl\", \"pg_size\": %d, \"ranks\": "
	    "\"0-%d\"}], \"nccl_version\": \"2.21.5\"},\n  "
	    "\"record_shapes\": 0,\n  \"displayTimeUnit\": \"ms\",\n  "
	    "\"baseTimeNanoseconds\": %lld,\n  \"traceEvents\": [", o->rank,
	    o->world, o->world, o->world - 1,
	    (long long)(KG_BASE_NS - o->clock_back_ns));
	g->first = 1;
	/* Metadata, as Kineto writes it. */
	kg_begin(g);
	kg_printf(g, "{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0.0, "
	    "\"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"python3\"}}",
	    g->pid);
	kg_begin(g);
	kg_printf(g, "{\"name\": \"process_labels\", \"ph\": \"M\", \"ts\": "
	    "0.0, \"pid\": %d, \"tid\": 0, \"args\": {\"labels\": \"CPU\"}}",
	    g->pid);
	kg_begin(g);
	kg_printf(g, "{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0.0, "
	    "\"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"python3\"}}",
	    g->device);
	kg_begin(g);
	kg_printf(g, "{\"name\": \"process_labels\", \"ph\": \"M\", \"ts\": "
	    "0.0, \"pid\": %d, \"tid\": 0, \"args\": {\"labels\": \"GPU %d\"}}",
	    g->device, g->device);
	kg_begin(g);
	kg_printf(g, "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0.0, "
	    "\"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"thread %d "
	    "(python3)\"}}", g->pid, g->tid_main, g->tid_main);
	kg_begin(g);
	kg_printf(g, "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0.0, "
	    "\"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"thread %d "
	    "(pt_autograd_0)\"}}", g->pid, g->tid_bwd, g->tid_bwd);
	kg_begin(g);
	kg_printf(g, "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0.0, "
	    "\"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"stream %d \"}}",
	    g->device, KG_STREAM, KG_STREAM);
	g->st->metadata += 7;
	if (o->world > 1) {
		kg_begin(g);
		kg_printf(g, "{\"name\": \"thread_name\", \"ph\": \"M\", "
		    "\"ts\": 0.0, \"pid\": %d, \"tid\": %d, \"args\": "
		    "{\"name\": \"stream %d \"}}", g->device, KG_NCCL_STREAM,
		    KG_NCCL_STREAM);
		g->st->metadata++;
	}
}

static int
kg_is_kgen(const char *path)
{
	struct zfile	*zf;
	char		 buf[512], *cause = NULL;
	ssize_t		 n;

	if ((zf = zfile_open(path, &cause)) == NULL) {
		free(cause);
		return 0;
	}
	n = zfile_read(zf, buf, sizeof buf - 1, &cause);
	free(cause);
	zfile_close(zf);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "\"generator\": \"" KGEN_GENERATOR "\"") != NULL ||
	    strstr(buf, "\"generator\":\"" KGEN_GENERATOR "\"") != NULL;
}

void
kgen_opts_default(struct kgen_opts *o)
{
	memset(o, 0, sizeof *o);
	o->events = 100000;
	o->rank = 0;
	o->world = 1;
	o->straggler = -1;
	o->slowdown = 1.3;
	o->seed = 1;
	o->gzip = 0;
}

int
kgen_write(const char *path, const struct kgen_opts *o,
    struct kgen_stats *stats, char **cause)
{
	struct kg		 g;
	struct kgen_stats	 local;
	struct stat		 sb;
	char			*tmp = NULL, mode[16];
	uint64_t		 per;
	int64_t			 last;
	int			 it, rk, fd = -1;

	if (o->world < 1 || o->world > KGEN_MAX_WORLD || o->rank < 0 ||
	    o->rank >= o->world || o->straggler >= o->world ||
	    o->slowdown < 1.0 || o->slowdown > 10.0 || o->events == 0 ||
	    o->events > KG_MAX_EVENTS || o->gzip < 0 || o->gzip > 9 ||
	    o->clock_back_ns < 0 ||
	    o->clock_back_ns > KGEN_MAX_CLOCK_BACK_NS) {
		*cause = xasprintf("kgen: bad options (events 1..%llu, rank "
		    "< world <= %d, straggler < world, slowdown 1..10, gzip "
		    "0..9)", (unsigned long long)KG_MAX_EVENTS,
		    KGEN_MAX_WORLD);
		return -1;
	}
	if (stat(path, &sb) == 0 && !o->force && sb.st_size > 0 &&
	    !kg_is_kgen(path)) {
		*cause = xasprintf("%s: exists and is not a kgen trace (not "
		    "replaced)", path);
		return -1;
	}

	memset(&g, 0, sizeof g);
	if (stats == NULL)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	if (o->chrome || (o->merged && o->world > 1))
		return kgen_forms_write(path, o, stats, cause);
	g.o = o;
	g.st = stats;
	/* Iterations and layers from the event count. */
	g.iters = o->events >= 400000 ? 20 : o->events >= 20000 ?
	    (int)(o->events / 20000) : 2;
	if (g.iters < 2)
		g.iters = 2;
	per = o->events / (uint64_t)g.iters;
	g.layers = per > KG_FIXED + KG_PER_LAYER ? (int)((per - KG_FIXED -
	    (o->world > 1 ? KG_NCCL_EVENTS : 0)) / KG_PER_LAYER) : 1;
	if (g.layers < 1)
		g.layers = 1;
	g.pid = 4000 + o->rank;
	g.tid_main = g.pid;
	g.tid_bwd = g.pid + 100;
	g.device = o->rank % 8;
	g.r = xcalloc((size_t)o->world, sizeof *g.r);
	g.buf = xmalloc(KG_BUF);
	stats->iterations = g.iters;
	stats->layers = g.layers;

	if ((fd = synth_tmpfile(path, &tmp)) == -1) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (o->gzip > 0) {
		snprintf(mode, sizeof mode, "wb%d", o->gzip);
		if ((g.gz = gzdopen(fd, mode)) == NULL) {
			*cause = xasprintf("%s: cannot start gzip", tmp);
			goto fail;
		}
		fd = -1;	/* gzclose closes it */
		gzbuffer(g.gz, 1u << 20);
	} else
		g.fd = fd;

	kg_header(&g);
	for (it = 0; it < g.iters; it++) {
		last = INT64_MIN;
		for (rk = 0; rk < o->world; rk++) {
			kg_phase_a(&g, rk, rk == o->rank, it);
			if (g.r[rk].arrive > last)
				last = g.r[rk].arrive;
		}
		for (rk = 0; rk < o->world; rk++)
			kg_phase_b(&g, rk, rk == o->rank, it, last);
	}
	kg_printf(&g, "\n  ],\n  \"traceName\": \"%s\"\n}\n", KGEN_GENERATOR);
	kg_flush(&g);
	if (g.gz != NULL) {
		if (gzclose(g.gz) != Z_OK && g.ioerr == 0)
			g.ioerr = EIO;
		g.gz = NULL;
	} else {
		if (fsync(fd) != 0 && g.ioerr == 0)
			g.ioerr = errno;
		if (close(fd) != 0 && g.ioerr == 0)
			g.ioerr = errno;
		fd = -1;
	}
	if (g.ioerr != 0) {
		*cause = xasprintf("%s: write error: %s", path,
		    strerror(g.ioerr));
		goto fail;
	}
	if (rename(tmp, path) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	free(tmp);
	free(g.buf);
	free(g.r);
	return 0;

fail:
	if (g.gz != NULL)
		gzclose(g.gz);
	if (fd != -1)
		close(fd);
	if (tmp != NULL)
		unlink(tmp);
	free(tmp);
	free(g.buf);
	free(g.r);
	return -1;
}
