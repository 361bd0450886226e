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
 * call are counted in auxiliary.unlinked_kernels only.
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

#include "cmd.h"
#include "cmd-events.h"
#include "correlate.h"
#include "evrow.h"
#include "hmap.h"
#include "lane.h"
#include "opts.h"
#include "out.h"
#include "select.h"
#include "stats.h"
#include "xmalloc.h"

#define LAUNCH_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_GROUP)

static int	cmd_launch_exec(int, char **, const struct cmd_global *);

const struct cmd_entry cmd_launch_entry = {
	"launch",
	"gpulens launch [OPTIONS] TRACE",
	"Kernel launch overhead, as nsys's cuda_kern_exec_sum defines it: per\n"
	"(API name, kernel name) by default, or per --group-by axes (api, name,\n"
	"short-name, device, stream, pid, tid, none): API call time, queue\n"
	"delay (API end to kernel start, only when not negative), kernel time\n"
	"and total time, each with mean, median, p90, p99, min, max and\n"
	"stddev, and the number of kernels shorter than their launch call.",
	cmd_launch_exec,
	LAUNCH_OPTS
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
	uint32_t	 v[LA_COUNT];
	struct stats_acc t[LT_COUNT];
	int64_t		 nshort;
};

struct launch_ctx {
	const struct model	*m;
	struct strpool		*local;
	struct hmap		 api_name;	/* model sid -> local sid */
	uint32_t		*loc;		/* model sid -> local sid + 1 */
	uint32_t		 nloc;
	int			 axes[LA_COUNT];
	int			 naxes;
	struct launch_group	*g;
	size_t			 ng, gcap;
	struct hmap		 by_key;
};

static const char *launch_columns[] = {
	"count", "qcount", "short_kernels", "api_mean_ns", "api_median_ns",
	"queue_mean_ns", "queue_median_ns", "kernel_mean_ns",
	"kernel_median_ns", "total_mean_ns", "device", "stream", "pid", "tid",
	"api", "short_name", "name", NULL
};

static int
launch_parse_axes(struct launch_ctx *c, const char *spec, char **cause)
{
	char	*list, *a, *save = NULL;
	int	 k, j;

	if (spec == NULL)
		spec = "api,name";
	list = xstrdup(spec);
	for (a = strtok_r(list, ",", &save); a != NULL;
	    a = strtok_r(NULL, ",", &save)) {
		if (strcmp(a, "none") == 0 || strcmp(a, "all") == 0)
			continue;
		for (k = 0; k < LA_COUNT; k++)
			if (strcmp(a, launch_axis_names[k]) == 0)
				break;
		if (k == LA_COUNT) {
			*cause = xasprintf("unknown --group-by axis '%s' "
			    "(api, name, short-name, device, stream, pid, tid, "
			    "none)", a);
			free(list);
			return -1;
		}
		for (j = 0; j < c->naxes; j++)
			if (c->axes[j] == k)
				break;
		if (j == c->naxes)
			c->axes[c->naxes++] = k;
	}
	free(list);
	return 0;
}

/* The local id of a model string, interned once per distinct string. */
static uint32_t
launch_local(struct launch_ctx *c, uint32_t sid)
{
	if (sid >= c->nloc)
		return strpool_intern0(c->local, model_str(c->m, sid));
	if (c->loc[sid] == 0)
		c->loc[sid] = strpool_intern0(c->local,
		    model_str(c->m, sid)) + 1;
	return c->loc[sid] - 1;
}

static uint32_t
launch_api_sid(struct launch_ctx *c, uint32_t sid)
{
	const char	*s;
	uint32_t	 v;

	if (hmap_get(&c->api_name, sid, &v))
		return v;
	s = model_str(c->m, sid);
	v = strpool_intern(c->local, s, evrow_api_len(s));
	hmap_put(&c->api_name, sid, v);
	return v;
}

static struct launch_group *
launch_group(struct launch_ctx *c, const uint32_t *v)
{
	uint64_t		 key = 0x4c41554e;
	uint32_t		*slot;
	int			 isnew, k;
	struct launch_group	*g;

	for (k = 0; k < LA_COUNT; k++)
		key = hmap_key2(key, v[k]);
	for (;;) {
		slot = hmap_upsert(&c->by_key, key, (uint32_t)c->ng, &isnew);
		if (isnew) {
			XGROW(c->g, c->gcap, c->ng + 1);
			g = &c->g[c->ng++];
			memset(g, 0, sizeof *g);
			memcpy(g->v, v, sizeof g->v);
			for (k = 0; k < LT_COUNT; k++)
				stats_acc_init(&g->t[k]);
			return g;
		}
		g = &c->g[*slot];
		if (memcmp(g->v, v, sizeof g->v) == 0)
			return g;
		key++;		/* a hash collision: probe the next key */
	}
}

/* Adds kernel i of track t, launched by API call api. */
static void
launch_add(struct launch_ctx *c, uint32_t t, uint32_t i, uint32_t api)
{
	const struct model		*m = c->m;
	const struct track		*tr = &m->tracks[t];
	const struct lane		*l = &tr->lane;
	struct evref			 r = model_ev(m, api);
	const struct track		*at = &m->tracks[r.track];
	const struct kernel_info	*k;
	struct launch_group		*g;
	uint32_t			 v[LA_COUNT];
	int64_t				 as, ae, ks, ke, adur, kdur;
	int				 j;

	as = at->lane.start[r.idx];
	ae = at->lane.end[r.idx];
	ks = l->start[i];
	ke = l->end[i];
	memset(v, 0, sizeof v);
	for (j = 0; j < c->naxes; j++) {
		switch (c->axes[j]) {
		case LA_API:
			v[LA_API] = launch_api_sid(c, at->lane.name[r.idx]);
			break;
		case LA_NAME:
			v[LA_NAME] = launch_local(c, l->name[i]);
			break;
		case LA_SHORT:
			k = evrow_kernel(m, model_gid(m, t, i));
			v[LA_SHORT] = launch_local(c,
			    k != NULL && k->short_name != 0 ? k->short_name :
			    l->name[i]);
			break;
		case LA_DEVICE:
			v[LA_DEVICE] = tr->device;
			break;
		case LA_STREAM:
			v[LA_STREAM] = tr->stream;
			break;
		case LA_PID:
			v[LA_PID] = tr->process != NONE32 ? tr->process :
			    (at->thread != NONE32 ?
			    m->threads[at->thread].process : NONE32);
			break;
		case LA_TID:
			v[LA_TID] = at->thread;
			break;
		}
	}
	g = launch_group(c, v);
	adur = ae - as;
	kdur = ke - ks;
	stats_acc_add(&g->t[LT_API], adur);
	if (ks - ae >= 0)
		stats_acc_add(&g->t[LT_QUEUE], ks - ae);
	stats_acc_add(&g->t[LT_KERNEL], kdur);
	stats_acc_add(&g->t[LT_TOTAL], (ae > ke ? ae : ke) - as);
	if (kdur < adur)
		g->nshort++;
}

static void
launch_key_part(char *buf, size_t len, size_t *o, const char *axis,
    const char *val)
{
	int	n;

	n = snprintf(buf + *o, len - *o, "%s%s=%s", *o != 0 ? "|" : "", axis,
	    val);
	if (n > 0)
		*o = *o + (size_t)n < len ? *o + (size_t)n : len - 1;
}

static void
launch_stats(cJSON *row, const char *pre, struct stats_acc *a)
{
	struct stats	 s;
	char		 key[64];

	if (a->n == 0) {
		static const char *sfx[] = { "mean", "median", "p90", "p99",
		    "min", "max", "stddev" };
		size_t j;
		for (j = 0; j < sizeof sfx / sizeof sfx[0]; j++) {
			snprintf(key, sizeof key, "%s_%s_ns", pre, sfx[j]);
			cJSON_AddNullToObject(row, key);
		}
		return;
	}
	stats_acc_compute(a, &s);
	snprintf(key, sizeof key, "%s_mean_ns", pre);
	out_num(row, key, s.mean);
	snprintf(key, sizeof key, "%s_median_ns", pre);
	out_num(row, key, s.median);
	snprintf(key, sizeof key, "%s_p90_ns", pre);
	out_num(row, key, s.p90);
	snprintf(key, sizeof key, "%s_p99_ns", pre);
	out_num(row, key, s.p99);
	snprintf(key, sizeof key, "%s_min_ns", pre);
	out_int(row, key, s.min);
	snprintf(key, sizeof key, "%s_max_ns", pre);
	out_int(row, key, s.max);
	snprintf(key, sizeof key, "%s_stddev_ns", pre);
	out_num(row, key, s.stddev);
}

static void
launch_row(struct launch_ctx *c, struct out *out, struct launch_group *g)
{
	const struct model	*m = c->m;
	cJSON			*row = out_row(out);
	char			 key[8192], num[32];
	size_t			 o = 0;
	int			 j, ax;
	uint32_t		 v;
	int64_t			 count = (int64_t)g->t[LT_KERNEL].n;

	key[0] = '\0';
	for (j = 0; j < c->naxes; j++) {
		ax = c->axes[j];
		v = g->v[ax];
		switch (ax) {
		case LA_API: case LA_NAME: case LA_SHORT:
			launch_key_part(key, sizeof key, &o,
			    launch_axis_fields[ax], strpool_get(c->local, v));
			out_str(row, launch_axis_fields[ax],
			    strpool_get(c->local, v));
			break;
		case LA_DEVICE:
			snprintf(num, sizeof num, "%u", v < m->ndevices ?
			    m->devices[v].source_id : 0);
			launch_key_part(key, sizeof key, &o, "device",
			    v < m->ndevices ? num : "none");
			evrow_device(row, m, v);
			break;
		case LA_STREAM:
			snprintf(num, sizeof num, "%llu", v < m->nstreams ?
			    (unsigned long long)m->streams[v].source_id : 0ULL);
			launch_key_part(key, sizeof key, &o, "stream",
			    v < m->nstreams ? num : "none");
			evrow_stream(row, m, v);
			break;
		case LA_PID:
			snprintf(num, sizeof num, "%u", v < m->nprocesses ?
			    m->processes[v].pid : 0);
			launch_key_part(key, sizeof key, &o, "pid",
			    v < m->nprocesses ? num : "none");
			evrow_pid(row, m, v);
			break;
		case LA_TID:
			snprintf(num, sizeof num, "%u", v < m->nthreads ?
			    m->threads[v].tid : 0);
			launch_key_part(key, sizeof key, &o, "tid",
			    v < m->nthreads ? num : "none");
			evrow_tid(row, m, v);
			break;
		}
	}
	out_str(row, "key", c->naxes == 0 ? "all" : key);
	out_int(row, "count", count);
	out_int(row, "qcount", (int64_t)g->t[LT_QUEUE].n);
	out_int(row, "short_kernels", g->nshort);
	out_num(row, "short_kernels_pct", count > 0 ? 100.0 *
	    (double)g->nshort / (double)count : 0.0);
	for (j = 0; j < LT_COUNT; j++)
		launch_stats(row, launch_time_names[j], &g->t[j]);
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
	int64_t			 nsel = 0, unlinked = 0;
	int			 rc = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.local = strpool_new();
	c.nloc = strpool_count(m->strs);
	c.loc = xcalloc((size_t)c.nloc + 1, sizeof *c.loc);
	hmap_init(&c.api_name);
	hmap_init(&c.by_key);
	ko.type = EV_KERNEL;
	if (launch_parse_axes(&c, o->group_by, cause) != 0 ||
	    sel_init(&s, m, &ko, cause) != 0) {
		*code = "usage";
		rc = -1;
		goto done;
	}
	if (sel_window_empty(&s))
		out_warn(out, "the window lies outside the trace");
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
			launch_add(&c, t, idx[i], api);
		}
	}
	sel_free(&s);
	for (gi = 0; gi < c.ng; gi++)
		launch_row(&c, out, &c.g[gi]);
	out->default_sort = "total_mean_ns:desc";
	out->columns = launch_columns;
	out_int(out->aux, "kernels", nsel);
	out_int(out->aux, "linked_kernels", nsel - unlinked);
	out_int(out->aux, "unlinked_kernels", unlinked);
	if (nsel == 0)
		out_warn(out, "no kernels match");
	else if (c.ng == 0)
		out_warn(out, "none of the %lld selected kernels has a "
		    "launching API call", (long long)nsel);
	else if (unlinked > 0)
		out_warn(out, "%lld of %lld kernels have no launching API call "
		    "and are left out", (long long)unlinked, (long long)nsel);
done:
	for (gi = 0; gi < c.ng; gi++)
		for (k = 0; k < LT_COUNT; k++)
			stats_acc_free(&c.g[gi].t[k]);
	free(c.g);
	free(c.loc);
	strpool_free(c.local);
	hmap_free(&c.api_name);
	hmap_free(&c.by_key);
	free(idx);
	return rc;
}

/* The run function with what the command line adds to it. */
static int
launch_main(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	if (cmd_launch_run(m, o, out, code, cause) != 0)
		return -1;
	if (cJSON_GetArraySize(out->rows) > 0)
		out_next(out, "gpulens launch %s --group-by pid,tid,device,"
		    "api,name", o->args[0]);
	return 0;
}

static int
cmd_launch_exec(int argc, char **argv, const struct cmd_global *gl)
{
	return cmd_verb_main(&cmd_launch_entry, argc, argv, gl, 1, 1, launch_main);
}
