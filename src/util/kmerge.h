/*
 * kmerge: the heap of a k-way merge. Each entry is the next element of one
 * sorted source (src, its position pos, its start key); h[0] is the entry
 * of least start. The caller takes h[0], moves it to its source's next
 * element (or drops it: h[0] = h[--n]) and calls kmerge_sift(h, n, 0),
 * or lets kmerge_next() do both.
 * Entries of equal start come out in no particular order.
 *
 * The caller owns the array.
 */
#ifndef GPULENS_KMERGE_H
#define GPULENS_KMERGE_H

#include <stddef.h>
#include <stdint.h>

struct kmerge_head {
	int64_t		start;
	size_t		src, pos;
};

/* Restores the heap below entry i of h[0, n). */
void	kmerge_sift(struct kmerge_head *h, size_t n, size_t i);
/* Makes h[0, n) a heap. */
void	kmerge_heapify(struct kmerge_head *h, size_t n);
/*
 * Moves h[0] to element pos of its source, whose keys are start[0, len),
 * or drops it when pos is len; then restores the heap of *n entries.
 */
void	kmerge_next(struct kmerge_head *h, size_t *n, const int64_t *start,
	    size_t len, size_t pos);

#endif
