/*
 * gen-plant: the planted problems and phases (gen.h): their names, and the
 * work that the ones not built into the iteration add.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/synth/gen.h"
#include "sources/synth/gen-int.h"
#include "util/nametab.h"
#include "util/xmalloc.h"

/* Whether any of plants p is asked for. */
int
gen_plant_on(const struct gen *g, unsigned p)
{
	return ((g->o.plant & p) != 0);
}

/* Plant sync: the host reads a value back after a layer, then works. */
void
gen_plant_sync_stall(struct gen *g, struct rank *r)
{
	gen_sync_stream(g, r, TH_MAIN, S_COMPUTE);
	gen_nvtx_push(r, TH_MAIN, NV_STALL, -1);
	r->cpu += 600 * US;
	gen_nvtx_pop(g, r, TH_MAIN);
}

/* Plant launch: a Python loop of tiny kernels (per-tensor metrics). */
void
gen_plant_tiny_loop(struct gen *g, struct rank *r)
{
	int	i, n = 30 * g->layers;

	gen_nvtx_push(r, TH_MAIN, NV_METRICS, -1);
	for (i = 0; i < n; i++) {
		gen_kernel_launch(g, r, TH_MAIN, K_TINY);
		r->cpu += 8 * US;		/* the loop's Python */
	}
	gen_nvtx_pop(g, r, TH_MAIN);
}

/* A forward pass without backward (evaluation), then loss.item(). */
static void
forward_only(struct gen *g, struct rank *r)
{
	int	l;

	gen_kernel_launch(g, r, TH_MAIN, K_EMBED);
	for (l = 0; l < g->layers; l++)
		gen_step_layer_fwd(g, r, l);
	gen_kernel_launch(g, r, TH_MAIN, K_LN);
	gen_kernel_launch(g, r, TH_MAIN, K_LMHEAD);
	gen_mem_copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 4, S_COMPUTE,
	    -1);
	gen_sync_stream(g, r, TH_MAIN, S_COMPUTE);
}

/* Plant warmup: autotuning candidates, timed one group at a time. */
void
gen_plant_warmup(struct gen *g, struct rank *r)
{
	int	i, n = 30 * g->layers;

	gen_nvtx_push(r, TH_MAIN, NV_AUTOTUNE, -1);
	for (i = 0; i < n; i++) {
		gen_kernel_launch(g, r, TH_MAIN, K_TUNE0 + i % 3);
		if (i % 8 == 7)
			gen_sync_stream(g, r, TH_MAIN, S_COMPUTE);
	}
	gen_sync_stream(g, r, TH_MAIN, S_COMPUTE);
	gen_nvtx_pop(g, r, TH_MAIN);
	gen_api_gap(r);
}

/* Forward-only passes in an NVTX range (plants teardown, imbalance). */
void
gen_plant_evaluate(struct gen *g, struct rank *r, int name, int passes)
{
	int	i;

	gen_nvtx_push(r, TH_MAIN, name, -1);
	for (i = 0; i < passes; i++)
		forward_only(g, r);
	gen_nvtx_pop(g, r, TH_MAIN);
	gen_api_gap(r);
}

static const char *const gen_plant_names[GEN_PLANT_COUNT] = {
#define X(e, n, h) n,
	GEN_PLANT_LIST(X)
#undef X
};
static const char *const gen_plant_helps[GEN_PLANT_COUNT] = {
#define X(e, n, h) h,
	GEN_PLANT_LIST(X)
#undef X
};

const char *
gen_plant_name(int b)
{
	return (NAMETAB(gen_plant_names, b, NULL));
}

const char *
gen_plant_help(int b)
{
	return (NAMETAB(gen_plant_helps, b, NULL));
}

int
gen_plant_parse(const char *list, unsigned *out, char **cause)
{
	char	*copy, *w, *save = NULL;
	int	 b;

	*out = 0;
	copy = xstrdup(list);
	for (w = strtok_r(copy, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save)) {
		if (strcmp(w, "all") == 0) {
			*out |= (unsigned)GEN_PLANT_ALL;
			continue;
		}
		if (strcmp(w, "none") == 0)
			continue;
		if ((b = NAMETAB_FIND(gen_plant_names, w)) < 0) {
			*cause = xasprintf("unknown plant '%s'", w);
			free(copy);
			return (-1);
		}
		*out |= 1u << b;
	}
	free(copy);
	return (0);
}
