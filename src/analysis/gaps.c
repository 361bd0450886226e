/*
 * gaps: idle gaps from busy segments (see gaps.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gaps.h"
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

void
gaps_device_each(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    gap_fn fn, void *arg)
{
	struct gap_walk	w;

	gaps_device_visit(a, d, t0, t1, fn, arg, &w);
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
	gaps_device_visit(a, d, t0, t1, gap_list_push, &f, &w);
	gl->busy = w.busy;
	gl->inner = w.inner;
}

void
gap_list_free(struct gap_list *gl)
{
	free(gl->v);
	memset(gl, 0, sizeof *gl);
}
