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

static void
gap_list_push(struct gap_list *gl, size_t *cap, const struct gap_span *g)
{
	XGROW(gl->v, *cap, gl->n + 1);
	gl->v[gl->n++] = *g;
}

void
gaps_device(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    struct gap_list *gl)
{
	const struct iset	*cv;
	struct gap_walk		 w;
	struct gap_span		 g;
	size_t			 i, cap = 0;
	int64_t			 s, e;

	memset(gl, 0, sizeof *gl);
	if (t1 <= t0)
		return;
	gap_walk_init(&w, t0, t1);
	if (d < a->ndev) {
		cv = &a->dev[d].cov[ACT_ALL];
		for (i = lbound_i64_above(cv->end, cv->n, t0);
		    i < cv->n && cv->start[i] < t1; i++) {
			s = cv->start[i] > t0 ? cv->start[i] : t0;
			e = cv->end[i] < t1 ? cv->end[i] : t1;
			if (gap_walk_busy(&w, s, e, &g))
				gap_list_push(gl, &cap, &g);
		}
	}
	if (gap_walk_end(&w, &g))
		gap_list_push(gl, &cap, &g);
	gl->busy = w.busy;
	gl->inner = w.inner;
}

void
gap_list_free(struct gap_list *gl)
{
	free(gl->v);
	memset(gl, 0, sizeof *gl);
}
