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

/*
 * A group larger than a thread's share of all the kernels (and of at
 * least this many) whose times may be computed one by one
 * (launch_times_split()) is four jobs, one per time: with few groups
 * (--group-by none is one) the threads then share even the largest
 * (at 1e8 events, --group-by none took 0.82 times as long). Smaller
 * groups stay whole: their times one by one read their samples no less,
 * and cost a little more.
 */
#define LAUNCH_SPLIT_MIN	((size_t)1 << 16)

/* The statistics of the groups, computed on every thread: job k is group
 * job[k][0]'s time job[k][1], or all its times (LT_COUNT). */
struct launch_rows {
	struct launch_ctx	*c;
	struct launch_scratch	 sc[POOL_MAX];	/* per thread of launch_job() */
	struct stats		*st;		/* per group, LT_COUNT each */
	size_t			(*job)[2];
	size_t			 njob;
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

/* Group g's kernels, and its samples (and g->x's) freed. */
static void
launch_done(struct launch_group *g)
{
	int	j;

	g->n = (int64_t)g->s[LS_KERNEL].n;
	for (j = 0; j < LS_COUNT; j++)
		stats_sample_free(&g->s[j]);
	if (g->x != NULL) {
		g->n += (int64_t)g->x->s[LS_KERNEL].n;
		for (j = 0; j < LS_COUNT; j++)
			stats_sample_free(&g->x->s[j]);
	}
}

/* Job job of rs (see struct launch_rows) on thread tid (pool.h). */
static int
launch_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct launch_rows	*rs = arg;
	size_t			 gi = rs->job[job][0], j = rs->job[job][1];
	struct launch_group	*g = &rs->c->g[gi];

	(void)cause;
	if (j < LT_COUNT) {
		launch_time_one(&rs->sc[tid], g, (int)j,
		    &rs->st[gi * LT_COUNT + j]);
		return 0;
	}
	launch_times(&rs->sc[tid], g, &rs->st[gi * LT_COUNT]);
	/* The samples are done with: freed here, on every thread. */
	launch_done(g);
	return 0;
}

void
launch_build(const struct model *m, const int *axes, int naxes,
    const struct launch_sel *sel, struct launch_result *r)
{
	struct launch_rows	*rs = xcalloc(1, sizeof *rs);
	struct launch_ctx	*c = &r->c;
	size_t			*big, gi, k, j, total = 0, nth;

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
	 * largest groups first, so that the threads end together; a large
	 * group is a job per time. */
	rs->c = c;
	rs->st = r->st = xreallocarray(NULL, r->ng + 1, LT_COUNT *
	    sizeof *r->st);
	big = xreallocarray(NULL, r->ng + 1, sizeof *big);
	memcpy(big, r->order, r->ng * sizeof *r->order);
	sort_stable(big, r->ng, sizeof *big, launch_size_cmp, c->g);
	rs->job = xreallocarray(NULL, LT_COUNT * r->ng + 1, sizeof *rs->job);
	for (gi = 0; gi < r->ng; gi++)
		total += launch_size(&c->g[gi]);
	nth = pool_sweep_threads();
	for (k = 0; k < r->ng; k++) {
		gi = big[k];
		if (nth > 1 && launch_size(&c->g[gi]) >= LAUNCH_SPLIT_MIN &&
		    launch_size(&c->g[gi]) > total / nth &&
		    launch_times_split(&c->g[gi]))
			for (j = 0; j < LT_COUNT; j++) {
				rs->job[rs->njob][0] = gi;
				rs->job[rs->njob++][1] = j;
			}
		else {
			rs->job[rs->njob][0] = gi;
			rs->job[rs->njob++][1] = LT_COUNT;
		}
	}
	(void)pool_run(rs->njob, (unsigned)nth, launch_job, rs, NULL);
	/* The split groups' samples, done with once all their jobs ran. */
	for (k = 0; k < rs->njob; k++)
		if (rs->job[k][1] == 0)
			launch_done(&c->g[rs->job[k][0]]);
	for (k = 0; k < POOL_MAX; k++)
		launch_times_free(&rs->sc[k]);
	free(rs->job);
	free(big);
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
