/*
 * gaps: idle gaps from busy segments (see gaps.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gaps.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

static const char *gap_kind_names[GAP_NKIND] = {
	"leading", "inner", "trailing", "whole"
};

const char *
gap_kind_name(int kind)
{
	return kind >= 0 && kind < GAP_NKIND ? gap_kind_names[kind] : "?";
}

void
gap_walk_init(struct gap_walk *w, int64_t ws, int64_t we)
{
	w->ws = ws;
	w->we = we;
	w->prev = ws;
	w->busy = 0;
	w->inner = 0;
}

int
gap_walk_busy(struct gap_walk *w, int64_t s, int64_t e, struct gap_span *g)
{
	int	found = 0;

	w->busy = sat_add64(w->busy, e - s);
	if (s > w->prev) {
		g->start = w->prev;
		g->end = s;
		g->kind = w->prev == w->ws ? GAP_LEADING : GAP_INNER;
		if (g->kind == GAP_INNER)
			w->inner = sat_add64(w->inner, s - w->prev);
		found = 1;
	}
	w->prev = e;
	return found;
}

int
gap_walk_end(struct gap_walk *w, struct gap_span *g)
{
	if (w->prev >= w->we)
		return 0;
	g->start = w->prev;
	g->end = w->we;
	g->kind = w->prev == w->ws ? GAP_WHOLE : GAP_TRAILING;
	return 1;
}

/* Walks the gaps of device slot d in [t0, t1) into fn; w holds the totals. */
static void
gaps_device_walk(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    gap_fn fn, void *arg, struct gap_walk *w)
{
	const struct iset	*cv;
	struct gap_span		 g;
	size_t			 i;
	int64_t			 s, e;

	gap_walk_init(w, t0, t1);
	if (t1 <= t0)
		return;
	if (d < a->ndev) {
		cv = &a->dev[d].cov[ACT_ALL];
		for (i = lbound_i64_above(cv->end, cv->n, t0);
		    i < cv->n && cv->start[i] < t1; i++) {
			s = cv->start[i] > t0 ? cv->start[i] : t0;
			e = cv->end[i] < t1 ? cv->end[i] : t1;
			if (gap_walk_busy(w, s, e, &g))
				fn(arg, &g);
		}
	}
	if (gap_walk_end(w, &g))
		fn(arg, &g);
}

void
gaps_device_each(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    gap_fn fn, void *arg)
{
	struct gap_walk	w;

	gaps_device_walk(a, d, t0, t1, fn, arg, &w);
}

struct gap_list_fill {
	struct gap_list	*gl;
	size_t		 cap;
};

static void
gap_list_push(void *arg, const struct gap_span *g)
{
	struct gap_list_fill	*f = arg;

	XGROW(f->gl->v, f->cap, f->gl->n + 1);
	f->gl->v[f->gl->n++] = *g;
}

void
gaps_device(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    struct gap_list *gl)
{
	struct gap_list_fill	f;
	struct gap_walk		w;

	memset(gl, 0, sizeof *gl);
	if (t1 <= t0)
		return;
	f.gl = gl;
	f.cap = 0;
	gaps_device_walk(a, d, t0, t1, gap_list_push, &f, &w);
	gl->busy = w.busy;
	gl->inner = w.inner;
}

void
gap_list_free(struct gap_list *gl)
{
	free(gl->v);
	memset(gl, 0, sizeof *gl);
}
