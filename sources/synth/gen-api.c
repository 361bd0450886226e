/*
 * gen-api: CUDA API calls. Every simulation function acts on one rank and
 * moves its cursors forward; an API call occupies the CPU from the cursor
 * on, and the GPU work it queues starts after it returns.
 */

#include "config.h"

#include <string.h>

#include "sources/synth/gen-int.h"

/* CUDA API calls, with their ENUM_NSYS_EVENT_CLASS (0 runtime, 1 driver). */
const struct gen_api_def gen_api_defs[A_COUNT] = {
	{ "cudaLaunchKernel_v7000",		0, 3500, 2500 },
	{ "cuLaunchKernelEx",			1, 5000, 3000 },
	{ "cudaMemcpyAsync_v3020",		0, 5500, 3000 },
	{ "cudaMemcpyPeerAsync_v4000",		0, 7000, 3000 },
	{ "cudaMemsetAsync_v3020",		0, 4500, 2000 },
	{ "cudaEventRecord_v3020",		0, 1800, 800 },
	{ "cudaStreamWaitEvent_v3020",		0, 1800, 900 },
	{ "cudaStreamSynchronize_v3020",	0, 1500, 1000 },
	{ "cudaDeviceSynchronize_v3020",	0, 2000, 1000 },
	{ "cudaStreamIsCapturing_v10000",	0, 450, 300 },
	{ "cudaMemcpy_v3020",			0, 5500, 3000 },
	{ "cudaMemset_v3020",			0, 4500, 2000 },
	{ "cudaGraphLaunch_v10000",		0, 6000, 2500 },
};

int64_t
gen_api_dur(struct rank *r, int a)
{
	return (gen_api_defs[a].base + gen_rng_exp(&r->rng,
	    gen_api_defs[a].mean));
}

/* Python time between two CUDA calls; rarely a long pause (GC, logging). */
void
gen_api_gap(struct rank *r)
{
	r->cpu += 4 * US + gen_rng_exp(&r->rng, 9 * US);
	if (gen_rng_unit(&r->rng) < 0.002)
		r->cpu += 1 * MS + gen_rng_exp(&r->rng, 3 * MS);
}

/* An API call on thread th from the CPU cursor to end, which becomes the
 * cursor. Returns its correlation id. */
uint32_t
gen_api_call(struct gen *g, struct rank *r, int th, int a, int64_t end)
{
	struct row	rw;

	gen_row_init(&rw, g, r, r->cpu, end, ++g->procs[r->proc].corr);
	rw.u.a.api = (uint8_t)a;
	rw.u.a.th = (uint8_t)th;
	gen_queue_emit(g, T_RUNTIME, &rw, 1);
	r->cpu = end;
	return (rw.corr);
}

uint32_t
gen_api_quick(struct gen *g, struct rank *r, int th, int a)
{
	return (gen_api_call(g, r, th, a, r->cpu + gen_api_dur(r, a)));
}

/* When work queued on stream s by the call that just returned starts. */
int64_t
gen_api_gpu_start(struct rank *r, int s)
{
	return (max64(r->cpu + 2 * US + gen_rng_exp(&r->rng, 3 * US),
	    r->gpu[s] + 1 * US + gen_rng_exp(&r->rng, 1 * US)));
}
