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
 * total, as nsys computes "Time (%)".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/group.h"
#include "util/hmap.h"
#include "model/nvtx.h"
#include "model/correlate.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"

#define STATS_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_TYPE | OPT_GROUP | OPT_NVTXDOM)

static int	stats_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);

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
	.options = STATS_OPTS,
	.run = stats_run
};

/* Grouping axes. */
enum axis {
	AX_NAME, AX_SHORT, AX_DEVICE, AX_STREAM, AX_PID, AX_TID, AX_NVTX,
	AX_ITER, AX_KIND, AX_COUNT
};
static const char *axis_names[AX_COUNT] = {
	"name", "short-name", "device", "stream", "pid", "tid", "nvtx-path",
	"iter", "kind"
};
static const char *axis_fields[AX_COUNT] = {
	"name", "short_name", "device", "stream", "pid", "tid", "nvtx_path",
	"iter", "kind"
};

struct stats_group {
	struct stats_sample dur;
	struct stats_sample bytes;
};

struct stats_ctx {
	const struct model	*m;
	const char		*domain;	/* --nvtx-domain, or NULL */
	struct group_names	 names;		/* derived names, paths */
	struct hmap		 path_of;	/* range gid -> local path sid */
	int			 axes[AX_COUNT];
	int			 naxes;
	int			 need_range;	/* an axis needs the NVTX range */
	struct group_map	 map;		/* axis values -> group */
	struct stats_group	*g;
	size_t			 gcap;
	int64_t			 grand;		/* total of the durations */
	struct stats_acc	 sorted;	/* scratch of stats_sample_compute */
};

/* Innermost NVTX range enclosing a CPU time on a thread, or for GPU
 * events, around the launching API call. */
static uint32_t
stats_range_of(const struct model *m, uint32_t t, uint32_t i,
    const char *domain)
{
	const struct track	*tr = &m->tracks[t];
	uint32_t		 api;
	struct evref		 r;

	if (tr->type == TRACK_GPU) {
		api = correlate_launch(m, model_gid(m, t, i));
		if (api == NONE32)
			return NONE32;
		r = model_ev(m, api);
		tr = &m->tracks[r.track];
		return nvtx_enclosing_in(m, tr->thread,
		    tr->lane.start[r.idx], domain);
	}
	if (tr->type == TRACK_NVTX) {
		uint32_t gid = model_gid(m, t, i), aux = tr->lane.aux[i];
		if (tr->lane.kind[i] == EV_NVTX)
			return gid;
		return aux != NONE32 ? m->nvtx[aux].parent : NONE32;
	}
	if (tr->thread == NONE32)
		return NONE32;
	return nvtx_enclosing_in(m, tr->thread, tr->lane.start[i], domain);
}

static uint32_t
stats_path(struct stats_ctx *c, uint32_t range)
{
	char		 buf[4096];
	uint32_t	 v;

	if (range == NONE32)
		return 0;
	if (hmap_get(&c->path_of, range, &v))
		return v;
	nvtx_family_path(c->m, range, buf, sizeof buf);
	v = strpool_intern0(c->names.local, buf);
	hmap_put(&c->path_of, range, v);
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

static void
stats_add(struct stats_ctx *c, uint32_t t, uint32_t i, int kind)
{
	const struct model	*m = c->m;
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	uint32_t		 v[AX_COUNT + 1], range = NONE32;
	int			 k, isnew;
	size_t			 gi;
	int64_t			 dur = l->end[i] - l->start[i];
	struct stats_group	*g;

	v[0] = 0;
	if (c->need_range)
		range = stats_range_of(m, t, i, c->domain);
	for (k = 0; k < c->naxes; k++) {
		switch (c->axes[k]) {
		case AX_NAME:
			v[k] = l->kind[i] == EV_API ?
			    group_api(&c->names, l->name[i]) :
			    group_local(&c->names, l->name[i]);
			break;
		case AX_SHORT:
			v[k] = group_local(&c->names,
			    l->kind[i] == EV_KERNEL && l->aux[i] != NONE32 ?
			    m->kernels[l->aux[i]].short_name : l->name[i]);
			break;
		case AX_DEVICE:
			v[k] = tr->device;
			break;
		case AX_STREAM:
			v[k] = tr->stream;
			break;
		case AX_PID:
			v[k] = tr->process;
			break;
		case AX_TID:
			v[k] = tr->thread;
			break;
		case AX_NVTX:
			v[k] = stats_path(c, range);
			break;
		case AX_ITER:
			v[k] = stats_iter(m, range);
			break;
		case AX_KIND:
			v[k] = l->kind[i];
			break;
		}
	}
	/* nvtx_sum separates push/pop from start/end ranges. */
	if (kind == EV_NVTX)
		v[k] = (l->flags[i] & EVF_STARTEND) != 0;
	gi = group_map_find(&c->map, v, &isnew);
	if (isnew) {
		XGROW(c->g, c->gcap, gi + 1);
		stats_sample_init(&c->g[gi].dur);
		stats_sample_init(&c->g[gi].bytes);
	}
	g = &c->g[gi];
	stats_sample_add(&g->dur, dur);
	c->grand += dur;
	if ((l->kind[i] == EV_MEMCPY || l->kind[i] == EV_MEMSET) &&
	    l->aux[i] != NONE32 && l->aux[i] < m->ncopies)
		stats_sample_add(&g->bytes, (int64_t)m->copies[l->aux[i]].bytes);
}

static void
stats_row(struct stats_ctx *c, struct out *out, size_t gi, int kind,
    const char *type_name)
{
	const struct model	*m = c->m;
	struct stats_group	*g = &c->g[gi];
	const uint32_t		*v = group_map_key(&c->map, gi);
	cJSON			*row = out_row(out);
	struct stats		 s;
	char			 key[8192], num[32];
	size_t			 o = 0;
	int			 k, ax;
	int64_t			 grand = c->grand;

	stats_sample_compute(&g->dur, &s, &c->sorted);
	o = (size_t)snprintf(key, sizeof key, "%s", type_name);
	for (k = 0; k < c->naxes; k++) {
		ax = c->axes[k];
		switch (ax) {
		case AX_NAME: case AX_SHORT: case AX_NVTX:
			group_key_part(key, sizeof key, &o, axis_fields[ax],
			    group_str(&c->names, v[k]));
			out_str(row, axis_fields[ax],
			    group_str(&c->names, v[k]));
			break;
		case AX_DEVICE:
			snprintf(num, sizeof num, "%u", v[k] == NONE32 ?
			    0 : m->devices[v[k]].source_id);
			group_key_part(key, sizeof key, &o, "device", num);
			if (v[k] == NONE32)
				cJSON_AddNullToObject(row, "device");
			else
				out_int(row, "device",
				    m->devices[v[k]].source_id);
			break;
		case AX_STREAM:
			if (v[k] == NONE32) {
				cJSON_AddNullToObject(row, "stream");
				break;
			}
			snprintf(num, sizeof num, "%llu", (unsigned long long)
			    m->streams[v[k]].source_id);
			group_key_part(key, sizeof key, &o, "stream", num);
			out_int(row, "stream",
			    (int64_t)m->streams[v[k]].source_id);
			break;
		case AX_PID:
			if (v[k] == NONE32) {
				cJSON_AddNullToObject(row, "pid");
				break;
			}
			snprintf(num, sizeof num, "%u",
			    m->processes[v[k]].pid);
			group_key_part(key, sizeof key, &o, "pid", num);
			out_int(row, "pid", m->processes[v[k]].pid);
			break;
		case AX_TID:
			if (v[k] == NONE32) {
				cJSON_AddNullToObject(row, "tid");
				break;
			}
			snprintf(num, sizeof num, "%u",
			    m->threads[v[k]].tid);
			group_key_part(key, sizeof key, &o, "tid", num);
			out_int(row, "tid", m->threads[v[k]].tid);
			break;
		case AX_ITER:
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
		case AX_KIND:
			group_key_part(key, sizeof key, &o, "kind",
			    ev_kind_name((int)v[k]));
			out_str(row, "kind", ev_kind_name((int)v[k]));
			break;
		}
	}
	if (kind == EV_NVTX) {
		const char *style = v[c->naxes] ? "StartEnd" : "PushPop";
		group_key_part(key, sizeof key, &o, "style", style);
		out_str(row, "style", style);
	}
	cJSON_AddItemToObject(row, "key", cJSON_CreateString(key));
	out_int(row, "count", (int64_t)s.count);
	out_int(row, "total_ns", s.total);
	out_num(row, "share_pct", grand > 0 ? 100.0 * (double)s.total /
	    (double)grand : 0.0);
	out_num(row, "mean_ns", s.mean);
	out_num(row, "median_ns", s.median);
	out_int(row, "min_ns", s.min);
	out_int(row, "max_ns", s.max);
	out_num(row, "stddev_ns", s.stddev);
	if (g->bytes.n > 0) {
		stats_sample_compute(&g->bytes, &s, &c->sorted);
		out_int(row, "total_bytes", s.total);
		out_num(row, "mean_bytes", s.mean);
		out_num(row, "median_bytes", s.median);
		out_int(row, "min_bytes", s.min);
		out_int(row, "max_bytes", s.max);
		out_num(row, "stddev_bytes", s.stddev);
	}
}

static const char *stats_columns[] = {
	"count", "total_ns", "share_pct", "mean_ns", "median_ns", "min_ns",
	"max_ns", "stddev_ns", "total_bytes", "device", "stream", "pid", "tid",
	"iter", "kind", "style", "short_name", "nvtx_path", "name", NULL
};

static int
stats_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	struct sel		 s;
	struct stats_ctx	 c;
	uint32_t		*idx = NULL;
	size_t			 icap = 0, k, i, gi;
	uint32_t		 t;
	int			 kind = o->type != 0 ? o->type : EV_KERNEL, rc = 0;
	const char		*type_name = o->type_name != NULL ?
				    o->type_name : "kernel";

	memset(&c, 0, sizeof c);
	c.m = m;
	c.domain = o->nvtx_domain;
	group_names_init(&c.names, m);
	hmap_init(&c.path_of);
	if (group_parse_axes(o->group_by, "name", axis_names, AX_COUNT, 0,
	    c.axes, &c.naxes, cause) != 0 ||
	    sel_init(&s, m, o, cause) != 0) {
		rc = -1;
		goto done;
	}
	for (k = 0; k < (size_t)c.naxes; k++)
		if (c.axes[k] == AX_NVTX || c.axes[k] == AX_ITER)
			c.need_range = 1;
	/* The key: one value per axis, and the NVTX style. */
	k = (size_t)c.naxes + (kind == EV_NVTX);
	group_map_init(&c.map, k > 0 ? k : 1);
	s.kind = kind;
	if (sel_window_empty(&s))
		out_warn(out, "the window lies outside the trace");
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (!sel_track(&s, t))
			continue;
		k = lane_overlap(&tr->lane, s.t0, s.t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			if (!sel_event(&s, t, idx[i]))
				continue;
			/* osrt_sum counts only the OS runtime event class. */
			if (kind == EV_OSRT &&
			    (tr->lane.flags[idx[i]] & EVF_NOTOSRT))
				continue;
			stats_add(&c, t, idx[i], kind);
		}
	}
	sel_free(&s);
	for (gi = 0; gi < c.map.ng; gi++)
		stats_row(&c, out, gi, kind, type_name);
	out->default_sort = "total_ns:desc";
	out->columns = stats_columns;
	if (c.map.ng == 0)
		out_warn(out, "no %s events match", type_name);
	else
		out_next(out, "gpulens search %s --type %s --name NAME",
		    o->args[0], type_name);
	out_int(out->aux, "grand_total_ns", c.grand);
done:
	for (gi = 0; gi < c.map.ng; gi++) {
		stats_sample_free(&c.g[gi].dur);
		stats_sample_free(&c.g[gi].bytes);
	}
	free(c.g);
	stats_acc_free(&c.sorted);
	group_names_free(&c.names);
	group_map_free(&c.map);
	hmap_free(&c.path_of);
	free(idx);
	(void)code;
	return rc;
}
