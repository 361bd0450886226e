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
 * of the shared options and the nvtx-path and iter axes (the values of
 * analysis/kpath.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/evpage.h"
#include "headless/evrow.h"
#include "analysis/group.h"
#include "analysis/gstats.h"
#include "analysis/kpath.h"
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
	struct kpath		*kp;		/* the axes' values */
};

/* The nvtx-path or iter value of event i of track t (gstats axis_fn). */
static uint32_t
stats_axis(void *arg, struct group_names *names, int axis, uint32_t t,
    uint32_t i)
{
	struct stats_ctx	*c = arg;

	return kpath_value(c->kp, names->local, axis, t, i);
}

/* How far the values of event i of track t hold (gstats same_fn). */
static uint32_t
stats_same(void *arg, uint32_t t, uint32_t i, uint32_t hi)
{
	struct stats_ctx	*c = arg;

	return kpath_same(c->kp, t, i, hi);
}

/*
 * With the nvtx-path or iter axis over GPU events, the runs of the
 * selected GPU tracks are worked out on background threads
 * (kpath_runs()), beside gstats' first pass over the tracks before them.
 */
static void
stats_runs(struct stats_ctx *c, int kind, const int *axes, int naxes)
{
	const struct model	*m = c->m;
	uint8_t			*use;
	uint32_t		 t;
	int			 k, nvtx = 0, iter = 0;

	for (k = 0; k < naxes; k++) {
		iter |= axes[k] == GS_ITER;
		nvtx |= axes[k] == GS_NVTX;
	}
	if ((!nvtx && !iter) || (kind != EV_KERNEL && kind != EV_MEMCPY &&
	    kind != EV_MEMSET))
		return;
	use = xcalloc((size_t)m->ntracks + 1, 1);
	for (t = 0; t < m->ntracks; t++)
		use[t] = m->tracks[t].type == TRACK_GPU && sel_track(c->sel, t);
	kpath_runs(c->kp, use, nvtx, iter);
	free(use);
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

/* A group's share of the grand total, as its row's share_pct. */
static double
stats_share(const struct gstats *gs, const struct stats *s)
{
	return gs->grand > 0 ? 100.0 * (double)s->total / (double)gs->grand :
	    0.0;
}

static void
stats_row(const struct gstats *gs, struct out *out, size_t gi,
    const char *type_name)
{
	const struct model		*m = gs->m;
	const struct gstats_group	*g = &gs->g[gi];
	const uint32_t			*v = g->v;
	const struct stats		*s = &g->dur, *b = gstats_bytes(gs, gi);
	cJSON				*row = out_row(out);
	char				 key[8192], num[32];
	size_t				 o = 0;
	int				 k, ax;
	uint64_t			 n;
	enum evrow_ident		 id;

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
	out_num(row, "share_pct", stats_share(gs, s));
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

/*
 * The page of groups: rows are cJSON objects of about a kilobyte, and a
 * grouping by nvtx-path and iter at 1e8 events has 1.7 million groups, of
 * which a page shows 50. With --limit, sorted by one of stats_page_fields
 * (the default, total_ns, is one), rows are made only of the groups that
 * can be on the page: those whose value is not after the offset +
 * limit-th value in the sort's direction, widened by the rounding of a
 * row's number (out_num(): three decimals), so that every group out.c
 * could order before the page's last row by its key (a tie) is kept.
 * out.c then sorts and pages them as it would all the rows. The groups
 * come with their sums only (GS_LAZY): ordered by one of them (count,
 * total_ns, min_ns, max_ns, share_pct, mean_ns), the page is chosen from
 * the sums and only its groups get the rest (median, deviation); ordered
 * by median_ns or stddev_ns, every group gets it first.
 */
enum stats_page_field {
	SP_COUNT, SP_TOTAL, SP_MIN, SP_MAX,		/* out_int() */
	SP_SHARE, SP_MEAN, SP_MEDIAN, SP_STDDEV		/* out_num() */
};
static const char *const stats_page_fields[] = {
	"count", "total_ns", "min_ns", "max_ns",
	"share_pct", "mean_ns", "median_ns", "stddev_ns", NULL
};

/* Field f (stats_page_fields) of group g, as its row has it before the
 * rounding. */
static double
stats_page_value(const struct gstats *gs, const struct gstats_group *g,
    int f)
{
	const struct stats	*s = &g->dur;

	switch (f) {
	case SP_COUNT:
		return (double)s->count;
	case SP_TOTAL:
		return (double)s->total;
	case SP_MIN:
		return (double)s->min;
	case SP_MAX:
		return (double)s->max;
	case SP_SHARE:
		return stats_share(gs, s);
	case SP_MEAN:
		return s->mean;
	case SP_MEDIAN:
		return s->median;
	default:
		return s->stddev;
	}
}

/* Sifts v[i] down the heap v[0 .. n) whose root is its least value
 * (top: the largest values kept) or its greatest. */
static void
stats_page_down(double *v, size_t n, size_t i, int top)
{
	size_t	c;
	double	x;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && (top ? v[c + 1] < v[c] : v[c + 1] > v[c]))
			c++;
		if (top ? v[i] <= v[c] : v[i] >= v[c])
			break;
		x = v[i];
		v[i] = v[c];
		v[c] = x;
	}
}

/*
 * Marks in keep[] the groups that can be on the page (see above) and
 * returns 1, or returns 0 when every group is to be a row.
 */
static int
stats_page(struct gstats *gs, const struct opts *o,
    const struct out *out, uint8_t *keep)
{
	double		*h, v, kth, fuzz;
	size_t		 k, n = 0, gi, i;
	int		 f, desc;

	f = evpage_field(o->sort != NULL ? o->sort : "total_ns:desc",
	    stats_page_fields, &desc);
	if (f == SP_MEDIAN || f == SP_STDDEV)
		gstats_complete(gs, NULL);
	if (f < 0 || out->limit <= 0 || out->offset < 0 ||
	    out->offset > (long long)gs->ng ||
	    out->limit > (long long)gs->ng - out->offset)
		return 0;
	k = (size_t)(out->offset + out->limit);
	/* The k best values: a heap whose root is the k-th. */
	h = xreallocarray(NULL, k, sizeof *h);
	for (gi = 0; gi < gs->ng; gi++) {
		v = stats_page_value(gs, &gs->g[gi], f);
		if (v != v) {		/* (no row writes a NaN: null) */
			free(h);
			return 0;
		}
		if (n < k) {
			h[n++] = v;
			if (n == k)
				for (i = k / 2 + 1; i-- > 0; )
					stats_page_down(h, k, i, desc);
		} else if (desc ? v > h[0] : v < h[0]) {
			h[0] = v;
			stats_page_down(h, k, 0, desc);
		}
	}
	kth = h[0];
	free(h);
	fuzz = f >= SP_SHARE ? 0.001 : 0;
	for (gi = 0; gi < gs->ng; gi++) {
		v = stats_page_value(gs, &gs->g[gi], f);
		keep[gi] = desc ? v >= kth - fuzz : v <= kth + fuzz;
	}
	return 1;
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
	int			 axes[GS_NAXES], naxes, k, paged;
	size_t			 gi;
	uint8_t			*keep;
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
	c.kp = kpath_new(m, o->nvtx_domain);
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
	if (gsel.axis_fn != NULL)
		stats_runs(&c, kind, axes, naxes);
	gs = gstats_compute(m, &gsel, axes, naxes, GS_LAZY);
	sel_free(&s);
	kpath_free(c.kp);
	keep = xcalloc(gs->ng + 1, 1);
	paged = stats_page(gs, o, out, keep);
	gstats_complete(gs, paged ? keep : NULL);
	for (gi = 0; gi < gs->ng; gi++)
		if (!paged || keep[gi])
			stats_row(gs, out, gi, type_name);
	if (paged)
		out->total_matched = (long long)gs->ng;
	free(keep);
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
