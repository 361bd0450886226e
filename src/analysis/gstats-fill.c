/*
 * gstats-fill: the second pass of gstats_compute() and the statistics of
 * its groups (gstats.h; the state is gstats-int.h's).
 *
 * The second pass writes the values of the events the first counted into
 * slices of one array, group after group. Where it is split in parts
 * (ranges of tracks in model order, gstats_fill_parts()), each group's
 * slice is split too: part p's values of group g go after those of the
 * parts before it, at the offset the first pass's counts at each part's
 * start give (gstats_fill_mark()). The array holds the same values in the
 * same order as one thread would write them, and the parts write without
 * locks, each on its own copy of the state.
 *
 * The statistics of the groups are independent: they are shared out on
 * the pool too (gstats_fill_stats()).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gstats-int.h"
#include "analysis/stats.h"
#include "util/pool.h"
#include "util/xmalloc.h"

/*
 * The second pass is split where its tracks hold this many selected
 * events or more: at 1e8 events it writes 44 million kernel durations,
 * a third of `stats`' time after the load, on one thread.
 */
size_t	gstats_fill_part_min = (size_t)1 << 18;

void
gstats_fill_parts(struct gs_ctx *c, const uint8_t *skip)
{
	const struct model	*m = c->gs->m;
	uint64_t		 total = 0, acc = 0;
	unsigned		 nt = pool_sweep_threads(), p = 1;
	uint32_t		 t;

	c->nparts = 1;
	c->part_t[0] = 0;
	c->part_t[1] = m->ntracks;
	/* A second pass that asks the caller's functions (the groups
	 * found again, not replayed) stays on the caller's thread. */
	if ((c->gs->flags & GS_SUMS) || c->append ||
	    (c->sel->axis_fn != NULL && !c->replay))
		return;
	for (t = 0; t < m->ntracks; t++)
		if (!skip[t])
			total += m->tracks[t].lane.n;
	if (nt > POOL_MAX)
		nt = POOL_MAX;
	if (nt < 2 || total < gstats_fill_part_min)
		return;
	/* Part p from the first track with p / nt of the events before. */
	for (t = 0; t < m->ntracks && p < nt; t++) {
		if (acc * nt >= total * p)
			c->part_t[p++] = t;
		if (!skip[t])
			acc += m->tracks[t].lane.n;
	}
	c->nparts = p;
	c->part_t[p] = m->ntracks;
}

void
gstats_fill_mark(struct gs_ctx *c, uint32_t t)
{
	size_t		ng = c->gs->ng;
	unsigned	p;

	for (p = 1; p < c->nparts && c->part_t[p] != t; p++)
		;
	if (p >= c->nparts || c->snap_dn[p] != NULL)
		return;
	c->snap_ng[p] = ng;
	c->snap_dn[p] = xreallocarray(NULL, ng + 1, sizeof **c->snap_dn);
	c->snap_bn[p] = xreallocarray(NULL, ng + 1, sizeof **c->snap_bn);
	if (ng > 0) {
		memcpy(c->snap_dn[p], c->dn, ng * sizeof **c->snap_dn);
		memcpy(c->snap_bn[p], c->bn, ng * sizeof **c->snap_bn);
	}
	c->seen_at[p] = c->nseen;
	c->runs_at[p] = c->nruns;
}

void
gstats_fill_free(struct gs_ctx *c)
{
	unsigned	p;

	for (p = 0; p < POOL_MAX; p++) {
		free(c->snap_dn[p]);
		free(c->snap_bn[p]);
		c->snap_dn[p] = c->snap_bn[p] = NULL;
	}
}

/* Group gi's count in snapshot s (of part p's start; 0 for part 0). */
static inline size_t
gsf_snap(const struct gs_ctx *c, size_t *const *s, unsigned p, size_t gi)
{
	return p == 0 || gi >= c->snap_ng[p] ? 0 : s[p][gi];
}

/*
 * The first slot of each part's slice of each group (cur[p * ng + gi],
 * bcur likewise), from the first pass's counts (dn, bn) and the marks.
 */
static void
gsf_cursors(const struct gs_ctx *c, size_t *cur, size_t *bcur)
{
	size_t		ng = c->gs->ng, gi, d = 0, b = 0, hi;
	unsigned	p, np = c->nparts;

	for (gi = 0; gi < ng; gi++)
		for (p = 0; p < np; p++) {
			cur[p * ng + gi] = d;
			bcur[p * ng + gi] = b;
			hi = p + 1 < np ? gsf_snap(c, c->snap_dn, p + 1, gi) :
			    c->dn[gi];
			d += hi - gsf_snap(c, c->snap_dn, p, gi);
			hi = p + 1 < np ? gsf_snap(c, c->snap_bn, p + 1, gi) :
			    c->bn[gi];
			b += hi - gsf_snap(c, c->snap_bn, p, gi);
		}
}

/* A part's copy of the state (the copy of struct gstats takes its sums). */
struct gsf_part {
	struct gs_ctx		 c;
	struct gstats		 gs;
	POOL_PAD;
};

struct gsf_fill {
	struct gs_ctx		*c;
	const uint8_t		*skip;
	size_t			*cur, *bcur;
	struct gsf_part		 w[POOL_MAX];
};

/* Part p of the second pass, on its own copy of the state. */
static int
gsf_part_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct gsf_fill	*f = arg;
	struct gsf_part	*w = &f->w[job];
	struct gs_ctx	*c = &w->c;
	size_t		 ng = f->c->gs->ng, icap = 0;
	uint32_t	 t, *idx = NULL;
	unsigned	 p = (unsigned)job;

	(void)tid;
	(void)cause;
	*c = *f->c;
	w->gs = *f->c->gs;
	c->gs = &w->gs;
	w->gs.grand = 0;
	w->gs.nevents = 0;
	c->pass = 2;
	c->wide = 0;
	c->hint = 0;
	c->dn = f->cur + (size_t)p * ng;
	c->bn = f->bcur + (size_t)p * ng;
	c->next = p > 0 ? f->c->seen_at[p] : 0;
	c->rnext = p > 0 ? f->c->runs_at[p] : 0;
	if (c->sid_keyed) {
		/* (Found again in this pass: the part's own memo.) */
		c->sid_gi = xreallocarray(NULL, (size_t)c->nsid + 1,
		    sizeof *c->sid_gi);
		c->sid_stamp = xcalloc((size_t)c->nsid + 1,
		    sizeof *c->sid_stamp);
		c->stamp = 1;
	}
	for (t = c->part_t[p]; t < c->part_t[p + 1]; t++)
		if (!f->skip[t])
			gstats_track(c, t, &idx, &icap);
	if (c->sid_keyed) {
		free(c->sid_gi);
		free(c->sid_stamp);
	}
	free(idx);
	return 0;
}

/*
 * Durations are kept in 32 bits, half the memory, when every selected
 * track's longest event fits (and, should one not after all, the pass is
 * run again keeping 64).
 */
void
gstats_fill_values(struct gs_ctx *c, const uint8_t *skip)
{
	struct gsf_fill	*f;
	size_t		 ng = c->gs->ng, gi, d = 0, b = 0;
	unsigned	 p, np = c->nparts, nt = pool_sweep_threads();
	int		 wide;

	for (gi = 0; gi < ng; gi++) {
		d += c->dn[gi];
		b += c->bn[gi];
	}
	f = xcalloc(1, sizeof *f);
	f->c = c;
	f->skip = skip;
	f->cur = xreallocarray(NULL, (size_t)np * ng + 1, sizeof *f->cur);
	f->bcur = xreallocarray(NULL, (size_t)np * ng + 1, sizeof *f->bcur);
	if (gstats_narrow(c->gs->m, skip))
		c->dv32 = xreallocarray(NULL, d + 1, sizeof *c->dv32);
	else
		c->dv = xreallocarray(NULL, d + 1, sizeof *c->dv);
	c->bv = xreallocarray(NULL, b + 1, sizeof *c->bv);
	if (nt > np)
		nt = np;
	for (;;) {
		gsf_cursors(c, f->cur, f->bcur);
		(void)pool_run(np, nt, gsf_part_job, f, NULL);
		c->gs->grand = 0;
		c->gs->nevents = 0;
		for (p = 0, wide = 0; p < np; p++) {
			c->gs->grand += f->w[p].gs.grand;
			c->gs->nevents += f->w[p].gs.nevents;
			wide |= f->w[p].c.wide;
		}
		if (!wide)
			break;
		free(c->dv32);
		c->dv32 = NULL;
		c->dv = xreallocarray(NULL, d + 1, sizeof *c->dv);
	}
	/* The last part's cursors are each group's end. */
	if (ng > 0) {
		memcpy(c->dn, f->cur + (size_t)(np - 1) * ng,
		    ng * sizeof *c->dn);
		memcpy(c->bn, f->bcur + (size_t)(np - 1) * ng,
		    ng * sizeof *c->bn);
	}
	free(f->cur);
	free(f->bcur);
	free(f);
}

/* A thread's working memory for the statistics. */
struct gsf_scratch {
	struct stats_acc	 acc;
	POOL_PAD;
};

/*
 * gstats_fill_groups()'s jobs: job j computes the groups lo[j] ..
 * lo[j + 1] that keep marks (all without it), their sums only with sums
 * set.
 */
struct gsf_fin {
	struct gstats		*gs;
	const struct gstats_vals *v;
	const uint8_t		*keep;
	int			 sums;
	size_t			*lo;
	struct gsf_scratch	 s[POOL_MAX];
};

/* The statistics of group gi from its values in v (or their sums). */
static void
gsf_group(struct gstats *gs, const struct gstats_vals *v, size_t gi,
    int sums, struct stats_acc *scratch)
{
	struct gstats_group	*g = &gs->g[gi];
	size_t			 d, b, n, nb;
	const int64_t		*bv;

	if (v->gv != NULL) {
		stats_compute_narrow(v->gv[gi], v->dn[gi], 0, &g->dur,
		    scratch);
		return;
	}
	/* (dn and bn hold each group's end.) */
	d = gi > 0 ? v->dn[gi - 1] : 0;
	b = gi > 0 && v->bn != NULL ? v->bn[gi - 1] : 0;
	n = v->dn[gi] - d;
	nb = v->bn != NULL ? v->bn[gi] - b : 0;
	bv = nb > 0 ? v->bv + b : NULL;
	/* (gs->bytes is there where any group has bytes.) */
	if (sums && (v->dv32 != NULL ? stats_sums_narrow(v->dv32 + d, n, 0,
	    &g->dur) : stats_sums(v->dv + d, n, &g->dur)) == 0 &&
	    (gs->bytes == NULL || stats_sums(bv, nb, &gs->bytes[gi]) == 0))
		return;
	if (v->dv32 != NULL)
		stats_compute_narrow(v->dv32 + d, n, 0, &g->dur, scratch);
	else
		stats_compute(v->dv + d, n, &g->dur);
	if (gs->bytes != NULL)
		stats_compute((int64_t *)bv, nb, &gs->bytes[gi]);
	if (v->done != NULL)
		v->done[gi] = 1;
}

static int
gsf_stats_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct gsf_fin	*f = arg;
	size_t		 gi;

	(void)cause;
	for (gi = f->lo[job]; gi < f->lo[job + 1]; gi++)
		if (f->keep == NULL || f->keep[gi])
			gsf_group(f->gs, f->v, gi, f->sums, &f->s[tid].acc);
	return 0;
}

/* The values of group gi in v. */
static size_t
gsf_nvalues(const struct gstats_vals *v, size_t gi)
{
	if (v->gv != NULL)
		return v->dn[gi];
	return v->dn[gi] - (gi > 0 ? v->dn[gi - 1] : 0) + (v->bn == NULL ? 0 :
	    v->bn[gi] - (gi > 0 ? v->bn[gi - 1] : 0));
}

/*
 * The statistics (or sums) of the groups keep marks (all without it),
 * from their values in v. The groups are independent: with GSF_STATS_MIN
 * values or more they are shared out on the pool in GSF_STATS_JOBS jobs a
 * thread of about as many values each (a grouping by nvtx-path and iter at
 * 1e8 events sorts 44 million durations in 1.7 million groups).
 */
#define GSF_STATS_MIN	(1u << 16)
#define GSF_STATS_JOBS	8

void
gstats_fill_groups(struct gstats *gs, const struct gstats_vals *v,
    const uint8_t *keep, int sums)
{
	struct gsf_fin	*f;
	size_t		 ng = gs->ng, gi, total = 0, acc, nj = 0, per, w;
	unsigned	 nt = pool_sweep_threads(), k;

	for (gi = 0; gi < ng; gi++)
		if (keep == NULL || keep[gi])
			total += gsf_nvalues(v, gi);
	/* (bn holds each group's end: the last, every byte count.) */
	if (gs->bytes == NULL && v->gv == NULL && v->bn != NULL && ng > 0 &&
	    v->bn[ng - 1] > 0)
		gs->bytes = xcalloc(ng, sizeof *gs->bytes);
	if (nt > POOL_MAX)
		nt = POOL_MAX;
	if (total < GSF_STATS_MIN || ng < 2)
		nt = 1;
	f = xcalloc(1, sizeof *f);
	f->gs = gs;
	f->v = v;
	f->keep = keep;
	f->sums = sums;
	f->lo = xcalloc((size_t)nt * GSF_STATS_JOBS + 2, sizeof *f->lo);
	per = total / ((size_t)nt * GSF_STATS_JOBS) + 1;
	for (gi = 0, acc = 0; gi < ng; gi++) {
		if (gi == 0 || acc >= per) {
			f->lo[nj++] = gi;
			acc = 0;
		}
		w = keep == NULL || keep[gi] ? gsf_nvalues(v, gi) : 0;
		acc += w;
	}
	f->lo[nj] = ng;
	for (k = 0; k < nt; k++)
		stats_acc_init(&f->s[k].acc);
	(void)pool_run(nj, nt, gsf_stats_job, f, NULL);
	for (k = 0; k < nt; k++)
		stats_acc_free(&f->s[k].acc);
	free(f->lo);
	free(f);
}

void
gstats_fill_stats(struct gs_ctx *c)
{
	struct gstats		*gs = c->gs;
	struct gstats_vals	 v, *kept;

	memset(&v, 0, sizeof v);
	v.gv = c->append ? c->gv : NULL;
	v.dn = c->dn;
	v.bn = c->bn;
	v.dv32 = c->dv32;
	v.dv = c->dv;
	v.bv = c->bv;
	if (!(gs->flags & GS_LAZY) || c->append) {
		gstats_fill_groups(gs, &v, NULL, 0);
		return;
	}
	/* GS_LAZY: the sums now, the rest in gstats_complete(), from the
	 * values, which the result keeps. */
	gstats_fill_groups(gs, &v, NULL, 1);
	kept = xmalloc(sizeof *kept);
	*kept = v;
	kept->done = xcalloc(gs->ng + 1, 1);
	gs->vals = kept;
	c->dn = c->bn = NULL;
	c->dv32 = NULL;
	c->dv = c->bv = NULL;
}

void
gstats_complete(struct gstats *gs, const uint8_t *keep)
{
	struct gstats_vals	*v = gs->vals;
	uint8_t			*todo;
	size_t			 gi;

	if (v == NULL)
		return;
	todo = xcalloc(gs->ng + 1, 1);
	for (gi = 0; gi < gs->ng; gi++)
		todo[gi] = !v->done[gi] && (keep == NULL || keep[gi]);
	if (v->ctx != NULL && keep != NULL) {
		/* (Deferred: the values of these groups only.) */
		gstats_defer_fill(gs, todo);
	} else {
		if (v->ctx != NULL)
			gstats_defer_fill(gs, NULL);
		gstats_fill_groups(gs, v, todo, 0);
	}
	free(todo);
	if (keep == NULL)
		gstats_vals_free(gs);
}

void
gstats_vals_free(struct gstats *gs)
{
	struct gstats_vals	*v = gs->vals;

	if (v == NULL)
		return;
	gstats_defer_free(v);
	free(v->dn);
	free(v->bn);
	free(v->dv32);
	free(v->dv);
	free(v->bv);
	free(v->done);
	free(v);
	gs->vals = NULL;
}
