/*
 * lane-sort: the events of a lane sorted by start, ties longer first then
 * in push order: an LSD radix sort on start that yields a permutation,
 * applied once to every array.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "model/lane-int.h"
#include "util/xmalloc.h"

int
lane_sort_sorted(const struct lane *l)
{
	size_t	i;

	for (i = 1; i < l->n; i++) {
		if (l->start[i] < l->start[i - 1])
			return 0;
		if (l->start[i] == l->start[i - 1] &&
		    l->end[i] > l->end[i - 1])
			return 0;
	}
	return 1;
}

/*
 * Stable LSD radix sort of n keys (8 passes of 8 bits, skipping passes
 * whose byte is the same in every key), carrying the permutation *p when p
 * is not NULL. Ping-pongs with the scratch arrays; on return *k and *p
 * point at the sorted data and *kt, *pt at the scratch.
 */
void
lane_sort_radix(uint64_t **k, uint64_t **kt, uint32_t **p, uint32_t **pt,
    size_t n)
{
	size_t		(*hist)[256], off[256], i, sum;
	uint64_t	*a = *k, *b = *kt, *swk, key;
	uint32_t	*pa = p != NULL ? *p : NULL, *pb = p != NULL ? *pt : NULL;
	uint32_t	*swp;
	unsigned	 pass, d;

	hist = xcalloc(8, sizeof *hist);
	for (i = 0; i < n; i++) {
		key = a[i];
		for (pass = 0; pass < 8; pass++)
			hist[pass][(key >> (8 * pass)) & 0xff]++;
	}
	for (pass = 0; pass < 8; pass++) {
		d = (a[0] >> (8 * pass)) & 0xff;
		if (hist[pass][d] == n)
			continue;
		for (sum = 0, d = 0; d < 256; d++) {
			off[d] = sum;
			sum += hist[pass][d];
		}
		if (pa != NULL) {
			for (i = 0; i < n; i++) {
				d = (a[i] >> (8 * pass)) & 0xff;
				b[off[d]] = a[i];
				pb[off[d]++] = pa[i];
			}
			swp = pa, pa = pb, pb = swp;
		} else {
			for (i = 0; i < n; i++) {
				d = (a[i] >> (8 * pass)) & 0xff;
				b[off[d]++] = a[i];
			}
		}
		swk = a, a = b, b = swk;
	}
	free(hist);
	*k = a;
	*kt = b;
	if (p != NULL) {
		*p = pa;
		*pt = pb;
	}
}

/* Stable sort of the permutation run p[0..m) by end descending. */
static void
lane_sort_run(uint32_t *p, uint32_t *tmp, size_t m, const int64_t *end)
{
	size_t		i, j, h, a, b, o;
	uint32_t	x;

	if (m <= LANE_RUNSORT) {
		for (i = 1; i < m; i++) {
			x = p[i];
			for (j = i; j > 0 && end[p[j - 1]] < end[x]; j--)
				p[j] = p[j - 1];
			p[j] = x;
		}
		return;
	}
	h = m / 2;
	lane_sort_run(p, tmp, h, end);
	lane_sort_run(p + h, tmp, m - h, end);
	if (end[p[h - 1]] >= end[p[h]])
		return;
	for (a = 0, b = h, o = 0; a < h && b < m; o++) {
		if (end[p[a]] >= end[p[b]])
			tmp[o] = p[a++];
		else
			tmp[o] = p[b++];
	}
	while (a < h)
		tmp[o++] = p[a++];
	memcpy(p, tmp, o * sizeof *p);
}

/*
 * Array a of n elements of sz bytes (1, 4 or 8) reordered by p (element i
 * becomes the old element p[i]), in a new allocation; a is freed.
 */
static void *
lane_permute(void *a, size_t sz, const uint32_t *p, size_t n)
{
	void	*b = xreallocarray(NULL, n, sz);
	size_t	 i;

	for (i = 0; i < n; i++) {
		switch (sz) {
		case 1:
			((uint8_t *)b)[i] = ((const uint8_t *)a)[p[i]];
			break;
		case 4:
			((uint32_t *)b)[i] = ((const uint32_t *)a)[p[i]];
			break;
		default:
			((uint64_t *)b)[i] = ((const uint64_t *)a)[p[i]];
			break;
		}
	}
	free(a);
	return b;
}

/*
 * Sorts the events by (start asc, end desc), stably. The start array itself
 * is one of the radix sort's key buffers, so the sorted keys become the new
 * start array without a gather.
 */
void
lane_sort(struct lane *l)
{
	size_t		 n = l->n, i, r;
	uint64_t	*k = (uint64_t *)l->start, *kt;
	uint32_t	*p, *pt;
	int64_t		 min = l->start[0];

	/*
	 * Keys are start - min as uint64: the same order as the sign-flipped
	 * start, but the high bytes are constant (their passes skipped) even
	 * when times cross zero.
	 */
	for (i = 1; i < n; i++)
		if (l->start[i] < min)
			min = l->start[i];
	kt = xreallocarray(NULL, n, sizeof *kt);
	p = xreallocarray(NULL, n, sizeof *p);
	pt = xreallocarray(NULL, n, sizeof *pt);
	for (i = 0; i < n; i++) {
		k[i] -= (uint64_t)min;
		p[i] = (uint32_t)i;
	}
	lane_sort_radix(&k, &kt, &p, &pt, n);
	for (i = 0; i < n; i++)
		k[i] += (uint64_t)min;
	free(kt);

	/* Equal starts: longer first, keeping push order among equals. */
	for (i = 0; i < n; i = r) {
		for (r = i + 1; r < n && k[r] == k[i]; r++)
			;
		if (r - i > 1)
			lane_sort_run(p + i, pt, r - i, l->end);
	}
	free(pt);

	l->start = (int64_t *)k;
	if (l->cap != n)
		l->start = xreallocarray(l->start, n, sizeof *l->start);
	l->end = lane_permute(l->end, sizeof *l->end, p, n);
	l->name = lane_permute(l->name, sizeof *l->name, p, n);
	l->kind = lane_permute(l->kind, sizeof *l->kind, p, n);
	l->flags = lane_permute(l->flags, sizeof *l->flags, p, n);
	if (l->rowid64 != NULL)
		l->rowid64 = lane_permute(l->rowid64, sizeof *l->rowid64, p, n);
	else
		l->rowid32 = lane_permute(l->rowid32, sizeof *l->rowid32, p, n);
	l->corr = lane_permute(l->corr, sizeof *l->corr, p, n);
	l->aux = lane_permute(l->aux, sizeof *l->aux, p, n);
	l->cap = n;
	free(p);
}
