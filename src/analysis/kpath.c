/*
 * kpath: the NVTX path and iteration around events, asked by the caller
 * (kpath.h; the walkers and the state are kpath-int.h's, the runs
 * kpath-runs.c's).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gstats.h"
#include "analysis/kpath-int.h"
#include "analysis/kpfam.h"
#include "model/correlate.h"
#include "model/nvtx.h"
#include "model/nvtxcur.h"
#include "util/lbound.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

void
kp_walker_init(struct kp_walker *w, const struct model *m, const char *dom)
{
	memset(w, 0, sizeof *w);
	w->m = m;
	w->it_parent = NONE32;
	w->cur = nvtx_cur_new(m, dom);
	w->strs = strpool_new();
	w->last_range = NONE32;
	w->api_t = NONE32;
	w->thread = NONE32;
}

static void
kp_walker_free(struct kp_walker *w)
{
	kpfam_free(w->fam);
	nvtx_cur_free(w->cur);
	strpool_free(w->strs);
}

static void
kp_ids_free(struct kp_ids *ids)
{
	free(ids->map);
	while (ids->npub > 0)
		free(ids->pub[--ids->npub]);
	free(ids->pub);
}

struct kpath *
kpath_new(const struct model *m, const char *domain)
{
	struct kpath	*kp = xcalloc(1, sizeof *kp);

	kp->m = m;
	kp->domain = domain;
	kp->nw = 1;
	kp_walker_init(&kp->w[0], m, domain);
	kp->last_t = kp->run_t = NONE32;
	return kp;
}

void
kpath_free(struct kpath *kp)
{
	unsigned	k;

	if (kp == NULL)
		return;
	kp_runs_free(kp);	/* (first: its threads use the walkers) */
	for (k = 0; k < kp->nw; k++) {
		kp_walker_free(&kp->w[k]);
		kp_ids_free(&kp->ids[k]);
	}
	free(kp);
}

/* Innermost NVTX range enclosing a CPU time on a thread, or for GPU
 * events, around the launching API call (found from the track of the
 * last one, api_t, as a stream's work mostly comes from one thread). */
uint32_t
kp_range(struct kp_walker *w, uint32_t t, uint32_t i)
{
	const struct model	*m = w->m;
	const struct track	*tr = &m->tracks[t];
	uint32_t		 api, gid, aux;
	struct evref		 r;

	w->thread = NONE32;
	w->launched = 0;
	if (tr->type == TRACK_GPU) {
		api = correlate_launch(m, model_gid(m, t, i));
		if (api == NONE32)
			return NONE32;
		r = model_ev_near(m, api, &w->api_t);
		tr = &m->tracks[r.track];
		w->thread = tr->thread;
		w->at = tr->lane.start[r.idx];
		w->launched = 1;
		return nvtx_cur_at(w->cur, w->thread, w->at);
	}
	if (tr->type == TRACK_NVTX) {
		gid = model_gid(m, t, i);
		aux = tr->lane.aux[i];
		if (tr->lane.kind[i] == EV_NVTX)
			return gid;
		return aux != NONE32 ? m->nvtx[aux].parent : NONE32;
	}
	if (tr->thread == NONE32)
		return NONE32;
	return nvtx_cur_at(w->cur, tr->thread, tr->lane.start[i]);
}

/* The path id (+ 1, 0 none) of range's family path in w's pool. */
uint32_t
kp_path(struct kp_walker *w, uint32_t range)
{
	if (range == NONE32)
		return 0;
	if (range == w->last_range)
		return w->last_id;
	if (w->fam == NULL)
		w->fam = kpfam_new(w->m, w->strs);
	w->last_range = range;
	w->last_id = kpfam_id(w->fam, range) + 1;
	return w->last_id;
}

/* Path id (+ 1) of walker wk as an id of pool (0 for none). */
static uint32_t
kp_pool_id(struct kpath *kp, unsigned wk, uint32_t id,
    struct strpool *pool)
{
	struct kp_ids	*x = &kp->ids[wk];
	size_t		 old;
	unsigned	 k;

	if (id == 0)
		return 0;
	if (pool != kp->pool) {
		for (k = 0; k < kp->nw; k++)
			if (kp->ids[k].map != NULL)
				memset(kp->ids[k].map, 0, kp->ids[k].mapcap *
				    sizeof *kp->ids[k].map);
		kp->pool = pool;
	}
	if (id < x->mapcap && x->map[id] != 0)
		return x->map[id] - 1;
	old = x->mapcap;
	XGROW(x->map, x->mapcap, (size_t)id + 1);
	memset(x->map + old, 0, (x->mapcap - old) * sizeof *x->map);
	x->map[id] = strpool_intern0(pool, kp_walker_str(kp, wk, id)) + 1;
	return x->map[id] - 1;
}

/*
 * One step up from range (not NONE32): its parent, or NONE32 with *iter
 * its own iteration index (NONE32 for a range of no NVTX record).
 */
static uint32_t
kp_up(const struct model *m, uint32_t range, uint32_t *iter)
{
	struct evref	r = model_ev(m, range);
	uint32_t	aux = m->tracks[r.track].lane.aux[r.idx];

	*iter = NONE32;
	if (aux == NONE32)
		return NONE32;
	if (m->nvtx[aux].parent == NONE32)
		*iter = m->nvtx[aux].iter;
	return m->nvtx[aux].parent;
}

/* The outermost enclosing range's iteration index, NONE32 if none. */
static uint32_t
kp_iter(const struct model *m, uint32_t range)
{
	uint32_t	iter = NONE32;

	while (range != NONE32)
		range = kp_up(m, range, &iter);
	return iter;
}

/*
 * kp_iter() of walker w: the iteration of a range's parent is kept, since
 * the ranges asked one after the other are mostly siblings (a step's).
 */
uint32_t
kp_iter_of(struct kp_walker *w, uint32_t range)
{
	uint32_t	parent, iter;

	if (range == NONE32 ||
	    (parent = kp_up(w->m, range, &iter)) == NONE32)
		return range == NONE32 ? NONE32 : iter;
	if (parent != w->it_parent) {
		w->it_parent = parent;
		w->it_val = kp_iter(w->m, parent);
	}
	return w->it_val;
}

/*
 * After kp_range(w, t, i): the end of the run of GPU events from i on
 * launched by calls on the same track as event i's (so from its thread)
 * at times from event i's launch until the innermost range around it may
 * change (nvtx_cur_until()); i + 1 for other events.
 */
uint32_t
kp_walker_same(const struct kp_walker *w, uint32_t t, uint32_t i,
    uint32_t hi)
{
	const struct model	*m = w->m;
	const struct lane	*api;
	uint32_t		 gid, a, base, n, j;
	int64_t			 until, s;

	if (!w->launched)
		return i + 1;
	until = nvtx_cur_until(w->cur, w->thread, w->at);
	api = &m->tracks[w->api_t].lane;
	base = m->track_off[w->api_t];
	n = (uint32_t)api->n;
	gid = model_gid(m, t, i);
	for (j = i + 1; j < hi; j++) {
		/* (model.h: a GPU event's launching call, or NONE32.) */
		a = gid + (j - i) < m->nlaunch ? m->launch[gid + (j - i)] :
		    NONE32;
		if (a - base >= n)
			break;
		s = api->start[a - base];
		if (s < w->at || s >= until)
			break;
	}
	return j;
}

/* The run of track tr holding event i: the last one's or one of the
 * next few (events asked in order), else searched. */
static size_t
kp_run(struct kp_track *tr, uint32_t i)
{
	size_t	k = tr->k, step;

	for (step = 0; k < tr->n && tr->end[k] <= i && step < 4; step++)
		k++;
	if (k >= tr->n || tr->end[k] <= i || (k > 0 && tr->end[k - 1] > i))
		k = lbound_u32_above(tr->end, tr->n, i);
	tr->k = k;
	return k;
}

uint32_t
kpath_value(struct kpath *kp, struct strpool *pool, int axis, uint32_t t,
    uint32_t i)
{
	struct kp_track	*tr;
	size_t		 k;

	if ((axis == GS_NVTX ? kp->rpath : kp->riter) &&
	    kp_runs_ready(kp, t)) {
		tr = &kp->tr[t];
		k = kp_run(tr, i);
		if (k < tr->n) {
			kp->run_t = t;
			kp->run_i = i;
			return axis == GS_NVTX ? kp_pool_id(kp, tr->w,
			    tr->val[k], pool) : tr->iter[k];
		}
	}
	if (t != kp->last_t || i != kp->last_i) {
		kp->range = kp_range(&kp->w[0], t, i);
		kp->last_t = t;
		kp->last_i = i;
	}
	if (axis == GS_NVTX)
		return kp_pool_id(kp, 0, kp_path(&kp->w[0],
		    kp->range), pool);
	return kp_iter_of(&kp->w[0], kp->range);
}

uint32_t
kpath_same(struct kpath *kp, uint32_t t, uint32_t i, uint32_t hi)
{
	const struct kp_track	*tr;
	uint32_t		 e = hi, x;
	int			 known = 0;

	if (t == kp->run_t && i == kp->run_i) {
		tr = &kp->tr[t];
		x = tr->end[tr->k];
		e = x < e ? x : e;
		known = 1;
	}
	if (t == kp->last_t && i == kp->last_i) {
		x = kp_walker_same(&kp->w[0], t, i, hi);
		e = x < e ? x : e;
		known = 1;
	}
	return known && e > i ? e : i + 1;
}
