/*
 * work: selected GPU work walked in time order (see work.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "headless/work.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

int
work_class(int kind, unsigned flags)
{
	switch (kind) {
	case EV_KERNEL:
	case EV_GRAPH:
		return (flags & EVF_COMM) ? WORK_COMM : WORK_COMPUTE;
	case EV_MEMCPY:
	case EV_MEMSET:
		return WORK_COPY;
	default:
		return -1;
	}
}

void
work_init(struct work *w, const struct model *m, struct sel *s, int64_t t0,
    int64_t t1)
{
	const struct lane	*l;
	size_t			 t, i, k;

	memset(w, 0, sizeof *w);
	w->m = m;
	w->s = s;
	w->t0 = t0;
	w->t1 = t1;
	w->filtered = s->name_cache != NULL || s->tid >= 0 || s->has_nvtx ||
	    s->min_dur > 0 || s->kind != 0;
	w->pure = xcalloc(m->ntracks + 1, 1);
	w->selected = xcalloc(m->ntracks + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU ||
		    !sel_track(s, (uint32_t)t))
			continue;
		l = &m->tracks[t].lane;
		for (i = 0, k = 0; i < l->n; i++)
			if (work_class(l->kind[i], l->flags[i]) >= 0)
				k++;
		w->selected[t] = k > 0;
		w->pure[t] = k == l->n;
	}
}

void
work_free(struct work *w)
{
	free(w->pure);
	free(w->selected);
	w->pure = w->selected = NULL;
}

void
work_windows(const struct work *w, const uint32_t *procs, size_t nprocs,
    struct iset *out)
{
	const struct sel	*s = w->s;
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

int
work_event(const struct work *w, uint32_t t, uint32_t i)
{
	const struct lane	*l = &w->m->tracks[t].lane;
	int			 c;

	if ((c = work_class(l->kind[i], l->flags[i])) < 0)
		return -1;
	if (w->filtered && !sel_event(w->s, t, i))
		return -1;
	return c;
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
static int
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
		if ((cls = work_event(mg->w, c->t, (uint32_t)j)) < 0)
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
}

int
work_merge_next(struct work_merge *mg, struct work_item *out)
{
	struct work_cursor	*c;

	if (mg->nh == 0)
		return 0;
	c = &mg->c[mg->heap[0]];
	*out = c->it;
	if (!work_cursor_next(mg, c)) {
		mg->heap[0] = mg->heap[--mg->nh];
		if (mg->nh == 0)
			return 1;
	}
	work_heap_down(mg, 0);
	return 1;
}

void
work_merge_free(struct work_merge *mg)
{
	size_t	k;

	for (k = 0; k < mg->ccap; k++)
		free(mg->c[k].strad);
	free(mg->c);
	free(mg->heap);
	memset(mg, 0, sizeof *mg);
}

/* Index of the first segment of c with end > t. */
static size_t
work_cov_lower(const struct iset *c, int64_t t)
{
	return lbound_i64_above(c->end, c->n, t);
}

static void
work_busy_src(struct work_busy *wb, const struct iset *cov)
{
	XGROW(wb->src, wb->srccap, wb->nsrc + 1);
	wb->src[wb->nsrc].cov = cov;
	wb->src[wb->nsrc].pos = work_cov_lower(cov, wb->a);
	wb->nsrc++;
}

void
work_busy_start(struct work_busy *wb, const struct work *w,
    const uint32_t *tracks, size_t ntracks, int64_t a, int64_t b)
{
	const struct model	*m = w->m;
	size_t			 k, t, d, in, all;

	wb->w = w;
	wb->a = a;
	wb->b = b;
	wb->nsrc = 0;
	iset_run_init(&wb->run);
	wb->by_cov = !w->filtered;
	for (k = 0; k < ntracks && wb->by_cov; k++)
		if (!w->pure[tracks[k]] || !w->selected[tracks[k]])
			wb->by_cov = 0;
	if (!wb->by_cov) {
		work_merge_start(&wb->mg, w, tracks, ntracks, a, b);
		return;
	}
	if (b <= a)
		return;
	/* A device whose tracks are all here reads its device coverage. */
	for (d = 0; d < m->ndevices; d++) {
		in = all = 0;
		for (t = 0; t < m->ntracks; t++) {
			if (m->tracks[t].type != TRACK_GPU ||
			    m->tracks[t].device != d)
				continue;
			all++;
			for (k = 0; k < ntracks; k++)
				if (tracks[k] == t)
					break;
			in += k < ntracks;
		}
		if (in == 0)
			continue;
		if (in == all && m->device_cov != NULL) {
			work_busy_src(wb, &m->device_cov[d]);
			continue;
		}
		for (k = 0; k < ntracks; k++)
			if (m->tracks[tracks[k]].device == d)
				work_busy_src(wb,
				    &m->tracks[tracks[k]].lane.cov);
	}
}

/* The next coverage segment in start order, clamped; 0 at the end. */
static int
work_busy_cov(struct work_busy *wb, int64_t *s, int64_t *e)
{
	struct work_cov	*c;
	size_t		 k, best = wb->nsrc;

	for (k = 0; k < wb->nsrc; k++) {
		c = &wb->src[k];
		if (c->pos >= c->cov->n || c->cov->start[c->pos] >= wb->b)
			continue;
		if (best == wb->nsrc || c->cov->start[c->pos] <
		    wb->src[best].cov->start[wb->src[best].pos])
			best = k;
	}
	if (best == wb->nsrc)
		return 0;
	c = &wb->src[best];
	*s = c->cov->start[c->pos] > wb->a ? c->cov->start[c->pos] : wb->a;
	*e = c->cov->end[c->pos] < wb->b ? c->cov->end[c->pos] : wb->b;
	c->pos++;
	return 1;
}

int
work_busy_next(struct work_busy *wb, int64_t *s, int64_t *e)
{
	struct work_item	it;
	int64_t			x, y;

	for (;;) {
		if (wb->by_cov) {
			if (!work_busy_cov(wb, &x, &y))
				return iset_run_end(&wb->run, s, e);
		} else {
			if (!work_merge_next(&wb->mg, &it))
				return iset_run_end(&wb->run, s, e);
			x = it.s;
			y = it.e;
		}
		if (iset_run_add(&wb->run, x, y, s, e))
			return 1;
	}
}

void
work_busy_free(struct work_busy *wb)
{
	work_merge_free(&wb->mg);
	free(wb->src);
	memset(wb, 0, sizeof *wb);
}
