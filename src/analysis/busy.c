/*
 * busy: busy time of a selection's GPU work, from one interval-set
 * implementation (model/iset.h), for the gaps, timeline and overlap verbs
 * (see busy.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "model/lane.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* The start of a source's current segment, INT64_MAX past its last one
 * inside the walk. */
static int64_t
busy_src_head(const struct busy_walk *wb, const struct busy_src *c)
{
	if (c->pos >= c->cov->n || c->cov->start[c->pos] >= wb->b)
		return INT64_MAX;
	return c->cov->start[c->pos];
}

static void
busy_walk_src(struct busy_walk *wb, const struct iset *cov)
{
	struct busy_src	*c;

	XGROW(wb->src, wb->srccap, wb->nsrc + 1);
	c = &wb->src[wb->nsrc++];
	c->cov = cov;
	c->pos = iset_lower(cov, wb->a);
	c->head = busy_src_head(wb, c);
}

void
busy_walk_start(struct busy_walk *wb, const struct work *w,
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
		if (!w->selected[tracks[k]] || !work_pure(w, tracks[k]))
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
			busy_walk_src(wb, &m->device_cov[d]);
			continue;
		}
		for (k = 0; k < ntracks; k++)
			if (m->tracks[tracks[k]].device == d)
				busy_walk_src(wb,
				    &m->tracks[tracks[k]].lane.cov);
	}
}

/* The next coverage segment in start order, clamped; 0 at the end. */
static int
busy_walk_cov(struct busy_walk *wb, int64_t *s, int64_t *e)
{
	struct busy_src	*c;
	size_t		 k, best = 0;

	/* The earliest head (the first source of equal ones). */
	for (k = 1; k < wb->nsrc; k++)
		if (wb->src[k].head < wb->src[best].head)
			best = k;
	if (wb->nsrc == 0 || wb->src[best].head == INT64_MAX)
		return 0;
	c = &wb->src[best];
	*s = c->head > wb->a ? c->head : wb->a;
	*e = c->cov->end[c->pos] < wb->b ? c->cov->end[c->pos] : wb->b;
	c->pos++;
	c->head = busy_src_head(wb, c);
	return 1;
}

int
busy_walk_next(struct busy_walk *wb, int64_t *s, int64_t *e)
{
	struct work_item	it;
	int64_t			x, y;

	/* One owned set (a device's coverage): its segments are disjoint
	 * and apart, so clamped they are the walk's segments. */
	if (wb->by_cov && wb->nsrc == 1 && !wb->src[0].cov->view) {
		if (!busy_walk_cov(wb, s, e))
			return 0;
		return 1;
	}
	for (;;) {
		if (wb->by_cov) {
			if (!busy_walk_cov(wb, &x, &y))
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
busy_walk_free(struct busy_walk *wb)
{
	work_merge_free(&wb->mg);
	free(wb->src);
	memset(wb, 0, sizeof *wb);
}

void
busy_buckets_init(struct busy_buckets *bb, const int64_t *edge, size_t nb)
{
	memset(bb, 0, sizeof *bb);
	bb->edge = edge;
	bb->nb = nb;
	bb->busy = xcalloc(nb + 1, BUSY_NCOL * sizeof *bb->busy);
	bb->kern = xcalloc(nb + 1, sizeof *bb->kern);
}

void
busy_buckets_free(struct busy_buckets *bb)
{
	free(bb->busy);
	free(bb->kern);
	work_merge_free(&bb->mg);
	memset(bb, 0, sizeof *bb);
}

size_t
busy_bucket(const struct busy_buckets *bb, int64_t t)
{
	size_t	k;

	/* The last bucket whose start is <= t. */
	k = lbound_i64_above(bb->edge, bb->nb, t);
	return k > 0 ? k - 1 : 0;
}

/*
 * Adds the busy segment [s, e) of column col to the buckets it spans. A
 * column's segments come in increasing order, so the bucket of the
 * previous one, *bp, only moves forward: a merge-walk over the edges
 * instead of a search per segment.
 */
static void
busy_spread(struct busy_buckets *bb, int col, size_t *bp, int64_t s,
    int64_t e)
{
	const int64_t	*edge = bb->edge;
	int64_t		*v = bb->busy + col;
	size_t		 b = *bp;

	if (s < edge[0])
		s = edge[0];
	if (e > edge[bb->nb])
		e = edge[bb->nb];
	if (e <= s)
		return;
	/* The last bucket whose start is <= s, as busy_bucket(). */
	while (b + 1 < bb->nb && edge[b + 1] <= s)
		b++;
	*bp = b;
	for (; b < bb->nb && edge[b] < e; b++)
		v[b * BUSY_NCOL] += (e < edge[b + 1] ? e : edge[b + 1]) -
		    (s > edge[b] ? s : edge[b]);
}

/* busy_spread() of a finished (non-empty) segment, most often inside the
 * bucket of the one before. */
static inline void
busy_spread_seg(struct busy_buckets *bb, int col, size_t *bp, int64_t s,
    int64_t e)
{
	if (s >= bb->edge[*bp] && e <= bb->edge[*bp + 1])
		bb->busy[*bp * BUSY_NCOL + (size_t)col] += e - s;
	else
		busy_spread(bb, col, bp, s, e);
}

void
busy_buckets_sweep(struct busy_buckets *bb, const struct work *w,
    const struct iset *win, const uint32_t *tracks, size_t ntracks)
{
	const int64_t		*edge = bb->edge;
	const struct lane	*l;
	struct iset_run		 run[BUSY_NCOL];
	struct work_item	 it;
	int64_t			 fs, fe, st;
	size_t			 k, bp[BUSY_NCOL], kp = 0;
	int			 col;

	memset(bb->busy, 0, bb->nb * BUSY_NCOL * sizeof *bb->busy);
	memset(bb->kern, 0, bb->nb * sizeof *bb->kern);
	memset(bp, 0, sizeof bp);
	for (k = 0; k < win->n; k++) {
		for (col = 0; col < BUSY_NCOL; col++)
			iset_run_init(&run[col]);
		work_merge_start(&bb->mg, w, tracks, ntracks,
		    win->start[k], win->end[k]);
		while (work_merge_next(&bb->mg, &it)) {
			if (iset_run_add(&run[0], it.s, it.e, &fs, &fe))
				busy_spread_seg(bb, 0, &bp[0], fs, fe);
			col = 1 + it.cls;
			if (iset_run_add(&run[col], it.s, it.e, &fs, &fe))
				busy_spread_seg(bb, col, &bp[col], fs, fe);
			/* A kernel starting inside the window starts at its
			 * clamped start: in increasing order, as the edges. */
			l = &w->m->tracks[it.t].lane;
			st = l->start[it.i];
			if (l->kind[it.i] != EV_KERNEL ||
			    st < win->start[k] || st < edge[0] ||
			    st >= edge[bb->nb])
				continue;
			while (kp + 1 < bb->nb && edge[kp + 1] <= st)
				kp++;
			bb->kern[kp]++;
		}
		for (col = 0; col < BUSY_NCOL; col++)
			if (iset_run_end(&run[col], &fs, &fe))
				busy_spread_seg(bb, col, &bp[col], fs, fe);
	}
}

void
busy_overlap_init(struct busy_overlap *bo, int keep)
{
	memset(bo, 0, sizeof *bo);
	bo->keep = keep;
	iset_init(&bo->compute);
}

void
busy_overlap_free(struct busy_overlap *bo)
{
	iset_free(&bo->compute);
	free(bo->comm);
	free(bo->ends);
	work_merge_free(&bo->mg);
	memset(bo, 0, sizeof *bo);
}

void
busy_overlap_reset(struct busy_overlap *bo)
{
	bo->sum = bo->peak = 0;
	bo->ncomm = 0;
	memset(bo->len, 0, sizeof bo->len);
	iset_clear(&bo->compute);
}

static void
busy_ends_push(struct busy_overlap *bo, int64_t e)
{
	size_t	i, p;

	if (bo->nends >= bo->endcap)
		XGROW(bo->ends, bo->endcap, bo->nends + 1);
	for (i = bo->nends++; i > 0 && bo->ends[p = (i - 1) / 2] > e; i = p)
		bo->ends[i] = bo->ends[p];
	bo->ends[i] = e;
}

static void
busy_ends_pop(struct busy_overlap *bo)
{
	int64_t	x = bo->ends[--bo->nends];
	size_t	i = 0, k;

	for (; (k = 2 * i + 1) < bo->nends; i = k) {
		if (k + 1 < bo->nends && bo->ends[k + 1] < bo->ends[k])
			k++;
		if (bo->ends[k] >= x)
			break;
		bo->ends[i] = bo->ends[k];
	}
	if (bo->nends > 0)
		bo->ends[i] = x;
}

/*
 * Grows union r by the non-empty [s, e) (s >= every earlier start), as
 * iset_run_add() does, keeping only the length: r->start and r->end start
 * equal (busy_overlap_sweep), so no segment is ever open or empty.
 */
static inline void
busy_len_add(struct iset_run *r, int64_t s, int64_t e)
{
	if (s <= r->end) {
		if (e > r->end)
			r->end = e;
		return;
	}
	r->len += r->end - r->start;
	r->start = s;
	r->end = e;
}

void
busy_overlap_sweep(struct busy_overlap *bo, const struct work *w,
    const uint32_t *tracks, size_t nt, int64_t a, int64_t b)
{
	struct work_item	it;
	struct iset_run		run[BUSY_NRUN];
	int			r;

	/* Empty unions ending where the window starts: the first event
	 * (starting at a or later) extends them or starts their first
	 * segment, and an empty one adds nothing. */
	for (r = 0; r < BUSY_NRUN; r++) {
		run[r].start = run[r].end = a;
		run[r].len = 0;
	}
	bo->nends = 0;
	work_merge_start(&bo->mg, w, tracks, nt, a, b);
	while (work_merge_next(&bo->mg, &it)) {
		if (bo->role != NULL)
			it.cls = bo->role[it.t];
		if (bo->keep && it.cls == WORK_COMM) {
			if (bo->ncomm >= bo->commcap)
				XGROW(bo->comm, bo->commcap, bo->ncomm + 1);
			bo->comm[bo->ncomm].t = it.t;
			bo->comm[bo->ncomm].i = it.i;
			bo->comm[bo->ncomm].tag = 0;
			bo->comm[bo->ncomm].start = it.s;
			bo->comm[bo->ncomm].end = it.e;
			bo->ncomm++;
		}
		if (it.e <= it.s)
			continue;	/* in no union, never running */
		bo->sum += it.e - it.s;
		busy_len_add(&run[BUSY_ALL], it.s, it.e);
		switch (it.cls) {
		case WORK_COMPUTE:
			busy_len_add(&run[BUSY_C], it.s, it.e);
			busy_len_add(&run[BUSY_CM], it.s, it.e);
			busy_len_add(&run[BUSY_CY], it.s, it.e);
			if (bo->keep)
				iset_add(&bo->compute, it.s, it.e);
			break;
		case WORK_COMM:
			busy_len_add(&run[BUSY_M], it.s, it.e);
			busy_len_add(&run[BUSY_CM], it.s, it.e);
			break;
		default:
			busy_len_add(&run[BUSY_Y], it.s, it.e);
			busy_len_add(&run[BUSY_CY], it.s, it.e);
			break;
		}
		while (bo->nends > 0 && bo->ends[0] <= it.s)
			busy_ends_pop(bo);
		busy_ends_push(bo, it.e);
		if ((int64_t)bo->nends > bo->peak)
			bo->peak = (int64_t)bo->nends;
	}
	for (r = 0; r < BUSY_NRUN; r++)
		bo->len[r] += run[r].len + run[r].end - run[r].start;
}

static int
busy_cmp_comm(const void *x, const void *y)
{
	const struct busy_comm	*a = x, *b = y;

	return sort_lex2(a->tag, b->tag, a->start, b->start);
}

size_t
busy_overlap_tags(struct busy_overlap *bo, struct busy_tag **v, size_t *cap)
{
	struct iset	mp;
	size_t		i, j, n = 0;

	if (bo->ncomm > 1)
		qsort(bo->comm, bo->ncomm, sizeof *bo->comm, busy_cmp_comm);
	iset_init(&mp);
	for (i = 0; i < bo->ncomm; i = j) {
		iset_clear(&mp);
		for (j = i; j < bo->ncomm && bo->comm[j].tag ==
		    bo->comm[i].tag; j++)
			iset_add(&mp, bo->comm[j].start, bo->comm[j].end);
		XGROW(*v, *cap, n + 1);
		(*v)[n].tag = bo->comm[i].tag;
		(*v)[n].count = j - i;
		(*v)[n].comm = iset_len(&mp);
		(*v)[n].exposed = iset_diff_len(&mp, &bo->compute);
		n++;
	}
	iset_free(&mp);
	return n;
}

int64_t
busy_device(const struct model *m, uint32_t d, int64_t t0, int64_t t1)
{
	if (d >= m->ndevices || m->device_cov == NULL)
		return 0;
	return iset_measure(&m->device_cov[d], t0, t1);
}

int64_t
busy_device_total(const struct model *m, uint32_t d)
{
	if (d >= m->ndevices || m->device_cov == NULL)
		return 0;
	return iset_len(&m->device_cov[d]);
}

int
busy_device_known(const struct model *m, uint32_t d)
{
	return d < m->ndevices && m->device_cov != NULL;
}

int64_t
busy_lane(const struct lane *l, int64_t t0, int64_t t1)
{
	return iset_measure(&l->cov, t0, t1);
}

int64_t
busy_lane_before(const struct lane *l, int64_t t)
{
	return iset_before(&l->cov, t);
}
