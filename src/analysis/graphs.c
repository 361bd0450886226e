/*
 * graphs: CUDA and HIP graph replays and their graphs (graphs.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/graphs.h"
#include "model/correlate.h"
#include "model/event.h"
#include "model/replay.h"
#include "util/hmap.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* One replayed operation and its replay's key. */
struct graph_op {
	uint32_t	 call;		/* NONE32: keyed by process and id */
	uint32_t	 process;
	uint32_t	 device;
	uint32_t	 context;
	uint32_t	 corr;
	uint32_t	 gid;
	int64_t		 start;
};

static int
graphs_op_cmp(const void *a, const void *b)
{
	const struct graph_op	*x = a, *y = b;

#define GRAPHS_CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
	GRAPHS_CMP(call);
	GRAPHS_CMP(process);
	GRAPHS_CMP(device);
	GRAPHS_CMP(context);
	GRAPHS_CMP(corr);
	GRAPHS_CMP(start);
	GRAPHS_CMP(gid);
#undef GRAPHS_CMP
	return 0;
}

static int
graphs_same(const struct graph_op *x, const struct graph_op *y)
{
	return x->call == y->call && x->process == y->process &&
	    x->device == y->device && x->context == y->context &&
	    x->corr == y->corr;
}

/* Whether GPU event i of track t was replayed; fills its key. */
static int
graphs_op(struct replay_names *rn, uint32_t t, uint32_t i,
    struct graph_op *op)
{
	const struct model		*m = rn->m;
	const struct track		*tr = &m->tracks[t];
	const struct lane		*l = &tr->lane;
	const struct kernel_info	*k = NULL;
	uint32_t			 gid = model_gid(m, t, i);

	if (!ev_kind_work(l->kind[i]))
		return 0;
	memset(op, 0, sizeof *op);
	op->call = replay_names_call(rn, gid);
	if (op->call == NONE32) {
		/* (event_kernel(), without finding the event) */
		if (l->kind[i] == EV_KERNEL && l->aux[i] != NONE32 &&
		    l->aux[i] < m->nkernels)
			k = &m->kernels[l->aux[i]];
		if (l->kind[i] != EV_GRAPH &&
		    (k == NULL || k->graph_id == 0 || l->corr[i] == 0))
			return 0;
		/* No call traced: linked work has a call of another kind. */
		if (correlate_launch(m, gid) != NONE32)
			return 0;
		op->process = tr->process;
		op->corr = l->corr[i];
	}
	op->device = tr->device;
	op->context = tr->stream < m->nstreams ?
	    m->streams[tr->stream].context : 0;
	op->gid = gid;
	op->start = l->start[i];
	if (op->call != NONE32)
		op->corr = m->tracks[model_ev(m, op->call).track].lane.corr[
		    model_ev(m, op->call).idx];
	return 1;
}

/* The graph id a source gave an operation, 0 if none. */
static uint64_t
graphs_source_id(const struct model *m, uint32_t gid)
{
	const struct kernel_info	*k;
	const char			*s;
	char				*end;
	unsigned long long		 v;

	switch (model_ev_kind(m, gid)) {
	case EV_KERNEL:
		k = event_kernel(m, gid);
		return k != NULL ? k->graph_id : 0;
	case EV_GRAPH:
		s = model_str(m, model_ev_name(m, gid));
		if (strncmp(s, "CUDA graph ", 11) != 0)
			return 0;
		v = strtoull(s + 11, &end, 10);
		return *end == '\0' ? v : 0;
	}
	return 0;
}

/* Fills one replay from its operations ops[0, n) (by start). */
static void
graphs_replay(const struct model *m, const struct graph_op *ops, size_t n,
    struct graph_replay *r)
{
	struct evref	e;
	const struct lane *l;
	uint64_t	 h = 0xcbf29ce484222325ULL, id;
	int64_t		 s, en, cur;
	size_t		 i;

	memset(r, 0, sizeof *r);
	r->call = ops[0].call;
	r->first = ops[0].gid;
	r->device = ops[0].device;
	r->context = ops[0].context;
	r->corr = ops[0].corr;
	r->range = NONE32;
	r->src = GRAPH_SRC_SIGNATURE;
	r->ops = n;
	e = model_ev(m, ops[0].gid);
	r->track = e.track;
	r->start = ops[0].start;
	cur = r->start;
	for (i = 0; i < n; i++) {
		e = model_ev(m, ops[i].gid);
		l = &m->tracks[e.track].lane;
		s = l->start[e.idx];
		en = l->end[e.idx];
		if (l->kind[e.idx] == EV_KERNEL)
			r->kernels++;
		if (l->kind[e.idx] == EV_GRAPH)
			r->whole = 1;
		if (s > cur) {
			r->gaps++;
			if (s - cur > r->max_gap)
				r->max_gap = s - cur;
			r->busy += en - s;
			cur = en;
		} else if (en > cur) {
			r->busy += en - cur;
			cur = en;
		}
		h = hmap_key2(h, l->name[e.idx]);
		if (r->src == GRAPH_SRC_SIGNATURE &&
		    (id = graphs_source_id(m, ops[i].gid)) != 0) {
			r->src = GRAPH_SRC_TRACE;
			r->graph = id;
		}
	}
	r->end = cur;
	r->signature = hmap_key2(h, n);
	if (r->call != NONE32) {
		r->latency = r->start - model_ev_end(m, r->call);
		r->range = event_range(m, r->call);
	}
}

static int
graphs_replay_cmp(const void *a, const void *b)
{
	const struct graph_replay	*x = a, *y = b;

	return sort_lex2(x->start, y->start, x->first, y->first);
}

static int
graphs_group_cmp(const void *a, const void *b, void *ctx)
{
	const struct graph_replay	*r = ctx;
	const struct graph_replay	*x = &r[*(const uint32_t *)a];
	const struct graph_replay	*y = &r[*(const uint32_t *)b];

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->graph != y->graph)
		return x->graph < y->graph ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return 0;
}

static void
graphs_group(struct graphs *gs)
{
	struct graph_group	*g = NULL;
	struct graph_replay	*r;
	uint32_t		*ix;
	size_t			 i;

	if (gs->n == 0)
		return;
	ix = xreallocarray(NULL, gs->n, sizeof *ix);
	for (i = 0; i < gs->n; i++)
		ix[i] = (uint32_t)i;
	sort_stable(ix, gs->n, sizeof *ix, graphs_group_cmp, gs->r);
	gs->g = xcalloc(gs->n, sizeof *gs->g);
	for (i = 0; i < gs->n; i++) {
		r = &gs->r[ix[i]];
		if (i == 0 || graphs_group_cmp(&ix[i - 1], &ix[i], gs->r) != 0) {
			g = &gs->g[gs->ng++];
			g->graph = r->graph;
			g->src = r->src;
			g->device = r->device;
			g->first = ix[i];
			g->span_min = INT64_MAX;
		}
		g->replays++;
		g->ops += r->ops;
		g->kernels += r->kernels;
		g->gaps += r->gaps;
		g->span = sat_add64(g->span, r->end - r->start);
		g->busy = sat_add64(g->busy, r->busy);
		if (r->end - r->start < g->span_min)
			g->span_min = r->end - r->start;
		if (r->end - r->start > g->span_max)
			g->span_max = r->end - r->start;
		if (r->max_gap > g->max_gap)
			g->max_gap = r->max_gap;
		if (r->call != NONE32) {
			g->launched++;
			g->latency = sat_add64(g->latency, r->latency);
		}
	}
	free(ix);
}

void
graphs_build(struct graphs *gs, const struct model *m, int64_t t0,
    int64_t t1)
{
	struct graph_op		*ops = NULL;
	struct graph_replay	 r;
	struct hmap		 sigs;
	uint32_t		 t, i, next = 1, *v;
	size_t			 nops = 0, cap = 0, j, k, rcap = 0;
	int			 isnew;
	struct replay_names	 rn;

	memset(gs, 0, sizeof *gs);
	replay_names_init(&rn, m);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		for (i = 0; i < m->tracks[t].lane.n; i++) {
			XGROW(ops, cap, nops + 1);
			if (graphs_op(&rn, t, i, &ops[nops]))
				nops++;
		}
	}
	replay_names_free(&rn);
	if (nops > 1)
		qsort(ops, nops, sizeof *ops, graphs_op_cmp);
	for (j = 0; j < nops; j = k) {
		for (k = j + 1; k < nops && graphs_same(&ops[j], &ops[k]); k++)
			;
		graphs_replay(m, ops + j, k - j, &r);
		if (!(r.start < t1 && r.end > t0) &&
		    !(r.start == r.end && r.start >= t0 && r.start < t1))
			continue;
		XGROW(gs->r, rcap, gs->n + 1);
		gs->r[gs->n++] = r;
		gs->ops += r.ops;
		if (r.call != NONE32)
			gs->calls++;
	}
	free(ops);
	/* Signatures become graph numbers in order of first replay. */
	if (gs->n > 1)
		qsort(gs->r, gs->n, sizeof *gs->r, graphs_replay_cmp);
	hmap_init(&sigs);
	for (j = 0; j < gs->n; j++) {
		if (gs->r[j].src != GRAPH_SRC_SIGNATURE)
			continue;
		v = hmap_upsert(&sigs, gs->r[j].signature, next, &isnew);
		if (isnew)
			next++;
		gs->r[j].graph = *v;
	}
	hmap_free(&sigs);
	graphs_group(gs);
}

void
graphs_free(struct graphs *gs)
{
	free(gs->r);
	free(gs->g);
	memset(gs, 0, sizeof *gs);
}
