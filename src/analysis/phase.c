/*
 * phase: timeline segmentation by kernel-mix divergence and dynamic
 * programming (see phase.h for the method and where it departs from
 * perf-advisor's): the bins, the boundary candidates, the segments'
 * fingerprints and the merge, and the walk over a window's events
 * (phase-int.h). The kernel sums of each phase are phase-kernels.c's, the
 * labels phase-label.c's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/iset.h"
#include "model/lane.h"
#include "model/nvtxfam.h"
#include "analysis/phase-int.h"
#include "util/nametab.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define MS			1000000LL
#define PH_NVOCAB		20
#define PH_OTHER		20
#define PH_COPY			21
#define PH_IDLE			22
#define PH_NKEYS		23
#define PH_NBINS		500
#define PH_BIN_MIN		(50 * MS)
#define PH_BIN_MAX		(500 * MS)
#define PH_MAXBINS		(1 << 20)	/* memory bound on the bins */
#define PH_CAND_FACTOR		5
#define PH_PREPASS		0.10
#define PH_ELBOW		0.05
#define PH_MAX_SEGS		150
#define PH_MARKER_TOP		200
#define PH_PRIO_WINDOW		5	/* the window's edges stay */
#define PH_PRIO_BIN		2	/* bin-edge candidates */

static const char *phase_edge_names[] = {
	"window", "distribution", "idle", "marker", "gpu"
};

const char *
phase_edge_name(int e)
{
	return NAMETAB(phase_edge_names, e, "unknown");
}

struct ph_cand {
	int64_t		 t;
	int		 prio;
	int		 edge;
};

struct ph_seg {
	int64_t		 start, end;
	int		 edge;
	int		 prio;		/* of the start boundary */
	double		 w;		/* duration, ns */
	double		 d[PH_NKEYS];	/* shares, or all 0 (empty) */
	int		 empty;
};

static double
ph_xlogx_ratio(double p, double m)
{
	return p > 0 && m > 0 ? p * log2(p / m) : 0.0;
}

double
phase_js(const double *p, const double *q, size_t n)
{
	double	sp = 0, sq = 0, js = 0, mk;
	size_t	k;

	for (k = 0; k < n; k++) {
		sp += p[k];
		sq += q[k];
	}
	if (sp <= 0 && sq <= 0)
		return 0.0;
	if (sp <= 0 || sq <= 0)
		return 1.0;
	for (k = 0; k < n; k++) {
		mk = (p[k] + q[k]) / 2;
		js += 0.5 * ph_xlogx_ratio(p[k], mk) +
		    0.5 * ph_xlogx_ratio(q[k], mk);
	}
	if (js < 0)
		js = 0;
	if (js > 1)
		js = 1;
	return js;
}

static int
ph_nonempty(const double *d)
{
	int	k;

	for (k = 0; k < PH_NKEYS; k++)
		if (d[k] > 0)
			return 1;
	return 0;
}

static void
ph_normalise(double *d)
{
	double	s = 0;
	int	k;

	for (k = 0; k < PH_NKEYS; k++)
		s += d[k];
	if (s <= 0) {
		memset(d, 0, PH_NKEYS * sizeof *d);
		return;
	}
	for (k = 0; k < PH_NKEYS; k++)
		d[k] /= s;
}

size_t
phase_lane(struct phase_ctx *c, const struct lane *l, int64_t a, int64_t b)
{
	c->run = !l->overlaps;
	if (c->run)
		return lane_run(l, a, b, &c->run0);
	return lane_overlap(l, a, b, &c->idx, &c->icap);
}

const struct track *
phase_next_track(struct phase_ctx *c, int type, int64_t a, int64_t b,
    size_t *t, size_t *n)
{
	const struct track	*tr;

	while (*t < c->m->ntracks) {
		tr = &c->m->tracks[(*t)++];
		if (tr->type != type)
			continue;
		if ((*n = phase_lane(c, &tr->lane, a, b)) > 0)
			return tr;
	}
	return NULL;
}

/* The vocabulary: the 20 kernel names with the most time in the window
 * (whose sums stay in c->win for a phase that is the whole window). */
static void
ph_vocab(struct phase_ctx *c)
{
	const struct model	*m = c->m;
	size_t			 ns = strpool_count(m->strs) + 1;
	const double		*tot;
	uint32_t		 best[PH_NVOCAB];
	size_t			 nbest = 0, j;
	uint32_t		 id;

	c->key_of = xcalloc(ns, 1);
	if (c->win.ksum == NULL)
		phase_kscan(c, c->t0, c->t1, &c->win);
	tot = c->win.ksum;
	for (id = 1; id < ns; id++) {
		if (tot[id] <= 0)
			continue;
		/* Insert into the sorted top list (ties: smaller id). */
		for (j = nbest; j > 0 && tot[best[j - 1]] < tot[id]; j--)
			if (j < PH_NVOCAB)
				best[j] = best[j - 1];
		if (j < PH_NVOCAB) {
			best[j] = id;
			if (nbest < PH_NVOCAB)
				nbest++;
		}
	}
	for (j = 0; j < nbest; j++)
		c->key_of[best[j]] = (uint8_t)(j + 1);
}

static int
ph_key(const struct phase_ctx *c, const struct lane *l, size_t i)
{
	if (l->kind[i] == EV_MEMCPY || l->kind[i] == EV_MEMSET)
		return PH_COPY;
	if (c->key_of[l->name[i]] != 0)
		return c->key_of[l->name[i]] - 1;
	return PH_OTHER;
}

static void
ph_bin_edges(const struct phase_ctx *c, size_t b, int64_t *s, int64_t *e)
{
	*s = c->t0 + (int64_t)b * c->bin;
	*e = *s + c->bin;
	if (*e > c->t1)
		*e = c->t1;
}

/* A work event's time, split over the bins it overlaps. *cb is the bin
 * the last event of the lane started in (events come in start order, so
 * the next mostly starts in it or the one after: no division). */
static void
ph_bins_event(struct phase_ctx *c, const struct lane *l, size_t i, size_t *cb)
{
	size_t	 b, b0, b1;
	int64_t	 s, e, bs, be, off;
	int	 key;

	if (activity_class(l->kind[i], l->flags[i]) < 0)
		return;
	s = l->start[i] > c->t0 ? l->start[i] : c->t0;
	e = l->end[i] < c->t1 ? l->end[i] : c->t1;
	if (e <= s)
		return;
	key = ph_key(c, l, i);
	off = s - c->t0 - (int64_t)*cb * c->bin;
	if (off >= 0 && off < c->bin)
		b0 = *cb;
	else if (off >= c->bin && off < 2 * c->bin)
		b0 = *cb + 1;
	else
		b0 = (size_t)((s - c->t0) / c->bin);
	*cb = b0;
	/* Most events end in the bin they start in: no second division. */
	if (e - c->t0 <= (int64_t)(b0 + 1) * c->bin)
		b1 = b0;
	else
		b1 = (size_t)((e - 1 - c->t0) / c->bin);
	if (b1 >= c->nbins)
		b1 = c->nbins - 1;
	if (b0 == b1 && b0 < c->nbins) {
		/* Wholly inside the bin: [s, e) is its own share of it. */
		c->raw[b0 * PH_NKEYS + key] += (double)(e - s);
		return;
	}
	for (b = b0; b <= b1; b++) {
		ph_bin_edges(c, b, &bs, &be);
		c->raw[b * PH_NKEYS + key] += (double)iset_span_in(s, e, bs,
		    be);
	}
}

/* Every work event's time, split over the bins it overlaps (kept in c->sum
 * too unless plain). */
static void
ph_bins(struct phase_ctx *c, int plain)
{
	const struct track	*tr;
	size_t			 t, k, n, b, cb;
	int64_t			 bs, be;

	c->raw = xcalloc(c->nbins * PH_NKEYS, sizeof *c->raw);
	c->idle = xcalloc(c->nbins, 1);
	for (t = 0; (tr = phase_next_track(c, TRACK_GPU, c->t0, c->t1, &t,
	    &n)) != NULL;)
		for (k = 0, cb = 0; k < n; k++)
			ph_bins_event(c, &tr->lane, phase_at(c, k), &cb);
	if (!plain) {
		c->sum = xmalloc(c->nbins * PH_NKEYS * sizeof *c->sum);
		memcpy(c->sum, c->raw, c->nbins * PH_NKEYS * sizeof *c->sum);
	}
	for (b = 0; b < c->nbins; b++) {
		ph_bin_edges(c, b, &bs, &be);
		if ((double)iset_measure(&c->a->any, bs, be) <
		    PH_IDLE_UTIL * (double)(be - bs)) {
			c->idle[b] = 1;
			memset(&c->raw[b * PH_NKEYS], 0,
			    PH_NKEYS * sizeof *c->raw);
		}
	}
}

static int
ph_cand_cmp(const void *x, const void *y)
{
	const struct ph_cand	*a = x, *b = y;

	/* In time, the higher priority first. */
	return sort_lex3(a->t, b->t, b->prio, a->prio, a->edge, b->edge);
}

static void
ph_cand_add(struct ph_cand **v, size_t *n, size_t *cap, int64_t t, int prio,
    int edge)
{
	XGROW(*v, *cap, *n + 1);
	(*v)[*n].t = t;
	(*v)[*n].prio = prio;
	(*v)[*n].edge = edge;
	(*n)++;
}

struct ph_js {
	double		 js;
	size_t		 i;
};

static int
ph_js_cmp(const void *x, const void *y)
{
	const struct ph_js	*a = x, *b = y;

	if (a->js != b->js)
		return a->js > b->js ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

struct ph_marker {
	int64_t		 start, end;
	uint32_t	 name;
};

static int
ph_marker_cmp(const void *x, const void *y)
{
	const struct ph_marker	*a = x, *b = y;
	int64_t			 da = a->end - a->start, db = b->end - b->start;

	/* The longest first. */
	return sort_lex3(db, da, a->start, b->start, a->name, b->name);
}

/* Candidates from long top-level NVTX ranges. */
static void
ph_markers(struct phase_ctx *c, int max_phases, struct ph_cand **v, size_t *n,
    size_t *cap)
{
	const struct model	*m = c->m;
	struct ph_marker	*mk = NULL, *top;
	const struct track	*tr;
	size_t			 nmk = 0, mcap = 0, t, i, j, k, ntop, cnt;
	int64_t			 minlen, lo;
	uint8_t			*inner;
	char			 ni[512], nj[512];

	lo = c->span / 20 < 100 * MS ? c->span / 20 : 100 * MS;
	minlen = c->span / 50 > lo ? c->span / 50 : lo;
	for (t = 0; (tr = model_track_next(m, TRACK_NVTX, &t)) != NULL; t++) {
		const struct lane *l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			/* The lane's own tests first: most ranges are short,
			 * and phase_toplevel() reads m->nvtx. */
			if (l->end[i] - l->start[i] < minlen ||
			    l->end[i] <= c->t0 || l->start[i] >= c->t1 ||
			    !phase_toplevel(m, l, i) ||
			    phase_comm_range(m, tr, l, i))
				continue;
			XGROW(mk, mcap, nmk + 1);
			mk[nmk].start = l->start[i];
			mk[nmk].end = l->end[i];
			mk[nmk].name = l->name[i];
			nmk++;
		}
	}
	if (nmk == 0)
		return;
	qsort(mk, nmk, sizeof *mk, ph_marker_cmp);
	ntop = nmk < PH_MARKER_TOP ? nmk : PH_MARKER_TOP;
	top = mk;
	inner = xcalloc(ntop, 1);
	/* Those inside another kept range are not top level. */
	for (i = 0; i < ntop; i++)
		for (j = 0; j < ntop && !inner[i]; j++)
			if (j != i && top[j].start <= top[i].start &&
			    top[i].end <= top[j].end &&
			    (top[j].end - top[j].start >
			    top[i].end - top[i].start || j < i))
				inner[i] = 1;
	for (i = 0; i < ntop; i++) {
		if (inner[i])
			continue;
		nvtx_family(model_str(m, top[i].name), ni, sizeof ni);
		cnt = 0;
		for (k = 0; k < ntop; k++) {
			if (inner[k])
				continue;
			nvtx_family(model_str(m, top[k].name), nj,
			    sizeof nj);
			if (strcmp(ni, nj) == 0)
				cnt++;
		}
		if (cnt > (size_t)max_phases)
			continue;	/* an iteration marker */
		if (top[i].start > c->t0)
			ph_cand_add(v, n, cap, top[i].start, 3,
			    PHASE_EDGE_MARKER);
		if (top[i].end < c->t1)
			ph_cand_add(v, n, cap, top[i].end, 3,
			    PHASE_EDGE_MARKER);
	}
	free(inner);
	free(mk);
}

/* All boundary candidates, merged (step 6 and 7). */
static size_t
ph_candidates(struct phase_ctx *c, int max_phases, struct ph_cand **out)
{
	struct ph_cand		*v = NULL, *kept = NULL;
	struct ph_js		*js;
	size_t			 n = 0, cap = 0, nk = 0, kcap = 0, i, want;
	struct act_window	 tot;
	int64_t			 tol, fivems;

	if (c->nbins > 1) {
		js = xcalloc(c->nbins - 1, sizeof *js);
		for (i = 0; i + 1 < c->nbins; i++) {
			js[i].i = i;
			js[i].js = phase_js(&c->raw[i * PH_NKEYS],
			    &c->raw[(i + 1) * PH_NKEYS], PH_NKEYS);
		}
		qsort(js, c->nbins - 1, sizeof *js, ph_js_cmp);
		want = (size_t)PH_CAND_FACTOR * (size_t)max_phases;
		for (i = 0; i < c->nbins - 1 && i < want; i++) {
			if (js[i].js <= 0)
				break;
			ph_cand_add(&v, &n, &cap, c->t0 + (int64_t)(js[i].i +
			    1) * c->bin, 2, PHASE_EDGE_DIST);
		}
		free(js);
		for (i = 0; i + 1 < c->nbins; i++)
			if (c->idle[i] != c->idle[i + 1])
				ph_cand_add(&v, &n, &cap, c->t0 +
				    (int64_t)(i + 1) * c->bin, 2,
				    PHASE_EDGE_IDLE);
	}
	ph_markers(c, max_phases, &v, &n, &cap);
	if (activity_total(c->a, c->t0, c->t1, &tot) > 0) {
		ph_cand_add(&v, &n, &cap, tot.first, 4, PHASE_EDGE_GPU);
		ph_cand_add(&v, &n, &cap, tot.last, 4, PHASE_EDGE_GPU);
	}

	fivems = 5 * MS < c->bin ? 5 * MS : c->bin;
	tol = c->span / 200 > fivems ? c->span / 200 : fivems;
	if (n > 1)
		qsort(v, n, sizeof *v, ph_cand_cmp);
	for (i = 0; i < n; i++) {
		if (v[i].t - c->t0 <= tol || c->t1 - v[i].t <= tol)
			continue;
		if (nk > 0 && v[i].t - kept[nk - 1].t <= tol) {
			if (v[i].prio > kept[nk - 1].prio)
				kept[nk - 1] = v[i];
			continue;
		}
		XGROW(kept, kcap, nk + 1);
		kept[nk++] = v[i];
	}
	free(v);
	*out = kept;
	return nk;
}

/* Mixes b into a, weighted by duration (empty distributions weigh 0). */
static void
ph_mix(struct ph_seg *a, const struct ph_seg *b)
{
	double	wa = a->empty ? 0 : a->w, wb = b->empty ? 0 : b->w;
	int	k;

	if (wa + wb > 0)
		for (k = 0; k < PH_NKEYS; k++)
			a->d[k] = (a->d[k] * wa + b->d[k] * wb) / (wa + wb);
	a->empty = a->empty && b->empty;
	a->end = b->end;
	a->w += b->w;
}

/* Adds the work of each key clipped to [a, b) to d. */
static void
ph_work(struct phase_ctx *c, int64_t a, int64_t b, double *d)
{
	const struct track	*tr;
	const struct lane	*l;
	size_t			 t, k, n, i;
	int64_t			 s, e;

	if (b <= a)
		return;
	for (t = 0; (tr = phase_next_track(c, TRACK_GPU, a, b, &t,
	    &n)) != NULL;) {
		l = &tr->lane;
		for (k = 0; k < n; k++) {
			i = phase_at(c, k);
			if (activity_class(l->kind[i], l->flags[i]) < 0)
				continue;
			s = l->start[i] > a ? l->start[i] : a;
			e = l->end[i] < b ? l->end[i] : b;
			if (e > s)
				d[ph_key(c, l, i)] += (double)(e - s);
		}
	}
}

/* The devices' idle time in [a, b) into d[PH_IDLE]. */
static void
ph_idle(struct phase_ctx *c, int64_t a, int64_t b, double *d)
{
	size_t	dv;

	for (dv = 0; dv < c->a->ndev; dv++)
		d[PH_IDLE] += (double)((b - a) - activity_busy(c->a, dv,
		    ACT_ALL, a, b));
}

/*
 * The fingerprint of [a, b): the work of each key clipped to it, plus the
 * devices' idle time under "__idle__" (raw, not normalised).
 */
static void
ph_fingerprint(struct phase_ctx *c, int64_t a, int64_t b, double *d)
{
	memset(d, 0, PH_NKEYS * sizeof *d);
	if (b <= a)
		return;
	ph_work(c, a, b, d);
	ph_idle(c, a, b, d);
}

/*
 * ph_fingerprint() with the bins whole inside [a, b) taken from c->sum,
 * and only the slices at either end from the events. Every addend is a
 * whole number of ns: while a key's sum stays under 2^53, each double
 * addition, here and in ph_fingerprint(), is exact, so the order of the
 * additions does not matter and the sums are the same bits. A sum that
 * reaches 2^53 (100 days of work) returns 0 and d is ph_fingerprint()'s
 * to fill.
 */
static int
ph_fingerprint_bins(struct phase_ctx *c, int64_t a, int64_t b, double *d)
{
	size_t	jf, jl, j;
	int64_t	x, y;
	int	k;

	memset(d, 0, PH_NKEYS * sizeof *d);
	if (b <= a)
		return 1;
	/* Bins jf .. jl - 1 lie whole inside; the last ends at t1. */
	jf = (size_t)((a - c->t0 + c->bin - 1) / c->bin);
	jl = b >= c->t1 ? c->nbins : (size_t)((b - c->t0) / c->bin);
	if (jf >= jl)
		ph_work(c, a, b, d);
	else {
		x = c->t0 + (int64_t)jf * c->bin;
		y = jl >= c->nbins ? c->t1 : c->t0 + (int64_t)jl * c->bin;
		ph_work(c, a, x, d);
		for (j = jf; j < jl; j++)
			for (k = 0; k < PH_IDLE; k++)
				d[k] += c->sum[j * PH_NKEYS + k];
		ph_work(c, y, b, d);
	}
	for (k = 0; k < PH_IDLE; k++)
		if (d[k] >= 0x1p53)
			return 0;
	ph_idle(c, a, b, d);
	return 1;
}

static size_t
ph_segments(struct phase_ctx *c, const struct ph_cand *cand, size_t ncand,
    struct ph_seg **out)
{
	struct ph_seg	*s;
	size_t		 n = ncand + 1, j;

	s = xcalloc(n, sizeof *s);
	for (j = 0; j < n; j++) {
		s[j].start = j == 0 ? c->t0 : cand[j - 1].t;
		s[j].end = j == ncand ? c->t1 : cand[j].t;
		s[j].edge = j == 0 ? PHASE_EDGE_WINDOW : cand[j - 1].edge;
		s[j].prio = j == 0 ? PH_PRIO_WINDOW : cand[j - 1].prio;
		s[j].w = (double)(s[j].end - s[j].start);
		if (c->sum == NULL || !ph_fingerprint_bins(c, s[j].start,
		    s[j].end, s[j].d))
			ph_fingerprint(c, s[j].start, s[j].end, s[j].d);
		ph_normalise(s[j].d);
		s[j].empty = !ph_nonempty(s[j].d);
	}
	*out = s;
	return n;
}

/* Step 9: merges similar neighbours; returns the new count. */
static size_t
ph_prepass(struct ph_seg *s, size_t n, int64_t bin)
{
	double	best, js;
	size_t	i, bi;

	/*
	 * A segment shorter than a bin between a bin-edge boundary (a jump
	 * in the mix or an idle edge: exact only to a bin) and any other
	 * holds a slice of an iteration, so its mix says nothing: it joins
	 * the neighbour across its weaker boundary, so the stronger one
	 * stays; between two bin edges, the more similar neighbour. Between
	 * two exact boundaries (markers, GPU edges, the window) it is a real
	 * phase, however short.
	 */
	for (i = 0; i < n && n > 1; ) {
		int lp, rp, right;
		lp = s[i].prio;
		rp = i + 1 < n ? s[i + 1].prio : PH_PRIO_WINDOW;
		if (!s[i].empty && (s[i].end - s[i].start >= bin ||
		    (lp > PH_PRIO_BIN && rp > PH_PRIO_BIN))) {
			i++;
			continue;
		}
		if (i + 1 >= n)
			right = 0;
		else if (i == 0)
			right = 1;
		else if (lp != rp)
			right = lp > rp;
		else
			right = phase_js(s[i].d, s[i + 1].d, PH_NKEYS) <=
			    phase_js(s[i].d, s[i - 1].d, PH_NKEYS);
		if (right) {
			/* Drop the right boundary: i absorbs i + 1. */
			struct ph_seg keep = s[i];
			ph_mix(&s[i], &s[i + 1]);
			s[i].start = keep.start;
			s[i].edge = keep.edge;
			s[i].prio = keep.prio;
			memmove(&s[i + 1], &s[i + 2], (n - i - 2) * sizeof *s);
		} else {
			/* Drop the left boundary: i - 1 absorbs i. */
			ph_mix(&s[i - 1], &s[i]);
			memmove(&s[i], &s[i + 1], (n - i - 1) * sizeof *s);
		}
		n--;
	}
	while (n > 1) {
		best = 2;
		bi = 0;
		for (i = 0; i + 1 < n; i++) {
			js = phase_js(s[i].d, s[i + 1].d, PH_NKEYS);
			if (js < best) {
				best = js;
				bi = i;
			}
		}
		if (best >= PH_PREPASS && n <= PH_MAX_SEGS)
			break;
		ph_mix(&s[bi], &s[bi + 1]);
		memmove(&s[bi + 1], &s[bi + 2], (n - bi - 2) * sizeof *s);
		n--;
	}
	return n;
}

/* Cost of grouping segments a..b: sum of w_i * JS(d_i, mix). */
static void
ph_costs(const struct ph_seg *s, size_t n, double *cst)
{
	struct ph_seg	mix;
	size_t		a, b, i;
	double		sum;

	for (a = 0; a < n; a++) {
		mix = s[a];
		for (b = a; b < n; b++) {
			if (b > a)
				ph_mix(&mix, &s[b]);
			sum = 0;
			for (i = a; i <= b; i++)
				sum += s[i].w * phase_js(s[i].d, mix.d,
				    PH_NKEYS);
			cst[a * n + b] = sum;
		}
	}
}

static void
ph_single(struct phases *ph, int64_t t0, int64_t t1)
{
	ph->v = xcalloc(1, sizeof *ph->v);
	ph->n = 1;
	ph->v[0].start = t0;
	ph->v[0].end = t1;
	ph->v[0].label = xstrdup("profile");
	ph->best_k = 1;
}

int
phase_detect(const struct model *m, const struct activity *a,
    const struct phase_opts *po, struct phases *ph, char **cause)
{
	struct phase_ctx		 c;
	struct ph_cand		*cand = NULL;
	struct ph_seg		*seg = NULL, mix;
	struct act_window	 tot;
	double			*cst = NULL, *dp = NULL, range, gain;
	size_t			*arg = NULL, n, ncand, i, k, K, mm, grp;
	int			 maxp, kk, chosen;
	int64_t			 bin;
	uint32_t		 kn_short;

	memset(ph, 0, sizeof *ph);
	memset(&c, 0, sizeof c);
	maxp = po->max_phases == 0 ? PHASE_MAX_PHASES_DEFAULT : po->max_phases;
	if (maxp < 1 || maxp > PHASE_MAX_PHASES) {
		*cause = xasprintf("--max-phases must be 1 to %d",
		    PHASE_MAX_PHASES);
		return -1;
	}
	if (po->forced_k < 0 || po->forced_k > PHASE_MAX_PHASES) {
		*cause = xasprintf("--phases must be 1 to %d",
		    PHASE_MAX_PHASES);
		return -1;
	}
	if (po->forced_k > maxp)
		maxp = po->forced_k;
	ph->max_phases = maxp;
	ph->t0 = po->t1 > po->t0 ? po->t0 : m->origin_ns;
	ph->t1 = po->t1 > po->t0 ? po->t1 : m->end_ns;
	c.m = m;
	c.a = a;
	c.t0 = ph->t0;
	c.t1 = ph->t1;
	c.span = c.t1 - c.t0;
	/* The window's kernel sums, when the caller made them. */
	if (po->win != NULL && po->win->ksum != NULL && po->win->s == c.t0 &&
	    po->win->e == c.t1) {
		c.win = *po->win;
		memset(po->win, 0, sizeof *po->win);
	}
	if (c.span <= 0 || maxp == 1 || po->forced_k == 1 ||
	    activity_total(a, c.t0, c.t1, &tot) == 0) {
		ph_single(ph, c.t0, c.t1 > c.t0 ? c.t1 : c.t0);
		(void)phase_kernels(&c, &ph->v[0], &kn_short);
		phase_kacc_free(&c.win);	/* when not that phase's */
		free(c.idx);
		ph->forced = po->forced_k == 1;
		ph->ncost = 1;
		ph->cost = xcalloc(1, sizeof *ph->cost);
		return 0;
	}

	/* Steps 2 to 5. */
	bin = c.span / PH_NBINS;
	if (bin < PH_BIN_MIN)
		bin = PH_BIN_MIN;
	if (bin > PH_BIN_MAX)
		bin = PH_BIN_MAX;
	if (po->min_bin_ns > bin)
		bin = po->min_bin_ns;
	if (bin > c.span)
		bin = c.span;
	if (bin < 1)
		bin = 1;
	/* A trace longer than PH_MAXBINS bins of PH_BIN_MAX (six days)
	 * gets wider bins rather than unbounded memory. */
	if (c.span / bin >= PH_MAXBINS)
		bin = c.span / PH_MAXBINS + 1;
	c.bin = bin;
	c.nbins = (size_t)((c.span + bin - 1) / bin);
	ph->bin_ns = bin;
	ph->nbins = c.nbins;
	ph_vocab(&c);
	ph_bins(&c, po->plain);
	for (i = 0; i < c.nbins; i++)
		ph_normalise(&c.raw[i * PH_NKEYS]);

	/* Steps 6 to 9. */
	ncand = ph_candidates(&c, maxp, &cand);
	ph->ncandidates = ncand;
	n = ph_segments(&c, cand, ncand, &seg);
	n = ph_prepass(seg, n, c.bin);
	ph->nsegments = n;

	/* Step 10. */
	K = (size_t)maxp < n ? (size_t)maxp : n;
	cst = xcalloc(n * n, sizeof *cst);
	ph_costs(seg, n, cst);
	dp = xcalloc((K + 1) * n, sizeof *dp);
	arg = xcalloc((K + 1) * n, sizeof *arg);
	for (i = 0; i < n; i++)
		dp[1 * n + i] = cst[0 * n + i];
	for (k = 2; k <= K; k++) {
		for (i = k - 1; i < n; i++) {
			double best = INFINITY, v;
			size_t bm = k - 1;
			for (mm = k - 1; mm <= i; mm++) {
				v = dp[(k - 1) * n + mm - 1] + cst[mm * n + i];
				if (v < best - 1e-9) {
					best = v;
					bm = mm;
				}
			}
			dp[k * n + i] = best;
			arg[k * n + i] = bm;
		}
	}
	ph->ncost = K;
	ph->cost = xcalloc(K, sizeof *ph->cost);
	for (k = 1; k <= K; k++)
		ph->cost[k - 1] = dp[k * n + n - 1] / (double)c.span;

	/* Step 11. */
	range = K > 1 ? ph->cost[0] - ph->cost[K - 1] : 0;
	ph->best_k = 1;
	if (range > 1e-12)
		for (k = 2; k <= K; k++) {
			gain = (ph->cost[k - 2] - ph->cost[k - 1]) / range;
			if (gain >= PH_ELBOW)
				ph->best_k = (int)k;
		}
	chosen = ph->best_k;
	if (po->forced_k > 0) {
		chosen = po->forced_k < (int)K ? po->forced_k : (int)K;
		ph->forced = 1;
	}

	/* Step 12: traceback, then labels. */
	ph->n = (size_t)chosen;
	ph->v = xcalloc(ph->n, sizeof *ph->v);
	i = n - 1;
	for (kk = chosen; kk >= 1; kk--) {
		mm = kk == 1 ? 0 : arg[(size_t)kk * n + i];
		grp = (size_t)kk - 1;
		ph->v[grp].start = seg[mm].start;
		ph->v[grp].end = seg[i].end;
		ph->v[grp].edge = seg[mm].edge;
		if (mm == 0)
			break;
		i = mm - 1;
	}
	{
		struct ph_seg	prev;
		size_t		j = 0, g;

		memset(&prev, 0, sizeof prev);
		for (g = 0; g < ph->n; g++) {
			mix = seg[j];
			for (j = j + 1; j < n && seg[j].start < ph->v[g].end;
			    j++)
				ph_mix(&mix, &seg[j]);
			ph->v[g].js_prev = g == 0 ? 0 :
			    phase_js(prev.d, mix.d, PH_NKEYS);
			prev = mix;
			ph->v[g].label = phase_label(&c, &ph->v[g]);
		}
	}
	phase_label_dedup(ph);

	free(cst);
	free(dp);
	free(arg);
	free(seg);
	free(cand);
	free(c.key_of);
	phase_kacc_free(&c.win);
	free(c.raw);
	free(c.sum);
	free(c.idle);
	free(c.idx);
	return 0;
}

void
phase_free(struct phases *ph)
{
	size_t	i;

	for (i = 0; i < ph->n; i++) {
		free(ph->v[i].label);
		free(ph->v[i].kn);
	}
	free(ph->v);
	free(ph->cost);
	memset(ph, 0, sizeof *ph);
}
