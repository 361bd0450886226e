/*
 * worksel: a verb's selection as the analyses' work selection, and its
 * windows (see worksel.h).
 */
#include "config.h"

#include <stdlib.h>

#include "headless/worksel.h"
#include "util/xmalloc.h"

int
worksel_track(void *arg, uint32_t t)
{
	return sel_track(arg, t);
}

int
worksel_event(void *arg, uint32_t t, uint32_t i)
{
	return sel_event(arg, t, i);
}

/* Whether sel_kind() alone selects on track t: kernels by their kind. */
static int
worksel_plain(void *arg, uint32_t t)
{
	const struct sel	*s = arg;

	return s->kind == EV_KERNEL && sel_lane_plain(s, t);
}

void
worksel_launch(struct launch_sel *ls, struct sel *s)
{
	ls->t0 = s->t0;
	ls->t1 = s->t1;
	ls->track = worksel_track;
	ls->plain = worksel_plain;
	ls->event = worksel_event;
	ls->arg = s;
}

void
worksel_init(struct work *w, const struct model *m, struct sel *s,
    int64_t t0, int64_t t1)
{
	struct work_sel	ws;

	ws.track = worksel_track;
	ws.event = NULL;
	if (s->name_cache != NULL || s->tid >= 0 || s->has_nvtx ||
	    s->min_dur > 0 || s->kind != 0)
		ws.event = worksel_event;
	ws.arg = s;
	work_init(w, m, &ws, t0, t1);
}

void
worksel_windows(const struct work *w, const uint32_t *procs, size_t nprocs,
    struct iset *out)
{
	const struct sel	*s = w->sel.arg;
	int64_t			*st, *en;
	size_t			 i, k, n = 0;
	struct iset		 all;

	iset_clear(out);
	if (!s->has_nvtx) {
		iset_add(out, w->t0, w->t1);
		return;
	}
	st = xreallocarray(NULL, s->nwin + 1, sizeof *st);
	en = xreallocarray(NULL, s->nwin + 1, sizeof *en);
	for (i = 0; i < s->nwin; i++) {
		if (nprocs > 0) {
			for (k = 0; k < nprocs; k++)
				if (procs[k] == s->win[i].process)
					break;
			if (k == nprocs)
				continue;
		}
		st[n] = s->win[i].start;
		en[n++] = s->win[i].end;
	}
	iset_init(&all);
	iset_build(&all, st, en, n);
	iset_clip(out, &all, w->t0, w->t1);
	iset_free(&all);
	free(st);
	free(en);
}
