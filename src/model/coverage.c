/*
 * coverage: the union of a set of intervals as disjoint, sorted segments
 * with prefix sums of their lengths, built from sorted intervals or merged
 * from other coverages (per-device unions), and the busy-time queries over
 * it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/coverage.h"
#include "util/lbound.h"
#include "util/xmalloc.h"

void
coverage_free(struct coverage *c)
{
	if (c->owned) {
		free(c->start);
		free(c->end);
	}
	free(c->sums);
	memset(c, 0, sizeof *c);
}

size_t
coverage_nsums(const struct coverage *c)
{
	return (c->n >> c->shift) + 1;
}

void
coverage_sums(struct coverage *c)
{
	size_t	i, mask = ((size_t)1 << c->shift) - 1;
	int64_t	acc = 0;

	free(c->sums);
	c->sums = xreallocarray(NULL, coverage_nsums(c), sizeof *c->sums);
	c->sums[0] = 0;
	for (i = 0; i < c->n; i++) {
		acc += c->end[i] - c->start[i];
		if (((i + 1) & mask) == 0)
			c->sums[(i + 1) >> c->shift] = acc;
	}
}

/* Sizes an owned coverage's arrays to its n and fills sums[]. */
static void
coverage_finish(struct coverage *c)
{
	if (c->n == 0) {
		free(c->start);
		free(c->end);
		c->start = c->end = NULL;
	} else {
		c->start = xreallocarray(c->start, c->n, sizeof *c->start);
		c->end = xreallocarray(c->end, c->n, sizeof *c->end);
	}
	c->shift = 0;
	coverage_sums(c);
}

/* Adds [s, e) to an owned coverage under construction (s ascending). */
static inline void
coverage_add(struct coverage *c, int64_t s, int64_t e)
{
	if (c->n > 0 && s <= c->end[c->n - 1]) {
		if (e > c->end[c->n - 1])
			c->end[c->n - 1] = e;
		return;
	}
	if (e <= s)
		return;		/* empty and outside every segment */
	c->start[c->n] = s;
	c->end[c->n++] = e;
}

void
coverage_build(struct coverage *c, const int64_t *start, const int64_t *end,
    size_t n)
{
	size_t	i;

	memset(c, 0, sizeof *c);
	c->owned = 1;
	if (n > 0) {
		c->start = xreallocarray(NULL, n, sizeof *c->start);
		c->end = xreallocarray(NULL, n, sizeof *c->end);
	}
	for (i = 0; i < n; i++)
		coverage_add(c, start[i], end[i]);
	coverage_finish(c);
}

/* Heap entry of the k-way merge: the next segment of input src. */
struct coverage_head {
	int64_t		start;
	size_t		src, pos;
};

static void
coverage_sift(struct coverage_head *h, size_t nh, size_t i)
{
	struct coverage_head	x = h[i];
	size_t			c;

	for (; (c = 2 * i + 1) < nh; i = c) {
		if (c + 1 < nh && h[c + 1].start < h[c].start)
			c++;
		if (x.start <= h[c].start)
			break;
		h[i] = h[c];
	}
	h[i] = x;
}

void
coverage_union(struct coverage *out, const struct coverage *const *in,
    size_t nin)
{
	struct coverage_head	*h = NULL;
	const struct coverage	*c;
	size_t			 total = 0, nh = 0, i;

	memset(out, 0, sizeof *out);
	out->owned = 1;
	for (i = 0; i < nin; i++)
		total += in[i]->n;
	if (total > 0) {
		out->start = xreallocarray(NULL, total, sizeof *out->start);
		out->end = xreallocarray(NULL, total, sizeof *out->end);
		h = xreallocarray(NULL, nin, sizeof *h);
	}
	for (i = 0; i < nin; i++) {
		if (in[i]->n == 0)
			continue;
		h[nh].start = in[i]->start[0];
		h[nh].src = i;
		h[nh++].pos = 0;
	}
	for (i = nh / 2; i-- > 0; )
		coverage_sift(h, nh, i);
	while (nh > 0) {
		c = in[h[0].src];
		coverage_add(out, c->start[h[0].pos], c->end[h[0].pos]);
		if (++h[0].pos < c->n)
			h[0].start = c->start[h[0].pos];
		else
			h[0] = h[--nh];
		coverage_sift(h, nh, 0);
	}
	free(h);
	coverage_finish(out);
}

/* The sum sums[j >> shift] plus the segments from there up to j. */
static int64_t
coverage_prefix(const struct coverage *c, size_t j)
{
	size_t	k = j >> c->shift << c->shift;
	int64_t	b = c->sums[j >> c->shift];

	for (; k < j; k++)
		b += c->end[k] - c->start[k];
	return b;
}

int64_t
coverage_busy_before(const struct coverage *c, int64_t t)
{
	size_t	lo;
	int64_t	d;

	/* j = last segment with start <= t. */
	lo = lbound_i64_above(c->start, c->n, t);
	if (lo == 0)
		return 0;
	lo--;
	d = t - c->start[lo];
	if (d > c->end[lo] - c->start[lo])
		d = c->end[lo] - c->start[lo];
	return coverage_prefix(c, lo) + d;
}

int64_t
coverage_total(const struct coverage *c)
{
	return c->sums != NULL ? coverage_prefix(c, c->n) : 0;
}

int64_t
coverage_busy(const struct coverage *c, int64_t t0, int64_t t1)
{
	if (t1 <= t0 || c->n == 0)
		return 0;
	return coverage_busy_before(c, t1) - coverage_busy_before(c, t0);
}
