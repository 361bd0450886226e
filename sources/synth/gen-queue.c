/*
 * gen-queue: rows are not written when they are produced but pushed into one
 * min-heap per table and written in start order once no later row can start
 * before them: after each segment, the smallest CPU cursor over the ranks
 * (and, for NVTX, the start of the oldest open range) is such a bound. The
 * heaps hold about one iteration of rows. In the counting pass rows are only
 * counted.
 */

#include "config.h"

#include <string.h>

#include "sources/synth/gen-int.h"
#include "util/progress.h"
#include "util/xmalloc.h"

/* Reorder heaps, ordered by (start, seq). */
static int
row_before(const struct row *a, const struct row *b)
{
	return (a->start < b->start || (a->start == b->start &&
	    a->seq < b->seq));
}

/* Whether row c comes before row i, and if so swaps them. */
static int
heap_up(struct heap *h, size_t c, size_t i)
{
	struct row	tmp;

	if (!row_before(&h->v[c], &h->v[i]))
		return 0;
	tmp = h->v[c];
	h->v[c] = h->v[i];
	h->v[i] = tmp;
	return 1;
}

static void
heap_push(struct heap *h, const struct row *rw)
{
	size_t		i, p;

	XGROW(h->v, h->cap, h->n + 1);
	i = h->n++;
	h->v[i] = *rw;
	while (i > 0) {
		p = (i - 1) / 2;
		if (!heap_up(h, i, p))
			break;
		i = p;
	}
}

static void
heap_pop(struct heap *h, struct row *out)
{
	size_t		i, c, n;

	*out = h->v[0];
	n = --h->n;
	if (n == 0)
		return;
	h->v[0] = h->v[n];
	i = 0;
	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && row_before(&h->v[c + 1], &h->v[c]))
			c++;
		if (!heap_up(h, c, i))
			break;
		i = c;
	}
}

/* Writes every queued row starting before the table's watermark. */
void
gen_queue_flush(struct gen *g, int64_t activity, int64_t nvtx)
{
	struct heap	*h;
	struct row	 rw;
	int		 t;
	int64_t		 wm;

	for (t = 0; t < T_COUNT && !g->failed; t++) {
		h = &g->heap[t];
		wm = (t == T_NVTX) ? nvtx : activity;
		while (h->n > 0 && h->v[0].start < wm && !g->failed) {
			heap_pop(h, &rw);
			gen_rows_write(g, t, &rw);
		}
	}
}

/* After a segment: no rank will produce a row starting before its CPU
 * cursor, nor an NVTX row before its oldest open range. */
void
gen_queue_flush_point(struct gen *g)
{
	const struct rank	*r;
	int64_t			 act = INT64_MAX, nv = INT64_MAX;
	int			 i, th;

	if (g->count_only)
		return;
	progress_rows(g->o.progress, g->count);
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		act = min64(act, r->cpu);
		nv = min64(nv, r->cpu);
		for (th = 0; th < TH_COUNT; th++) {
			if (r->depth[th] > 0)
				nv = min64(nv, r->stk[th][0].start);
		}
	}
	gen_queue_flush(g, act, nv);
}

void
gen_row_init(struct row *rw, struct gen *g, struct rank *r, int64_t start,
    int64_t end, uint32_t corr)
{
	memset(rw, 0, sizeof *rw);
	rw->start = start;
	rw->end = end;
	rw->rank = RI(g, r);
	rw->corr = corr;
}

void
gen_queue_emit(struct gen *g, int t, struct row *rw, int counted)
{
	if (counted) {
		g->count++;
		g->rows[t]++;
		g->first = min64(g->first, rw->start);
		g->last = max64(g->last, rw->end);
	}
	if (g->count_only)
		return;
	rw->seq = g->seq++;
	heap_push(&g->heap[t], rw);
}
