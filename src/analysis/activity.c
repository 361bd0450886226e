/*
 * activity: per-device union coverages of GPU work by class, and the
 * window queries built on them (see activity.h).
 *
 * The coverages are built in activity-build.c. C and C u M are read
 * through activity_compute() and activity_cm(), which know both ways of
 * keeping them (activity.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "analysis/comm.h"
#include "analysis/work.h"
#include "util/lbound.h"

/* The three work classes are work_class()'s, in the same order. */
_Static_assert((int)ACT_COMPUTE == (int)WORK_COMPUTE &&
    (int)ACT_COMM == (int)WORK_COMM && (int)ACT_COPY == (int)WORK_COPY,
    "activity and work classes differ");

int
activity_device_used(const struct model *m, uint32_t dev)
{
	return dev < m->ndevices && m->devices[dev].used;
}

static void
activity_dev_free(struct act_device *ad)
{
	int	c;

	for (c = 0; c < ACT_NCLASS; c++)
		iset_free(&ad->cov[c]);
}

void
activity_free(struct activity *a)
{
	size_t	d;

	for (d = 0; d < a->ndev; d++)
		activity_dev_free(&a->dev[d]);
	free(a->dev);
	free(a->slot);
	iset_free(&a->any);
	memset(a, 0, sizeof *a);
}

int
activity_slot(const struct activity *a, uint32_t dev)
{
	return a->slot != NULL && dev < a->m->ndevices ? a->slot[dev] : -1;
}

/* |C| inside [t0, t1) (see activity_lean() for ctrack). */
static int64_t
activity_compute(const struct act_device *ad, int64_t t0, int64_t t1)
{
	int64_t	c = iset_measure(&ad->cov[ACT_COMPUTE], t0, t1);

	return ad->ctrack != NULL ? iset_measure(ad->ctrack, t0, t1) - c : c;
}

/* |C u M| inside [t0, t1). */
static int64_t
activity_cm(const struct act_device *ad, int64_t t0, int64_t t1)
{
	int64_t	x = iset_measure(&ad->cov[ACT_CM], t0, t1);

	if (ad->ctrack != NULL)
		return iset_measure(&ad->cov[ACT_ALL], t0, t1) - x;
	return activity_compute(ad, t0, t1) + x;
}

int64_t
activity_busy(const struct activity *a, size_t d, int cls, int64_t t0,
    int64_t t1)
{
	const struct act_device	*ad;

	if (d >= a->ndev || cls < 0 || cls >= ACT_NCLASS || t1 <= t0)
		return 0;
	ad = &a->dev[d];
	if (cls == ACT_COMPUTE)
		return activity_compute(ad, t0, t1);
	if (cls == ACT_CM)
		return activity_cm(ad, t0, t1);
	return iset_measure(&ad->cov[cls], t0, t1);
}

int64_t
activity_compute_at(const struct activity *a, size_t d, int64_t t0,
    int64_t t1, size_t at[4])
{
	const struct act_device	*ad;
	int64_t			 c;

	if (d >= a->ndev || t1 <= t0)
		return 0;
	ad = &a->dev[d];
	c = iset_measure_at(&ad->cov[ACT_COMPUTE], t0, t1, &at[0], &at[1]);
	return ad->ctrack != NULL ? iset_measure_at(ad->ctrack, t0, t1,
	    &at[2], &at[3]) - c : c;
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
	w->compute = activity_compute(ad, t0, t1);
	w->comm = iset_measure(&ad->cov[ACT_COMM], t0, t1);
	w->copy = iset_measure(&ad->cov[ACT_COPY], t0, t1);
	w->exposed = comm_exposed_of(w->compute, activity_cm(ad, t0, t1));
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
