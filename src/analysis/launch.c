/*
 * launch: the launch groups and their statistics (launch.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/launch.h"
#include "analysis/launch-times.h"
#include "util/pool.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* The statistics of the groups, computed on every thread. */
struct launch_rows {
	struct launch_ctx	*c;
	struct launch_scratch	 sc[POOL_MAX];	/* per thread of launch_job() */
	struct stats		*st;		/* per group, LT_COUNT each */
	size_t			*big;		/* the groups, largest first */
};

/* The kernels of group g, both walkers'. */
static size_t
launch_size(const struct launch_group *g)
{
	return g->s[LS_DELAY].n + (g->x != NULL ? g->x->s[LS_DELAY].n : 0);
}

/* Orders group indices by their size, largest first. */
static int
launch_size_cmp(const void *a, const void *b, void *ctx)
{
	const struct launch_group	*g = ctx;
	size_t				 x = launch_size(&g[*(const size_t *)a]);
	size_t				 y = launch_size(&g[*(const size_t *)b]);

	return x > y ? -1 : x < y;
}

/* Orders group indices by their first kernel. */
static int
launch_first_cmp(const void *a, const void *b, void *ctx)
{
	const struct launch_group	*g = ctx;
	uint32_t			 x = g[*(const size_t *)a].first;
	uint32_t			 y = g[*(const size_t *)b].first;

	return x < y ? -1 : x > y;
}

/* The statistics of the times of the group job-th in size, on thread tid
 * (pool.h). */
static int
launch_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct launch_rows	*rs = arg;
	size_t			 gi = rs->big[job];
	struct launch_group	*g = &rs->c->g[gi];
	int			 j;

	(void)cause;
	launch_times(&rs->sc[tid], g, &rs->st[gi * LT_COUNT]);
	/* The samples are done with: freed here, on every thread. */
	g->n = (int64_t)g->s[LS_KERNEL].n;
	for (j = 0; j < LS_COUNT; j++)
		stats_sample_free(&g->s[j]);
	if (g->x != NULL) {
		g->n += (int64_t)g->x->s[LS_KERNEL].n;
		for (j = 0; j < LS_COUNT; j++)
			stats_sample_free(&g->x->s[j]);
	}
	return 0;
}

void
launch_build(const struct model *m, const int *axes, int naxes,
    const struct launch_sel *sel, struct launch_result *r)
{
	struct launch_rows	*rs = xcalloc(1, sizeof *rs);
	struct launch_ctx	*c = &r->c;
	size_t			 gi, k;

	memset(r, 0, sizeof *r);
	launch_walk_init(c, m, axes, naxes, sel);
	launch_walk(c, &r->c2);
	c->sel = r->c2.sel = NULL;	/* the caller's, done with */
	r->ng = c->map.ng;
	r->nsel = c->nsel;
	r->unlinked = c->unlinked;
	r->replayed = c->replayed;
	r->order = xreallocarray(NULL, r->ng + 1, sizeof *r->order);
	for (gi = 0; gi < r->ng; gi++)
		r->order[gi] = gi;
	sort_stable(r->order, r->ng, sizeof *r->order, launch_first_cmp,
	    c->g);
	/* The groups' statistics are independent: on every thread, the
	 * largest groups first, so that the threads end together. */
	rs->c = c;
	rs->st = r->st = xreallocarray(NULL, r->ng + 1, LT_COUNT *
	    sizeof *r->st);
	rs->big = xreallocarray(NULL, r->ng + 1, sizeof *rs->big);
	memcpy(rs->big, r->order, r->ng * sizeof *r->order);
	sort_stable(rs->big, r->ng, sizeof *rs->big, launch_size_cmp, c->g);
	(void)pool_run(r->ng, pool_sweep_threads(), launch_job, rs, NULL);
	for (k = 0; k < POOL_MAX; k++)
		launch_times_free(&rs->sc[k]);
	free(rs->big);
	free(rs);
}

void
launch_free(struct launch_result *r)
{
	launch_walk_free(&r->c);
	launch_walk_free(&r->c2);
	free(r->st);
	free(r->order);
	memset(r, 0, sizeof *r);
}
