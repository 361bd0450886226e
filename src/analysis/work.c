/*
 * work: a selection's GPU work walked in time order (see work.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "analysis/work.h"
#include "util/lbound.h"
#include "util/pool.h"
#include "util/xmalloc.h"

void
work_init(struct work *w, const struct model *m, const struct work_sel *s,
    int64_t t0, int64_t t1)
{
	const struct lane	*l;
	size_t			 t, i;

	memset(w, 0, sizeof *w);
	w->m = m;
	w->sel = *s;
	w->t0 = t0;
	w->t1 = t1;
	w->filtered = s->event != NULL;
	w->pure = xcalloc(m->ntracks + 1, 1);
	w->selected = xcalloc(m->ntracks + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU || (s->track != NULL &&
		    !s->track(s->arg, (uint32_t)t)))
			continue;
		/* The first work event (work_class() >= 0) will do: whether
		 * a track holds only work is asked of few (work_pure()). */
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n && !ev_kind_work(l->kind[i]); i++)
			;
		w->selected[t] = i < l->n;
	}
}

int
work_pure(const struct work *w, uint32_t t)
{
	const struct lane	*l = &w->m->tracks[t].lane;
	size_t			 i;

	/* 0: not yet known, 1: only work, 2: not only work. */
	if (w->pure[t] == 0) {
		for (i = 0; i < l->n && ev_kind_work(l->kind[i]); i++)
			;
		w->pure[t] = i == l->n ? 1 : 2;
	}
	return w->pure[t] == 1;
}

void
work_free(struct work *w)
{
	free(w->pure);
	free(w->selected);
	w->pure = w->selected = NULL;
}

/* work_event() on the lane of track t. */
static inline int
work_event_in(const struct work *w, const struct lane *l, uint32_t t,
    uint32_t i)
{
	int	c;

	if ((c = work_class(l->kind[i], l->flags[i])) < 0)
		return -1;
	if (w->filtered && !w->sel.event(w->sel.arg, t, i))
		return -1;
	return c;
}

int
work_event(const struct work *w, uint32_t t, uint32_t i)
{
	return work_event_in(w, &w->m->tracks[t].lane, t, i);
}

unsigned
work_threads(const struct work *w, size_t njobs)
{
	unsigned	n;

	if (w->filtered || njobs < 2)
		return 1;
	n = pool_sweep_threads();
	return n > njobs ? (unsigned)njobs : n;
}

size_t
work_tracks(const struct work *w, uint32_t d, uint32_t **buf, size_t *cap)
{
	size_t	t, n = 0;

	for (t = 0; t < w->m->ntracks; t++) {
		if (!w->selected[t] ||
		    (d != NONE32 && w->m->tracks[t].device != d))
			continue;
		XGROW(*buf, *cap, n + 1);
		(*buf)[n++] = (uint32_t)t;
	}
	return n;
}

size_t
work_devices(const struct model *m, uint32_t **buf, size_t *cap)
{
	size_t		i, k;
	uint32_t	d;

	for (i = 0; i < m->ndevices; i++) {
		XGROW(*buf, *cap, i + 1);
		/* Insertion sort: a node has a handful of devices. */
		for (k = i; k > 0 && m->devices[(*buf)[k - 1]].source_id >
		    m->devices[i].source_id; k--)
			(*buf)[k] = (*buf)[k - 1];
		d = (uint32_t)i;
		(*buf)[k] = d;
	}
	return m->ndevices;
}

size_t
work_device_procs(const struct model *m, uint32_t d, uint32_t **buf,
    size_t *cap)
{
	size_t		i, k, n = 0;
	uint32_t	p;

	for (i = 0; i < m->nstreams; i++) {
		if (m->streams[i].device != d ||
		    (p = m->streams[i].process) == NONE32)
			continue;
		for (k = 0; k < n; k++)
			if ((*buf)[k] == p)
				break;
		if (k < n)
			continue;
		XGROW(*buf, *cap, n + 1);
		(*buf)[n++] = p;
	}
	return n;
}

/* Moves a cursor to its next selected work event; 0 when it has none. */
static inline int
work_cursor_next(const struct work_merge *mg, struct work_cursor *c)
{
	const struct lane	*l = &mg->w->m->tracks[c->t].lane;
	size_t			 j;
	int			 cls;

	for (;;) {
		if (c->spos < c->nstrad)
			j = c->strad[c->spos++];
		else if (c->cur < c->hi)
			j = c->cur++;
		else
			return 0;
		if ((cls = work_event_in(mg->w, l, c->t, (uint32_t)j)) < 0)
			continue;
		c->it.t = c->t;
		c->it.i = (uint32_t)j;
		c->it.cls = cls;
		c->it.s = l->start[j] > mg->a ? l->start[j] : mg->a;
		c->it.e = l->end[j] < mg->b ? l->end[j] : mg->b;
		if (c->it.e < c->it.s)
			c->it.e = c->it.s;
		return 1;
	}
}

/* Heap order: earlier clamped start first, then the lower cursor. */
static int
work_heap_less(const struct work_merge *mg, size_t x, size_t y)
{
	const struct work_item	*a = &mg->c[x].it, *b = &mg->c[y].it;

	if (a->s != b->s)
		return a->s < b->s;
	return x < y;
}

static void
work_heap_down(struct work_merge *mg, size_t i)
{
	size_t	x = mg->heap[i], k;

	for (; (k = 2 * i + 1) < mg->nh; i = k) {
		if (k + 1 < mg->nh &&
		    work_heap_less(mg, mg->heap[k + 1], mg->heap[k]))
			k++;
		if (!work_heap_less(mg, mg->heap[k], x))
			break;
		mg->heap[i] = mg->heap[k];
	}
	mg->heap[i] = x;
}

/* Keeps mg->lim, the smaller child of the top (nh > 1). */
static void
work_heap_lim(struct work_merge *mg)
{
	mg->lim = mg->nh > 2 && work_heap_less(mg, mg->heap[2], mg->heap[1]) ?
	    mg->heap[2] : mg->heap[1];
}

void
work_merge_start(struct work_merge *mg, const struct work *w,
    const uint32_t *tracks, size_t ntracks, int64_t a, int64_t b)
{
	struct work_cursor	*c;
	const struct lane	*l;
	size_t			 k, j, n;

	mg->w = w;
	mg->a = a;
	mg->b = b;
	mg->nc = mg->nh = 0;
	if (b <= a)
		return;
	if (ntracks > mg->ccap) {
		mg->c = xreallocarray(mg->c, ntracks, sizeof *mg->c);
		memset(mg->c + mg->ccap, 0, (ntracks - mg->ccap) *
		    sizeof *mg->c);
		mg->ccap = ntracks;
	}
	XGROW(mg->heap, mg->hcap, ntracks + 1);
	for (k = 0; k < ntracks; k++) {
		if (!w->selected[tracks[k]])
			continue;
		l = &w->m->tracks[tracks[k]].lane;
		if (l->n == 0)
			continue;
		c = &mg->c[mg->nc];
		c->t = tracks[k];
		/* Events that start before a and reach into the window. */
		n = lane_overlap(l, a, a + 1, &c->strad, &c->scap);
		for (j = 0, c->nstrad = 0; j < n; j++)
			if (l->start[c->strad[j]] < a)
				c->strad[c->nstrad++] = c->strad[j];
		c->spos = 0;
		c->cur = lane_lower(l, a);
		c->hi = lane_lower(l, b);
		if (!work_cursor_next(mg, c))
			continue;
		mg->heap[mg->nh++] = mg->nc++;
	}
	for (k = mg->nh / 2; k-- > 0; )
		work_heap_down(mg, k);
	if (mg->nh > 1)
		work_heap_lim(mg);
}

int
work_merge_next(struct work_merge *mg, struct work_item *out)
{
	struct work_cursor	*c;
	size_t			 x;

	if (mg->nh == 0)
		return 0;
	x = mg->heap[0];
	c = &mg->c[x];
	*out = c->it;
	if (!work_cursor_next(mg, c)) {
		mg->heap[0] = mg->heap[--mg->nh];
	} else {
		if (mg->nh == 1)
			return 1;
		/* Most often the cursor stays on top (one stream runs most
		 * of the work): it does when it comes before the smaller
		 * child, which has not moved. */
		if (work_heap_less(mg, x, mg->lim))
			return 1;
	}
	if (mg->nh > 1) {
		work_heap_down(mg, 0);
		work_heap_lim(mg);
	}
	return 1;
}

void
work_merge_free(struct work_merge *mg)
{
	XFREE_EACH(mg->c, mg->ccap, strad);
	free(mg->c);
	free(mg->heap);
	memset(mg, 0, sizeof *mg);
}
