/*
 * activity: per-device union coverages of GPU work by class, and the
 * window queries built on them (see activity.h).
 *
 * Building: for each device, each GPU track's events of one class are a
 * subsequence of a lane sorted by start, so iset_build_sorted() turns them
 * into that track's union in one pass; iset_union_many() then merges the
 * tracks, O(n log tracks). C u M and C u M u Y are unions of those unions.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "analysis/comm.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

int
activity_class(int kind, unsigned flags)
{
	switch (kind) {
	case EV_KERNEL:
	case EV_GRAPH:
		return (flags & EVF_COMM) ? ACT_COMM : ACT_COMPUTE;
	case EV_MEMCPY:
	case EV_MEMSET:
		return ACT_COPY;
	}
	return -1;
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

/*
 * One device: per-track coverages of each class, then their unions. trk
 * lists the device's GPU tracks (ntrk of them).
 */
static int
activity_device(struct activity *a, uint32_t d, const uint32_t *trk,
    size_t ntrk, struct act_device *ad)
{
	const struct model	 *m = a->m;
	struct iset		 *per[3] = { NULL, NULL, NULL };
	const struct iset	**in = NULL, *pair[2];
	size_t			  nper[3] = { 0, 0, 0 }, j, i, k, cap = 0;
	int64_t			 *st[3] = { NULL, NULL, NULL };
	int64_t			 *en[3] = { NULL, NULL, NULL };
	size_t			  ns[3], c;
	int			  cls, any = 0, first = 1;

	memset(ad, 0, sizeof *ad);
	ad->device = d;
	ad->process = NONE32;
	ad->first = INT64_MAX;
	ad->last = INT64_MIN;
	for (c = 0; c < 3; c++)
		per[c] = xcalloc(ntrk + 1, sizeof *per[c]);
	for (j = 0; j < ntrk; j++) {
		const struct track *tr = &m->tracks[trk[j]];
		const struct lane *l = &tr->lane;
		if (l->n > cap) {
			for (c = 0; c < 3; c++) {
				st[c] = xreallocarray(st[c], l->n,
				    sizeof *st[c]);
				en[c] = xreallocarray(en[c], l->n,
				    sizeof *en[c]);
			}
			cap = l->n;
		}
		memset(ns, 0, sizeof ns);
		for (i = 0; i < l->n; i++) {
			cls = activity_class(l->kind[i], l->flags[i]);
			if (cls < 0)
				continue;
			st[cls][ns[cls]] = l->start[i];
			en[cls][ns[cls]++] = l->end[i];
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
		if (ns[0] + ns[1] + ns[2] == 0)
			continue;
		if (first)
			ad->process = tr->process;
		else if (ad->process != tr->process)
			ad->process = NONE32;
		first = 0;
		any = 1;
		for (c = 0; c < 3; c++) {
			if (ns[c] == 0)
				continue;
			iset_build_sorted(&per[c][nper[c]++], st[c], en[c],
			    ns[c]);
		}
	}
	if (any) {
		in = xcalloc(ntrk + 1, sizeof *in);
		for (c = 0; c < 3; c++) {
			for (k = 0; k < nper[c]; k++)
				in[k] = &per[c][k];
			iset_union_many(&ad->cov[c], in, nper[c]);
		}
		pair[0] = &ad->cov[ACT_COMPUTE];
		pair[1] = &ad->cov[ACT_COMM];
		iset_union_many(&ad->cov[ACT_CM], pair, 2);
		pair[0] = &ad->cov[ACT_CM];
		pair[1] = &ad->cov[ACT_COPY];
		iset_union_many(&ad->cov[ACT_ALL], pair, 2);
		for (c = 0; c < ACT_NCLASS; c++)
			iset_index(&ad->cov[c]);
		free(in);
	}
	for (c = 0; c < 3; c++) {
		for (k = 0; k < nper[c]; k++)
			iset_free(&per[c][k]);
		free(per[c]);
		free(st[c]);
		free(en[c]);
	}
	return any;
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
	in = xcalloc(n + 1, sizeof *in);
	for (d = 0; d < n; d++)
		in[d] = &a->dev[d].cov[ACT_ALL];
	iset_union_many(&a->any, in, n);
	iset_index(&a->any);
	free(in);
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
	w->exposed = comm_exposed_of(w->compute,
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
