/*
 * nvtree-proj: the GPU projection of every NVTX range in one sweep
 * (nvtree_proj_build(), nvtree_proj_build_busy()). See nvtree.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "analysis/nvtree.h"
#include "analysis/nvtree-un.h"
#include "util/pool.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/*
 * The sweep reads each call's GPU work through m->gpu_of_api: the
 * launching call of the operation NVTREE_AHEAD entries on, and its start,
 * end and kind when it is on the track of the current one (mostly), are
 * fetched ahead (7% less CPU in the sweep at 1e7 events).
 */
#define NVTREE_AHEAD	16
#if defined(__GNUC__)
#define NVTREE_PREFETCH(p)	__builtin_prefetch(p)
#else
#define NVTREE_PREFETCH(p)	((void)(p))
#endif

/*
 * Cursor of one NVTX track in the projection sweep: the open ranges, the
 * smallest end among them, and the GPU span [pmn, pmx] that every one of
 * them still has to take (calls that all of them contain are gathered
 * there, and handed out when the stack changes).
 */
struct nvtree_cur {
	const struct lane	*nl;
	size_t			 off;		/* index base of the track */
	size_t			 i;		/* next range to open */
	uint32_t		*stack;		/* the open ranges */
	size_t			 sp, cap;
	int64_t			 next;		/* start of event i, or INT64_MAX */
	int64_t			 minend;	/* INT64_MAX when empty */
	int64_t			 pmn, pmx;	/* pmn > pmx: none */
	uint32_t		 pn, pk;	/* and its operations, kernels */
	struct nvtree_un	*un;		/* per open range: its union */
	size_t			 ucap;
};

static inline void
nvtree_widen(struct nvtree_span *sp, size_t a, int64_t lo, int64_t hi,
    uint32_t n, uint32_t k)
{
	if (lo < sp[a].lo)
		sp[a].lo = lo;
	if (hi > sp[a].hi)
		sp[a].hi = hi;
	sp[a].nops += n;
	sp[a].nkernels += k;
}

/* Hands the gathered span of c to every open range. */
static void
nvtree_flush(struct nvtree_cur *c, struct nvtree_span *span)
{
	size_t	r;

	if (c->pmn > c->pmx)
		return;
	for (r = 0; r < c->sp; r++)
		nvtree_widen(span, c->off + c->stack[r], c->pmn, c->pmx,
		    c->pn, c->pk);
	c->pmn = INT64_MAX;
	c->pmx = INT64_MIN;
	c->pn = c->pk = 0;
}

/*
 * Merges the API call [as, ae] with GPU work [amin, amax] into the ranges
 * of cursor c: the ranges that start by as are opened (pushed), those that
 * ended before as dropped, and every open one that contains the call
 * (start <= as, end >= ae: nvtx.h's rule) widens its span. The caller
 * takes the common case itself: when nothing opens (next > as) and every
 * open range ends at or after both as and ae (minend), the stack stays as
 * it is and all of it contains the call, whose span is only gathered into
 * [pmn, pmx], in O(1).
 */
static void
nvtree_merge(struct nvtree_cur *c, int64_t as, int64_t ae, int64_t amin,
    int64_t amax, uint32_t an, uint32_t ak, struct nvtree_span *span,
    struct nvtree_ops *ops)
{
	const struct lane	*nl = c->nl;
	const int64_t		*start = nl->start, *end = nl->end;
	uint32_t		*stack;
	size_t			 sp, r, w, i = c->i, n = nl->n;
	int64_t			 me, e;

	nvtree_flush(c, span);
	sp = c->sp;
	for (; i < n && start[i] <= as; i++) {
		if (nl->kind[i] != EV_NVTX)
			continue;
		for (; sp > 0 && end[c->stack[sp - 1]] < start[i]; sp--)
			if (ops != NULL)
				nvtree_un_done(&c->un[sp - 1], ops,
				    c->off + c->stack[sp - 1]);
		XGROW(c->stack, c->cap, sp + 1);
		if (ops != NULL) {
			XGROW(c->un, c->ucap, sp + 1);
			nvtree_un_open(&c->un[sp]);
		}
		c->stack[sp++] = (uint32_t)i;
	}
	c->i = i;
	c->next = i < n ? start[i] : INT64_MAX;
	stack = c->stack;
	me = INT64_MAX;
	for (w = 0, r = 0; r < sp; r++) {
		e = end[stack[r]];
		if (e < as) {
			if (ops != NULL)
				nvtree_un_done(&c->un[r], ops,
				    c->off + stack[r]);
			continue;
		}
		if (ops != NULL && w != r)
			c->un[w] = c->un[r];
		stack[w] = stack[r];
		if (e < me)
			me = e;
		if (e >= ae) {
			nvtree_widen(span, c->off + stack[r], amin, amax,
			    an, ak);
			if (ops != NULL)
				nvtree_un_add(&c->un[w], 1, ops);
		}
		w++;
	}
	c->sp = w;
	c->minend = me;
}

/*
 * The sweep's shared input: the NVTX tracks of each thread (ttrk[toff[th]
 * .. toff[th + 1])) and its API tracks (atrk[aoff[th] .. aoff[th + 1])),
 * in track order, bucketed once (O(tracks + threads), not a scan of every
 * track per API track), the threads that have both (jobs), and the
 * outputs: the arrays of every range (off, sp, busy), or fn, which is
 * handed them thread by thread (mkbusy: make the unions). Per pool
 * thread: the cursors, the work of one call, and the spans and busy times
 * the cursors write (out, out + loff[x] for the thread's x-th NVTX
 * track): the shared arrays, or with fn its own (own, obusy: ocap ranges,
 * those of the largest thread it took, which it resets as it hands them
 * out).
 */
struct nvtree_sweep {
	const struct model	*m;
	const size_t		*off;
	struct nvtree_span	*sp;
	int64_t			*busy;
	nvtree_range_fn		 fn;
	nvtree_thread_fn	 begin;
	void			*arg;
	int			 mkbusy;
	uint32_t		*toff, *ttrk, *aoff, *atrk, *jobs;
	size_t			 njobs;
	struct nvtree_scratch {
		struct nvtree_cur	*cur;
		struct nvtree_ops	 ops;
		struct nvtree_span	*out, *own;
		int64_t			*obusy;
		size_t			*loff, ocap;
		POOL_PAD;
	}			 scr[POOL_MAX];
};

/*
 * The calls of API track u (of thread th) into the ranges of the thread's
 * NVTX tracks: see nvtree_project(). uo (or NULL) makes the unions.
 */
static void
nvtree_api(const struct nvtree_sweep *w, struct nvtree_scratch *s,
    struct nvtree_ops *uo, size_t u, uint32_t th)
{
	const struct model	*m = w->m;
	const struct lane	*al = &m->tracks[u].lane, *gl;
	const struct track	*gt = NULL;
	const uint32_t		*launch = m->launch, *goa = m->gpu_of_api;
	struct nvtree_span	*sp = s->out;
	struct nvtree_cur	*cur = s->cur, *c, tmp;
	size_t			 k, j, p, nc, x, ng = m->ngpu_of_api;
	uint32_t		 g, gx, pk, glo = 1, ghi = 0, an, ak;
	int64_t			 amin, amax, as, ae, hi, gs, ge;
	int			 kind;

	for (x = w->toff[th], nc = 0; x < w->toff[th + 1]; x++) {
		k = w->ttrk[x];
		cur[nc].nl = &m->tracks[k].lane;
		cur[nc].off = s->loff[nc];
		cur[nc].i = 0;
		cur[nc].sp = 0;
		cur[nc].next = cur[nc].nl->start[0];
		cur[nc].minend = INT64_MAX;
		cur[nc].pmn = INT64_MAX;
		cur[nc].pmx = INT64_MIN;
		cur[nc].pn = cur[nc].pk = 0;
		nc++;
	}
	g = model_gid(m, (uint32_t)u, 0);
	p = nc > 0 ? correlate_gpu_lower(m, g) : ng;
	pk = p < ng ? launch[goa[p]] : NONE32;
	for (j = 0; j < al->n && nc > 0 && p < ng; j++, g++) {
		if (pk != g)
			continue;	/* no GPU work (pk > g) */
		as = al->start[j];
		for (k = 0; k < nc; k++)
			if (cur[k].sp > 0 || cur[k].next <= as)
				break;
		amin = INT64_MAX;
		amax = INT64_MIN;
		an = ak = 0;
		if (uo != NULL)
			uo->n = 0;
		for (; pk == g; pk = ++p < ng ? launch[goa[p]] : NONE32) {
			if (p + NVTREE_AHEAD < ng) {
				gx = goa[p + NVTREE_AHEAD];
				NVTREE_PREFETCH(&launch[gx]);
				if (gt != NULL && gx - glo <= ghi - glo) {
					x = gx - glo;
					NVTREE_PREFETCH(&gt->lane.start[x]);
					NVTREE_PREFETCH(&gt->lane.end[x]);
					NVTREE_PREFETCH(&gt->lane.kind[x]);
				}
			}
			if (k == nc)
				continue;	/* nothing contains it */
			/* GPU work mostly follows on one track. */
			gx = goa[p];
			if (gx < glo || gx > ghi) {
				gt = &m->tracks[model_ev(m, gx).track];
				glo = m->track_off[gt - m->tracks];
				ghi = glo + (uint32_t)gt->lane.n - 1;
			}
			if (gt->type != TRACK_GPU)
				continue;
			gl = &gt->lane;
			x = gx - glo;
			kind = gl->kind[x];
			if (kind != EV_KERNEL && kind != EV_MEMCPY &&
			    kind != EV_MEMSET)
				continue;
			an++;
			if (kind == EV_KERNEL)
				ak++;
			gs = gl->start[x];
			ge = gl->end[x];
			if (uo != NULL) {
				XGROW(uo->se, uo->cap, 2 * uo->n + 2);
				uo->se[2 * uo->n] = gs;
				uo->se[2 * uo->n + 1] = ge;
				uo->n++;
			}
			if (gs < amin)
				amin = gs;
			if (ge > amax)
				amax = ge;
		}
		if (amin > amax)
			continue;
		ae = al->end[j];
		hi = as > ae ? as : ae;
		for (k = 0; k < nc; ) {
			c = &cur[k];
			if (c->next > as && hi <= c->minend) {
				/* The stack stays; all of it contains the
				 * call. */
				if (c->sp > 0 && amin < c->pmn)
					c->pmn = amin;
				if (c->sp > 0 && amax > c->pmx)
					c->pmx = amax;
				if (c->sp > 0) {
					c->pn += an;
					c->pk += ak;
				}
				if (uo != NULL)
					nvtree_un_add(c->un, c->sp, uo);
				k++;
				continue;
			}
			nvtree_merge(c, as, ae, amin, amax, an, ak, sp, uo);
			if (c->sp > 0 || c->next != INT64_MAX) {
				k++;
				continue;
			}
			/* Every range of this track is past. */
			tmp = cur[k];
			cur[k] = cur[--nc];
			cur[nc] = tmp;
		}
	}
	for (k = 0; k < nc; k++) {
		nvtree_flush(&cur[k], sp);
		for (x = 0; uo != NULL && x < cur[k].sp; x++)
			nvtree_un_done(&cur[k].un[x], uo,
			    cur[k].off + cur[k].stack[x]);
	}
}

/* Spans [a, b) of nothing yet: no work, busy time unknown. */
static void
nvtree_span_reset(struct nvtree_span *sp, int64_t *busy, size_t a, size_t b)
{
	for (; a < b; a++) {
		sp[a].lo = INT64_MAX;
		sp[a].hi = INT64_MIN;
		sp[a].nops = sp[a].nkernels = 0;
		if (busy != NULL)
			busy[a] = -1;
	}
}

/*
 * Where the cursors of thread th write: the shared arrays at the ranges'
 * offsets, or (with fn) the pool thread's own arrays, one after the
 * other, grown to the thread's ranges.
 */
static void
nvtree_job_out(const struct nvtree_sweep *w, struct nvtree_scratch *s,
    uint32_t th)
{
	size_t	x, n = 0, k;

	for (x = w->toff[th]; x < w->toff[th + 1]; x++) {
		k = w->ttrk[x];
		s->loff[x - w->toff[th]] = w->fn != NULL ? n : w->off[k];
		n += w->m->tracks[k].lane.n;
	}
	s->out = w->sp;
	s->ops.busy = w->busy;
	if (w->fn == NULL)
		return;
	if (n > s->ocap) {
		s->own = xreallocarray(s->own, n, sizeof *s->own);
		s->obusy = xreallocarray(s->obusy, n, sizeof *s->obusy);
		nvtree_span_reset(s->own, s->obusy, s->ocap, n);
		s->ocap = n;
	}
	s->out = s->own;
	s->ops.busy = s->obusy;
}

/*
 * Hands fn the ranges of thread th with GPU work, in track order, and
 * resets the pool thread's arrays for its next thread.
 */
static void
nvtree_job_hand(const struct nvtree_sweep *w, struct nvtree_scratch *s,
    uint32_t th, unsigned tid)
{
	struct nvtree_span	*sp = s->own;
	int64_t			*busy = s->obusy;
	size_t			 x, a, i, n;
	uint32_t		 k;

	for (x = w->toff[th]; x < w->toff[th + 1]; x++) {
		k = w->ttrk[x];
		a = s->loff[x - w->toff[th]];
		n = w->m->tracks[k].lane.n;
		for (i = 0; i < n; i++, a++) {
			if (sp[a].nops > 0) {
				w->fn(w->arg, tid, k, (uint32_t)i, &sp[a],
				    busy[a]);
				nvtree_span_reset(sp, NULL, a, a + 1);
			}
			busy[a] = -1;
		}
	}
}

/* The API tracks of one thread (job): they touch only its ranges. */
static int
nvtree_thread_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct nvtree_sweep	*w = arg;
	struct nvtree_scratch	*s = &w->scr[tid];
	uint32_t		 th = w->jobs[job], x;
	int			 one = w->aoff[th + 1] - w->aoff[th] == 1;

	(void)cause;
	if (w->begin != NULL)
		w->begin(w->arg, tid, th);
	if (s->cur == NULL) {
		s->cur = xcalloc(w->m->ntracks + 1, sizeof *s->cur);
		s->loff = xcalloc(w->m->ntracks + 1, sizeof *s->loff);
	}
	nvtree_job_out(w, s, th);
	/* The unions are made for threads with one API track: the order
	 * of their work is nvtx_project_with()'s. */
	for (x = w->aoff[th]; x < w->aoff[th + 1]; x++)
		nvtree_api(w, s, w->mkbusy && one ? &s->ops : NULL,
		    w->atrk[x], th);
	if (w->fn != NULL)
		nvtree_job_hand(w, s, th, tid);
	return 0;
}

/* Orders (cost, thread) pairs by cost, largest first, then by thread. */
static int
nvtree_cost_cmp(const void *a, const void *b)
{
	const uint64_t	*x = a, *y = b;

	return sort_lex2((int64_t)y[0], (int64_t)x[0], (int64_t)x[1],
	    (int64_t)y[1]);
}

/* The events of thread th's API and NVTX tracks: what sweeping it costs. */
static uint64_t
nvtree_job_cost(const struct nvtree_sweep *w, uint32_t th)
{
	uint64_t	n = 0;
	uint32_t	x;

	for (x = w->aoff[th]; x < w->aoff[th + 1]; x++)
		n += w->m->tracks[w->atrk[x]].lane.n;
	for (x = w->toff[th]; x < w->toff[th + 1]; x++)
		n += w->m->tracks[w->ttrk[x]].lane.n;
	return n;
}

/*
 * Puts the threads to sweep largest first (then by thread), so that the
 * pool's threads, which take them in order, end together: the threads of
 * a trace differ in size (at 1e8 events, the demo's eight swept from 0.13
 * to 0.33 s each), and in thread order the last large one ran alone. What
 * a range gets does not depend on the order.
 */
static void
nvtree_jobs_order(struct nvtree_sweep *w)
{
	uint64_t	(*key)[2];
	size_t		 j;

	if (w->njobs < 3)
		return;
	key = xreallocarray(NULL, w->njobs, sizeof *key);
	for (j = 0; j < w->njobs; j++) {
		key[j][0] = nvtree_job_cost(w, w->jobs[j]);
		key[j][1] = w->jobs[j];
	}
	qsort(key, w->njobs, sizeof *key, nvtree_cost_cmp);
	for (j = 0; j < w->njobs; j++)
		w->jobs[j] = (uint32_t)key[j][1];
	free(key);
}

/*
 * GPU projection of every range, in one sweep per API track of a thread
 * with NVTX ranges. The track's calls are taken in order (their global
 * ids ascend) side by side with their GPU work in m->gpu_of_api (grouped
 * by launching call, calls ascending: one search finds the track's first
 * entry, then both only move forward, and each entry's key is read once).
 * A call's kernels, copies and memsets give its [amin, amax]; the call is
 * then merged into the ranges of every NVTX track of its thread by start,
 * with a stack of the open ones per NVTX track (nvtree_merge()): a range
 * that ended before a call starts can contain neither it nor any later
 * call, and is dropped. An NVTX track whose ranges are all past leaves the
 * sweep, and a call that no range can contain is skipped without reading
 * its GPU work. For properly nested push/pop ranges the stack is the
 * nesting: O(events + calls x NVTX tracks), no memory per call. Threads
 * touch disjoint ranges, and are swept in parallel (the pool's
 * threads); what a range gets does not depend on the order.
 */
static void
nvtree_project(struct nvtree_sweep *wp)
{
	struct nvtree_sweep	 w = *wp;
	const struct model	*m = w.m;
	size_t			 k, t;

	if (m->ngpu_of_api == 0 || m->launch == NULL ||
	    m->gpu_of_api == NULL)
		return;
	model_tracks_by(m, TRACK_NVTX, MODEL_BY_THREAD | MODEL_BY_EVENTS,
	    &w.toff, &w.ttrk);
	model_tracks_by(m, TRACK_API, MODEL_BY_THREAD | MODEL_BY_EVENTS,
	    &w.aoff, &w.atrk);
	w.jobs = xcalloc(m->nthreads + 1, sizeof *w.jobs);
	for (k = 0; k < m->nthreads; k++)
		if (w.toff[k + 1] > w.toff[k] && w.aoff[k + 1] > w.aoff[k])
			w.jobs[w.njobs++] = (uint32_t)k;
	nvtree_jobs_order(&w);
	(void)pool_run(w.njobs, pool_sweep_threads(), nvtree_thread_job, &w,
	    NULL);
	for (t = 0; t < POOL_MAX; t++) {
		for (k = 0; w.scr[t].cur != NULL && k < m->ntracks; k++) {
			free(w.scr[t].cur[k].stack);
			free(w.scr[t].cur[k].un);
		}
		free(w.scr[t].cur);
		free(w.scr[t].ops.se);
		free(w.scr[t].loff);
		free(w.scr[t].own);
		free(w.scr[t].obusy);
	}
	free(w.toff);
	free(w.ttrk);
	free(w.aoff);
	free(w.atrk);
	free(w.jobs);
}

size_t *
nvtree_proj_offsets(const struct model *m, size_t *total)
{
	size_t	tr, *off = xcalloc(m->ntracks + 1, sizeof *off);

	for (*total = 0, tr = 0; tr < m->ntracks; tr++) {
		off[tr] = *total;
		if (m->tracks[tr].type == TRACK_NVTX)
			*total += m->tracks[tr].lane.n;
	}
	off[m->ntracks] = *total;
	return off;
}

/* The projection, and the busy times too when busy is set. */
static void
nvtree_proj_make(const struct model *m, struct nvtree_proj *pr, int busy)
{
	struct nvtree_sweep	 w;
	size_t			 total;

	pr->off = nvtree_proj_offsets(m, &total);
	pr->span = xreallocarray(NULL, total + 1, sizeof *pr->span);
	pr->busy = busy ? xreallocarray(NULL, total + 1, sizeof *pr->busy) :
	    NULL;
	nvtree_span_reset(pr->span, pr->busy, 0, total);
	memset(&w, 0, sizeof w);
	w.m = m;
	w.off = pr->off;
	w.sp = pr->span;
	w.busy = pr->busy;
	w.mkbusy = busy;
	nvtree_project(&w);
}

void
nvtree_proj_each(const struct model *m, nvtree_thread_fn begin,
    nvtree_range_fn fn, void *arg)
{
	struct nvtree_sweep	 w;

	memset(&w, 0, sizeof w);
	w.m = m;
	w.begin = begin;
	w.fn = fn;
	w.arg = arg;
	w.mkbusy = 1;
	nvtree_project(&w);
}

void
nvtree_proj_build(const struct model *m, struct nvtree_proj *pr)
{
	nvtree_proj_make(m, pr, 0);
}

void
nvtree_proj_build_busy(const struct model *m, struct nvtree_proj *pr)
{
	nvtree_proj_make(m, pr, 1);
}

void
nvtree_proj_free(struct nvtree_proj *pr)
{
	free(pr->off);
	free(pr->span);
	free(pr->busy);
	memset(pr, 0, sizeof *pr);
}
