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
#include "model/correlate.h"
#include "headless/evrow.h"
#include "analysis/group.h"
#include "model/lane.h"
#include "model/replay.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/stats.h"
#include "analysis/syncwait.h"
#include "util/xmalloc.h"
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

enum launch_axis {
	LA_API, LA_NAME, LA_SHORT, LA_DEVICE, LA_STREAM, LA_PID, LA_TID,
	LA_COUNT
};
static const char *launch_axis_names[LA_COUNT] = {
	"api", "name", "short-name", "device", "stream", "pid", "tid"
};
static const char *launch_axis_fields[LA_COUNT] = {
	"api", "name", "short_name", "device", "stream", "pid", "tid"
};

enum launch_time {
	LT_API, LT_QUEUE, LT_KERNEL, LT_TOTAL, LT_COUNT
};
static const char *launch_time_names[LT_COUNT] = {
	"api", "queue", "kernel", "total"
};

struct launch_group {
	struct stats_sample t[LT_COUNT];
	int64_t		 nshort;
};

struct launch_ctx {
	const struct model	*m;
	struct group_names	 names;
	int			 axes[LA_COUNT];
	int			 naxes;
	struct group_map	 map;		/* axis values -> group */
	struct launch_group	*g;
	size_t			 gcap;
	struct stats_acc	 sorted;	/* scratch of stats_sample_compute */
	uint32_t		 atrack;	/* track of the last API call */
};

/*
 * The track and index of API call api: the calls that launch one stream's
 * kernels mostly lie on one track, so the last call's track is tried
 * before the search.
 */
static struct evref
launch_api_ev(struct launch_ctx *c, uint32_t api)
{
	return model_ev_near(c->m, api, &c->atrack);
}

/* Adds kernel i of track t, launched by API call api. */
static void
launch_add(struct launch_ctx *c, uint32_t t, uint32_t i, uint32_t api)
{
	const struct model		*m = c->m;
	const struct track		*tr = &m->tracks[t];
	const struct lane		*l = &tr->lane;
	struct evref			 r = launch_api_ev(c, api);
	const struct track		*at = &m->tracks[r.track];
	const struct kernel_info	*k;
	struct launch_group		*g;
	uint32_t			 v[LA_COUNT];
	int64_t				 as, ae, ks, ke, adur, kdur;
	int				 j, isnew;
	size_t				 gi;

	as = at->lane.start[r.idx];
	ae = at->lane.end[r.idx];
	ks = l->start[i];
	ke = l->end[i];
	v[0] = 0;
	for (j = 0; j < c->naxes; j++) {
		switch (c->axes[j]) {
		case LA_API:
			v[j] = group_api(&c->names, at->lane.name[r.idx]);
			break;
		case LA_NAME:
			v[j] = group_local(&c->names, l->name[i]);
			break;
		case LA_SHORT:
			k = event_kernel(m, model_gid(m, t, i));
			v[j] = group_local(&c->names,
			    k != NULL && k->short_name != 0 ? k->short_name :
			    l->name[i]);
			break;
		case LA_DEVICE:
			v[j] = tr->device;
			break;
		case LA_STREAM:
			v[j] = tr->stream;
			break;
		case LA_PID:
			v[j] = tr->process != NONE32 ? tr->process :
			    (at->thread != NONE32 ?
			    m->threads[at->thread].process : NONE32);
			break;
		case LA_TID:
			v[j] = at->thread;
			break;
		}
	}
	gi = group_map_find(&c->map, v, &isnew);
	if (isnew) {
		XGROW(c->g, c->gcap, gi + 1);
		memset(&c->g[gi], 0, sizeof c->g[gi]);
		for (j = 0; j < LT_COUNT; j++)
			stats_sample_init(&c->g[gi].t[j]);
	}
	g = &c->g[gi];
	adur = ae - as;
	kdur = ke - ks;
	stats_sample_add(&g->t[LT_API], adur);
	if (ks - ae >= 0)
		stats_sample_add(&g->t[LT_QUEUE], ks - ae);
	stats_sample_add(&g->t[LT_KERNEL], kdur);
	stats_sample_add(&g->t[LT_TOTAL], (ae > ke ? ae : ke) - as);
	if (kdur < adur)
		g->nshort++;
}

static void
launch_stats(cJSON *row, const char *pre, struct stats_sample *a,
    struct stats_acc *sorted)
{
	static const char	*sfx[] = { "mean", "median", "p90", "p99",
				    "min", "max", "stddev" };
	struct stats		 s;
	double			 val[7];
	char			 key[64];
	size_t			 j;

	if (a->n > 0) {
		stats_sample_compute(a, &s, sorted);
		val[0] = s.mean;
		val[1] = s.median;
		val[2] = s.p90;
		val[3] = s.p99;
		val[6] = s.stddev;
	}
	for (j = 0; j < sizeof sfx / sizeof sfx[0]; j++) {
		snprintf(key, sizeof key, "%s_%s_ns", pre, sfx[j]);
		if (a->n == 0)
			cJSON_AddNullToObject(row, key);
		else if (j == 4 || j == 5)
			out_int(row, key, j == 4 ? s.min : s.max);
		else
			out_num(row, key, val[j]);
	}
}

static void
launch_row(struct launch_ctx *c, struct out *out, size_t gi)
{
	const struct model	*m = c->m;
	struct launch_group	*g = &c->g[gi];
	const uint32_t		*gv = group_map_key(&c->map, gi);
	cJSON			*row = out_row(out);
	char			 key[8192], num[32];
	size_t			 o = 0;
	int			 j, ax;
	uint32_t		 v;
	uint64_t		 n;
	enum evrow_ident	 id;
	int64_t			 count = (int64_t)g->t[LT_KERNEL].n;

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
	out_int(row, "qcount", (int64_t)g->t[LT_QUEUE].n);
	out_int(row, "short_kernels", g->nshort);
	out_num(row, "short_kernels_pct", count > 0 ? 100.0 *
	    (double)g->nshort / (double)count : 0.0);
	for (j = 0; j < LT_COUNT; j++)
		launch_stats(row, launch_time_names[j], &g->t[j], &c->sorted);
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
	struct launch_ctx	 c;
	struct opts		 ko = *o;
	struct sel		 s;
	uint32_t		*idx = NULL, t, api;
	size_t			 icap = 0, k, i, gi;
	int64_t			 nsel = 0, unlinked = 0, replayed = 0;
	int			 rc = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.atrack = NONE32;
	group_names_init(&c.names, m);
	ko.type = EV_KERNEL;
	if (group_parse_axes(o->group_by, "api,name", launch_axis_names,
	    LA_COUNT, GROUP_NONE | GROUP_UNIQUE, c.axes, &c.naxes,
	    cause) != 0 ||
	    sel_init(&s, m, &ko, cause) != 0) {
		*code = "usage";
		rc = -1;
		goto done;
	}
	/* The key: one value per axis (one 0 for none). */
	group_map_init(&c.map, c.naxes > 0 ? (size_t)c.naxes : 1);
	if (sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	for (t = 0; t < m->ntracks; t++) {
		if (!sel_track(&s, t) || m->tracks[t].type != TRACK_GPU)
			continue;
		k = lane_overlap(&m->tracks[t].lane, s.t0, s.t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			if (!sel_event(&s, t, idx[i]))
				continue;
			nsel++;
			api = correlate_launch(m, model_gid(m, t, idx[i]));
			if (api == NONE32) {
				unlinked++;
				continue;
			}
			if (replay_inner(m, model_gid(m, t, idx[i]))) {
				replayed++;
				continue;
			}
			launch_add(&c, t, idx[i], api);
		}
	}
	sel_free(&s);
	for (gi = 0; gi < c.map.ng; gi++)
		launch_row(&c, out, gi);
	out->default_sort = "total_mean_ns:desc";
	out_int(out->aux, "kernels", nsel);
	out_int(out->aux, "linked_kernels", nsel - unlinked);
	out_int(out->aux, "unlinked_kernels", unlinked);
	out_int(out->aux, "replayed_kernels", replayed);
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
	for (gi = 0; gi < c.map.ng; gi++)
		for (k = 0; k < LT_COUNT; k++)
			stats_sample_free(&c.g[gi].t[k]);
	free(c.g);
	stats_acc_free(&c.sorted);
	group_names_free(&c.names);
	group_map_free(&c.map);
	free(idx);
	return rc;
}

