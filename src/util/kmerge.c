/*
 * kmerge: the heap of a k-way merge. See kmerge.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "util/kmerge.h"

void
kmerge_sift(struct kmerge_head *h, size_t n, size_t i)
{
	struct kmerge_head	x = h[i];
	size_t			c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && h[c + 1].start < h[c].start)
			c++;
		if (x.start <= h[c].start)
			break;
		h[i] = h[c];
	}
	h[i] = x;
}

void
kmerge_heapify(struct kmerge_head *h, size_t n)
{
	size_t	i;

	for (i = n / 2; i-- > 0; )
		kmerge_sift(h, n, i);
}

void
kmerge_next(struct kmerge_head *h, size_t *n, const int64_t *start,
    size_t len, size_t pos)
{
	if (pos < len) {
		h[0].pos = pos;
		h[0].start = start[pos];
	} else
		h[0] = h[--*n];
	kmerge_sift(h, *n, 0);
}
