/*
 * gen-train: the whole run. To hit the requested event count, a first pass
 * runs the same simulation without writing anything and counts: the number
 * of iterations is the most that fit, and the remainder is made up by extra
 * kernel launches (and one extra API call) in the last iteration's optimizer
 * step. The event counts of an iteration depend only on its index, never on
 * random draws.
 */

#include "config.h"

#include <string.h>

#include "sources/synth/gen-int.h"
#include "util/progress.h"

static void
init_a(struct gen *g, struct rank *r)
{
	int	i;

	r->cpu = SESSION_START + 1200 * MS + r->proc * 7 * MS +
	    r->local * 40 * MS + gen_rng_exp(&r->rng, 20 * MS);
	gen_nvtx_push(r, TH_MAIN, NV_INIT, -1);
	for (i = 0; i < 4; i++)
		gen_mem_copy(g, r, TH_MAIN, CK_HTOD, g->o.clean ? MK_PINNED :
		    MK_PAGEABLE, MK_DEVICE, 64ULL << 20, S_COMPUTE, -1);
	if (g->nranks > 1) {
		if (r->local == 0)
			gen_nvtx_domain_create(g, r);
		gen_nvtx_push(r, TH_MAIN, NV_COMM_INIT, -1);
		r->cpu += 80 * MS + gen_rng_exp(&r->rng, 40 * MS);
		gen_nvtx_pop(g, r, TH_MAIN);
		gen_comm_launch(g, r, TH_MAIN, K_BROADCAST, NV_BROADCAST);
	}
}

static void
init_b(struct gen *g, struct rank *r)
{
	gen_sync_device(g, r, TH_MAIN);
	gen_nvtx_pop(g, r, TH_MAIN);
	gen_api_gap(r);
}

static void
checkpoint(struct gen *g, struct rank *r)
{
	gen_nvtx_push(r, TH_MAIN, NV_CKPT, -1);
	gen_sync_device(g, r, TH_MAIN);
	gen_mem_copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 32ULL << 20,
	    S_COMPUTE, -1);
	gen_mem_copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 32ULL << 20,
	    S_COMPUTE, -1);
	gen_sync_stream(g, r, TH_MAIN, S_COMPUTE);
	gen_nvtx_pop(g, r, TH_MAIN);
}

/* Back to time zero, same seed: the same simulation again. */
static void
reset(struct gen *g)
{
	struct rank	*r;
	int		 i, th;

	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		gen_rng_seed(&r->rng, g->o.seed, 1 + (uint64_t)i);
		r->speed = 1.0 + 0.015 * gen_rng_gauss(&r->rng);
		if (g->o.clean)		/* equal GPUs */
			r->speed = 1.0;
		r->cpu = 0;
		memset(r->gpu, 0, sizeof r->gpu);
		for (th = 0; th < TH_COUNT; th++)
			r->depth[th] = 0;
		r->coll_k = -1;
		r->grid_id = r->event_id = r->sync_id = 0;
	}
	for (i = 0; i < g->nprocs; i++)
		g->procs[i].corr = 0;
	gen_rng_seed(&g->rng, g->o.seed, 0);
	g->count = g->seq = 0;
	memset(g->rows, 0, sizeof g->rows);
	g->first = INT64_MAX;
	g->last = INT64_MIN;
	g->train0 = INT64_MAX;
	g->train1 = INT64_MIN;
}

static void
prologue(struct gen *g)
{
	int	i;

	for (i = 0; i < g->nranks; i++)
		init_a(g, &g->ranks[i]);
	gen_comm_resolve(g, 256ULL << 20);
	gen_queue_flush_point(g);
	for (i = 0; i < g->nranks; i++)
		init_b(g, &g->ranks[i]);
	gen_queue_flush_point(g);
	if (gen_plant_on(g, GEN_PLANT_WARMUP)) {
		for (i = 0; i < g->nranks; i++)
			gen_plant_warmup(g, &g->ranks[i]);
		gen_queue_flush_point(g);
	}
}

static void
iteration(struct gen *g, int it)
{
	int	i, b;

	/* Plant gap: the host stalls once, halfway (a blocking save). */
	if (gen_plant_on(g, GEN_PLANT_GAP) && it == g->niters / 2)
		for (i = 0; i < g->nranks; i++)
			g->ranks[i].cpu += 600 * MS;
	for (i = 0; i < g->nranks; i++)
		gen_step_head(g, &g->ranks[i], it);
	gen_comm_resolve(g, gen_comm_bucket_bytes(g, 0));
	gen_queue_flush_point(g);
	for (b = 1; b < g->nbuckets; b++) {
		for (i = 0; i < g->nranks; i++)
			gen_comm_bucket(g, &g->ranks[i], b);
		gen_comm_resolve(g, gen_comm_bucket_bytes(g, b));
		gen_queue_flush_point(g);
	}
	/* Plant comm: one more all-reduce, alone on the GPUs. */
	if (gen_plant_on(g, GEN_PLANT_COMM) && g->nranks > 1) {
		for (i = 0; i < g->nranks; i++)
			gen_comm_launch(g, &g->ranks[i], TH_AUTOGRAD,
			    K_ALLREDUCE, NV_ALLREDUCE);
		gen_comm_resolve(g, (uint64_t)g->layers * (100ULL << 20));
		gen_queue_flush_point(g);
	}
	for (i = 0; i < g->nranks; i++)
		gen_step_tail(g, &g->ranks[i], it);
	gen_queue_flush_point(g);
}

static void
epilogue(struct gen *g)
{
	int	i;

	for (i = 0; i < g->nranks; i++) {
		if (gen_plant_on(g, GEN_PLANT_TEARDOWN))
			gen_plant_evaluate(g, &g->ranks[i], NV_EVAL, 8);
		checkpoint(g, &g->ranks[i]);
	}
	gen_queue_flush_point(g);
}

/*
 * Counting pass: how many iterations fit in the event budget, and how many
 * filler launches make up the rest.
 */
void
gen_train_plan(struct gen *g)
{
	uint64_t	want = g->o.events, pro, epi, done = 0, rem, per;
	int		n, i;

	g->count_only = 1;
	g->odd = 0;
	for (i = 0; i < g->nranks; i++)
		g->ranks[i].extra = 0;
	g->niters = -1;				/* no iteration is the last */

	reset(g);
	prologue(g);
	pro = g->count;
	epilogue(g);
	epi = g->count - pro;

	reset(g);
	prologue(g);
	n = 0;
	for (;;) {
		iteration(g, n);
		if (n > 0 && g->count + epi > want)
			break;
		n++;
		done = g->count;
		if (done + epi >= want)
			break;
	}
	g->niters = n;

	rem = (want > done + epi) ? want - done - epi : 0;
	per = rem / (2 * (uint64_t)g->nranks);
	for (i = 0; i < g->nranks; i++) {
		g->ranks[i].extra = (int)per +
		    ((uint64_t)i < (rem % (2 * (uint64_t)g->nranks)) / 2);
	}
	g->odd = (int)(rem & 1);
	g->count_only = 0;
}

void
gen_train_run(struct gen *g)
{
	int	it;

	progress_phase(g->o.progress, "generate", g->o.events);
	reset(g);
	prologue(g);
	for (it = 0; it < g->niters && !g->failed; it++)
		iteration(g, it);
	epilogue(g);
	gen_queue_flush(g, INT64_MAX, INT64_MAX);
}
