/*
 * gen-step: one training iteration of a rank (an NVTX ProfilerStep): data
 * loading, forward, loss, backward by DDP buckets, optimizer, loss.item().
 */

#include "config.h"

#include "sources/synth/gen-int.h"

/* One NVTX range name (arg -1) on thread th around the kernels ks. */
static void
gen_step_block(struct gen *g, struct rank *r, int th, int name,
    const int *ks, size_t n)
{
	size_t	i;

	gen_nvtx_push(r, th, name, -1);
	for (i = 0; i < n; i++)
		gen_kernel_launch(g, r, th, ks[i]);
	gen_nvtx_pop(g, r, th);
}

void
gen_step_layer_fwd(struct gen *g, struct rank *r, int l)
{
	static const int	attn[] = { K_LN, K_QKV, K_FLASH_FWD, K_OUT,
	    K_ADD };
	static const int	mlp[] = { K_LN, K_FC1, K_GELU, K_FC2, K_ADD };

	gen_nvtx_push(r, TH_MAIN, NV_LAYER, l);
	gen_step_block(g, r, TH_MAIN, NV_ATTN, attn, sizeof attn / sizeof *attn);
	gen_step_block(g, r, TH_MAIN, NV_MLP, mlp, sizeof mlp / sizeof *mlp);
	gen_nvtx_pop(g, r, TH_MAIN);
}

void
gen_step_layer_bwd(struct gen *g, struct rank *r, int l)
{
	static const int	mlp[] = { K_DGRAD_A, K_WGRAD_A, K_GELU_BWD,
	    K_DGRAD_B, K_WGRAD_B, K_LN_BWD, K_LN_GB, K_ACC };
	static const int	attn[] = { K_DGRAD_B, K_WGRAD_B, K_FLASH_DOT,
	    K_FLASH_BWD, K_FLASH_CVT, K_DGRAD_A, K_WGRAD_A, K_LN_BWD, K_LN_GB,
	    K_ACC };

	gen_nvtx_push(r, TH_AUTOGRAD, NV_LAYER_BWD, l);
	gen_step_block(g, r, TH_AUTOGRAD, NV_MLP, mlp,
	    sizeof mlp / sizeof *mlp);
	gen_step_block(g, r, TH_AUTOGRAD, NV_ATTN, attn,
	    sizeof attn / sizeof *attn);
	gen_nvtx_pop(g, r, TH_AUTOGRAD);
}

/* From the start of iteration it to the first all-reduce. */
void
gen_step_head(struct gen *g, struct rank *r, int it)
{
	static const int	loss[] = { K_LN, K_LMHEAD, K_SOFTMAX, K_NLL,
	    K_MEAN };
	static const int	loss_bwd[] = { K_NLL_BWD, K_SOFTMAX_BWD,
	    K_DGRAD_A, K_WGRAD_B, K_LN_BWD, K_LN_GB };
	size_t			i;
	int			l;

	gen_nvtx_push(r, TH_MAIN, NV_STEP, it);
	gen_nvtx_push(r, TH_MAIN, NV_DATA, -1);
	if (g->o.clean)				/* the batch is prefetched */
		r->cpu += 40 * US + gen_rng_exp(&r->rng, 20 * US);
	else {
		r->cpu += 1200 * US + gen_rng_exp(&r->rng, 800 * US);
		if (gen_rng_unit(&r->rng) < 0.03)	/* data loader stall */
			r->cpu += 15 * MS + gen_rng_exp(&r->rng, 20 * MS);
	}
	gen_mem_copy(g, r, TH_MAIN, CK_HTOD, MK_PINNED, MK_DEVICE, 16ULL << 20,
	    S_COMPUTE, -1);
	gen_mem_set_async(g, r, TH_MAIN, 4);
	if (g->nranks > 1)
		gen_mem_copy(g, r, TH_MAIN, CK_PTOP, MK_DEVICE, MK_DEVICE,
		    8ULL << 20, S_COPY, (int)(RI(g, r) + 1) % g->nranks);
	if (gen_plant_on(g, GEN_PLANT_PAGEABLE))
		gen_mem_copy(g, r, TH_MAIN, CK_HTOD, MK_PAGEABLE, MK_DEVICE,
		    (uint64_t)g->layers * (12ULL << 20), S_COMPUTE, -1);
	if (gen_plant_on(g, GEN_PLANT_MEMCPY_SYNC))
		gen_mem_copy_as(g, r, TH_MAIN, A_MEMCPY_SYNC, CK_HTOD,
		    MK_PINNED, MK_DEVICE, (uint64_t)g->layers * (24ULL << 20),
		    S_COMPUTE, -1);
	if (gen_plant_on(g, GEN_PLANT_MEMSET_SYNC))
		gen_mem_set(g, r, TH_MAIN, (uint64_t)g->layers << 30, 1);
	gen_nvtx_pop(g, r, TH_MAIN);

	gen_nvtx_push(r, TH_MAIN, NV_FORWARD, -1);
	gen_kernel_launch(g, r, TH_MAIN, K_EMBED);
	for (l = 0; l < g->layers; l++) {
		gen_step_layer_fwd(g, r, l);
		if (gen_plant_on(g, GEN_PLANT_SYNC))
			gen_plant_sync_stall(g, r);
		if (gen_plant_on(g, GEN_PLANT_BUBBLE) && l == g->layers / 2) {
			gen_nvtx_push(r, TH_MAIN, NV_STALL, -1);
			r->cpu += (int64_t)g->layers * 2500 * US;
			gen_nvtx_pop(g, r, TH_MAIN);
		}
	}
	gen_nvtx_push(r, TH_MAIN, NV_LOSS, -1);
	for (i = 0; i < sizeof loss / sizeof loss[0]; i++)
		gen_kernel_launch(g, r, TH_MAIN, loss[i]);
	gen_nvtx_pop(g, r, TH_MAIN);
	gen_nvtx_pop(g, r, TH_MAIN);

	gen_nvtx_push(r, TH_MAIN, NV_BACKWARD, -1);
	for (i = 0; i < sizeof loss_bwd / sizeof loss_bwd[0]; i++)
		gen_kernel_launch(g, r, TH_AUTOGRAD, loss_bwd[i]);
	gen_comm_bucket(g, r, 0);
}

/* After the last all-reduce: optimizer, loss.item(), end of iteration. */
void
gen_step_tail(struct gen *g, struct rank *r, int it)
{
	int	i;

	/* The optimizer waits for the gradients; clean: it is overlapped
	 * with the last all-reduce (per-bucket optimizer hooks). */
	if (g->nranks > 1 && (!g->o.clean || gen_plant_on(g, GEN_PLANT_COMM)))
		gen_sync_wait(g, r, TH_AUTOGRAD, S_COMPUTE, S_NCCL);
	gen_nvtx_pop(g, r, TH_MAIN);			/* backward */

	gen_nvtx_push(r, TH_MAIN, NV_OPT, -1);
	if (gen_plant_on(g, GEN_PLANT_GRAPH | GEN_PLANT_GRAPH_WHOLE)) {
		int	ks[2 + GEN_MAX_LAYERS / 8];

		ks[0] = K_SCALE;
		for (i = 0; i < 1 + g->layers / 8; i++)
			ks[1 + i] = K_ADAM;
		gen_kernel_graph(g, r, TH_MAIN, ks, 2 + g->layers / 8);
	} else {
		gen_kernel_launch(g, r, TH_MAIN, K_SCALE);
		for (i = 0; i < 1 + g->layers / 8; i++)
			gen_kernel_launch(g, r, TH_MAIN, K_ADAM);
	}
	if (it == g->niters - 1) {
		for (i = 0; i < r->extra; i++)
			gen_kernel_launch(g, r, TH_MAIN, K_FILL);
		if (g->odd && RI(g, r) == 0) {
			gen_api_quick(g, r, TH_MAIN, A_IS_CAPTURING);
			gen_api_gap(r);
		}
	}
	gen_nvtx_pop(g, r, TH_MAIN);

	gen_mem_copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 4, S_COMPUTE,
	    -1);
	gen_sync_stream(g, r, TH_MAIN, S_COMPUTE);
	if (gen_plant_on(g, GEN_PLANT_LAUNCH))
		gen_plant_tiny_loop(g, r);
	if (it % 10 == 9) {
		gen_nvtx_push(r, TH_MAIN, NV_LOG, -1);
		gen_sync_device(g, r, TH_MAIN);
		gen_nvtx_pop(g, r, TH_MAIN);
	}
	gen_nvtx_pop(g, r, TH_MAIN);			/* ProfilerStep */
	gen_api_gap(r);
}
