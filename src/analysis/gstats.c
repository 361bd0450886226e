/*
 * gstats: events grouped by axes, with their statistics. See gstats.h.
 *
 * Groups are found through a group_map keyed by the axis values (and the
 * NVTX style), so one-axis keys below GROUP_DIRECT take one array read.
 * Each group keeps its durations (and byte counts) as a stats_sample until
 * every event is in, then computes its statistics and drops the sample;
 * with GS_SUMS it keeps running sums instead.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/group.h"
#include "analysis/gstats.h"
#include "analysis/stats.h"
#include "model/lane.h"
#include "util/xmalloc.h"

const char *const gstats_axis_names[GS_NAXES] = {
	"name", "short-name", "device", "stream", "pid", "tid", "nvtx-path",
	"iter", "kind"
};

/* A group while events come in. */
struct gs_acc {
	struct stats_sample	 dur;
	struct stats_sample	 bytes;
};

struct gs_ctx {
	struct gstats		*gs;
	const struct gstats_sel	*sel;
	struct group_map	 map;
	struct gs_acc		*acc;		/* per group, unless GS_SUMS */
	size_t			 gcap, acap;
};

void
gstats_sel_all(struct gstats_sel *s)
{
	memset(s, 0, sizeof *s);
	s->t0 = INT64_MIN;
	s->t1 = INT64_MAX;
	s->device = NONE32;
	s->stream = -1;
	s->pid = -1;
}

int
gstats_parse_axes(const char *spec, int *axes, int *naxes, char **cause)
{
	return group_parse_axes(spec, "name", gstats_axis_names, GS_NAXES, 0,
	    axes, naxes, cause);
}

/* Whether track t may hold selected events (select.c's sel_track rule). */
static int
gs_track(const struct model *m, const struct gstats_sel *s, uint32_t t)
{
	const struct track	*tr = &m->tracks[t];
	int			 gpu = tr->type == TRACK_GPU ||
				    tr->type == TRACK_SYNC;

	if (s->device != NONE32 && (!gpu || tr->device != s->device))
		return 0;
	if (s->stream >= 0 && (!gpu || tr->stream >= m->nstreams ||
	    m->streams[tr->stream].source_id != (uint64_t)s->stream))
		return 0;
	if (s->pid >= 0 && (tr->process == NONE32 ||
	    m->processes[tr->process].pid != (uint64_t)s->pid))
		return 0;
	if (s->kind > 0) {
		switch (s->kind) {
		case EV_KERNEL: case EV_MEMCPY: case EV_MEMSET: case EV_GRAPH:
			return tr->type == TRACK_GPU;
		case EV_SYNC:
			return tr->type == TRACK_SYNC;
		case EV_API:
			return tr->type == TRACK_API;
		case EV_OSRT:
			return tr->type == TRACK_OSRT;
		case EV_NVTX: case EV_MARK:
			return tr->type == TRACK_NVTX;
		default:
			return 1;
		}
	}
	if (s->kind < 0)
		return tr->type == TRACK_GPU || tr->type == TRACK_NVTX;
	return 1;
}

static struct gstats_group *
gs_new_group(struct gs_ctx *c, size_t gi, const uint32_t *v, uint32_t t,
    uint32_t i)
{
	struct gstats		*gs = c->gs;
	const struct model	*m = gs->m;
	const struct lane	*l = &m->tracks[t].lane;
	struct gstats_group	*g;

	XGROW(gs->g, c->gcap, gi + 1);
	gs->ng = gi + 1;
	g = &gs->g[gi];
	memset(g, 0, sizeof *g);
	memcpy(g->v, v, (size_t)gs->naxes * sizeof *v);
	if (gs->kind == EV_NVTX)
		g->startend = v[gs->naxes] != 0;
	g->first = model_gid(m, t, i);
	g->name = l->name[i];
	if (l->kind[i] == EV_KERNEL && l->aux[i] != NONE32 &&
	    l->aux[i] < m->nkernels)
		g->short_name = m->kernels[l->aux[i]].short_name;
	if (!(gs->flags & GS_SUMS)) {
		XGROW(c->acc, c->acap, gi + 1);
		stats_sample_init(&c->acc[gi].dur);
		stats_sample_init(&c->acc[gi].bytes);
	}
	return g;
}

/* Adds a value to running sums (GS_SUMS). */
static void
gs_sum(struct stats *st, int64_t x)
{
	if (st->count == 0 || x < st->min)
		st->min = x;
	if (st->count == 0 || x > st->max)
		st->max = x;
	st->count++;
	st->total += x;
}

static void
gs_add(struct gs_ctx *c, uint32_t t, uint32_t i)
{
	struct gstats		*gs = c->gs;
	const struct gstats_sel	*s = c->sel;
	const struct model	*m = gs->m;
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	struct gstats_group	*g;
	uint32_t		 v[GS_NAXES + 1];
	int64_t			 dur, st, en, bytes = -1;
	size_t			 gi;
	int			 k, isnew;

	for (k = 0; k < gs->naxes; k++) {
		switch (gs->axes[k]) {
		case GS_NAME:
			v[k] = l->kind[i] == EV_API ?
			    group_api(&gs->names, l->name[i]) :
			    group_local(&gs->names, l->name[i]);
			break;
		case GS_SHORT:
			v[k] = group_local(&gs->names,
			    l->kind[i] == EV_KERNEL && l->aux[i] != NONE32 ?
			    m->kernels[l->aux[i]].short_name : l->name[i]);
			break;
		case GS_DEVICE:
			v[k] = tr->device;
			break;
		case GS_STREAM:
			v[k] = tr->stream;
			break;
		case GS_PID:
			v[k] = tr->process;
			break;
		case GS_TID:
			v[k] = tr->thread;
			break;
		case GS_NVTX:
		case GS_ITER:
			v[k] = s->axis_fn != NULL ? s->axis_fn(s->arg,
			    &gs->names, gs->axes[k], t, i) : 0;
			break;
		case GS_KIND:
			v[k] = l->kind[i];
			break;
		}
	}
	if (k == 0)
		v[0] = 0;
	/* nvtx_sum separates push/pop from start/end ranges. */
	if (gs->kind == EV_NVTX)
		v[k] = (l->flags[i] & EVF_STARTEND) != 0;
	gi = group_map_find(&c->map, v, &isnew);
	g = isnew ? gs_new_group(c, gi, v, t, i) : &gs->g[gi];
	st = l->start[i];
	en = l->end[i];
	if (gs->flags & GS_CLIP) {
		st = st > s->t0 ? st : s->t0;
		en = en < s->t1 ? en : s->t1;
		if (en < st)
			en = st;
	}
	dur = en - st;
	if ((l->kind[i] == EV_MEMCPY || l->kind[i] == EV_MEMSET) &&
	    l->aux[i] != NONE32 && l->aux[i] < m->ncopies)
		bytes = (int64_t)m->copies[l->aux[i]].bytes;
	gs->grand += dur;
	gs->nevents++;
	if (gs->flags & GS_SUMS) {
		gs_sum(&g->dur, dur);
		if (bytes >= 0)
			gs_sum(&g->bytes, bytes);
		return;
	}
	stats_sample_add(&c->acc[gi].dur, dur);
	if (bytes >= 0)
		stats_sample_add(&c->acc[gi].bytes, bytes);
}

/* Whether event i of l overlaps [t0, t1) (lane_overlap()'s rule). */
static int
gs_overlaps(const struct lane *l, size_t i, int64_t t0, int64_t t1)
{
	return l->start[i] < t1 && (l->end[i] > t0 ||
	    (l->end[i] == l->start[i] && l->start[i] >= t0));
}

/* Whether event i of track t is selected (its window checked). */
static int
gs_event(struct gs_ctx *c, uint32_t t, uint32_t i)
{
	const struct gstats_sel	*s = c->sel;
	const struct lane	*l = &c->gs->m->tracks[t].lane;

	if (s->kind > 0 && l->kind[i] != s->kind)
		return 0;
	if (s->kind < 0 && !(l->flags[i] & EVF_COMM))
		return 0;
	/* osrt_sum counts only the OS runtime event class. */
	if (s->kind == EV_OSRT && (l->flags[i] & EVF_NOTOSRT))
		return 0;
	return s->event == NULL || s->event(s->arg, t, i);
}

/* Adds the selected events of track t. */
static void
gs_track_events(struct gs_ctx *c, uint32_t t, uint32_t **idx, size_t *icap)
{
	const struct gstats_sel	*s = c->sel;
	const struct lane	*l = &c->gs->m->tracks[t].lane;
	size_t			 i, n;

	if (l->n == 0)
		return;
	if (s->t0 <= l->start[0] && s->t1 > l->start[l->n - 1]) {
		/* Every event starts inside: no window query. */
		for (i = 0; i < l->n; i++)
			if (gs_overlaps(l, i, s->t0, s->t1) &&
			    gs_event(c, t, (uint32_t)i))
				gs_add(c, t, (uint32_t)i);
		return;
	}
	n = lane_overlap(l, s->t0, s->t1, idx, icap);
	for (i = 0; i < n; i++)
		if (gs_event(c, t, (*idx)[i]))
			gs_add(c, t, (*idx)[i]);
}

struct gstats *
gstats_compute(const struct model *m, const struct gstats_sel *sel,
    const int *axes, int naxes, unsigned flags)
{
	struct gstats		*gs;
	struct gs_ctx		 c;
	struct stats_acc	 scratch;
	uint32_t		*idx = NULL, t;
	size_t			 icap = 0, gi, nv;

	gs = xcalloc(1, sizeof *gs);
	gs->m = m;
	group_names_init(&gs->names, m);
	if (naxes > GS_NAXES)
		naxes = GS_NAXES;
	memcpy(gs->axes, axes, (size_t)naxes * sizeof *axes);
	gs->naxes = naxes;
	gs->kind = sel->kind;
	gs->flags = flags;
	memset(&c, 0, sizeof c);
	c.gs = gs;
	c.sel = sel;
	/* The key: one value per axis, and the NVTX style. */
	nv = (size_t)naxes + (sel->kind == EV_NVTX);
	group_map_init(&c.map, nv > 0 ? nv : 1);
	for (t = 0; t < m->ntracks; t++) {
		if (!gs_track(m, sel, t) ||
		    (sel->track != NULL && !sel->track(sel->arg, t)))
			continue;
		gs_track_events(&c, t, &idx, &icap);
	}
	free(idx);
	group_map_free(&c.map);
	if (!(flags & GS_SUMS)) {
		stats_acc_init(&scratch);
		for (gi = 0; gi < gs->ng; gi++) {
			stats_sample_compute(&c.acc[gi].dur, &gs->g[gi].dur,
			    &scratch);
			stats_sample_compute(&c.acc[gi].bytes,
			    &gs->g[gi].bytes, &scratch);
			stats_sample_free(&c.acc[gi].dur);
			stats_sample_free(&c.acc[gi].bytes);
		}
		stats_acc_free(&scratch);
		free(c.acc);
	}
	return gs;
}

void
gstats_free(struct gstats *gs)
{
	if (gs == NULL)
		return;
	group_names_free(&gs->names);
	free(gs->g);
	free(gs);
}

const char *
gstats_str(const struct gstats *gs, uint32_t id)
{
	return group_str(&gs->names, id);
}
