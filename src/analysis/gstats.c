/*
 * gstats: events grouped by axes, with their statistics. See gstats.h.
 *
 * Groups are found through a group_map keyed by the axis values (and the
 * NVTX style), so one-axis keys below GROUP_DIRECT take one array read.
 *
 * Two passes over the same events: the first (this file) selects them
 * (the caller's filters run once), finds each one's group, remembers it
 * (NONE32 for an event a filter refused) and counts the groups; the
 * second (gstats-fill.c) walks the same events again, reads the
 * remembered groups (or, without the caller's functions, finds them
 * again) and writes every duration (and byte count) straight into its
 * group's slice of one array of exactly the right size, so no per-group
 * array grows and the statistics are computed in place. With GS_SUMS one
 * pass keeps running sums. Where the second pass would replay the first's
 * groups, the durations are narrow (and no event has bytes) and the
 * caller gives no runs, one pass appends each duration to its group's own
 * array instead (gs_append_ok()): no group remembered per event, no
 * second walk.
 *
 * A key of the name and the track's axes is looked up once per name and
 * track (gs_group_of), and where the kind alone selects, a lean loop walks
 * the lane (gs_plain). Where the caller says how far its axis values hold
 * (gstats_sel.same_fn), the group of a run's first event is found once
 * and the run recorded for the second pass (gs_runs).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/group.h"
#include "analysis/gstats.h"
#include "analysis/gstats-int.h"
#include "analysis/stats.h"
#include "analysis/tracksel.h"
#include "model/lane.h"
#include "util/xmalloc.h"

const char *const gstats_axis_names[GS_NAXES] = {
	"name", "short-name", "device", "stream", "pid", "tid", "nvtx-path",
	"iter", "kind"
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

/* Whether track t may hold selected events (tracksel.h's rule). */
static int
gs_track(const struct model *m, const struct gstats_sel *s, uint32_t t)
{
	struct tracksel	ts;

	ts.has_device = s->device != NONE32;
	ts.device = s->device;
	ts.stream = s->stream;
	ts.pid = s->pid;
	ts.tid = -1;
	ts.kind = s->kind;
	return tracksel_match(m, &ts, t);
}

static struct gstats_group *
gs_new_group(struct gs_ctx *c, size_t gi, const uint32_t *v, uint32_t t,
    uint32_t i)
{
	struct gstats		*gs = c->gs;
	const struct model	*m = gs->m;
	const struct lane	*l = &m->tracks[t].lane;
	struct gstats_group	*g;

	g = XAPPEND(gs->g, c->gcap, gi);
	gs->ng = gi + 1;
	memcpy(g->v, v, (size_t)gs->naxes * sizeof *v);
	if (gs->kind == EV_NVTX)
		g->startend = v[gs->naxes] != 0;
	g->first = model_gid(m, t, i);
	g->name = l->name[i];
	if (l->kind[i] == EV_KERNEL && l->aux[i] != NONE32 &&
	    l->aux[i] < m->nkernels)
		g->short_name = m->kernels[l->aux[i]].short_name;
	if (!(gs->flags & GS_SUMS)) {
		if (gi >= c->ncap) {
			XGROW(c->dn, c->ncap, gi + 1);
			c->bn = xreallocarray(c->bn, c->ncap, sizeof *c->bn);
		}
		c->dn[gi] = c->bn[gi] = 0;
	}
	if (c->append) {
		if (gi >= c->gvn) {
			XGROW(c->gv, c->gvn, gi + 1);
			c->gvcap = xreallocarray(c->gvcap, c->gvn,
			    sizeof *c->gvcap);
		}
		c->gv[gi] = NULL;
		c->gvcap[gi] = 0;
	}
	return g;
}

/* Group gi's bytes (GS_SUMS), the array made or grown to the groups. */
static struct stats *
gs_bytes_of(struct gs_ctx *c, size_t gi)
{
	struct gstats	*gs = c->gs;
	size_t		 old = c->bcap;

	if (gi >= c->bcap) {
		XGROW(gs->bytes, c->bcap, gs->ng);
		memset(gs->bytes + old, 0, (c->bcap - old) *
		    sizeof *gs->bytes);
	}
	return &gs->bytes[gi];
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

/* The name axes' value (GS_NAME, GS_SHORT) of event i of l. */
static inline uint32_t
gs_name_value(struct gs_ctx *c, const struct lane *l, uint32_t i, int axis)
{
	struct gstats		*gs = c->gs;
	const struct model	*m = gs->m;

	if (axis == GS_SHORT)
		return group_local(&gs->names,
		    l->kind[i] == EV_KERNEL && l->aux[i] != NONE32 ?
		    m->kernels[l->aux[i]].short_name : l->name[i]);
	return l->kind[i] == EV_API ? group_api(&gs->names, l->name[i]) :
	    group_local(&gs->names, l->name[i]);
}

/* The key of event i of track t into v (GS_NAXES + 1 entries). */
static void
gs_key(struct gs_ctx *c, uint32_t t, uint32_t i, uint32_t *v)
{
	struct gstats		*gs = c->gs;
	const struct gstats_sel	*s = c->sel;
	const struct track	*tr = &gs->m->tracks[t];
	const struct lane	*l = &tr->lane;
	int			 k;

	for (k = 0; k < gs->naxes; k++) {
		switch (gs->axes[k]) {
		case GS_NAME:
		case GS_SHORT:
			v[k] = gs_name_value(c, l, i, gs->axes[k]);
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
}

/* The group of key v, that of event i of track t (a new one if the key
 * is new). */
static size_t
gs_find(struct gs_ctx *c, const uint32_t *v, uint32_t t, uint32_t i)
{
	size_t	gi;
	int	isnew;

	/* (The second pass finds groups the first made: it writes nothing
	 * that its parts share, gstats-int.h; c->gs->ng for none.) */
	if (c->pass == 2)
		return group_map_get(&c->map, v, &c->hint);
	gi = group_map_find(&c->map, v, &isnew);
	if (isnew)
		gs_new_group(c, gi, v, t, i);
	return gi;
}

/* The group of event i of track t (a new one if its key is new). */
static size_t
gs_group(struct gs_ctx *c, uint32_t t, uint32_t i)
{
	uint32_t	v[GS_NAXES + 1];

	gs_key(c, t, i, v);
	return gs_find(c, v, t, i);
}

/*
 * Whether an event's key depends only on its name string id and its
 * track: one kind (so the name is read one way; NVTX keys add the style)
 * and no axis that reads more of the event. Sets *per_track when an axis
 * reads the track.
 */
static int
gs_sid_keyed(const struct gstats *gs, int *per_track)
{
	int	k;

	*per_track = 0;
	if (gs->kind <= 0 || gs->kind == EV_NVTX)
		return 0;
	for (k = 0; k < gs->naxes; k++) {
		switch (gs->axes[k]) {
		case GS_NAME:
			break;
		case GS_DEVICE: case GS_STREAM: case GS_PID: case GS_TID:
			*per_track = 1;
			break;
		default:
			*per_track = 0;
			return 0;
		}
	}
	return 1;
}

/* gs_group(), from the name's entry when the key allows (the first event
 * of a group is always found by gs_group(), which makes it). */
static inline size_t
gs_group_of(struct gs_ctx *c, const struct lane *l, uint32_t t, uint32_t i)
{
	uint32_t	sid = l->name[i];
	size_t		gi;

	if (!c->sid_keyed || sid >= c->nsid)
		return gs_group(c, t, i);
	if (c->sid_stamp[sid] == c->stamp)
		return c->sid_gi[sid];
	gi = gs_group(c, t, i);
	c->sid_gi[sid] = (uint32_t)gi;
	c->sid_stamp[sid] = c->stamp;
	return gi;
}

/* Stores duration dur in group gi's next slot (pass 2). */
static inline void
gs_put(struct gs_ctx *c, size_t gi, int64_t dur)
{
	if (c->dv32 == NULL)
		c->dv[c->dn[gi]] = dur;
	else if (dur <= INT32_MAX)
		c->dv32[c->dn[gi]] = (uint32_t)dur;
	else
		c->wide = 1;	/* gstats_fill_values() writes them again */
	c->dn[gi]++;
}

/* The duration of event i of l, clipped to the window with GS_CLIP. */
static inline int64_t
gs_dur(const struct gs_ctx *c, const struct lane *l, size_t i)
{
	int64_t	st = l->start[i], en = l->end[i];

	if (c->gs->flags & GS_CLIP) {
		st = st > c->sel->t0 ? st : c->sel->t0;
		en = en < c->sel->t1 ? en : c->sel->t1;
		if (en < st)
			en = st;
	}
	return en - st;
}

/* Adds event i of lane l to group gi: counts it (pass 1, which reads no
 * times), or stores its values (pass 2), or adds it to the sums
 * (GS_SUMS). */
static inline void
gs_add(struct gs_ctx *c, const struct lane *l, uint32_t i, size_t gi)
{
	struct gstats		*gs = c->gs;
	const struct model	*m = gs->m;
	struct gstats_group	*g = &gs->g[gi];
	int64_t			 dur, bytes = -1;
	int			 copy;

	copy = (l->kind[i] == EV_MEMCPY || l->kind[i] == EV_MEMSET) &&
	    l->aux[i] != NONE32 && l->aux[i] < m->ncopies;
	if (c->pass == 1 && !(gs->flags & GS_SUMS) && !c->append) {
		c->dn[gi]++;
		if (copy)
			c->bn[gi]++;
		return;
	}
	dur = gs_dur(c, l, i);
	if (copy)
		bytes = (int64_t)m->copies[l->aux[i]].bytes;
	gs->grand += dur;
	gs->nevents++;
	if (gs->flags & GS_SUMS) {
		gs_sum(&g->dur, dur);
		if (bytes >= 0)
			gs_sum(gs_bytes_of(c, gi), bytes);
		return;
	}
	if (c->append) {
		if (dur > INT32_MAX)
			c->wide = 1;	/* gstats_compute() does two passes */
		XGROW(c->gv[gi], c->gvcap[gi], c->dn[gi] + 1);
		c->gv[gi][c->dn[gi]++] = (uint32_t)dur;
		return;
	}
	gs_put(c, gi, dur);
	if (bytes >= 0)
		c->bv[c->bn[gi]++] = bytes;
}

/* Event i of track t passed the checks that do not call the caller:
 * selects and groups it (pass 1, remembering its group) or takes the
 * remembered group (pass 2), then adds it. */
static inline void
gs_visit(struct gs_ctx *c, const struct lane *l, uint32_t t, uint32_t i)
{
	const struct gstats_sel	*s = c->sel;
	size_t			 gi;

	if (c->pass == 2) {
		gi = c->replay ? c->seen[c->next++] : gs_group_of(c, l, t, i);
		if (gi < c->gs->ng)	/* (not NONE32, nor none) */
			gs_add(c, l, i, gi);
		return;
	}
	gi = NONE32;
	if (s->event == NULL || s->event(s->arg, t, i))
		gi = gs_group_of(c, l, t, i);
	if (c->replay) {
		XGROW(c->seen, c->seencap, c->nseen + 1);
		c->seen[c->nseen++] = (uint32_t)gi;
	}
	if (gi != NONE32)
		gs_add(c, l, i, gi);
}

/* Whether event i of l is of the selected kind (its window checked). */
static inline int
gs_kind(const struct gstats_sel *s, const struct lane *l, uint32_t i)
{
	if (s->kind > 0 && l->kind[i] != s->kind)
		return 0;
	if (s->kind < 0 && !(l->flags[i] & EVF_COMM))
		return 0;
	/* osrt_sum counts only the OS runtime event class. */
	if (s->kind == EV_OSRT && (l->flags[i] & EVF_NOTOSRT))
		return 0;
	return 1;
}

/*
 * Whether gs_plain() may walk the tracks: the kind alone selects (no
 * caller's filter, no style of OS runtime events), a key of the name and
 * track (gs_sid_keyed), values kept (not GS_SUMS), and no bytes (kinds
 * other than copies).
 */
static int
gs_plain_ok(const struct gs_ctx *c)
{
	const struct gstats	*gs = c->gs;

	return c->sel->event == NULL && c->sid_keyed &&
	    !(gs->flags & GS_SUMS) && gs->kind != EV_OSRT &&
	    gs->kind != EV_MEMCPY && gs->kind != EV_MEMSET;
}

/*
 * gs_visit() over n events of track t (indices ix, or 0 .. n - 1 when ix
 * is NULL) where gs_plain_ok(): the same counts and values in the same
 * slots, with the name's group read inline.
 */
static void
gs_plain(struct gs_ctx *c, const struct lane *l, uint32_t t,
    const uint32_t *ix, size_t n)
{
	struct gstats		*gs = c->gs;
	uint8_t			 kind = (uint8_t)gs->kind;
	size_t			 j, i, gi;
	uint32_t		 sid;
	int64_t			 dur, grand = 0;
	uint64_t		 ne = 0;

	for (j = 0; j < n; j++) {
		i = ix != NULL ? ix[j] : j;
		if (l->kind[i] != kind)
			continue;
		sid = l->name[i];
		if (sid < c->nsid && c->sid_stamp[sid] == c->stamp)
			gi = c->sid_gi[sid];
		else
			gi = gs_group_of(c, l, t, (uint32_t)i);
		if (c->pass == 1) {
			c->dn[gi]++;	/* (a new group moves dn) */
			continue;
		}
		if (gi >= gs->ng)
			continue;
		dur = gs_dur(c, l, i);
		grand += dur;
		ne++;
		gs_put(c, gi, dur);
	}
	gs->grand += grand;
	gs->nevents += ne;
}

/*
 * Whether gs_runs() may walk the tracks: a pass that could append (one
 * kind, narrow durations, no bytes) or one that records runs, no caller's
 * filter, the caller's runs (same_fn), and every axis the caller's or the
 * track's (so a run's events share a key), or the name (the kind is one,
 * so an event's name value is its name string's: a run's events of one
 * name share a key).
 */
static int
gs_runs_ok(const struct gs_ctx *c)
{
	const struct gstats	*gs = c->gs;
	int			 k;

	if ((!c->append && !c->runrec) || c->sel->event != NULL ||
	    c->sel->same_fn == NULL || c->sel->axis_fn == NULL ||
	    gs->kind == EV_NVTX)
		return 0;
	for (k = 0; k < gs->naxes; k++)
		switch (gs->axes[k]) {
		case GS_NVTX: case GS_ITER: case GS_NAME:
		case GS_DEVICE: case GS_STREAM: case GS_PID: case GS_TID:
			break;
		default:
			return 0;
		}
	return 1;
}

/* Whether the key has a name axis (gs_runs_ok(): GS_NAME). */
static int
gs_named(const struct gstats *gs)
{
	int	k;

	for (k = 0; k < gs->naxes; k++)
		if (gs->axes[k] == GS_NAME)
			return 1;
	return 0;
}

/* The events of the kind in [i, e) of l. */
static uint32_t
gs_run_count(const struct gs_ctx *c, const struct lane *l, uint32_t i,
    uint32_t e)
{
	const struct gstats_sel	*s = c->sel;
	uint32_t		 n = 0;

	for (; i < e; i++)
		n += gs_kind(s, l, i);
	return n;
}

/* A deferred first pass: duration dur added to group gi's sums and to
 * the result's. */
static inline void
gs_sum_dur(struct gs_ctx *c, size_t gi, int64_t dur)
{
	gs_sum(&c->gs->g[gi].dur, dur);
	c->gs->grand += dur;
	c->gs->nevents++;
}

/* A deferred first pass: the events of the kind in [i, e) of l counted
 * and added to group gi's sums. */
static void
gs_run_sums(struct gs_ctx *c, const struct lane *l, uint32_t i, uint32_t e,
    size_t gi)
{
	for (; i < e; i++)
		if (gs_kind(c->sel, l, i)) {
			gs_sum_dur(c, gi, gs_dur(c, l, i));
			c->dn[gi]++;
		}
}

/* The second pass of runrec by name over the n events of l: each event's
 * group the first pass remembered (seen), its value written into the
 * group's slice. */
static void
gs_seen_replay(struct gs_ctx *c, const struct lane *l, uint32_t n)
{
	struct gstats		*gs = c->gs;
	const struct gstats_sel	*s = c->sel;
	uint32_t		 i, *dv = c->dv32;
	const uint32_t		*seen = c->seen;
	size_t			*dn = c->dn, gi, next = c->next;
	uint8_t			 kind = (uint8_t)gs->kind;
	int64_t			 dur, grand = 0;
	uint64_t		 ne = 0;

	if (dv != NULL && c->keep == NULL && !(gs->flags & GS_CLIP) &&
	    kind == gs->kind && kind != EV_OSRT && c->nseen - next >= n) {
		/* (The same values as below, in a loop of its own.) */
		for (i = 0; i < n; i++) {
			if (l->kind[i] != kind)
				continue;
			dur = l->end[i] - l->start[i];
			grand += dur;
			ne++;
			if (dur > INT32_MAX)
				c->wide = 1;
			gi = seen[next++];
			dv[dn[gi]++] = (uint32_t)dur;
		}
		c->next = next;
		gs->grand += grand;
		gs->nevents += ne;
		return;
	}
	for (i = 0; i < n && c->next < c->nseen; i++) {
		if (!gs_kind(s, l, i))
			continue;
		gi = c->seen[c->next++];
		if (c->keep != NULL && !c->keep[gi])
			continue;
		dur = gs_dur(c, l, i);
		grand += dur;
		ne++;
		gs_put(c, gi, dur);
	}
	gs->grand += grand;
	gs->nevents += ne;
}

/* The second pass of runrec over the n events of l: the first's runs,
 * each run's values written into its group's slice (with keep, of the
 * groups it marks only). */
static void
gs_runs_replay(struct gs_ctx *c, const struct lane *l, uint32_t n)
{
	struct gstats		*gs = c->gs;
	const struct gstats_sel	*s = c->sel;
	const struct gs_run	*r;
	uint32_t		 i, e;
	int64_t			 dur, grand = 0;
	uint64_t		 ne = 0;

	for (i = 0; i < n; i = e) {
		if (!gs_kind(s, l, i) || c->rnext >= c->nruns) {
			e = i + 1;
			continue;
		}
		r = &c->runs[c->rnext++];
		e = r->end;
		if (c->keep != NULL && !c->keep[r->gi])
			continue;	/* (a group not asked) */
		for (; i < e; i++) {
			if (!gs_kind(s, l, i))
				continue;
			dur = gs_dur(c, l, i);
			grand += dur;
			ne++;
			gs_put(c, r->gi, dur);
		}
	}
	gs->grand += grand;
	gs->nevents += ne;
}

/* The key of the run from event i (of the kind) of track t into v;
 * returns its end. */
static uint32_t
gs_run_key(struct gs_ctx *c, uint32_t t, uint32_t i, uint32_t n,
    uint32_t *v)
{
	const struct gstats_sel	*s = c->sel;
	uint32_t		 e;

	gs_key(c, t, i, v);
	e = s->same_fn(s->arg, t, i, n);
	return e <= i || e > n ? i + 1 : e;
}

/*
 * A run of gs_runs() where the key has a name axis: the caller's and the
 * track's values read at its first event i (of the kind), each event of
 * the kind in the run grouped by its name string, the group of each name
 * found once in the run (stamped in sid_gi). Returns the run's end.
 */
static uint32_t
gs_run_named(struct gs_ctx *c, const struct lane *l, uint32_t t, uint32_t i,
    uint32_t n)
{
	struct gstats		*gs = c->gs;
	const struct gstats_sel	*s = c->sel;
	uint32_t		 v[GS_NAXES + 1], e, j, sid;
	size_t			 gi;
	int			 k;

	e = gs_run_key(c, t, i, n, v);
	if (++c->stamp == 0) {		/* (wrapped: every stamp is old) */
		memset(c->sid_stamp, 0, ((size_t)c->nsid + 1) *
		    sizeof *c->sid_stamp);
		c->stamp = 1;
	}
	XGROW(c->seen, c->seencap, c->nseen + (e - i));
	for (j = i; j < e; j++) {
		if (!gs_kind(s, l, j))
			continue;
		sid = l->name[j];
		if (sid < c->nsid && c->sid_stamp[sid] == c->stamp)
			gi = c->sid_gi[sid];
		else {
			for (k = 0; k < gs->naxes; k++)
				if (gs->axes[k] == GS_NAME)
					v[k] = gs_name_value(c, l, j, GS_NAME);
			gi = gs_find(c, v, t, j);
			if (sid < c->nsid) {
				c->sid_gi[sid] = (uint32_t)gi;
				c->sid_stamp[sid] = c->stamp;
			}
		}
		c->seen[c->nseen++] = (uint32_t)gi;
		c->dn[gi]++;
		if (c->defer)
			gs_sum_dur(c, gi, gs_dur(c, l, j));
	}
	return e;
}

/*
 * The first pass of runrec over the events of l from i (of the kind) on:
 * each run's group found, its events counted, the run recorded. The next
 * run's key is read before a run's group is found, so that the map can
 * start loading where that key will be looked up (group_map_prefetch()):
 * at 1e8 events, 1.7 million of the 6.9 million keys grouped by
 * nvtx-path and iter are new, each a cache miss in a table of megabytes.
 */
static void
gs_runs_rec(struct gs_ctx *c, const struct lane *l, uint32_t t, uint32_t i,
    uint32_t n)
{
	const struct gstats_sel	*s = c->sel;
	uint32_t		 v[2][GS_NAXES + 1], e, j, ej = 0;
	struct gs_run		 r;
	size_t			 gi;
	int			 cur = 0;

	e = gs_run_key(c, t, i, n, v[cur]);
	while (i < n) {
		for (j = e; j < n && !gs_kind(s, l, j); j++)
			;
		if (j < n) {
			ej = gs_run_key(c, t, j, n, v[!cur]);
			group_map_prefetch(&c->map, v[!cur]);
		}
		gi = gs_find(c, v[cur], t, i);
		if (c->defer)
			gs_run_sums(c, l, i, e, gi);
		else
			c->dn[gi] += gs_run_count(c, l, i, e);
		r.gi = (uint32_t)gi;
		r.end = e;
		(void)XPUSH(c->runs, c->runcap, c->nruns, r);
		i = j;
		e = ej;
		cur = !cur;
	}
}

/*
 * gs_visit() over the n events of track t where gs_runs_ok(): the group
 * of the first event of the kind of each of the caller's runs found (so
 * groups are made in the same order), then every event of the kind in
 * the run added to it: counted in the first pass, which records the run
 * (or by name, run_named, each event's group), and written in the second
 * (runrec), into slices of one array: a grouping by nvtx-path and iter at
 * 1e8 events has 1.7 million groups of 26 kernels on average, whose
 * arrays of their own cost more to grow than to fill.
 */
static void
gs_runs(struct gs_ctx *c, const struct lane *l, uint32_t t, uint32_t n)
{
	const struct gstats_sel	*s = c->sel;
	uint32_t		 i, e;

	if (c->pass == 2) {
		if (c->run_named)
			gs_seen_replay(c, l, n);
		else
			gs_runs_replay(c, l, n);
		return;
	}
	for (i = 0; i < n; i = e) {
		if (!gs_kind(s, l, i)) {
			e = i + 1;
			continue;
		}
		if (c->run_named) {
			e = gs_run_named(c, l, t, i, n);
			continue;
		}
		gs_runs_rec(c, l, t, i, n);
		return;
	}
}

void
gstats_track(struct gs_ctx *c, uint32_t t, uint32_t **idx, size_t *icap)
{
	const struct gstats_sel	*s = c->sel;
	const struct lane	*l = &c->gs->m->tracks[t].lane;
	size_t			 i, n;

	if (l->n == 0)
		return;
	if (c->per_track)
		c->stamp = t + 1;
	if (gstats_inside(s, l)) {
		/*
		 * Every event starts inside, so every one overlaps (end >=
		 * start >= t0; one ending at t0 is a zero-length one at t0):
		 * no window query, no times read.
		 */
		if (gs_plain_ok(c)) {
			gs_plain(c, l, t, NULL, l->n);
			return;
		}
		if (gs_runs_ok(c)) {
			gs_runs(c, l, t, (uint32_t)l->n);
			return;
		}
		for (i = 0; i < l->n; i++)
			if (gs_kind(s, l, (uint32_t)i))
				gs_visit(c, l, t, (uint32_t)i);
		return;
	}
	n = lane_overlap(l, s->t0, s->t1, idx, icap);
	if (gs_plain_ok(c)) {
		gs_plain(c, l, t, *idx, n);
		return;
	}
	for (i = 0; i < n; i++)
		if (gs_kind(s, l, (*idx)[i]))
			gs_visit(c, l, t, (*idx)[i]);
}

int
gstats_inside(const struct gstats_sel *s, const struct lane *l)
{
	return s->t0 <= l->start[0] && s->t1 > l->start[l->n - 1];
}

int
gstats_narrow(const struct model *m, const uint8_t *skip)
{
	uint32_t	t;

	for (t = 0; t < m->ntracks; t++)
		if (!skip[t] && m->tracks[t].lane.maxdur > INT32_MAX)
			return 0;
	return 1;
}

/*
 * Whether one pass appending each group's durations to its own array
 * (c->append) replaces the two: where the second would replay the
 * first's groups (so no remembered group per event is needed), the
 * durations are narrow and no event has bytes. Their order in a group is
 * that of the two passes, so the statistics are the same.
 */
static int
gs_append_ok(const struct gs_ctx *c, const uint8_t *skip)
{
	const struct gstats	*gs = c->gs;

	return c->replay && gs->kind > 0 && gs->kind != EV_MEMCPY &&
	    gs->kind != EV_MEMSET && gstats_narrow(gs->m, skip);
}

struct gstats *
gstats_compute(const struct model *m, const struct gstats_sel *sel,
    const int *axes, int naxes, unsigned flags)
{
	struct gstats		*gs;
	struct gs_ctx		 c;
	uint32_t		*idx = NULL, t;
	size_t			 icap = 0, gi, nv;
	uint8_t			*skip;

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
	skip = xcalloc((size_t)m->ntracks + 1, 1);
	c.sid_keyed = gs_sid_keyed(gs, &c.per_track);
	if (c.sid_keyed || (sel->axis_fn != NULL && gs_named(gs))) {
		c.nsid = strpool_count(m->strs);
		c.sid_gi = xreallocarray(NULL, (size_t)c.nsid + 1,
		    sizeof *c.sid_gi);
		c.sid_stamp = xcalloc_rw((size_t)c.nsid + 1,
		    sizeof *c.sid_stamp);
		c.stamp = 1;
	}
	c.pass = 1;
	/* Without the caller's functions the second pass finds the groups
	 * again (a few array reads); with them it replays the first's. */
	c.replay = !(flags & GS_SUMS) && (sel->event != NULL ||
	    sel->axis_fn != NULL);
	for (t = 0; t < m->ntracks; t++)
		skip[t] = !gs_track(m, sel, t) ||
		    (sel->track != NULL && !sel->track(sel->arg, t));
	if (gs_append_ok(&c, skip)) {
		c.append = 1;
		c.replay = 0;
		if (gs_runs_ok(&c)) {
			c.run_named = gs_named(gs);
			/* (Tracks the window cuts replay their events.) */
			c.append = 0;
			c.replay = 1;
			c.runrec = 1;
			/* (gstats_track(): a plain walk comes first.) */
			c.defer = !gs_plain_ok(&c) &&
			    gstats_defer_ok(&c, skip);
		}
	}
	gstats_fill_parts(&c, skip);
	for (t = 0; t < m->ntracks; t++) {
		if (c.nparts > 1)
			gstats_fill_mark(&c, t);
		if (!skip[t])
			gstats_track(&c, t, &idx, &icap);
	}
	if (c.defer) {
		gstats_defer(&c, skip);		/* (takes skip) */
		skip = NULL;
	} else if (c.append && !c.wide) {
		gstats_fill_stats(&c);
	} else if (!(flags & GS_SUMS) && gs->ng > 0) {
		/* (After an append pass, dn holds the counts, and the
		 * second pass finds the groups again.) */
		c.append = 0;
		gstats_fill_values(&c, skip);
		gstats_fill_stats(&c);
	}
	if (c.bcap > 0)		/* (GS_SUMS: every group's bytes) */
		(void)gs_bytes_of(&c, gs->ng - 1);
	gstats_fill_free(&c);
	group_map_free(&c.map);
	free(skip);
	free(idx);
	free(c.seen);
	free(c.runs);
	free(c.sid_gi);
	free(c.sid_stamp);
	free(c.dn);
	free(c.bn);
	free(c.dv);
	free(c.dv32);
	free(c.bv);
	for (gi = 0; c.gv != NULL && gi < gs->ng; gi++)
		free(c.gv[gi]);
	free(c.gv);
	free(c.gvcap);
	return gs;
}

void
gstats_free(struct gstats *gs)
{
	if (gs == NULL)
		return;
	gstats_vals_free(gs);
	group_names_free(&gs->names);
	free(gs->g);
	free(gs->bytes);
	free(gs);
}

const struct stats *
gstats_bytes(const struct gstats *gs, size_t gi)
{
	static const struct stats	none;

	return gs->bytes != NULL && gi < gs->ng ? &gs->bytes[gi] : &none;
}

const char *
gstats_str(const struct gstats *gs, uint32_t id)
{
	return group_str(&gs->names, id);
}
