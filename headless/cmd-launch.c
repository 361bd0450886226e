/*
 * cmd-launch: `gpulens launch`, kernel launch overhead with the
 * definitions of nsys's cuda_kern_exec_sum: the groups and statistics of
 * analysis/launch.h as rows, by --group-by (api, name, short-name, device,
 * stream, pid, tid, or none for one overall row; default api,name; nsys
 * groups by pid,tid,device,api,name). Each row gives count, qcount,
 * short_kernels and, for each of the four times, mean, median, p90, p99,
 * min, max and sample standard deviation (stats.h). Kernels without a
 * launching call are counted in auxiliary.unlinked_kernels only; the
 * kernels of a graph replay but its first are counted in
 * auxiliary.replayed_kernels.
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
#include "analysis/group.h"
#include "analysis/launch.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/worksel.h"
#include "analysis/stats.h"
#include "analysis/syncwait.h"
#include "util/rowkey.h"

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
launch_row(const struct launch_result *r, struct out *out, size_t gi)
{
	const struct launch_ctx	*c = &r->c;
	const struct model	*m = c->m;
	const struct launch_group *g = &c->g[gi];
	const uint32_t		*gv = group_map_key(&c->map, gi);
	cJSON			*row = out_row(out);
	char			 key[8192], num[32];
	const struct stats	*st = &r->st[gi * LT_COUNT];
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
	struct launch_result	 r;
	struct launch_sel	 ls;
	struct opts		 ko = *o;
	struct sel		 s;
	size_t			 k;
	int			 axes[LA_COUNT], naxes;

	ko.type = EV_KERNEL;
	if (group_parse_axes(o->group_by, "api,name", launch_axis_names,
	    LA_COUNT, GROUP_NONE | GROUP_UNIQUE, axes, &naxes,
	    cause) != 0 ||
	    sel_init(&s, m, &ko, cause) != 0) {
		*code = "usage";
		return -1;
	}
	if (sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	worksel_launch(&ls, &s);
	launch_build(m, axes, naxes, &ls, &r);
	sel_free(&s);
	for (k = 0; k < r.ng; k++)
		launch_row(&r, out, r.order[k]);
	out->default_sort = "total_mean_ns:desc";
	out_int(out->aux, "kernels", r.nsel);
	out_int(out->aux, "linked_kernels", r.nsel - r.unlinked);
	out_int(out->aux, "unlinked_kernels", r.unlinked);
	out_int(out->aux, "replayed_kernels", r.replayed);
	launch_sync(m, &s, out);	/* its window and filters: scalars,
					   still set after sel_free */
	if (r.nsel == 0)
		out_warn(out, "no_match",
		    "no kernels match");
	else if (r.ng == 0)
		out_warn(out, "no_launch_call",
		    "none of the %lld selected kernels has a "
		    "launching API call", (long long)r.nsel);
	else if (r.unlinked > 0)
		out_warn(out, "no_launch_call",
		    "%lld of %lld kernels have no launching API call "
		    "and are left out", (long long)r.unlinked,
		    (long long)r.nsel);
	launch_free(&r);
	return 0;
}
