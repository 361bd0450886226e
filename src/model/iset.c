/*
 * iset: interval-set algebra (union, intersection, difference, clipping,
 * measure) on sorted lists of disjoint half-open segments. See iset.h.
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
#include "util/lbound.h"
#include "util/xmalloc.h"

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
iset_view(struct iset *a, int64_t *start, int64_t *end, size_t n)
{
	memset(a, 0, sizeof *a);
	a->start = start;
	a->end = end;
	a->n = n;
	a->view = 1;
}

static void
iset_reserve(struct iset *a, size_t need)
{
	size_t	ncap;

	if (need <= a->cap)
		return;
	ncap = a->cap < 16 ? 16 : a->cap;
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
		return a->pre[a->n];
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

void
iset_union_many(struct iset *out, const struct iset *const *in, size_t nin)
{
	struct iset	*tmp, t;
	size_t		 n, i, k;

	iset_clear(out);
	if (nin == 0)
		return;
	if (nin == 1) {
		iset_copy(out, in[0]);
		return;
	}
	/* Level 0: pairwise unions of the inputs into owned sets. */
	n = (nin + 1) / 2;
	tmp = xcalloc(n, sizeof *tmp);
	for (i = 0; i < n; i++) {
		if (2 * i + 1 < nin)
			iset_union(&tmp[i], in[2 * i], in[2 * i + 1]);
		else
			iset_copy(&tmp[i], in[2 * i]);
	}
	/* Then halve until one is left. */
	while (n > 1) {
		k = 0;
		for (i = 0; i < n; i += 2) {
			if (i + 1 < n) {
				iset_init(&t);
				iset_union(&t, &tmp[i], &tmp[i + 1]);
				iset_free(&tmp[i]);
				iset_free(&tmp[i + 1]);
				tmp[k++] = t;
			} else
				tmp[k++] = tmp[i];
		}
		n = k;
	}
	iset_free(out);
	*out = tmp[0];
	free(tmp);
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
iset_index(struct iset *a)
{
	size_t	i;

	free(a->pre);
	a->pre = xreallocarray(NULL, a->n + 1, sizeof *a->pre);
	a->pre[0] = 0;
	for (i = 0; i < a->n; i++)
		a->pre[i + 1] = a->pre[i] + (a->end[i] - a->start[i]);
}

/* Covered length before t: O(log n) with prefix sums. */
static int64_t
iset_before(const struct iset *a, int64_t t)
{
	size_t	i = iset_lower(a, t);

	if (i < a->n && a->start[i] < t)
		return a->pre[i] + (t - a->start[i]);
	return a->pre[i];
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
