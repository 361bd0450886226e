/*
 * cache-plan: the column groups, and the job plan (jobs and frame
 * lengths) derived from a model's counts alone. See cache-int.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache-int.h"
#include "util/xmalloc.h"

/*
 * Fills cols[] with the columns of group g for owner which, starting at
 * element i0, and returns their number. lflags are the lane's LANE_* bits
 * (for GRP_LANE). With m NULL only widths and transforms are filled (the plan
 * needs no more).
 */
size_t
cache_group_cols(const struct model *m, int g, uint32_t which, int lflags,
    size_t i0, struct cache_col *cols)
{
	const struct lane	*l = NULL;
	const struct iset	*dc = NULL;
	size_t			 n = 0;

#define COL(ptr, w, xf, rf) do {					\
	cols[n].p = m != NULL ? (void *)((ptr) + i0) : NULL;		\
	cols[n].width = (w);						\
	cols[n].xform = (xf);						\
	cols[n++].ref = (rf);						\
} while (0)
	if (m != NULL && (g == GRP_LANE || g == GRP_LBUSY || g == GRP_PYR ||
	    g == GRP_LCOV))
		l = &m->tracks[which].lane;
	if (m != NULL && (g == GRP_DCOV || g == GRP_DBUSY))
		dc = &m->device_cov[which];
	switch (g) {
	case GRP_LANE:
		COL(l->start, 8, XF_DELTA, 0);
		COL(l->end, 8, XF_DIFF, 0);		/* the duration */
		COL(l->name, 4, XF_NONE, 0);
		COL(l->kind, 1, XF_NONE, 0);
		COL(l->flags, 1, XF_NONE, 0);
		if (lflags & LANE_WIDE)
			COL(l->rowid64, 8, XF_DELTA, 0);
		else
			COL(l->rowid32, 4, XF_DELTA, 0);
		COL(l->corr, 4, XF_DELTA, 0);
		COL(l->aux, 4, XF_DELTA, 0);
		if (lflags & LANE_OVERLAPS) {
			COL(l->depth, 2, XF_NONE, 0);
			COL(l->maxend, 8, XF_DIFF, 1);	/* maxend - end */
			COL(l->ends_sorted, 8, XF_DELTA, 0);
		}
		break;
	case GRP_LBUSY:
		COL(l->cov.pre, 8, XF_DELTA, 0);
		break;
	case GRP_PYR:
		COL(l->pyr, 4, XF_DELTA, 0);
		break;
	case GRP_LCOV:
		COL(l->cov.start, 8, XF_DELTA, 0);
		COL(l->cov.end, 8, XF_DIFF, 0);
		break;
	case GRP_LAUNCH:
		COL(m->launch, 4, XF_DELTA, 0);
		break;
	case GRP_GPU:
		COL(m->gpu_of_api, 4, XF_DELTA, 0);
		break;
	case GRP_GIDX:
		COL(m->gpu_of_api_idx, 4, XF_DELTA, 0);
		break;
	case GRP_DCOV:
		COL(dc->start, 8, XF_DELTA, 0);
		COL(dc->end, 8, XF_DIFF, 0);
		break;
	case GRP_DBUSY:
		COL(dc->pre, 8, XF_DELTA, 0);
		break;
	}
#undef COL
	return n;
}

int
cache_lflags(const struct cache_lanedim *ld)
{
	return (ld->overlaps ? LANE_OVERLAPS : 0) | (ld->wide ? LANE_WIDE : 0);
}

int
cache_lane_lflags(const struct lane *l)
{
	return (l->overlaps ? LANE_OVERLAPS : 0) |
	    (l->rowid64 != NULL ? LANE_WIDE : 0);
}

/* Adds a job of nf frames; -1 if the lengths overflow. */
static int
cache_plan_add(struct cache_plan *p, int type, int group, uint32_t which,
    size_t i0, size_t n, const uint64_t *lens, size_t nf)
{
	struct cache_job	*j;
	size_t			 f;

	XGROW(p->jobs, p->jobcap, p->njobs + 1);
	j = &p->jobs[p->njobs++];
	j->type = (uint8_t)type;
	j->group = (uint8_t)group;
	j->ncols = (uint8_t)nf;
	j->which = which;
	j->i0 = i0;
	j->n = n;
	j->frame = p->nframes;
	XGROW(p->rawlen, p->framecap, p->nframes + nf);
	for (f = 0; f < nf; f++) {
		if (lens[f] > SIZE_MAX / 4 || p->raw_size + lens[f] >
		    SIZE_MAX / 4)
			return -1;
		p->rawlen[p->nframes++] = lens[f];
		p->raw_size += lens[f];
	}
	return 0;
}

/* Adds the job of a column group of count elements (none for none): its
 * frames are the group's arrays, whole. */
static int
cache_plan_group(struct cache_plan *p, int g, uint32_t which, int lflags,
    uint64_t count)
{
	struct cache_col	cols[CACHE_MAXCOLS];
	uint64_t		lens[CACHE_MAXCOLS];
	size_t			k, ncol;

	if (count > UINT32_MAX)
		return -1;
	if (count == 0)
		return 0;
	ncol = cache_group_cols(NULL, g, which, lflags, 0, cols);
	for (k = 0; k < ncol; k++)
		lens[k] = count * cols[k].width;
	return cache_plan_add(p, JOB_COLS, g, which, 0, (size_t)count, lens,
	    ncol);
}

/*
 * Points the arrays of group g of owner which at frames[] (one per column,
 * as cache_group_cols() lists them) and returns their number.
 */
size_t
cache_group_bind(struct model *m, int g, uint32_t which, int lflags,
    uint8_t *const *frames)
{
	struct lane	*l = NULL;
	struct iset	*dc = NULL;
	size_t		 n = 0;

#define BIND(field) do {							(field) = (void *)frames[n++];					} while (0)
	if (g == GRP_LANE || g == GRP_LBUSY || g == GRP_PYR || g == GRP_LCOV)
		l = &m->tracks[which].lane;
	if (g == GRP_DCOV || g == GRP_DBUSY)
		dc = &m->device_cov[which];
	switch (g) {
	case GRP_LANE:
		BIND(l->start);
		BIND(l->end);
		BIND(l->name);
		BIND(l->kind);
		BIND(l->flags);
		if (lflags & LANE_WIDE)
			BIND(l->rowid64);
		else
			BIND(l->rowid32);
		BIND(l->corr);
		BIND(l->aux);
		if (lflags & LANE_OVERLAPS) {
			BIND(l->depth);
			BIND(l->maxend);
			BIND(l->ends_sorted);
		}
		break;
	case GRP_LBUSY:
		BIND(l->cov.pre);
		break;
	case GRP_PYR:
		BIND(l->pyr);
		break;
	case GRP_LCOV:
		BIND(l->cov.start);
		BIND(l->cov.end);
		break;
	case GRP_LAUNCH:
		BIND(m->launch);
		break;
	case GRP_GPU:
		BIND(m->gpu_of_api);
		break;
	case GRP_GIDX:
		BIND(m->gpu_of_api_idx);
		break;
	case GRP_DCOV:
		BIND(dc->start);
		BIND(dc->end);
		break;
	case GRP_DBUSY:
		BIND(dc->pre);
		break;
	}
#undef BIND
	return n;
}

/* Builds the jobs and frame lengths from the counts alone (frame 0's
 * length is set by the caller). Returns -1 if a count is absurd. */
int
cache_plan_build(struct cache_plan *p, const struct cache_counts *c)
{
	const struct cache_lanedim	*ld;
	uint64_t			 lens[2];
	size_t				 t;
	int				 k;

	memset(p, 0, sizeof *p);
	XGROW(p->rawlen, p->framecap, 1);
	p->rawlen[0] = 0;
	p->nframes = 1;

	if (c->nstrs > 1) {
		lens[0] = (uint64_t)(c->nstrs - 1) * 4;
		lens[1] = c->strbytes;
		if (cache_plan_add(p, JOB_STRINGS, 0, 0, 0, 0, lens, 2) != 0)
			return -1;
	}
	p->nhead = p->nframes;
	for (k = 0; k < TAB_COUNT; k++) {
		if (c->ntab[k] > UINT32_MAX)
			return -1;
		if (c->ntab[k] == 0)
			continue;
		lens[0] = c->ntab[k] * cache_tab_width[k];
		if (cache_plan_add(p, JOB_TABLE, 0, (uint32_t)k, 0,
		    (size_t)c->ntab[k], lens, 1) != 0)
			return -1;
	}
	for (t = 0; t < c->ntracks; t++)
		if (cache_plan_group(p, GRP_LANE, (uint32_t)t,
		    cache_lflags(&c->lanes[t]), c->lanes[t].n) != 0)
			return -1;
	for (t = 0; t < c->ntracks; t++) {
		ld = &c->lanes[t];
		if (cache_plan_group(p, GRP_LBUSY, (uint32_t)t, 0,
		    lane_cov_nsums(ld->n, ld->overlaps, ld->cov_n)) != 0 ||
		    cache_plan_group(p, GRP_PYR, (uint32_t)t, 0,
		    lane_pyr_size(ld->n)) != 0 ||
		    cache_plan_group(p, GRP_LCOV, (uint32_t)t, 0,
		    ld->cov_n) != 0)
			return -1;
	}
	if (c->has_launch && (cache_plan_group(p, GRP_LAUNCH, 0, 0,
	    c->nlaunch) != 0 || cache_plan_group(p, GRP_GPU, 0, 0,
	    c->nlinks) != 0 || cache_plan_group(p, GRP_GIDX, 0, 0,
	    (c->nlinks + CORR_IDX_STEP - 1) / CORR_IDX_STEP) != 0))
		return -1;
	for (t = 0; t < c->ndcov; t++)
		if (cache_plan_group(p, GRP_DCOV, (uint32_t)t, 0,
		    c->dcov_n[t]) != 0 || cache_plan_group(p, GRP_DBUSY,
		    (uint32_t)t, 0, (c->dcov_n[t] >> ISET_SHIFT) + 1) != 0)
			return -1;
	return 0;
}

void
cache_plan_free(struct cache_plan *p)
{
	free(p->jobs);
	free(p->rawlen);
}

void
cache_counts_free(struct cache_counts *c)
{
	free(c->lanes);
	free(c->dcov_n);
}

/* A model's side table k as bytes. */
uint8_t *
cache_table(const struct model *m, int k)
{
	switch (k) {
	case TAB_KERNELS:
		return (uint8_t *)m->kernels;
	case TAB_COPIES:
		return (uint8_t *)m->copies;
	case TAB_NVTX:
		return (uint8_t *)m->nvtx;
	case TAB_OPS:
		return (uint8_t *)m->ops;
	case TAB_CFRAMES:
		return (uint8_t *)m->cs.frame;
	case TAB_CHOFF:
		return (uint8_t *)m->cs.off;
	case TAB_CHFR:
		return (uint8_t *)m->cs.fr;
	case TAB_STHREADS:
		return (uint8_t *)m->cs.th;
	case TAB_SAMPLES:
		return (uint8_t *)m->cs.s;
	case TAB_SCHEDTHR:
		return (uint8_t *)m->sched_threads;
	case TAB_SCHED:
		return (uint8_t *)m->sched_runs;
	default:
		return (uint8_t *)m->counters;
	}
}

/* Points the model's side table k at p. */
void
cache_table_bind(struct model *m, int k, void *p)
{
	switch (k) {
	case TAB_KERNELS:
		m->kernels = p;
		break;
	case TAB_COPIES:
		m->copies = p;
		break;
	case TAB_NVTX:
		m->nvtx = p;
		break;
	case TAB_OPS:
		m->ops = p;
		break;
	case TAB_CFRAMES:
		m->cs.frame = p;
		break;
	case TAB_CHOFF:
		m->cs.off = p;
		break;
	case TAB_CHFR:
		m->cs.fr = p;
		break;
	case TAB_STHREADS:
		m->cs.th = p;
		break;
	case TAB_SAMPLES:
		m->cs.s = p;
		break;
	case TAB_SCHEDTHR:
		m->sched_threads = p;
		break;
	case TAB_SCHED:
		m->sched_runs = p;
		break;
	default:
		m->counters = p;
		break;
	}
}

/* The counts that describe m's file layout. */
void
cache_counts_of(const struct model *m, struct cache_counts *c)
{
	const struct lane	*l;
	size_t			 i;

	memset(c, 0, sizeof *c);
	c->nstrs = strpool_count(m->strs);
	for (i = 1; i < c->nstrs; i++)
		c->strbytes += strpool_len(m->strs, (uint32_t)i);
	c->ntab[TAB_KERNELS] = m->nkernels;
	c->ntab[TAB_COPIES] = m->ncopies;
	c->ntab[TAB_NVTX] = m->nnvtx;
	c->ntab[TAB_COUNTERS] = m->ncounters;
	c->ntab[TAB_OPS] = m->nops;
	c->ntab[TAB_CFRAMES] = m->cs.nframes;
	c->ntab[TAB_CHOFF] = m->cs.nchains != 0 ? m->cs.nchains + 1 : 0;
	c->ntab[TAB_CHFR] = m->cs.nfr;
	c->ntab[TAB_STHREADS] = m->cs.nth;
	c->ntab[TAB_SAMPLES] = m->cs.ns;
	c->ntab[TAB_SCHEDTHR] = m->nsched_threads;
	c->ntab[TAB_SCHED] = m->nsched_runs;
	c->ntracks = m->ntracks;
	if (m->ntracks > 0)
		c->lanes = xcalloc(m->ntracks, sizeof *c->lanes);
	for (i = 0; i < m->ntracks; i++) {
		l = &m->tracks[i].lane;
		c->lanes[i].n = l->n;
		c->lanes[i].overlaps = l->overlaps != 0;
		c->lanes[i].wide = l->rowid64 != NULL;
		c->lanes[i].cov_n = l->overlaps ? l->cov.n : 0;
		c->nevents += l->n;
	}
	c->has_launch = m->launch != NULL;
	if (c->has_launch) {
		c->nlaunch = m->nlaunch;
		c->nlinks = m->ngpu_of_api;
	}
	if (m->device_cov != NULL && m->ndevices > 0) {
		c->ndcov = m->ndevices;
		c->dcov_n = xcalloc(m->ndevices, sizeof *c->dcov_n);
		for (i = 0; i < m->ndevices; i++)
			c->dcov_n[i] = m->device_cov[i].n;
	}
}
