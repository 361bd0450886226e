/*
 * gen-comm: NCCL collectives and DDP gradient buckets. Ranks are coupled only
 * through collectives: every rank launches its part, then the collective is
 * resolved (it ends a transfer time after the last rank arrives, so early
 * ranks' NCCL kernels wait for the straggler).
 */

#include "config.h"

#include "sources/synth/gen-int.h"

/* Queues a collective; gen_comm_resolve() times it once every rank has. */
void
gen_comm_launch(struct gen *g, struct rank *r, int th, int k, int name)
{
	gen_nvtx_push(r, th, name, -1);
	gen_sync_wait(g, r, th, S_NCCL, S_COMPUTE);
	r->coll_corr = gen_api_quick(g, r, th, A_LAUNCH_EX);
	r->coll_k = k;
	r->coll_at = gen_api_gpu_start(r, S_NCCL);
	gen_nvtx_pop(g, r, th);
	gen_api_gap(r);
}

/* A collective ends a transfer time after the last rank arrives. */
void
gen_comm_resolve(struct gen *g, uint64_t bytes)
{
	struct rank	*r;
	double		 f, x;
	int64_t		 last = INT64_MIN, end;
	int		 i, k = -1;

	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		if (r->coll_k >= 0) {
			k = r->coll_k;
			last = max64(last, r->coll_at);
		}
	}
	if (k < 0)
		return;
	f = (k == K_ALLREDUCE) ? 2.0 * (g->nranks - 1) / g->nranks : 1.0;
	x = f * (double)bytes / 170.0 * (1.0 + 0.05 * gen_rng_gauss(&g->rng));
	end = last + 12 * US + (int64_t)(x > 0 ? x : 0);
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		if (r->coll_k < 0)
			continue;
		r->gpu[S_NCCL] = end + gen_rng_exp(&r->rng, 800);
		gen_kernel_row(g, r, r->coll_k, S_NCCL, r->coll_at,
		    r->gpu[S_NCCL], r->coll_corr);
		r->coll_k = -1;
	}
}

/*
 * DDP buckets: backward runs through units U-1 .. 0, unit u >= 1 being layer
 * u - 1 and unit 0 the embedding; bucket b holds the units [lo, hi).
 */
static void
bucket_range(struct gen *g, int b, int *lo, int *hi)
{
	int	u = g->layers + 1;

	*lo = u * (g->nbuckets - 1 - b) / g->nbuckets;
	*hi = u * (g->nbuckets - b) / g->nbuckets;
}

/* Gradient bytes of bucket b (bf16, about 100 MiB a layer). */
uint64_t
gen_comm_bucket_bytes(struct gen *g, int b)
{
	int	lo, hi;

	bucket_range(g, b, &lo, &hi);
	if (g->o.clean)		/* compressed gradients: short all-reduces */
		return ((uint64_t)(hi - lo) * (25ULL << 20) +
		    (lo == 0 ? (39ULL << 20) : 0));
	return ((uint64_t)(hi - lo) * (100ULL << 20) +
	    (lo == 0 ? (156ULL << 20) : 0));
}

/* Backward through DDP bucket b, then its all-reduce. */
void
gen_comm_bucket(struct gen *g, struct rank *r, int b)
{
	int	lo, hi, u;

	bucket_range(g, b, &lo, &hi);
	for (u = hi - 1; u >= lo; u--) {
		if (u > 0)
			gen_step_layer_bwd(g, r, u - 1);
		else
			gen_kernel_launch(g, r, TH_AUTOGRAD, K_EMBED_BWD);
	}
	if (g->nranks > 1 && !(g->o.plant & GEN_PLANT_IMBALANCE))
		gen_comm_launch(g, r, TH_AUTOGRAD, K_ALLREDUCE, NV_ALLREDUCE);
}
