/*
 * gstats-defer: a GS_LAZY grouping over the caller's runs (runrec) whose
 * second pass waits for gstats_complete() (gstats.h; the state is
 * gstats-int.h's).
 *
 * A lazy result's groups need their sums only (count, total, min, max,
 * mean) until the caller knows which it shows: `stats` shows a page of
 * them. Where the first pass walks runs (every selected track inside the
 * window), it adds each run's durations up as it counts them, and keeps
 * what the second pass needs: the runs (or, by name, each event's
 * group), the counts, the parts' marks. gstats_complete() then writes
 * the values of the groups asked only and computes their statistics.
 * At 1e8 events grouped by nvtx-path and iter, a page of 50 of the 1.7
 * million groups reads a few thousand durations, where the second pass
 * wrote 44 million.
 *
 * The sums are the same bits as those computed from the values: the
 * count, the exact total (durations below 2^31, fewer than 2^32 events:
 * it fits 63 bits), the extremes, and the mean from them by
 * stats_sums_mean(). Asked for every group (ordered by median or
 * stddev), gstats_complete() runs the second pass as a result that was
 * not deferred did, on the pool.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gstats-int.h"
#include "analysis/stats.h"
#include "model/lane.h"
#include "util/xmalloc.h"

int
gstats_defer_ok(const struct gs_ctx *c, const uint8_t *skip)
{
	const struct gstats_sel	*s = c->sel;
	const struct model	*m = c->gs->m;
	const struct lane	*l;
	struct stats		 st;
	uint32_t		 t;

	/* (stats_sums_mean() fails where this build has no 128-bit
	 * integers: the sums are then taken from the values.) */
	memset(&st, 0, sizeof st);
	st.count = 1;
	if (!(c->gs->flags & GS_LAZY) || !c->runrec ||
	    stats_sums_mean(&st) != 0 || !gstats_narrow(m, skip))
		return 0;
	/* (A track the window cuts replays its events, not its runs.) */
	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		if (!skip[t] && l->n > 0 && !gstats_inside(s, l))
			return 0;
	}
	return 1;
}

void
gstats_defer(struct gs_ctx *c, uint8_t *skip)
{
	struct gstats		*gs = c->gs;
	struct gstats_vals	*v;
	struct gs_ctx		*d;
	size_t			 gi;
	unsigned		 p;

	for (gi = 0; gi < gs->ng; gi++)
		if (gs->g[gi].dur.count > 0)
			(void)stats_sums_mean(&gs->g[gi].dur);
	if (gs->ng == 0) {
		free(skip);
		return;
	}
	v = xcalloc(1, sizeof *v);
	v->done = xcalloc(gs->ng + 1, 1);
	v->skip = skip;
	v->sel = *c->sel;
	d = xmalloc(sizeof *d);
	*d = *c;
	d->sel = &v->sel;
	/* (The first pass's own: its map, its memo by name.) */
	memset(&d->map, 0, sizeof d->map);
	d->sid_gi = d->sid_stamp = NULL;
	v->ctx = d;
	gs->vals = v;
	/* What d took. */
	c->seen = NULL;
	c->runs = NULL;
	c->dn = c->bn = NULL;
	for (p = 0; p < POOL_MAX; p++)
		c->snap_dn[p] = c->snap_bn[p] = NULL;
}

/*
 * The values of the groups todo marks only, each group's slice after
 * those of the marked groups before it (ends in dn, unmarked groups
 * empty), and their statistics.
 */
static void
gsd_marked(struct gstats *gs, struct gstats_vals *v, const uint8_t *todo)
{
	struct gs_ctx		 c = *v->ctx;
	struct gstats_vals	 w;
	const struct model	*m = gs->m;
	size_t			 gi, d = 0, icap = 0;
	uint32_t		 t, *idx = NULL;
	int64_t			 grand = gs->grand;
	uint64_t		 ne = gs->nevents;

	memset(&w, 0, sizeof w);
	w.dn = xreallocarray(NULL, gs->ng + 1, sizeof *w.dn);
	for (gi = 0; gi < gs->ng; gi++) {
		w.dn[gi] = d;		/* (the cursor, then the end) */
		if (todo[gi])
			d += v->ctx->dn[gi];
	}
	w.dv32 = xreallocarray(NULL, d + 1, sizeof *w.dv32);
	w.done = v->done;
	c.pass = 2;
	c.keep = todo;
	c.dn = w.dn;
	c.dv32 = w.dv32;
	c.next = c.rnext = 0;
	for (t = 0; t < m->ntracks; t++)
		if (!v->skip[t])
			gstats_track(&c, t, &idx, &icap);
	/* (The sums were the first pass's.) */
	gs->grand = grand;
	gs->nevents = ne;
	gstats_fill_groups(gs, &w, todo, 0);
	free(idx);
	free(w.dn);
	free(w.dv32);
}

void
gstats_defer_fill(struct gstats *gs, const uint8_t *todo)
{
	struct gstats_vals	*v = gs->vals;
	struct gs_ctx		*c = v->ctx;

	if (todo != NULL) {
		gsd_marked(gs, v, todo);
		return;
	}
	gstats_fill_values(c, v->skip);
	v->dn = c->dn;
	v->bn = c->bn;
	v->dv32 = c->dv32;
	v->dv = c->dv;
	v->bv = c->bv;
	c->dn = c->bn = NULL;
	c->dv32 = NULL;
	c->dv = c->bv = NULL;
	gstats_defer_free(v);
}

void
gstats_defer_free(struct gstats_vals *v)
{
	struct gs_ctx	*c = v->ctx;

	if (c == NULL)
		return;
	/* (No values: gstats_defer_fill() moved any into v.) */
	gstats_fill_free(c);
	free(c->seen);
	free(c->runs);
	free(c->dn);
	free(c->bn);
	free(c);
	free(v->skip);
	v->ctx = NULL;
	v->skip = NULL;
}
