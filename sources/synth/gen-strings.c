/*
 * gen-strings: the StringIds table: kernel, API and NVTX domain names
 * interned once, thread names as the process tables add them.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/synth/gen-int.h"
#include "util/xmalloc.h"

/* StringIds: the ids of a handful of static strings, deduplicated. */
uint32_t
gen_strings_intern(struct gen *g, const char *s)
{
	size_t	i;

	for (i = 0; i < g->nstrs; i++) {
		if (strcmp(g->strs[i], s) == 0)
			return ((uint32_t)i);
	}
	XGROW(g->strs, g->strcap, g->nstrs + 1);
	g->strs[g->nstrs] = xstrdup(s);
	return ((uint32_t)g->nstrs++);
}

void
gen_strings_intern_all(struct gen *g)
{
	const struct kdef	*d;
	char			*s;
	int			 i;

	for (i = 0; i < K_COUNT; i++) {
		d = &gen_kernel_defs[i];
		if (i >= K_FIRST_PLANT && g->o.plant == 0) {
			/* Unused: the default trace's strings stay as they
			 * were before plants existed. */
			g->ksid[i][0] = g->ksid[i][1] = g->ksid[i][2] =
			    UINT32_MAX;
			continue;
		}
		g->ksid[i][0] = gen_strings_intern(g, d->name);
		g->ksid[i][1] = gen_strings_intern(g,
		    d->demangled != NULL ? d->demangled : d->name);
		if (d->comm) {
			s = xasprintf("_Z%zu%s24ncclDevKernelArgsStorage"
			    "ILm4096EE", strlen(d->name), d->name);
			g->ksid[i][2] = gen_strings_intern(g, s);
			free(s);
		} else if (d->mangled == NULL)
			g->ksid[i][2] = UINT32_MAX;
		else
			g->ksid[i][2] = gen_strings_intern(g,
			    *d->mangled ? d->mangled : d->name);
	}
	for (i = 0; i < A_COUNT; i++)
		g->asid[i] = (i >= A_FIRST_PLANT && g->o.plant == 0) ||
		    (i == A_GRAPH_LAUNCH && !gen_plant_on(g, GEN_PLANT_GRAPH |
		    GEN_PLANT_GRAPH_WHOLE)) ?
		    UINT32_MAX : gen_strings_intern(g, gen_api_defs[i].name);
	for (i = NV_FIRST_NCCL; i < NV_COUNT; i++)
		g->nsid[i] = gen_strings_intern(g, gen_nvtx_names[i]);
}

void
gen_strings_write(struct gen *g)
{
	sqlite3_stmt	*st;
	size_t		 i;

	st = gen_sql_prep(g, "INSERT INTO StringIds VALUES (?, ?)");
	for (i = 0; i < g->nstrs; i++)
		gen_sql_put(g, st, "ds", (int)i, g->strs[i]);
	gen_sql_finish(st);
}
