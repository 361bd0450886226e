/*
 * cmd-launch: `gpulens launch` measures kernel launch overhead, with the
 * definitions of nsys's cuda_kern_exec_sum (FORMATS.md section 2). For
 * every selected kernel with a launching API call (correlate.h):
 *   API time    = api.end - api.start
 *   queue time  = kernel.start - api.end, only when >= 0 (nsys's QCount
 *                 counts these; a kernel that starts before its call
 *                 returns has no queue time)
 *   kernel time = kernel.end - kernel.start
 *   total time  = max(api.end, kernel.end) - api.start
 * and the kernel is "short" when its kernel time is below its API time (it
 * ran for less time than it took to launch). Grouped by --group-by (api,
 * name, short-name, device, stream, pid, tid, or none for one overall row;
 * default api,name; nsys groups by pid,tid,device,api,name), each group
 * gives count, qcount, short_kernels and, for each of the four times, mean,
 * median, p90, p99, min, max and sample standard deviation (stats.h). API
 * names lose their "_vNNNN" suffix as in nsys. Kernels without a launching
 * call are counted in auxiliary.unlinked_kernels only. A graph launch
 * (model/replay.h) is one launch: the first kernel of each replay stands
 * for it (its queue time is the replay's launch latency), and the replay's
 * other kernels, which no call of their own launched, are left out and
 * counted in auxiliary.replayed_kernels.
 *
 * Where this differs: HTA's launch delay clips negative delays to 0 and
 * keeps them; nsys (and this verb) leaves them out of the queue statistics.
 * perf-advisor's "launch overhead" is kernel.start - api.start, which is
 * total time minus kernel time when the kernel starts after the call.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evrow.h"
#include "headless/launch-times.h"
#include "headless/launch-walk.h"
#include "analysis/group.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/stats.h"
#include "analysis/syncwait.h"
#include "util/pool.h"
#include "util/rowkey.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define LAUNCH_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_GROUP)

const struct cmd_entry cmd_launch_entry = {
	.name = "launch",
	.usage = "gpulens launch [OPTIONS] TRACE",
	.help =
	"Kernel launch overhead, as nsys's cuda_kern_exec_sum defines it: per\n"
	"(API name, kernel name) by default, or per --group-by axes (api, name,\n"
	"short-name, device, stream, pid, tid, none): API call time, queue\n"
	"delay (API end to kernel start, only when not negative), kernel time\n"
	"and total time, each with mean, median, p90, p99, min, max and\n"
	"stddev, and the number of kernels shorter than their launch call.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = LAUNCH_OPTS,
	.model = cmd_launch_run,
	.hints = { { "gpulens launch %s --group-by pid,tid,device,api,name",
	    1 } }
};

static const char *launch_axis_names[LA_COUNT] = {
	"api", "name", "short-name", "device", "stream", "pid", "tid"
};
static const char *launch_axis_fields[LA_COUNT] = {
	"api", "name", "short_name", "device", "stream", "pid", "tid"
};

static const char *launch_time_names[LT_COUNT] = {
	"api", "queue", "kernel", "total"
};

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

static void
launch_stats(cJSON *row, const char *pre, const struct stats *s)
{
	static const char	*sfx[] = { "mean", "median", "p90", "p99",
				    "min", "max", "stddev" };
	double			 val[7];
	char			 key[64];
	size_t			 j;

	if (s->count > 0) {
		val[0] = s->mean;
		val[1] = s->median;
		val[2] = s->p90;
		val[3] = s->p99;
		val[6] = s->stddev;
	}
	for (j = 0; j < sizeof sfx / sizeof sfx[0]; j++) {
		snprintf(key, sizeof key, "%s_%s_ns", pre, sfx[j]);
		if (s->count == 0)
			cJSON_AddNullToObject(row, key);
		else if (j == 4 || j == 5)
			out_int(row, key, j == 4 ? s->min : s->max);
		else
			out_num(row, key, val[j]);
	}
}

static void
launch_row(struct launch_rows *rs, struct out *out, size_t gi)
{
	struct launch_ctx	*c = rs->c;
	const struct model	*m = c->m;
	struct launch_group	*g = &c->g[gi];
	const uint32_t		*gv = group_map_key(&c->map, gi);
	cJSON			*row = out_row(out);
	char			 key[8192], num[32];
	struct stats		*st = &rs->st[gi * LT_COUNT];
	size_t			 o = 0;
	int			 j, ax;
	uint32_t		 v;
	uint64_t		 n;
	enum evrow_ident	 id;
	int64_t			 count = g->n;

	/* The key: "launch" and the group's axes (rowkey.h). */
	o = (size_t)snprintf(key, sizeof key, "launch");
	for (j = 0; j < c->naxes; j++) {
		ax = c->axes[j];
		v = gv[j];
		switch (ax) {
		case LA_API: case LA_NAME: case LA_SHORT:
			rowkey_name(key, sizeof key, &o,
			    launch_axis_fields[ax], group_str(&c->names, v));
			out_str(row, launch_axis_fields[ax],
			    group_str(&c->names, v));
			break;
		default:
			/* LA_DEVICE, LA_STREAM, LA_PID, LA_TID, in order. */
			id = (enum evrow_ident)(ax - LA_DEVICE);
			if (evrow_ident_id(m, id, v, &n))
				snprintf(num, sizeof num, "%llu",
				    (unsigned long long)n);
			else
				snprintf(num, sizeof num, "none");
			group_key_part(key, sizeof key, &o,
			    evrow_ident_field(id), num);
			evrow_ident(row, m, id, v);
			break;
		}
	}
	out_str(row, "key", key);
	out_int(row, "count", count);
	out_int(row, "qcount", g->nqueue);
	out_int(row, "short_kernels", g->nshort);
	out_num(row, "short_kernels_pct", count > 0 ? 100.0 *
	    (double)g->nshort / (double)count : 0.0);
	for (j = 0; j < LT_COUNT; j++)
		launch_stats(row, launch_time_names[j], &st[j]);
}

/*
 * The host time blocked on the GPU in the window (syncwait.h), in total
 * and per thread of the selected processes and threads: what the host lost
 * waiting for the work it launched.
 */
static void
launch_sync(const struct model *m, const struct sel *s, struct out *out)
{
	const struct syncwait_thread	*th;
	struct syncwait			 w;
	cJSON				*arr, *o;
	int64_t				 win = s->t1 - s->t0, pid, tid;
	size_t				 i;

	syncwait_build(&w, m, s->t0, s->t1);
	out_int(out->aux, "sync_calls", (int64_t)w.calls);
	out_int(out->aux, "sync_blocked_ns", w.blocked);
	out_num(out->aux, "sync_blocked_pct", win > 0 ? 100.0 *
	    (double)w.blocked / (double)win : 0.0);
	arr = cJSON_AddArrayToObject(out->aux, "sync_threads");
	for (i = 0; i < w.n; i++) {
		th = &w.th[i];
		pid = th->process < m->nprocesses ?
		    (int64_t)m->processes[th->process].pid : -1;
		tid = th->thread < m->nthreads ?
		    (int64_t)m->threads[th->thread].tid : -1;
		if ((s->pid >= 0 && pid != s->pid) ||
		    (s->tid >= 0 && tid != s->tid))
			continue;
		o = cJSON_CreateObject();
		out_int_or_null(o, "pid", pid >= 0, pid);
		out_int_or_null(o, "tid", tid >= 0, tid);
		out_int(o, "calls", (int64_t)th->calls);
		out_int(o, "sync_calls", (int64_t)th->sync_calls);
		out_int(o, "blocked_ns", th->blocked);
		out_int(o, "sync_ns", th->sync);
		out_num(o, "blocked_pct", win > 0 ? 100.0 *
		    (double)th->blocked / (double)win : 0.0);
		cJSON_AddItemToArray(arr, o);
	}
	syncwait_free(&w);
}

int
cmd_launch_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct launch_ctx	 c, c2;
	struct launch_rows	 rs;
	struct opts		 ko = *o;
	struct sel		 s;
	size_t			*order = NULL, k, gi;
	int64_t			 nsel, unlinked;
	int			 rc = 0, axes[LA_COUNT], naxes;

	memset(&c, 0, sizeof c);
	memset(&c2, 0, sizeof c2);
	memset(&rs, 0, sizeof rs);
	ko.type = EV_KERNEL;
	if (group_parse_axes(o->group_by, "api,name", launch_axis_names,
	    LA_COUNT, GROUP_NONE | GROUP_UNIQUE, axes, &naxes,
	    cause) != 0 ||
	    sel_init(&s, m, &ko, cause) != 0) {
		*code = "usage";
		rc = -1;
		goto done;
	}
	if (sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	launch_walk_init(&c, m, axes, naxes, &s);
	launch_walk(&c, &c2);
	sel_free(&s);
	nsel = c.nsel;
	unlinked = c.unlinked;
	/* The rows in the order of the groups' first kernels. */
	order = xreallocarray(NULL, c.map.ng + 1, sizeof *order);
	for (gi = 0; gi < c.map.ng; gi++)
		order[gi] = gi;
	sort_stable(order, c.map.ng, sizeof *order, launch_first_cmp, c.g);
	/*
	 * The groups' statistics are independent: on every thread, the
	 * largest groups first, so that the threads end together.
	 */
	rs.c = &c;
	rs.st = xreallocarray(NULL, c.map.ng + 1, LT_COUNT * sizeof *rs.st);
	rs.big = xreallocarray(NULL, c.map.ng + 1, sizeof *rs.big);
	memcpy(rs.big, order, c.map.ng * sizeof *order);
	sort_stable(rs.big, c.map.ng, sizeof *rs.big, launch_size_cmp, c.g);
	(void)pool_run(c.map.ng, pool_sweep_threads(), launch_job, &rs, NULL);
	for (gi = 0; gi < c.map.ng; gi++)
		launch_row(&rs, out, order[gi]);
	out->default_sort = "total_mean_ns:desc";
	out_int(out->aux, "kernels", nsel);
	out_int(out->aux, "linked_kernels", nsel - unlinked);
	out_int(out->aux, "unlinked_kernels", unlinked);
	out_int(out->aux, "replayed_kernels", c.replayed);
	launch_sync(m, &s, out);	/* its window and filters: scalars,
					   still set after sel_free */
	if (nsel == 0)
		out_warn(out, "no_match",
		    "no kernels match");
	else if (c.map.ng == 0)
		out_warn(out, "no_launch_call",
		    "none of the %lld selected kernels has a "
		    "launching API call", (long long)nsel);
	else if (unlinked > 0)
		out_warn(out, "no_launch_call",
		    "%lld of %lld kernels have no launching API call "
		    "and are left out", (long long)unlinked, (long long)nsel);
done:
	launch_walk_free(&c);
	launch_walk_free(&c2);
	for (k = 0; k < POOL_MAX; k++)
		launch_times_free(&rs.sc[k]);
	free(rs.st);
	free(rs.big);
	free(order);
	return rc;
}

