/*
 * bigarr: the memory of an array that grows to millions of elements by
 * doubling, beside others that grow too (a verb's per-group samples).
 * realloc() copies such an array at every growth once glibc's dynamic
 * mmap threshold has risen (to 32 MiB, after the first big free), and the
 * copy touches fresh pages for what was written already. From BIGARR_MAP
 * bytes (16 pages) on, the array is a mapping of its own that grows with
 * mremap(), which moves the pages instead of copying them; below, it is
 * malloc'd. Only these two functions may reallocate or free it, and they
 * must be told its size in bytes.
 */
#ifndef GPULENS_BIGARR_H
#define GPULENS_BIGARR_H

#include <stddef.h>

#define BIGARR_MAP	((size_t)1 << 16)	/* mapped from this size */

/*
 * The array p (NULL, or of old bytes) grown or shrunk to n > 0 bytes,
 * its first min(old, n) bytes kept. Never NULL (xmalloc.h).
 */
void	*bigarr_resize(void *p, size_t old, size_t n);
/* Frees the array p of n bytes (NULL or n == 0: nothing). */
void	 bigarr_free(void *p, size_t n);

#endif
