/*
 * activity: per-device union coverages of GPU work by class, and the
 * window queries built on them (see activity.h).
 *
 * Building: for each device, each GPU track's events of one class are a
 * subsequence of a lane sorted by start, so one merge of the device's
 * lanes by start (a heap, O(n log tracks)) feeds every event straight into
 * the union of its class, with no copy of the events. M \ C and
 * C u M u Y are then taken from those unions (see activity_device()).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "analysis/comm.h"
#include "analysis/work.h"
#include "util/kmerge.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

/* The three work classes are work_class()'s, in the same order. */
_Static_assert((int)ACT_COMPUTE == (int)WORK_COMPUTE &&
    (int)ACT_COMM == (int)WORK_COMM && (int)ACT_COPY == (int)WORK_COPY,
    "activity and work classes differ");

int
activity_class(int kind, unsigned flags)
{
	return work_class(kind, flags);
}

int
activity_device_used(const struct model *m, uint32_t dev)
{
	return dev < m->ndevices && m->devices[dev].used;
}

/* Insertion sort of device indices by source id (there are few). */
static void
activity_sort_devices(const struct model *m, uint32_t *v, size_t n)
{
	size_t		i, j;
	uint32_t	x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && m->devices[v[j - 1]].source_id >
		    m->devices[x].source_id; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void
activity_dev_free(struct act_device *ad)
{
	int	c;

	for (c = 0; c < ACT_NCLASS; c++)
		iset_free(&ad->cov[c]);
}

/* The first work event of l at or after i (l->n if none). */
static size_t
activity_next(const struct lane *l, size_t i)
{
	while (i < l->n && activity_class(l->kind[i], l->flags[i]) < 0)
		i++;
	return i;
}

/*
 * The unions of classes C, M and Y over a device's tracks, in one merge of
 * their work events by start (each track's lane is sorted by start): no
 * copy of the events, no per-track sets. ns[c] bounds class c's segments.
 */
static void
activity_merge(struct act_device *ad, const struct lane *const *lanes,
    size_t nl, const size_t *ns)
{
	struct kmerge_head	*h;
	const struct lane	*l;
	size_t			 nh = 0, i, c;

	for (c = 0; c < 3; c++)
		if (ns[c] > 0)
			iset_reserve(&ad->cov[c], ns[c]);
	h = xcalloc(nl + 1, sizeof *h);
	for (i = 0; i < nl; i++) {
		if ((h[nh].pos = activity_next(lanes[i], 0)) < lanes[i]->n) {
			h[nh].src = i;
			h[nh].start = lanes[i]->start[h[nh].pos];
			nh++;
		}
	}
	kmerge_heapify(h, nh);
	while (nh > 0) {
		l = lanes[h[0].src];
		i = h[0].pos;
		iset_add(&ad->cov[activity_class(l->kind[i], l->flags[i])],
		    l->start[i], l->end[i]);
		if ((i = activity_next(l, i + 1)) < l->n) {
			h[0].pos = i;
			h[0].start = l->start[i];
		} else
			h[0] = h[--nh];
		kmerge_sift(h, nh, 0);
	}
	free(h);
	for (c = 0; c < 3; c++)
		iset_shrink(&ad->cov[c]);
}

/* Makes set a view of b's segments (b outlives a). */
static void
activity_alias(struct iset *a, const struct iset *b)
{
	iset_view(a, b->start, b->end, b->n, ISET_SHIFT);
}

/*
 * One device: the unions of its classes (activity_merge), then C u M u Y.
 * trk lists the device's GPU tracks (ntrk of them). cov[ACT_CM] holds
 * M \ C, the exposed communication (activity_busy() adds C to it): it is
 * about as small as M, where C u M would be as large as C. "All" is a
 * view of the model's device coverage when every event of the device's
 * tracks is work (the same union), and the sets that equal another are
 * views of it; every set keeps its prefix sums every 1 << ISET_SHIFT
 * segments.
 */
static int
activity_device(struct activity *a, uint32_t d, const uint32_t *trk,
    size_t ntrk, struct act_device *ad)
{
	const struct model	 *m = a->m;
	const struct lane	**lanes;
	const struct iset	 *in[3];
	size_t			  ns[3] = { 0, 0, 0 }, nl = 0, nother = 0;
	size_t			  j, i, c, tot;
	int			  cls, first = 1;

	memset(ad, 0, sizeof *ad);
	ad->device = d;
	ad->process = NONE32;
	ad->first = INT64_MAX;
	ad->last = INT64_MIN;
	lanes = xcalloc(ntrk + 1, sizeof *lanes);
	for (j = 0; j < ntrk; j++) {
		const struct track *tr = &m->tracks[trk[j]];
		const struct lane *l = &tr->lane;
		tot = 0;
		for (i = 0; i < l->n; i++) {
			cls = activity_class(l->kind[i], l->flags[i]);
			if (cls < 0) {
				nother++;
				continue;
			}
			ns[cls]++;
			tot++;
			if (cls != ACT_COPY) {
				ad->nkernels++;
				if (cls == ACT_COMM)
					ad->ncomm++;
			}
			if (l->start[i] < ad->first)
				ad->first = l->start[i];
			if (l->end[i] > ad->last)
				ad->last = l->end[i];
		}
		if (tot == 0)
			continue;
		if (first)
			ad->process = tr->process;
		else if (ad->process != tr->process)
			ad->process = NONE32;
		first = 0;
		lanes[nl++] = l;
	}
	if (nl > 0) {
		activity_merge(ad, lanes, nl, ns);
		iset_diff(&ad->cov[ACT_CM], &ad->cov[ACT_COMM],
		    &ad->cov[ACT_COMPUTE]);
		iset_shrink(&ad->cov[ACT_CM]);
		if (nother == 0 && m->device_cov != NULL && d < m->ndevices)
			activity_alias(&ad->cov[ACT_ALL], &m->device_cov[d]);
		else if (ns[ACT_COMM] + ns[ACT_COPY] == 0)
			activity_alias(&ad->cov[ACT_ALL],
			    &ad->cov[ACT_COMPUTE]);
		else {
			for (c = 0; c < 3; c++)
				in[c] = &ad->cov[c];
			iset_union_many(&ad->cov[ACT_ALL], in, 3);
		}
		for (c = 0; c < ACT_NCLASS; c++) {
			ad->cov[c].shift = ISET_SHIFT;
			iset_index(&ad->cov[c]);
		}
	}
	free(lanes);
	return nl > 0;
}

void
activity_build(struct activity *a, const struct model *m)
{
	const struct iset	**in;
	uint32_t		 *order, *trk, *off;
	size_t			  d, n;

	memset(a, 0, sizeof *a);
	a->m = m;
	if (m->ndevices > 0) {
		/* The GPU tracks grouped by device, in one pass. */
		model_device_tracks(m, &off, &trk);
		order = xcalloc(m->ndevices, sizeof *order);
		for (d = 0; d < m->ndevices; d++)
			order[d] = (uint32_t)d;
		activity_sort_devices(m, order, m->ndevices);
		a->dev = xcalloc(m->ndevices, sizeof *a->dev);
		for (d = 0; d < m->ndevices; d++) {
			uint32_t dv = order[d];
			if (activity_device(a, dv, trk + off[dv],
			    off[dv + 1] - off[dv], &a->dev[a->ndev]))
				a->ndev++;
			else
				activity_dev_free(&a->dev[a->ndev]);
		}
		free(order);
		free(trk);
		free(off);
	}
	n = a->ndev;
	if (n == 1)
		activity_alias(&a->any, &a->dev[0].cov[ACT_ALL]);
	else {
		in = xcalloc(n + 1, sizeof *in);
		for (d = 0; d < n; d++)
			in[d] = &a->dev[d].cov[ACT_ALL];
		iset_union_many(&a->any, in, n);
		free(in);
	}
	a->any.shift = ISET_SHIFT;
	iset_index(&a->any);
}

void
activity_free(struct activity *a)
{
	size_t	d;

	for (d = 0; d < a->ndev; d++)
		activity_dev_free(&a->dev[d]);
	free(a->dev);
	iset_free(&a->any);
	memset(a, 0, sizeof *a);
}

int
activity_slot(const struct activity *a, uint32_t dev)
{
	size_t	d;

	for (d = 0; d < a->ndev; d++)
		if (a->dev[d].device == dev)
			return (int)d;
	return -1;
}

int64_t
activity_busy(const struct activity *a, size_t d, int cls, int64_t t0,
    int64_t t1)
{
	if (d >= a->ndev || cls < 0 || cls >= ACT_NCLASS || t1 <= t0)
		return 0;
	if (cls == ACT_CM)	/* C and M \ C are disjoint */
		return iset_measure(&a->dev[d].cov[ACT_COMPUTE], t0, t1) +
		    iset_measure(&a->dev[d].cov[ACT_CM], t0, t1);
	return iset_measure(&a->dev[d].cov[cls], t0, t1);
}

/* Number of segments with start < t. */
static size_t
activity_seg_before(const struct iset *c, int64_t t)
{
	return lbound_i64(c->start, c->n, t);
}

/* The first and last busy instants of c inside [t0, t1). */
static void
activity_edges(const struct iset *c, int64_t t0, int64_t t1,
    int64_t *first, int64_t *last)
{
	size_t	i, j;

	*first = INT64_MAX;
	*last = INT64_MIN;
	if (t1 <= t0 || c->n == 0)
		return;
	i = iset_lower(c, t0);
	j = activity_seg_before(c, t1);
	if (i >= c->n || j == 0 || i >= j)
		return;
	*first = c->start[i] > t0 ? c->start[i] : t0;
	*last = c->end[j - 1] < t1 ? c->end[j - 1] : t1;
}

void
activity_window(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    struct act_window *w)
{
	const struct act_device	*ad;

	memset(w, 0, sizeof *w);
	w->span = t1 > t0 ? t1 - t0 : 0;
	w->first = INT64_MAX;
	w->last = INT64_MIN;
	if (d >= a->ndev || t1 <= t0) {
		w->idle = w->span;
		return;
	}
	ad = &a->dev[d];
	w->busy = iset_measure(&ad->cov[ACT_ALL], t0, t1);
	w->compute = iset_measure(&ad->cov[ACT_COMPUTE], t0, t1);
	w->comm = iset_measure(&ad->cov[ACT_COMM], t0, t1);
	w->copy = iset_measure(&ad->cov[ACT_COPY], t0, t1);
	w->exposed = comm_exposed_of(w->compute, w->compute +
	    iset_measure(&ad->cov[ACT_CM], t0, t1));
	w->idle = w->span - w->busy;
	activity_edges(&ad->cov[ACT_ALL], t0, t1, &w->first, &w->last);
	if (w->first < w->last)
		w->inner_idle = (w->last - w->first) - w->busy;
}

size_t
activity_total(const struct activity *a, int64_t t0, int64_t t1,
    struct act_window *tot)
{
	struct act_window	w;
	size_t			d, n = 0;

	memset(tot, 0, sizeof *tot);
	tot->span = t1 > t0 ? t1 - t0 : 0;
	tot->first = INT64_MAX;
	tot->last = INT64_MIN;
	for (d = 0; d < a->ndev; d++) {
		activity_window(a, d, t0, t1, &w);
		if (w.busy > 0)
			n++;
		tot->busy = sat_add64(tot->busy, w.busy);
		tot->compute = sat_add64(tot->compute, w.compute);
		tot->comm = sat_add64(tot->comm, w.comm);
		tot->copy = sat_add64(tot->copy, w.copy);
		tot->exposed = sat_add64(tot->exposed, w.exposed);
		tot->idle = sat_add64(tot->idle, w.idle);
		tot->inner_idle = sat_add64(tot->inner_idle, w.inner_idle);
		if (w.first < tot->first)
			tot->first = w.first;
		if (w.last > tot->last && w.first <= w.last)
			tot->last = w.last;
	}
	return n;
}

void
activity_share(const struct activity *a, int64_t t0, int64_t t1,
    struct act_share *sh)
{
	struct act_window	w;
	int64_t			span = t1 > t0 ? t1 - t0 : 0;
	size_t			d;

	memset(sh, 0, sizeof *sh);
	sh->ndev = a->ndev;
	sh->ntotal = a->m->ndevices;
	for (d = 0; d < a->ndev; d++) {
		activity_window(a, d, t0, t1, &w);
		sh->window = sat_add64(sh->window, span);
		sh->busy = sat_add64(sh->busy, w.busy);
	}
	sh->idle = sh->window - sh->busy;
	if (sh->window > 0)
		sh->idle_pct = 100.0 - 100.0 * (double)sh->busy /
		    (double)sh->window;
}
