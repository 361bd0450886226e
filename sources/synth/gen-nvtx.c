/*
 * gen-nvtx: NVTX push/pop ranges, per thread, and the NCCL domain's
 * creation.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/synth/gen-int.h"

const char *const gen_nvtx_names[NV_COUNT] = {
	"ProfilerStep#", "data_load", "forward", "layers.", "attention",
	"mlp", "loss", "backward", "layers.", "optimizer_step",
	"log", "init", "checkpoint",
	"autotune", "evaluation", "metrics", "host_work",
	"ncclAllReduce", "ncclBroadcast", "ncclCommInitRank", "NCCL"
};
/* Ranges with a number: name, number, suffix. */
const char *const gen_nvtx_suffix[NV_COUNT] = {
	[NV_LAYER_BWD] = ".backward"
};

void
gen_nvtx_push(struct rank *r, int th, int name, int arg)
{
	struct nvrange	*nr;

	if (r->depth[th] == NVTX_DEPTH)
		abort();			/* programming error */
	nr = &r->stk[th][r->depth[th]++];
	nr->start = r->cpu;
	nr->name = (uint8_t)name;
	nr->arg = arg;
	r->cpu += 300 + gen_rng_exp(&r->rng, 200);
}

void
gen_nvtx_pop(struct gen *g, struct rank *r, int th)
{
	struct nvrange	*nr;
	struct row	 rw;

	if (r->depth[th] == 0)
		abort();			/* programming error */
	nr = &r->stk[th][--r->depth[th]];
	gen_row_init(&rw, g, r, nr->start, r->cpu, 0);
	rw.u.n.name = nr->name;
	rw.u.n.arg = nr->arg;
	rw.u.n.th = (uint8_t)th;
	gen_queue_emit(g, T_NVTX, &rw, 1);
	if (nr->name == NV_STEP) {
		g->train0 = min64(g->train0, rw.start);
		g->train1 = max64(g->train1, rw.end);
	}
	r->cpu += 200 + gen_rng_exp(&r->rng, 200);
}

/* The NvtxDomainCreate row of the NCCL domain (not counted as an event). */
void
gen_nvtx_domain_create(struct gen *g, struct rank *r)
{
	struct row	rw;

	memset(&rw, 0, sizeof rw);
	rw.start = rw.end = r->cpu;
	rw.rank = RI(g, r);
	rw.u.n.name = NV_DOMAIN_CREATE;
	rw.u.n.th = TH_MAIN;
	gen_queue_emit(g, T_NVTX, &rw, 0);
	r->cpu += 2 * US;
}
