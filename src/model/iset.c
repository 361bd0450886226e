/*
 * iset: interval sets (building, union, intersection, difference,
 * clipping, prefix sums and measure) on sorted lists of disjoint half-open
 * segments. See iset.h.
 *
 * Every operation is a single forward merge over its inputs. The invariant
 * (sorted, disjoint, non-adjacent, non-empty segments) is kept by funnelling
 * every output segment through iset_add(), which merges a segment into the
 * last one when they overlap or touch.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/iset.h"
#include "util/kmerge.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

static int64_t	iset_prefix(const struct iset *, size_t);

void
iset_init(struct iset *a)
{
	memset(a, 0, sizeof *a);
}

void
iset_free(struct iset *a)
{
	if (!a->view) {
		free(a->start);
		free(a->end);
	}
	free(a->pre);
	memset(a, 0, sizeof *a);
}

void
iset_clear(struct iset *a)
{
	if (a->view)
		iset_free(a);
	a->n = 0;
	free(a->pre);
	a->pre = NULL;
}

void
iset_view(struct iset *a, int64_t *start, int64_t *end, size_t n, int shift)
{
	memset(a, 0, sizeof *a);
	a->start = start;
	a->end = end;
	a->n = n;
	a->shift = shift;
	a->view = 1;
}

void
iset_reserve(struct iset *a, size_t need)
{
	size_t	ncap;

	if (need <= a->cap)
		return;
	ncap = a->cap < 16 ? 16 : a->cap;
	if (a->cap == 0 && need > ncap)
		ncap = need;		/* a first reservation: exact */
	while (ncap < need)
		ncap *= 2;
	a->start = xreallocarray(a->start, ncap, sizeof *a->start);
	a->end = xreallocarray(a->end, ncap, sizeof *a->end);
	a->cap = ncap;
}

void
iset_copy(struct iset *dst, const struct iset *src)
{
	iset_clear(dst);
	if (src->n == 0)
		return;
	iset_reserve(dst, src->n);
	memcpy(dst->start, src->start, src->n * sizeof *dst->start);
	memcpy(dst->end, src->end, src->n * sizeof *dst->end);
	dst->n = src->n;
}

void
iset_add(struct iset *a, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (a->n > 0 && s <= a->end[a->n - 1]) {
		if (e > a->end[a->n - 1])
			a->end[a->n - 1] = e;
		return;
	}
	if (a->n == a->cap)
		iset_reserve(a, a->n + 1);
	a->start[a->n] = s;
	a->end[a->n] = e;
	a->n++;
}

/* Appends [s, e) with room reserved (the builders' inner loop). */
static inline void
iset_push(struct iset *a, int64_t s, int64_t e)
{
	if (a->n > 0 && s <= a->end[a->n - 1]) {
		if (e > a->end[a->n - 1])
			a->end[a->n - 1] = e;
		return;
	}
	if (e <= s)
		return;		/* empty and outside every segment */
	a->start[a->n] = s;
	a->end[a->n++] = e;
}

void
iset_shrink(struct iset *a)
{
	if (a->n == 0) {
		free(a->start);
		free(a->end);
		a->start = a->end = NULL;
	} else {
		a->start = xreallocarray(a->start, a->n, sizeof *a->start);
		a->end = xreallocarray(a->end, a->n, sizeof *a->end);
	}
	a->cap = a->n;
}

void
iset_build_sorted(struct iset *a, const int64_t *start, const int64_t *end,
    size_t n)
{
	size_t	i;

	iset_clear(a);
	iset_reserve(a, n);
	for (i = 0; i < n; i++)
		iset_push(a, start[i], end[i]);
	iset_shrink(a);
}

struct iset_pair {
	int64_t	 s, e;
};

static int
iset_pair_cmp(const void *x, const void *y)
{
	const struct iset_pair	*a = x, *b = y;

	return (a->s > b->s) - (a->s < b->s);
}

void
iset_build(struct iset *a, const int64_t *start, const int64_t *end,
    size_t n)
{
	struct iset_pair	*p;
	size_t			 i, k = 0;

	iset_clear(a);
	if (n == 0)
		return;
	p = xreallocarray(NULL, n, sizeof *p);
	for (i = 0; i < n; i++) {
		if (end[i] <= start[i])
			continue;
		p[k].s = start[i];
		p[k++].e = end[i];
	}
	if (k > 1)
		qsort(p, k, sizeof *p, iset_pair_cmp);
	for (i = 0; i < k; i++)
		iset_add(a, p[i].s, p[i].e);
	free(p);
}

int64_t
iset_len(const struct iset *a)
{
	int64_t	t = 0;
	size_t	i;

	if (a->pre != NULL)
		return iset_prefix(a, a->n);
	for (i = 0; i < a->n; i++)
		t += a->end[i] - a->start[i];
	return t;
}

void
iset_union(struct iset *out, const struct iset *a, const struct iset *b)
{
	size_t	i = 0, j = 0;

	iset_clear(out);
	iset_reserve(out, a->n + b->n);
	while (i < a->n || j < b->n) {
		if (j == b->n || (i < a->n && a->start[i] <= b->start[j])) {
			iset_add(out, a->start[i], a->end[i]);
			i++;
		} else {
			iset_add(out, b->start[j], b->end[j]);
			j++;
		}
	}
}

void
iset_intersect(struct iset *out, const struct iset *a, const struct iset *b)
{
	size_t	i = 0, j = 0;
	int64_t	s, e;

	iset_clear(out);
	while (i < a->n && j < b->n) {
		s = a->start[i] > b->start[j] ? a->start[i] : b->start[j];
		e = a->end[i] < b->end[j] ? a->end[i] : b->end[j];
		iset_add(out, s, e);
		if (a->end[i] < b->end[j])
			i++;
		else
			j++;
	}
}

int64_t
iset_intersect_len(const struct iset *a, const struct iset *b)
{
	size_t	i = 0, j = 0;
	int64_t	s, e, t = 0;

	while (i < a->n && j < b->n) {
		s = a->start[i] > b->start[j] ? a->start[i] : b->start[j];
		e = a->end[i] < b->end[j] ? a->end[i] : b->end[j];
		if (e > s)
			t += e - s;
		if (a->end[i] < b->end[j])
			i++;
		else
			j++;
	}
	return t;
}

int64_t
iset_diff_len(const struct iset *a, const struct iset *b)
{
	return iset_len(a) - iset_intersect_len(a, b);
}

void
iset_diff(struct iset *out, const struct iset *a, const struct iset *b)
{
	size_t	i, j = 0;
	int64_t	cur, e;

	iset_clear(out);
	for (i = 0; i < a->n; i++) {
		cur = a->start[i];
		e = a->end[i];
		/* Skip b's segments that end before this one starts. */
		while (j < b->n && b->end[j] <= cur)
			j++;
		while (j < b->n && b->start[j] < e) {
			iset_add(out, cur, b->start[j]);
			if (b->end[j] >= e) {
				cur = e;
				break;
			}
			cur = b->end[j];
			j++;
		}
		iset_add(out, cur, e);
	}
}

/*
 * The first index at or after i (< n) whose start is past t, by galloping:
 * O(log) of the distance, so a long covered run costs little.
 */
static size_t
iset_gallop(const int64_t *start, size_t i, size_t n, int64_t t)
{
	size_t	lo = i, step = 1;

	while (lo + step < n && start[lo + step] <= t) {
		lo += step;
		step *= 2;
	}
	if (lo + step > n)
		step = n - lo;
	return lo + 1 + lbound_i64_above(start + lo + 1, step - 1, t);
}

/*
 * A heap merge by start in which the input of least start, once it meets
 * the segment being grown, is skipped past every segment that segment
 * reaches in one galloping search: the work is about the heap moves of the
 * output's segments, not of the inputs' (devices that overlap each other
 * merge in a fraction of their segments). An input's ends ascend with its
 * starts (end[i] <= start[i + 1]), so the last segment skipped ends the
 * run.
 */
void
iset_union_many(struct iset *out, const struct iset *const *in, size_t nin)
{
	struct kmerge_head	*h = NULL;
	const struct iset	*c;
	size_t			 total = 0, nh = 0, i, j;
	int64_t			 s, e;

	iset_clear(out);
	for (i = 0; i < nin; i++)
		total += in[i]->n;
	iset_reserve(out, total);
	if (total > 0)
		h = xreallocarray(NULL, nin, sizeof *h);
	for (i = 0; i < nin; i++) {
		if (in[i]->n == 0)
			continue;
		h[nh].start = in[i]->start[0];
		h[nh].src = i;
		h[nh++].pos = 0;
	}
	kmerge_heapify(h, nh);
	e = INT64_MIN;
	while (nh > 0) {
		c = in[h[0].src];
		i = h[0].pos;
		if (out->n > 0 && c->start[i] <= e) {
			/* Inside the segment being grown: skip the run. */
			j = iset_gallop(c->start, i, c->n, e);
			if (c->end[j - 1] > e)
				e = out->end[out->n - 1] = c->end[j - 1];
		} else {
			j = i + 1;
			if (c->end[i] > c->start[i]) {
				s = c->start[i];
				e = c->end[i];
				out->start[out->n] = s;
				out->end[out->n++] = e;
			}
		}
		kmerge_next(h, &nh, c->start, c->n, j);
	}
	free(h);
	iset_shrink(out);
}

size_t
iset_lower(const struct iset *a, int64_t t)
{
	return lbound_i64_above(a->end, a->n, t);
}

void
iset_clip(struct iset *out, const struct iset *a, int64_t t0, int64_t t1)
{
	size_t	i;

	iset_clear(out);
	if (t1 <= t0)
		return;
	for (i = iset_lower(a, t0); i < a->n && a->start[i] < t1; i++)
		iset_add(out, a->start[i] > t0 ? a->start[i] : t0,
		    a->end[i] < t1 ? a->end[i] : t1);
}

void
iset_build_clip(struct iset *out, const int64_t *start, const int64_t *end,
    size_t n, int64_t t0, int64_t t1)
{
	struct iset	all;

	iset_init(&all);
	iset_build(&all, start, end, n);
	iset_clip(out, &all, t0, t1);
	iset_free(&all);
}

size_t
iset_npre(const struct iset *a)
{
	return (a->n >> a->shift) + 1;
}

void
iset_index(struct iset *a)
{
	size_t	i, mask = ((size_t)1 << a->shift) - 1;
	int64_t	acc = 0;

	free(a->pre);
	a->pre = xreallocarray(NULL, iset_npre(a), sizeof *a->pre);
	a->pre[0] = 0;
	for (i = 0; i < a->n; i++) {
		acc += a->end[i] - a->start[i];
		if (((i + 1) & mask) == 0)
			a->pre[(i + 1) >> a->shift] = acc;
	}
}

/* The length of segments [0, j): the nearest sum plus the ones after it. */
static int64_t
iset_prefix(const struct iset *a, size_t j)
{
	size_t	k = j >> a->shift << a->shift;
	int64_t	b = a->pre[j >> a->shift];

	for (; k < j; k++)
		b += a->end[k] - a->start[k];
	return b;
}

/* B(t) from lo, the first segment with start > t. */
static int64_t
iset_before_lo(const struct iset *a, size_t lo, int64_t t)
{
	int64_t	d;

	if (lo == 0)
		return 0;
	lo--;
	d = t - a->start[lo];
	if (d > a->end[lo] - a->start[lo])
		d = a->end[lo] - a->start[lo];
	return iset_prefix(a, lo) + d;
}

int64_t
iset_before(const struct iset *a, int64_t t)
{
	if (a->pre == NULL)
		return iset_measure(a, INT64_MIN, t);
	/* The last segment with start <= t. */
	return iset_before_lo(a, lbound_i64_above(a->start, a->n, t), t);
}

/* The first segment with start > t, searched from *at and left there. */
static size_t
iset_above_at(const struct iset *a, int64_t t, size_t *at)
{
	size_t	lo = *at <= a->n ? *at : a->n;

	if (lo > 0 && a->start[lo - 1] > t)
		lo = lbound_i64_above(a->start, lo, t);
	else if (t == INT64_MAX)
		lo = a->n;
	else	/* every start before lo is <= t, below t + 1 */
		lo = lbound_i64_from(a->start, a->n, lo, t + 1);
	*at = lo;
	return lo;
}

int64_t
iset_measure(const struct iset *a, int64_t t0, int64_t t1)
{
	size_t	i;
	int64_t	t = 0, s, e;

	if (t1 <= t0 || a->n == 0)
		return 0;
	if (a->pre != NULL)
		return iset_before(a, t1) - iset_before(a, t0);
	for (i = iset_lower(a, t0); i < a->n && a->start[i] < t1; i++) {
		s = a->start[i] > t0 ? a->start[i] : t0;
		e = a->end[i] < t1 ? a->end[i] : t1;
		t += e - s;
	}
	return t;
}

/* Segments iset_measure_at() adds up rather than read two prefix sums
 * (each up to 1 << shift additions). */
#define ISET_WALK_MAX	16

int64_t
iset_measure_at(const struct iset *a, int64_t t0, int64_t t1, size_t *at0,
    size_t *at1)
{
	size_t	lo, hi, i;
	int64_t	t = 0;

	if (t1 <= t0 || a->n == 0)
		return 0;
	if (a->pre == NULL)
		return iset_measure(a, t0, t1);
	lo = iset_above_at(a, t0, at0);
	hi = iset_above_at(a, t1, at1);
	if (hi - lo > ISET_WALK_MAX)
		return iset_before_lo(a, hi, t1) - iset_before_lo(a, lo, t0);
	/* Few segments meet [t0, t1): the last one starting at or before
	 * t0 and those up to the last one starting at or before t1. */
	for (i = lo > 0 ? lo - 1 : 0; i < hi; i++)
		t += iset_span_in(a->start[i], a->end[i], t0, t1);
	return t;
}

void
iset_run_init(struct iset_run *r)
{
	memset(r, 0, sizeof *r);
}

int
iset_run_add(struct iset_run *r, int64_t s, int64_t e, int64_t *fs,
    int64_t *fe)
{
	if (e <= s)
		return 0;
	if (r->open && s <= r->end) {
		if (e > r->end)
			r->end = e;
		return 0;
	}
	if (!r->open) {
		r->open = 1;
		r->start = s;
		r->end = e;
		return 0;
	}
	*fs = r->start;
	*fe = r->end;
	r->len += r->end - r->start;
	r->start = s;
	r->end = e;
	return 1;
}

int
iset_run_end(struct iset_run *r, int64_t *fs, int64_t *fe)
{
	if (!r->open)
		return 0;
	*fs = r->start;
	*fe = r->end;
	r->len += r->end - r->start;
	r->open = 0;
	return 1;
}
