/*
 * cmd-stats: `gpulens stats` aggregates events by name (or other axes),
 * with the numbers `nsys stats` prints for the same file:
 *   --type kernel   cuda_gpu_kern_sum (grouped by demangled name)
 *   --type memcpy   cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum rows for
 *                   copies ("[CUDA memcpy Host-to-Device]"), with byte stats
 *   --type memset   the "[CUDA memset]" rows of the same reports
 *   --type api      cuda_api_sum (names without their _vNNNNN suffix)
 *   --type osrt     osrt_sum (OS runtime event class only)
 *   --type nvtx     nvtx_sum (CPU durations, by name and style)
 *   --type sync, comm
 * Durations are end - start; share_pct is the share of the listed rows'
 * total, as nsys computes "Time (%)". The grouping and the statistics are
 * the analysis of analysis/gstats.h (the TUI's kernel table shows the
 * same); this file turns its groups into rows, and gives it the selection
 * of the shared options and the nvtx-path and iter axes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/evrow.h"
#include "analysis/group.h"
#include "analysis/gstats.h"
#include "util/hmap.h"
#include "model/nvtx.h"
#include "model/nvtxcur.h"
#include "model/nvtxfam.h"
#include "model/nvtxpath.h"
#include "model/correlate.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define STATS_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_TYPE | OPT_GROUP | OPT_NVTXDOM)

static cmd_run_t	stats_run;

const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.usage = "gpulens stats [OPTIONS] TRACE",
	.help =
	"Aggregates events by name (or --group-by axes): count, total, share,\n"
	"mean, median, min, max and sample standard deviation, equal to the\n"
	"numbers of `nsys stats` (cuda_gpu_kern_sum, cuda_gpu_mem_time_sum,\n"
	"cuda_gpu_mem_size_sum, cuda_api_sum, osrt_sum, nvtx_sum) on the same\n"
	"file. --type picks the kind (default kernel).",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = STATS_OPTS,
	.run = stats_run
};

/* The JSON field of each axis (gstats.h's axes). */
static const char *axis_fields[GS_NAXES] = {
	"name", "short_name", "device", "stream", "pid", "tid", "nvtx_path",
	"iter", "kind"
};

/* The selection's filters and what the nvtx-path and iter axes need. */
struct stats_ctx {
	const struct model	*m;
	struct sel		*sel;		/* the options' selection */
	const char		*domain;	/* --nvtx-domain, or NULL */
	struct group_names	*names;		/* the result's, for paths */
	/* A range's path sid: that of its raw path's node (sid + 1;
	 * model/nvtxpath.h), as ranges with one raw path have one family
	 * path, made once per node. */
	struct nvtx_pathset	*raw;
	uint32_t		*sid_of_node;
	size_t			 nodecap;
	uint32_t		 last_range, last_sid;
	uint32_t		 last_t, last_i;	/* the event of range */
	uint32_t		 range;
	struct nvtx_cur		*cur;		/* the innermost ranges */
	uint32_t		 api_t;		/* track of the last launch */
	/* The innermost range was asked of thread at time at (NONE32:
	 * of none; launched: from a call on track api_t). */
	uint32_t		 thread;
	int64_t			 at;
	int			 launched;
};

/* Innermost NVTX range enclosing a CPU time on a thread, or for GPU
 * events, around the launching API call (found from the track of the
 * last one, api_t, as a stream's work mostly comes from one thread). */
static uint32_t
stats_range_of(struct stats_ctx *c, uint32_t t, uint32_t i)
{
	const struct model	*m = c->m;
	const struct track	*tr = &m->tracks[t];
	uint32_t		 api;
	struct evref		 r;

	c->thread = NONE32;
	c->launched = 0;
	if (tr->type == TRACK_GPU) {
		api = correlate_launch(m, model_gid(m, t, i));
		if (api == NONE32)
			return NONE32;
		r = model_ev_near(m, api, &c->api_t);
		tr = &m->tracks[r.track];
		c->thread = tr->thread;
		c->at = tr->lane.start[r.idx];
		c->launched = 1;
		return nvtx_cur_at(c->cur, c->thread, c->at);
	}
	if (tr->type == TRACK_NVTX) {
		uint32_t gid = model_gid(m, t, i), aux = tr->lane.aux[i];
		if (tr->lane.kind[i] == EV_NVTX)
			return gid;
		return aux != NONE32 ? m->nvtx[aux].parent : NONE32;
	}
	if (tr->thread == NONE32)
		return NONE32;
	return nvtx_cur_at(c->cur, tr->thread, tr->lane.start[i]);
}

static uint32_t
stats_path(struct stats_ctx *c, uint32_t range)
{
	const struct model	*m = c->m;
	char			 buf[4096];
	uint32_t		 v, node;
	size_t			 old;

	if (range == NONE32)
		return 0;
	if (range == c->last_range)
		return c->last_sid;
	if (c->raw == NULL) {
		c->raw = xcalloc(1, sizeof *c->raw);
		nvtx_pathset_init(c->raw, m, 0);
		nvtx_pathset_records(c->raw);
	}
	node = nvtx_pathset_id(c->raw, range);
	if (node < c->nodecap && c->sid_of_node[node] != 0)
		v = c->sid_of_node[node] - 1;
	else {
		/* The node prints the range's raw path where it is whole
		 * and nvtx_path() would not cut it: no walk up the model. */
		if (node != NONE32 && c->raw->node[node].len < sizeof buf &&
		    c->raw->node[node].depth < NVTX_PATH_LEVELS)
			nvtx_family(nvtx_pathset_str(c->raw, node), buf,
			    sizeof buf);
		else
			nvtx_family_path(m, range, buf, sizeof buf);
		v = strpool_intern0(c->names->local, buf);
		if (node != NONE32) {
			old = c->nodecap;
			XGROW(c->sid_of_node, c->nodecap, (size_t)node + 1);
			memset(c->sid_of_node + old, 0, (c->nodecap - old) *
			    sizeof *c->sid_of_node);
			c->sid_of_node[node] = v + 1;
		}
	}
	c->last_range = range;
	c->last_sid = v;
	return v;
}

/* The outermost enclosing range's iteration index, NONE32 if none. */
static uint32_t
stats_iter(const struct model *m, uint32_t range)
{
	struct evref	r;
	uint32_t	aux;

	while (range != NONE32) {
		r = model_ev(m, range);
		aux = m->tracks[r.track].lane.aux[r.idx];
		if (aux == NONE32)
			return NONE32;
		if (m->nvtx[aux].parent == NONE32)
			return m->nvtx[aux].iter;
		range = m->nvtx[aux].parent;
	}
	return NONE32;
}

/* The nvtx-path or iter value of event i of track t (gstats axis_fn). */
static uint32_t
stats_axis(void *arg, struct group_names *names, int axis, uint32_t t,
    uint32_t i)
{
	struct stats_ctx	*c = arg;

	c->names = names;
	if (t != c->last_t || i != c->last_i) {
		c->range = stats_range_of(c, t, i);
		c->last_t = t;
		c->last_i = i;
	}
	if (axis == GS_NVTX)
		return stats_path(c, c->range);
	return stats_iter(c->m, c->range);
}

/*
 * The run of GPU events of track t from i on with event i's values
 * (gstats same_fn): those launched by calls on the same track as event
 * i's (so from its thread) at times from event i's launch until the
 * innermost range around it may change (nvtx_cur_until()).
 */
static uint32_t
stats_same(void *arg, uint32_t t, uint32_t i, uint32_t hi)
{
	struct stats_ctx	*c = arg;
	const struct model	*m = c->m;
	const struct lane	*api;
	uint32_t		 gid, a, base, n, j;
	int64_t			 until, s;

	if (t != c->last_t || i != c->last_i || !c->launched)
		return i + 1;
	until = nvtx_cur_until(c->cur, c->thread, c->at);
	api = &m->tracks[c->api_t].lane;
	base = m->track_off[c->api_t];
	n = (uint32_t)api->n;
	gid = model_gid(m, t, i);
	for (j = i + 1; j < hi; j++) {
		/* (model.h: a GPU event's launching call, or NONE32.) */
		a = gid + (j - i) < m->nlaunch ? m->launch[gid + (j - i)] :
		    NONE32;
		if (a - base >= n)
			break;
		s = api->start[a - base];
		if (s < c->at || s >= until)
			break;
	}
	return j;
}

static int
stats_track(void *arg, uint32_t t)
{
	struct stats_ctx	*c = arg;

	return sel_track(c->sel, t);
}

static int
stats_event(void *arg, uint32_t t, uint32_t i)
{
	struct stats_ctx	*c = arg;

	return sel_event(c->sel, t, i);
}

static void
stats_row(const struct gstats *gs, struct out *out, size_t gi,
    const char *type_name)
{
	const struct model		*m = gs->m;
	const struct gstats_group	*g = &gs->g[gi];
	const uint32_t			*v = g->v;
	const struct stats		*s = &g->dur, *b = &g->bytes;
	cJSON				*row = out_row(out);
	char				 key[8192], num[32];
	size_t				 o = 0;
	int				 k, ax;
	uint64_t			 n;
	enum evrow_ident		 id;
	int64_t				 grand = gs->grand;

	o = (size_t)snprintf(key, sizeof key, "%s", type_name);
	for (k = 0; k < gs->naxes; k++) {
		ax = gs->axes[k];
		switch (ax) {
		case GS_NAME: case GS_SHORT: case GS_NVTX:
			rowkey_name(key, sizeof key, &o, axis_fields[ax],
			    gstats_str(gs, v[k]));
			out_str(row, axis_fields[ax], gstats_str(gs, v[k]));
			break;
		case GS_DEVICE: case GS_STREAM: case GS_PID: case GS_TID:
			/* In enum evrow_ident's order. */
			id = (enum evrow_ident)(ax - GS_DEVICE);
			if (evrow_ident_id(m, id, v[k], &n)) {
				snprintf(num, sizeof num, "%llu",
				    (unsigned long long)n);
				group_key_part(key, sizeof key, &o,
				    evrow_ident_field(id), num);
			} else if (ax == GS_DEVICE)
				/* A group without a device keys as 0. */
				group_key_part(key, sizeof key, &o, "device",
				    "0");
			evrow_ident(row, m, id, v[k]);
			break;
		case GS_ITER:
			if (v[k] == NONE32) {
				group_key_part(key, sizeof key, &o, "iter",
				    "none");
				cJSON_AddNullToObject(row, "iter");
				break;
			}
			snprintf(num, sizeof num, "%u", v[k]);
			group_key_part(key, sizeof key, &o, "iter", num);
			out_int(row, "iter", v[k]);
			break;
		case GS_KIND:
			group_key_part(key, sizeof key, &o, "kind",
			    ev_kind_name((int)v[k]));
			out_str(row, "kind", ev_kind_name((int)v[k]));
			break;
		}
	}
	if (gs->kind == EV_NVTX) {
		const char *style = g->startend ? "StartEnd" : "PushPop";
		group_key_part(key, sizeof key, &o, "style", style);
		out_str(row, "style", style);
	}
	cJSON_AddItemToObject(row, "key", cJSON_CreateString(key));
	out_int(row, "count", (int64_t)s->count);
	out_int(row, "total_ns", s->total);
	out_num(row, "share_pct", grand > 0 ? 100.0 * (double)s->total /
	    (double)grand : 0.0);
	out_num(row, "mean_ns", s->mean);
	out_num(row, "median_ns", s->median);
	out_int(row, "min_ns", s->min);
	out_int(row, "max_ns", s->max);
	out_num(row, "stddev_ns", s->stddev);
	if (b->count > 0) {
		out_int(row, "total_bytes", b->total);
		out_num(row, "mean_bytes", b->mean);
		out_num(row, "median_bytes", b->median);
		out_int(row, "min_bytes", b->min);
		out_int(row, "max_bytes", b->max);
		out_num(row, "stddev_bytes", b->stddev);
	}
}

static int
stats_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	struct sel		 s;
	struct stats_ctx	 c;
	struct gstats_sel	 gsel;
	struct gstats		*gs;
	int			 axes[GS_NAXES], naxes, k;
	size_t			 gi;
	int			 kind = o->type != 0 ? o->type : EV_KERNEL;
	const char		*type_name = o->type_name != NULL ?
				    o->type_name : "kernel";

	(void)code;
	if (gstats_parse_axes(o->group_by, axes, &naxes, cause) != 0 ||
	    sel_init(&s, m, o, cause) != 0)
		return -1;
	s.kind = kind;
	if (sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	memset(&c, 0, sizeof c);
	c.m = m;
	c.sel = &s;
	c.domain = o->nvtx_domain;
	c.last_t = NONE32;
	c.last_range = NONE32;
	c.api_t = NONE32;
	c.cur = nvtx_cur_new(m, c.domain);
	gstats_sel_all(&gsel);
	gsel.t0 = s.t0;
	gsel.t1 = s.t1;
	gsel.kind = kind;
	gsel.device = s.has_device ? s.device : NONE32;
	gsel.stream = s.stream;
	gsel.pid = s.pid;
	/* Without filters on single events, gstats' own kind, window and
	 * track tests select the same events, and without the nvtx-path and
	 * iter axes no event needs the caller: it then finds each event's
	 * group again in its second pass instead of remembering them all. */
	if (!sel_plain(&s)) {
		gsel.track = stats_track;
		gsel.event = stats_event;
	}
	for (k = 0; k < naxes; k++)
		if (axes[k] == GS_NVTX || axes[k] == GS_ITER) {
			gsel.axis_fn = stats_axis;
			gsel.same_fn = stats_same;
		}
	gsel.arg = &c;
	gs = gstats_compute(m, &gsel, axes, naxes, 0);
	sel_free(&s);
	if (c.raw != NULL)
		nvtx_pathset_free(c.raw);
	free(c.raw);
	free(c.sid_of_node);
	nvtx_cur_free(c.cur);
	for (gi = 0; gi < gs->ng; gi++)
		stats_row(gs, out, gi, type_name);
	out->default_sort = "total_ns:desc";
	if (gs->ng == 0)
		out_warn(out, "no_match",
		    "no %s events match", type_name);
	else
		out_next(out, "gpulens search %s --type %s --name "
		    OUT_ROWF("name"),
		    out_q(out, o->args[0]), type_name);
	out_int(out->aux, "grand_total_ns", gs->grand);
	gstats_free(gs);
	return 0;
}
