/*
 * kpath: the NVTX path and iteration around events. See kpath.h.
 *
 * A walker holds what asking in order needs: a cursor set, the family
 * paths of the ranges met (kpfam.h; ids of the walker's own pool of family
 * paths, + 1 here: 0 is none) and the last range asked. Walker 0 serves
 * kpath_value(); kpath_runs() gives each pool thread one. A walker's path
 * ids become the caller's pool's ids through a map per walker, made as
 * they are first asked.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gstats.h"
#include "analysis/kpath.h"
#include "analysis/kpfam.h"
#include "model/correlate.h"
#include "model/nvtx.h"
#include "model/nvtxcur.h"
#include "util/lbound.h"
#include "util/pool.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

struct kp_walker {
	const struct model	*m;
	struct nvtx_cur		*cur;
	struct kpfam		*fam;		/* made when first asked */
	struct strpool		*strs;		/* the family paths */
	uint32_t		 last_range, last_id;
	uint32_t		 api_t;		/* track of the last launch */
	/* The last range was asked of thread at time at (NONE32: of
	 * none); launched: for a GPU event, from a call on track api_t. */
	uint32_t		 thread;
	int64_t			 at;
	int			 launched;
	uint32_t		*map;		/* path id -> caller's id + 1 */
	size_t			 mapcap;
	uint32_t		 it_parent, it_val;	/* kp_iter_of()'s
					   last parent (NONE32: none yet)
					   and its iteration */
	POOL_PAD;
};

/* A GPU track's runs (kpath_runs()): events [end[k - 1], end[k]) have
 * path val[k] of walker w (with the path runs) and iteration iter[k]
 * (with the iteration runs). */
struct kp_track {
	uint32_t		*end, *val, *iter;
	size_t			 n, cap, vcap, icap;
	unsigned		 w;
	size_t			 k;		/* run of the last event asked */
};

struct kpath {
	const struct model	*m;
	const char		*domain;
	struct kp_walker	 w[POOL_MAX];
	unsigned		 nw;
	struct kp_track		*tr;		/* per track, or NULL */
	int			 rpath, riter;	/* which values the runs have */
	struct strpool		*pool;		/* the caller's, of the maps */
	/* The event walker 0 answered last, and its range; the track and
	 * event whose value the runs gave last. */
	uint32_t		 last_t, last_i, range;
	uint32_t		 run_t, run_i;
	/* kpath_runs()' jobs: the tracks of job j are trk[jlo[j] ..
	 * jlo[j + 1]). */
	uint32_t		*trk;
	size_t			*jlo;
};

static void
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
	free(w->map);
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
	uint32_t	t;

	if (kp == NULL)
		return;
	for (k = 0; k < kp->nw; k++)
		kp_walker_free(&kp->w[k]);
	for (t = 0; kp->tr != NULL && t < kp->m->ntracks; t++) {
		free(kp->tr[t].end);
		free(kp->tr[t].val);
		free(kp->tr[t].iter);
	}
	free(kp->tr);
	free(kp->trk);
	free(kp->jlo);
	free(kp);
}

/* Innermost NVTX range enclosing a CPU time on a thread, or for GPU
 * events, around the launching API call (found from the track of the
 * last one, api_t, as a stream's work mostly comes from one thread). */
static uint32_t
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
static uint32_t
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

/* Path id (+ 1) of walker w as an id of pool (0 for none). */
static uint32_t
kp_pool_id(struct kpath *kp, struct kp_walker *w, uint32_t id,
    struct strpool *pool)
{
	size_t		old;
	unsigned	k;

	if (id == 0)
		return 0;
	if (pool != kp->pool) {
		for (k = 0; k < kp->nw; k++)
			if (kp->w[k].map != NULL)
				memset(kp->w[k].map, 0, kp->w[k].mapcap *
				    sizeof *kp->w[k].map);
		kp->pool = pool;
	}
	if (id < w->mapcap && w->map[id] != 0)
		return w->map[id] - 1;
	old = w->mapcap;
	XGROW(w->map, w->mapcap, (size_t)id + 1);
	memset(w->map + old, 0, (w->mapcap - old) * sizeof *w->map);
	w->map[id] = strpool_intern0(pool, strpool_get(w->strs, id - 1)) + 1;
	return w->map[id] - 1;
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
static uint32_t
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
static uint32_t
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

	if ((axis == GS_NVTX ? kp->rpath : kp->riter) && kp->tr != NULL &&
	    kp->tr[t].n > 0) {
		tr = &kp->tr[t];
		k = kp_run(tr, i);
		if (k < tr->n) {
			kp->run_t = t;
			kp->run_i = i;
			return axis == GS_NVTX ? kp_pool_id(kp, &kp->w[tr->w],
			    tr->val[k], pool) : tr->iter[k];
		}
	}
	if (t != kp->last_t || i != kp->last_i) {
		kp->range = kp_range(&kp->w[0], t, i);
		kp->last_t = t;
		kp->last_i = i;
	}
	if (axis == GS_NVTX)
		return kp_pool_id(kp, &kp->w[0], kp_path(&kp->w[0],
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

/* Job j of kpath_runs(): the runs of its tracks, with walker tid. */
static int
kp_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct kpath		*kp = arg;
	struct kp_walker	*w = &kp->w[tid];
	struct kp_track		*tr;
	size_t			 j;
	uint32_t		 t, i, e, n, v, it, range;

	(void)cause;
	for (j = kp->jlo[job]; j < kp->jlo[job + 1]; j++) {
		t = kp->trk[j];
		tr = &kp->tr[t];
		tr->w = tid;
		n = (uint32_t)kp->m->tracks[t].lane.n;
		for (i = 0; i < n; i = e) {
			range = kp_range(w, t, i);
			v = kp->rpath ? kp_path(w, range) : 0;
			it = kp->riter ? kp_iter_of(w, range) : 0;
			e = kp_walker_same(w, t, i, n);
			/* Runs of the same values are one. */
			if (tr->n > 0 && tr->val[tr->n - 1] == v &&
			    tr->iter[tr->n - 1] == it) {
				tr->end[tr->n - 1] = e;
				continue;
			}
			XGROW(tr->end, tr->cap, tr->n + 1);
			XGROW(tr->val, tr->vcap, tr->n + 1);
			XGROW(tr->iter, tr->icap, tr->n + 1);
			tr->end[tr->n] = e;
			tr->iter[tr->n] = it;
			tr->val[tr->n++] = v;
		}
	}
	return 0;
}

static int
kp_u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void
kpath_runs(struct kpath *kp, const uint8_t *use, int path, int iter)
{
	const struct model	*m = kp->m;
	size_t			 n = 0, nj = 0, j;
	uint64_t		*key;
	uint32_t		 t;
	unsigned		 nt;

	if (kp->tr != NULL || (!path && !iter))
		return;
	kp->rpath = path;
	kp->riter = iter;
	kp->tr = xcalloc((size_t)m->ntracks + 1, sizeof *kp->tr);
	kp->trk = xcalloc((size_t)m->ntracks + 1, sizeof *kp->trk);
	/* By process, then track: a process's threads go to one walker. */
	key = xcalloc((size_t)m->ntracks + 1, sizeof *key);
	for (t = 0; t < m->ntracks; t++)
		if (use[t] && m->tracks[t].type == TRACK_GPU &&
		    m->tracks[t].lane.n > 0)
			key[n++] = (uint64_t)m->tracks[t].process << 32 | t;
	qsort(key, n, sizeof *key, kp_u64_cmp);
	for (j = 0; j < n; j++)
		kp->trk[j] = (uint32_t)key[j];
	free(key);
	kp->jlo = xcalloc(n + 2, sizeof *kp->jlo);
	for (j = 0; j < n; j++)
		if (j == 0 || m->tracks[kp->trk[j]].process !=
		    m->tracks[kp->trk[j - 1]].process)
			kp->jlo[nj++] = j;
	kp->jlo[nj] = n;
	nt = pool_sweep_threads();
	if (nt > POOL_MAX)
		nt = POOL_MAX;
	if (nt > nj)
		nt = nj > 0 ? (unsigned)nj : 1;
	for (; kp->nw < nt; kp->nw++)
		kp_walker_init(&kp->w[kp->nw], m, kp->domain);
	(void)pool_run(nj, nt, kp_job, kp, NULL);
	/* (Walker 0's state is the jobs' now.) */
	kp->last_t = NONE32;
}
