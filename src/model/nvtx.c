/*
 * nvtx: the NVTX range tree of every (thread, domain) track, and the queries
 * on it: a range's path and depth, the innermost range around a time, and
 * the GPU projection of a range (nsys's nvtx_gpu_proj_trace).
 *
 * The tree is built by one sweep per TRACK_NVTX lane in start order (the
 * lane sorts by start, longer first, so a parent always comes before its
 * children). A stack holds the ranges that may still contain what follows;
 * for each event, ranges that do not contain it are popped and the top, if
 * any, is its parent. Containment is closed on both ends (start <= start,
 * end <= end), as nsys writes its projection join, except for zero-length
 * events (marks), which must start before the range ends. For push/pop
 * ranges this is the usual nesting stack. For start/end ranges that overlap
 * partially it is still right: a range P popped because it does not
 * contain event E (P.start <= E.start < P.end < E.end) can only contain
 * later events that lie inside [E.start, P.end], which E, pushed above,
 * contains too and more tightly. Marks get parents but are never pushed.
 * The sweep is O(n) per lane.
 *
 * Iteration numbers count same-name siblings in start order with one hash
 * map per lane keyed by (parent, name family), families as nvtxfam.h
 * folds them: ProfilerStep#12 and ProfilerStep#13 are iterations 0 and 1
 * of ProfilerStep#*, "aten::mm, seq = 5" and "aten::mm, seq = 9" of
 * aten::mm; a name that does not fold is its own family.
 *
 * Depth is the length of the parent chain, so nvtx_depth() and nvtx_path()
 * always agree with each other (for properly nested push/pop ranges it is
 * also the lane's depth).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "util/hmap.h"
#include "util/lbound.h"
#include "model/nvtx.h"
#include "model/nvtxfam.h"
#include "util/xmalloc.h"

#define NVTX_MAX_CHAIN	65536	/* guards the parent walks */

struct nvtx_fam {
	const struct model	*m;
	uint32_t		*of;		/* name id -> family, lazily */
	uint32_t		 nstr;
	struct strpool		*local;		/* folded names */
	uint32_t		*rep;		/* local id -> first name */
	size_t			 nrep, repcap;
};

struct nvtx_span {
	int64_t		 start, end;
};

/* The nvtx_info of event idx of track tr, or NULL. */
static struct nvtx_info *
nvtx_info_at(const struct model *m, const struct track *tr, size_t idx)
{
	const struct lane	*l = &tr->lane;
	uint32_t		 aux;

	if (tr->type != TRACK_NVTX)
		return NULL;
	if (l->kind[idx] != EV_NVTX && l->kind[idx] != EV_MARK)
		return NULL;
	aux = l->aux[idx];
	if (aux == NONE32 || aux >= m->nnvtx)
		return NULL;
	return &m->nvtx[aux];
}

/* Parent of gid through its nvtx_info, NONE32 if unknown or a root. */
static uint32_t
nvtx_parent_of(const struct model *m, uint32_t gid)
{
	struct evref		 r = model_ev(m, gid);
	const struct nvtx_info	*ni;

	ni = nvtx_info_at(m, &m->tracks[r.track], r.idx);
	return ni != NULL ? ni->parent : NONE32;
}

/*
 * The family of name id `name` (nvtxfam.h) as a name id: the name itself
 * if folding leaves it as it is, else the first name seen with the same
 * family (the folded text interned locally, its first name kept).
 */
static uint32_t
nvtx_iter_family(struct nvtx_fam *f, uint32_t name)
{
	const char	*s;
	char		*fold;
	size_t		 n;
	uint32_t	 id, rep = name;

	if (name < f->nstr && f->of[name] != NONE32)
		return f->of[name];
	s = strpool_get(f->m->strs, name);
	if (nvtx_family_folds(s)) {
		n = strlen(s);
		fold = xmalloc(2 * n + 1);
		nvtx_family(s, fold, 2 * n + 1);
		id = strpool_intern0(f->local, fold);
		free(fold);
		if (id >= f->nrep) {
			XGROW(f->rep, f->repcap, (size_t)id + 1);
			while (f->nrep <= id)
				f->rep[f->nrep++] = NONE32;
		}
		if (f->rep[id] == NONE32)
			f->rep[id] = name;
		rep = f->rep[id];
	}
	if (name < f->nstr)
		f->of[name] = rep;
	return rep;
}

/*
 * Whether range c contains event i: closed for ranges (nsys's projection
 * join), half-open for zero-length events, so that a mark at the very end
 * of a range belongs to what follows, as the lane's depth has it.
 */
static int
nvtx_contains(const struct lane *l, size_t c, size_t i)
{
	if (l->start[i] == l->end[i])
		return l->start[c] <= l->start[i] && l->start[i] < l->end[c];
	return l->start[c] <= l->start[i] && l->end[i] <= l->end[c];
}

static void
nvtx_build_track(struct model *m, uint32_t t, struct nvtx_fam *fam,
    uint32_t **stack, size_t *stackcap)
{
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	struct nvtx_info	*ni, *pi;
	struct hmap		 sib;
	uint32_t		 parent, *cnt;
	size_t			 i, ns = 0;
	int			 kind;

	hmap_init(&sib);
	for (i = 0; i < l->n; i++) {
		kind = l->kind[i];
		if (kind != EV_NVTX && kind != EV_MARK)
			continue;
		while (ns > 0 && !nvtx_contains(l, (*stack)[ns - 1], i))
			ns--;
		parent = NONE32;
		if (ns > 0) {
			parent = model_gid(m, t, (*stack)[ns - 1]);
			pi = nvtx_info_at(m, tr, (*stack)[ns - 1]);
			if (pi != NULL)
				pi->nchildren++;
		}
		cnt = hmap_upsert(&sib, (uint64_t)parent << 32 |
		    nvtx_iter_family(fam, l->name[i]), 0, NULL);
		if ((ni = nvtx_info_at(m, tr, i)) != NULL) {
			ni->parent = parent;
			ni->iter = *cnt;
		}
		(*cnt)++;
		if (kind == EV_NVTX) {
			XGROW(*stack, *stackcap, ns + 1);
			(*stack)[ns++] = (uint32_t)i;
		}
	}
	hmap_free(&sib);
}

void
nvtx_build(struct model *m)
{
	struct nvtx_fam	 fam;
	uint32_t	*stack = NULL;
	size_t		 stackcap = 0, i, t;

	for (i = 0; i < m->nnvtx; i++) {
		m->nvtx[i].parent = NONE32;
		m->nvtx[i].iter = 0;
		m->nvtx[i].nchildren = 0;
	}
	memset(&fam, 0, sizeof fam);
	fam.m = m;
	fam.nstr = strpool_count(m->strs);
	fam.local = strpool_new();
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_NVTX || m->tracks[t].lane.n == 0)
			continue;
		if (fam.of == NULL && fam.nstr > 0) {
			fam.of = xreallocarray(NULL, fam.nstr, sizeof *fam.of);
			memset(fam.of, 0xff, fam.nstr * sizeof *fam.of);
		}
		nvtx_build_track(m, (uint32_t)t, &fam, &stack, &stackcap);
	}
	strpool_free(fam.local);
	free(fam.rep);
	free(fam.of);
	free(stack);
}

size_t
nvtx_path(const struct model *m, uint32_t gid, char *buf, size_t len)
{
	struct evref	 r;
	const char	*s;
	size_t		 total = 0, pos, n, k;
	uint32_t	 g;
	int		 steps;

	if (len > 0)
		buf[0] = '\0';
	if (gid >= m->nevents)
		return 0;
	/* First walk: the total length. */
	for (g = gid, steps = 0; g != NONE32 && steps < NVTX_MAX_CHAIN;
	    steps++) {
		r = model_ev(m, g);
		total += strpool_len(m->strs,
		    m->tracks[r.track].lane.name[r.idx]);
		if (steps > 0)
			total++;
		g = nvtx_parent_of(m, g);
	}
	/* Second walk: write each name (leaf first) at its final offset,
	 * keeping only the bytes that fit. */
	pos = total;
	for (g = gid, steps = 0; g != NONE32 && steps < NVTX_MAX_CHAIN;
	    steps++) {
		r = model_ev(m, g);
		s = strpool_get(m->strs, m->tracks[r.track].lane.name[r.idx]);
		n = strlen(s);
		pos -= n;
		for (k = 0; k < n; k++)
			if (pos + k + 1 < len)
				buf[pos + k] = s[k];
		g = nvtx_parent_of(m, g);
		if (g != NONE32 && steps + 1 < NVTX_MAX_CHAIN) {
			pos--;
			if (pos + 1 < len)
				buf[pos] = '/';
		}
	}
	if (len > 0)
		buf[total < len ? total : len - 1] = '\0';
	return total;
}

int
nvtx_depth(const struct model *m, uint32_t gid)
{
	struct evref		 r;
	const struct track	*tr;
	const struct nvtx_info	*ni;
	uint32_t		 g;
	int			 d;

	if (gid >= m->nevents)
		return -1;
	r = model_ev(m, gid);
	tr = &m->tracks[r.track];
	if (tr->type != TRACK_NVTX || (tr->lane.kind[r.idx] != EV_NVTX &&
	    tr->lane.kind[r.idx] != EV_MARK))
		return -1;
	if ((ni = nvtx_info_at(m, tr, r.idx)) == NULL)
		return tr->lane.depth != NULL ? tr->lane.depth[r.idx] : 0;
	for (d = 0, g = ni->parent; g != NONE32 && d < NVTX_MAX_CHAIN; d++)
		g = nvtx_parent_of(m, g);
	return d;
}

size_t
nvtx_family_path(const struct model *m, uint32_t gid, char *buf, size_t len)
{
	char	*raw;
	size_t	 n;

	if (len == 0)
		return 0;
	raw = xmalloc(len);
	nvtx_path(m, gid, raw, len);
	n = nvtx_family(raw, buf, len);
	free(raw);
	return n;
}

/* See nvtx.h; nvtx_enclosing_in() and nvtxcur.h choose with it. */
void
nvtx_inner_offer(struct nvtx_inner *b, const struct model *m, uint32_t track,
    uint32_t idx, long depth)
{
	const struct track	*tr = &m->tracks[track];
	int64_t			 cs = tr->lane.start[idx], ce = tr->lane.end[idx];

	if (b->gid == NONE32 || cs > b->start || (cs == b->start &&
	    (ce < b->end || (ce == b->end && (depth > b->depth ||
	    (depth == b->depth && tr->domain < b->dom)))))) {
		b->gid = model_gid(m, track, idx);
		b->depth = depth;
		b->dom = tr->domain;
		b->start = cs;
		b->end = ce;
	}
}

/*
 * Per track: lane_stab gives the ranges containing t in start order (longer
 * first on ties), so the last push/pop range is the innermost one of that
 * track. Across the thread's tracks (its domains) the innermost is the one
 * that starts last (then ends first): a library's range (CUB's, in domain
 * CCCL) inside the user's range wins over it, whatever its depth in its
 * own domain. Ties left go to the deeper range in its domain, then the
 * lower domain id. O(tracks of the thread x (log n + k)).
 */
uint32_t
nvtx_enclosing_in(const struct model *m, uint32_t thread, int64_t t,
    const char *domain)
{
	const struct track	*tr;
	const struct lane	*l;
	struct nvtx_inner	 best;
	uint32_t		*buf = NULL, cand;
	uint32_t		 u;
	size_t			 cap = 0, n, j, k;
	long			 depth;

	if (thread == NONE32)
		return NONE32;
	best.gid = NONE32;
	/* The thread's NVTX tracks from the model's index, or a scan. */
	for (k = model_thread_nvtx_begin(m, thread);
	    (u = model_thread_nvtx_next(m, thread, &k)) != NONE32;) {
		tr = &m->tracks[u];
		if (domain != NULL && (tr->domain >= m->ndomains ||
		    strcmp(model_str(m, m->domains[tr->domain].name),
		    domain) != 0))
			continue;
		l = &tr->lane;
		n = lane_stab(l, t, &buf, &cap);
		cand = NONE32;
		depth = -1;
		for (j = 0; j < n; j++) {
			if (l->kind[buf[j]] != EV_NVTX ||
			    (l->flags[buf[j]] & EVF_STARTEND))
				continue;
			cand = buf[j];
			depth++;
		}
		if (cand != NONE32)
			nvtx_inner_offer(&best, m, u, cand, depth);
	}
	free(buf);
	return best.gid;
}

uint32_t
nvtx_enclosing(const struct model *m, uint32_t thread, int64_t t)
{
	return nvtx_enclosing_in(m, thread, t, NULL);
}

/* Whether span x sorts before span y: by start, then end. */
static inline int
nvtx_span_lt(const struct nvtx_span *x, const struct nvtx_span *y)
{
	return x->start != y->start ? x->start < y->start : x->end < y->end;
}

/* Runs sorted by insertion before the merges. */
#define NVTX_SPAN_RUN	32

/*
 * Sorts sp[0 .. n) by start, then end (equal spans are alike, so the
 * order is qsort()'s with that comparison), with tmp (n spans) as the
 * scratch: runs sorted by insertion, then merged bottom-up, in place of
 * qsort()'s call per comparison on the many spans of a long range.
 */
static void
nvtx_span_sort(struct nvtx_span *sp, struct nvtx_span *tmp, size_t n)
{
	struct nvtx_span	*a = sp, *b = tmp, *x, v;
	size_t			 lo, i, j, k, mid, hi, w;

	for (lo = 0; lo < n; lo += NVTX_SPAN_RUN) {
		hi = lo + NVTX_SPAN_RUN < n ? lo + NVTX_SPAN_RUN : n;
		for (i = lo + 1; i < hi; i++) {
			v = a[i];
			for (j = i; j > lo && nvtx_span_lt(&v, &a[j - 1]); j--)
				a[j] = a[j - 1];
			a[j] = v;
		}
	}
	for (w = NVTX_SPAN_RUN; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				b[k] = j >= hi || (i < mid &&
				    !nvtx_span_lt(&a[j], &a[i])) ? a[i++] :
				    a[j++];
		}
		x = a;
		a = b;
		b = x;
	}
	if (a != sp)
		memcpy(sp, a, n * sizeof *sp);
}

/*
 * The first index >= lo of an event of l starting at or after t, given
 * that every event before lo starts before t: a gallop from lo, so a
 * target k events ahead costs O(log k) instead of O(log n).
 */
static size_t
nvtx_lower_from(const struct lane *l, size_t lo, int64_t t)
{
	size_t	hi, step = 1;

	if (lo >= l->n || l->start[lo] >= t)
		return lo;
	/* start[lo] < t: widen [lo, hi) until start[hi] >= t or the end. */
	for (hi = lo + 1; hi < l->n && l->start[hi] < t; hi = lo + step) {
		lo = hi;
		step *= 2;
	}
	if (hi > l->n)
		hi = l->n;
	lo++;
	return lo + lbound_i64(l->start + lo, hi - lo, t);
}

/*
 * The API tracks of every thread, in track order, indexed once per
 * projector (one counting pass: O(tracks + threads)), so that moving to
 * another thread never scans every track.
 */
static void
nvtx_projector_index(struct nvtx_projector *pj, const struct model *m)
{
	model_tracks_by(m, TRACK_API, MODEL_BY_THREAD, &pj->thr_off,
	    &pj->thr_trk);
}

/* Points the projector at the API tracks of thread (kept if the same). */
static void
nvtx_projector_thread(struct nvtx_projector *pj, const struct model *m,
    uint32_t thread)
{
	size_t		k, k0, k1;
	uint32_t	t;
	int		first;

	if (pj->thread1 == thread + 1)
		return;
	/* A first thread is found by a scan (nvtx_project() needs no
	 * more); the index comes with the second. */
	first = pj->thread1 == 0;
	if (!first && pj->thr_off == NULL)
		nvtx_projector_index(pj, m);
	pj->thread1 = thread + 1;
	pj->napi = 0;
	if (thread >= m->nthreads)
		return;
	k0 = first ? 0 : pj->thr_off[thread];
	k1 = first ? m->ntracks : pj->thr_off[thread + 1];
	for (k = k0; k < k1; k++) {
		t = first ? (uint32_t)k : pj->thr_trk[k];
		if (m->tracks[t].type != TRACK_API ||
		    m->tracks[t].thread != thread)
			continue;
		if (pj->napi == pj->apicap) {
			pj->apicap = pj->apicap == 0 ? 4 : pj->apicap * 2;
			pj->api = xreallocarray(pj->api, pj->apicap,
			    sizeof *pj->api);
			pj->last_t = xreallocarray(pj->last_t, pj->apicap,
			    sizeof *pj->last_t);
			pj->last_j = xreallocarray(pj->last_j, pj->apicap,
			    sizeof *pj->last_j);
		}
		pj->api[pj->napi] = t;
		pj->last_t[pj->napi] = INT64_MAX;	/* no search yet */
		pj->last_j[pj->napi] = 0;
		pj->napi++;
	}
}

void
nvtx_projector_free(struct nvtx_projector *pj)
{
	free(pj->sp);
	free(pj->api);
	free(pj->last_t);
	free(pj->last_j);
	free(pj->thr_off);
	free(pj->thr_trk);
	memset(pj, 0, sizeof *pj);
}

void
nvtx_project(const struct model *m, uint32_t gid, struct nvtx_proj *out)
{
	struct nvtx_projector	pj;

	memset(&pj, 0, sizeof pj);
	nvtx_project_with(&pj, m, gid, out);
	nvtx_projector_free(&pj);
}

/*
 * For every API track of the range's thread, the API calls that start
 * inside the range are the index run [lane_lower(start), lane_lower(end +
 * 1)), so their global ids are one run too, and so is their GPU work in
 * m->gpu_of_api: one search finds its first entry, and a walk to the end of
 * the run visits exactly the GPU operations of those calls; the calls that
 * end after the range are skipped. API calls that start before the range
 * cannot lie inside it. O(log n + k + g log g) for k linked calls and g GPU
 * operations; the sort is skipped when the work comes in start order, as
 * it mostly does (the union needs only that order).
 */
void
nvtx_project_with(struct nvtx_projector *pj, const struct model *m,
    uint32_t gid, struct nvtx_proj *out)
{
	const struct track	*tr, *u;
	const struct lane	*l, *gl;
	struct nvtx_span	*sp = pj->sp;
	struct evref		 r;
	size_t			 nsp = 0, t, j, j0, j1, k, gt = 0, ai;
	uint32_t		 a, a0, a1, g;
	int64_t			 rs, re, cs, ce;
	int			 kind;

	memset(out, 0, sizeof *out);
	if (gid >= m->nevents || m->ngpu_of_api == 0)
		return;
	r = model_ev(m, gid);
	tr = &m->tracks[r.track];
	if (tr->type != TRACK_NVTX || tr->lane.kind[r.idx] != EV_NVTX ||
	    tr->thread == NONE32)
		return;
	rs = tr->lane.start[r.idx];
	re = tr->lane.end[r.idx];

	nvtx_projector_thread(pj, m, tr->thread);
	for (ai = 0; ai < pj->napi; ai++) {
		t = pj->api[ai];
		u = &m->tracks[t];
		l = &u->lane;
		if (rs >= pj->last_t[ai] && pj->last_t[ai] != INT64_MAX)
			j0 = nvtx_lower_from(l, pj->last_j[ai], rs);
		else
			j0 = lane_lower(l, rs);
		pj->last_t[ai] = rs;
		pj->last_j[ai] = j0;
		j1 = re < INT64_MAX ? nvtx_lower_from(l, j0, re + 1) : l->n;
		if (j0 >= j1)
			continue;
		a0 = model_gid(m, (uint32_t)t, (uint32_t)j0);
		a1 = model_gid(m, (uint32_t)t, (uint32_t)j1);
		for (k = correlate_gpu_lower(m, a0); k < m->ngpu_of_api &&
		    (a = m->launch[m->gpu_of_api[k]]) < a1; k++) {
			j = a - m->track_off[t];
			if (l->end[j] > re)
				continue;
			/* GPU operations mostly follow on one track. */
			g = m->gpu_of_api[k];
			if (g < m->track_off[gt] || g >= m->track_off[gt + 1])
				gt = model_ev(m, g).track;
			gl = &m->tracks[gt].lane;
			kind = gl->kind[g - m->track_off[gt]];
			if (kind != EV_KERNEL && kind != EV_MEMCPY &&
			    kind != EV_MEMSET)
				continue;
			if (kind == EV_KERNEL)
				out->nkernels++;
			XGROW(sp, pj->spcap, nsp + 1);
			sp[nsp].start = gl->start[g - m->track_off[gt]];
			sp[nsp].end = gl->end[g - m->track_off[gt]];
			nsp++;
		}
	}
	pj->sp = sp;
	if (nsp == 0)
		return;
	for (j = 1; j < nsp && sp[j - 1].start <= sp[j].start; j++)
		;
	if (j < nsp) {
		/* The scratch of the sort is the buffer's second half. */
		XGROW(sp, pj->spcap, 2 * nsp);
		pj->sp = sp;
		nvtx_span_sort(sp, sp + nsp, nsp);
	}
	out->nops = (uint32_t)nsp;
	out->start = sp[0].start;
	out->end = sp[0].end;
	cs = sp[0].start;
	ce = sp[0].end;
	for (j = 1; j < nsp; j++) {
		if (sp[j].end > out->end)
			out->end = sp[j].end;
		if (sp[j].start > ce) {
			out->busy += ce - cs;
			cs = sp[j].start;
			ce = sp[j].end;
		} else if (sp[j].end > ce)
			ce = sp[j].end;
	}
	out->busy += ce - cs;
}
