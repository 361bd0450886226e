/*
 * activity-build: the per-device coverages of activity.h, built from the
 * model's GPU tracks.
 *
 * For each device, each GPU track's events of one class are a
 * subsequence of a lane sorted by start, so one merge by start of the
 * lanes that hold a class (a heap, O(n log tracks)) feeds its events
 * straight into the union of the class, with no copy of the events.
 * M \ C and C u M u Y are then taken from those unions, or, where one
 * lane runs all the compute, the small sets of activity_lean() (see
 * activity_device()).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "util/kmerge.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

/* Sets of fewer segments keep a prefix sum per segment. */
#define ACT_SMALL	(1u << 16)

/*
 * The classes of every (kind, flags) pair, so that the passes over a lane
 * look an event's class up instead of calling activity_class() for it:
 * 1 << 16 entries (both are bytes), freed by the caller.
 */
static int8_t *
activity_table(void)
{
	int8_t		*tab = xreallocarray(NULL, 1 << 16, sizeof *tab);
	unsigned	 k, f;

	for (k = 0; k < 256; k++)
		for (f = 0; f < 256; f++)
			tab[k << 8 | f] = (int8_t)activity_class((int)k, f);
	return tab;
}

/* The class of lane l's event i, from the table. */
static inline int
activity_cls(const int8_t *tab, const struct lane *l, size_t i)
{
	return tab[(unsigned)l->kind[i] << 8 | l->flags[i]];
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

/* Makes set a view of b's segments (b outlives a), with a copy of b's
 * prefix sums when b has them at the same granularity. */
static void
activity_alias(struct iset *a, const struct iset *b)
{
	iset_view(a, b->start, b->end, b->n, ISET_SHIFT);
	if (b->pre != NULL && b->shift == ISET_SHIFT) {
		a->pre = xreallocarray(NULL, iset_npre(a), sizeof *a->pre);
		memcpy(a->pre, b->pre, iset_npre(a) * sizeof *a->pre);
	}
}

/*
 * Adds the prefix sums to a set that has none yet: one per segment for a
 * small set (M, Y and the lean sets: a measure is then two binary
 * searches), else one every 1 << ISET_SHIFT segments.
 */
static void
activity_index(struct iset *a)
{
	if (a->pre == NULL) {
		a->shift = a->n < ACT_SMALL ? 0 : ISET_SHIFT;
		iset_index(a);
	}
}

/* The first event of class cls in l at or after i (l->n if none). */
static size_t
activity_next(const int8_t *tab, const struct lane *l, size_t i, int cls)
{
	while (i < l->n && activity_cls(tab, l, i) != cls)
		i++;
	return i;
}

/*
 * out = the union of class cls's events over the nl lanes that hold them,
 * in one merge by start (each lane is sorted by start): no copy of the
 * events, no per-lane sets. ns, their number, bounds the segments.
 */
static void
activity_merge(const int8_t *tab, struct iset *out,
    const struct lane *const *lanes, size_t nl, int cls, size_t ns)
{
	struct kmerge_head	*h;
	const struct lane	*l;
	size_t			 nh = 0, i;

	iset_reserve(out, ns);
	h = xcalloc(nl + 1, sizeof *h);
	for (i = 0; i < nl; i++) {
		if ((h[nh].pos = activity_next(tab, lanes[i], 0, cls)) <
		    lanes[i]->n) {
			h[nh].src = i;
			h[nh].start = lanes[i]->start[h[nh].pos];
			nh++;
		}
	}
	kmerge_heapify(h, nh);
	while (nh > 0) {
		l = lanes[h[0].src];
		i = h[0].pos;
		iset_add(out, l->start[i], l->end[i]);
		kmerge_next(h, &nh, l->start, l->n,
		    activity_next(tab, l, i + 1, cls));
	}
	free(h);
	iset_shrink(out);
}

/*
 * The unions of classes C, M and Y (C only unless skip_c), each merged
 * from the lanes that hold it. cnt[3 * j + c] counts lane j's events of
 * class c.
 */
static void
activity_classes(const int8_t *tab, struct act_device *ad,
    const struct lane *const *lanes, const size_t *cnt, size_t nl, int skip_c)
{
	const struct lane	**sub;
	size_t			  j, k, ns;
	int			  c;

	sub = xcalloc(nl + 1, sizeof *sub);
	for (c = skip_c ? ACT_COMM : ACT_COMPUTE; c <= ACT_COPY; c++) {
		for (j = k = ns = 0; j < nl; j++)
			if (cnt[3 * j + (size_t)c] > 0) {
				sub[k++] = lanes[j];
				ns += cnt[3 * j + (size_t)c];
			}
		if (k > 0)
			activity_merge(tab, &ad->cov[c], sub, k, c, ns);
	}
	free(sub);
}

/*
 * The lane that runs all of a device's compute, when its events never
 * overlap and most of them are compute (then C is its coverage less its
 * few other events, with no set of C's size built); else NULL.
 */
static const struct lane *
activity_compute_lane(const struct lane *const *lanes, const size_t *cnt,
    size_t nl)
{
	const struct lane	*l = NULL;
	size_t			 j, nc = 0;

	for (j = 0; j < nl; j++)
		if (cnt[3 * j + ACT_COMPUTE] > 0) {
			if (l != NULL)
				return NULL;
			l = lanes[j];
			nc = cnt[3 * j + ACT_COMPUTE];
		}
	if (l == NULL || l->overlaps || l->n - nc >= nc)
		return NULL;
	return l;
}

/* out = the events of lane l that are not compute (disjoint: l never
 * overlaps). */
static void
activity_rest(const int8_t *tab, struct iset *out, const struct lane *l,
    size_t nc)
{
	size_t	i;

	iset_reserve(out, l->n - nc);
	for (i = 0; i < l->n; i++)
		if (activity_cls(tab, l, i) != ACT_COMPUTE)
			iset_add(out, l->start[i], l->end[i]);
	iset_shrink(out);
}

/*
 * out = a less the compute events of lane l (which never overlap, so its
 * ends ascend too): the events each segment of a meets, found by binary
 * search.
 */
static void
activity_minus_compute(const int8_t *tab, struct iset *out,
    const struct iset *a, const struct lane *l)
{
	size_t	i, j;
	int64_t	cur, e;

	iset_clear(out);
	for (i = 0; i < a->n; i++) {
		cur = a->start[i];
		e = a->end[i];
		for (j = lbound_i64_above(l->end, l->n, cur);
		    j < l->n && l->start[j] < e && cur < e; j++) {
			if (l->end[j] <= l->start[j] ||
			    activity_cls(tab, l, j) != ACT_COMPUTE)
				continue;
			iset_add(out, cur, l->start[j]);
			cur = l->end[j];
		}
		iset_add(out, cur, e);
	}
}

/*
 * Counts lane l's events of each class into nc[] and widens ad's first
 * and last work instants; returns the number of work events. A lane of
 * nothing but work starts with its first event and, when its events never
 * overlap (so that their ends ascend), ends with its last: then only the
 * kinds are read.
 */
static size_t
activity_count(const int8_t *tab, const struct lane *l, size_t *nc,
    struct act_device *ad)
{
	size_t	i, tot = 0;
	int	cls;

	for (i = 0; i < l->n; i++)
		if ((cls = activity_cls(tab, l, i)) >= 0) {
			nc[cls]++;
			tot++;
		}
	if (tot == 0)
		return 0;
	if (tot == l->n && !l->overlaps) {
		if (l->start[0] < ad->first)
			ad->first = l->start[0];
		if (l->end[l->n - 1] > ad->last)
			ad->last = l->end[l->n - 1];
		return tot;
	}
	for (i = 0; i < l->n; i++) {
		if (activity_cls(tab, l, i) < 0)
			continue;
		if (l->start[i] < ad->first)
			ad->first = l->start[i];
		if (l->end[i] > ad->last)
			ad->last = l->end[i];
	}
	return tot;
}

/*
 * The coverages of a device whose work tracks hold nothing but work
 * (so that "all" is the model's device coverage) and whose compute runs
 * on the one lane cl (activity_compute_lane()): C is cl's coverage less
 * cov[ACT_COMPUTE], cl's other events, and cov[ACT_CM] is Y \ (C u M), so
 * that |C u M| = |all| - |Y \ (C u M)|. Both are about as small as Y.
 */
static void
activity_lean(const int8_t *tab, struct act_device *ad,
    const struct iset *all, const struct lane *cl, size_t nc)
{
	struct iset	ym;

	iset_init(&ym);
	ad->ctrack = &cl->cov;
	activity_rest(tab, &ad->cov[ACT_COMPUTE], cl, nc);
	activity_alias(&ad->cov[ACT_ALL], all);
	iset_diff(&ym, &ad->cov[ACT_COPY], &ad->cov[ACT_COMM]);
	activity_minus_compute(tab, &ad->cov[ACT_CM], &ym, cl);
	iset_shrink(&ad->cov[ACT_CM]);
	iset_free(&ym);
}

/*
 * One device: the unions of its classes (activity_classes()), then
 * M \ C and C u M u Y, or the lean sets of activity_lean(). trk lists the
 * device's GPU tracks (ntrk of them). cov[ACT_CM] holds M \ C, the
 * exposed communication (activity_busy() adds C to it). "All" is a view
 * of the model's device coverage when every event of the device's tracks
 * is work (the same union), and the sets that equal another are views of
 * it; every set keeps prefix sums (activity_index()).
 */
static int
activity_device(struct activity *a, const int8_t *tab, uint32_t d,
    const uint32_t *trk, size_t ntrk, struct act_device *ad)
{
	const struct model	 *m = a->m;
	const struct lane	**lanes, *cl = NULL;
	const struct iset	 *in[3];
	size_t			  ns[3] = { 0, 0, 0 }, nl = 0, nother = 0;
	size_t			 *cnt;
	size_t			  j, c, tot;
	int			  first = 1;

	memset(ad, 0, sizeof *ad);
	ad->device = d;
	ad->process = NONE32;
	ad->first = INT64_MAX;
	ad->last = INT64_MIN;
	lanes = xcalloc(ntrk + 1, sizeof *lanes);
	cnt = xcalloc(3 * (ntrk + 1), sizeof *cnt);
	for (j = 0; j < ntrk; j++) {
		const struct track *tr = &m->tracks[trk[j]];
		size_t *nc = cnt + 3 * nl;
		if ((tot = activity_count(tab, &tr->lane, nc, ad)) < tr->lane.n)
			nother += tr->lane.n - tot;
		if (tot == 0)
			continue;
		for (c = 0; c < 3; c++)
			ns[c] += nc[c];
		if (first)
			ad->process = tr->process;
		else if (ad->process != tr->process)
			ad->process = NONE32;
		first = 0;
		lanes[nl++] = &tr->lane;
	}
	ad->nkernels = ns[ACT_COMPUTE] + ns[ACT_COMM];
	ad->ncomm = ns[ACT_COMM];
	if (nl > 0 && nother == 0 && m->device_cov != NULL &&
	    d < m->ndevices)
		cl = activity_compute_lane(lanes, cnt, nl);
	if (nl > 0)
		activity_classes(tab, ad, lanes, cnt, nl, cl != NULL);
	if (cl != NULL)
		activity_lean(tab, ad, &m->device_cov[d], cl,
		    ns[ACT_COMPUTE]);
	else if (nl > 0) {
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
	}
	for (c = 0; nl > 0 && c < ACT_NCLASS; c++)
		activity_index(&ad->cov[c]);
	free(cnt);
	free(lanes);
	return nl > 0;
}

void
activity_build_devices(struct activity *a, const struct model *m)
{
	uint32_t		 *order, *trk, *off;
	int8_t			 *tab;
	size_t			  d;

	memset(a, 0, sizeof *a);
	a->m = m;
	if (m->ndevices > 0) {
		tab = activity_table();
		/* The GPU tracks grouped by device, in one pass. */
		model_device_tracks(m, &off, &trk);
		order = xcalloc(m->ndevices, sizeof *order);
		for (d = 0; d < m->ndevices; d++)
			order[d] = (uint32_t)d;
		activity_sort_devices(m, order, m->ndevices);
		a->dev = xcalloc(m->ndevices, sizeof *a->dev);
		a->slot = xcalloc(m->ndevices, sizeof *a->slot);
		for (d = 0; d < m->ndevices; d++) {
			uint32_t dv = order[d];
			/* A device without work leaves its slot empty. */
			a->slot[dv] = -1;
			if (activity_device(a, tab, dv, trk + off[dv],
			    off[dv + 1] - off[dv], &a->dev[a->ndev]))
				a->slot[dv] = (int32_t)a->ndev++;
		}
		free(tab);
		free(order);
		free(trk);
		free(off);
	}
}

/* a->any: the union over the devices (a view of the one device's). */
static void
activity_any(struct activity *a)
{
	const struct iset	**in;
	size_t			  d, n;

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
	activity_index(&a->any);
}

void
activity_build(struct activity *a, const struct model *m)
{
	activity_build_devices(a, m);
	activity_any(a);
}
