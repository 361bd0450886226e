/*
 * bigarr: arrays that grow without copying (bigarr.h).
 */
#include "config.h"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* mremap */
#endif

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/bigarr.h"
#include "util/xmalloc.h"

#ifdef MREMAP_MAYMOVE

static void *
bigarr_map(size_t n)
{
	void	*p;

	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (p == MAP_FAILED)
		xmalloc_fail(n);
	return p;
}

void *
bigarr_resize(void *p, size_t old, size_t n)
{
	void	*q;

	if (p == NULL)
		old = 0;
	if (n < BIGARR_MAP && old < BIGARR_MAP)
		return xrealloc(p, n);
	if (old >= BIGARR_MAP && n >= BIGARR_MAP) {
		q = mremap(p, old, n, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			xmalloc_fail(n);
		return q;
	}
	/* Across the threshold: a copy of less than BIGARR_MAP bytes. */
	if (n >= BIGARR_MAP) {
		q = bigarr_map(n);
		if (p != NULL)
			memcpy(q, p, old);
		free(p);
		return q;
	}
	q = xmalloc(n);
	memcpy(q, p, n);
	munmap(p, old);
	return q;
}

void
bigarr_free(void *p, size_t n)
{
	if (p == NULL)
		return;
	if (n >= BIGARR_MAP)
		munmap(p, n);
	else
		free(p);
}

#else

void *
bigarr_resize(void *p, size_t old, size_t n)
{
	(void)old;
	return xrealloc(p, n);
}

void
bigarr_free(void *p, size_t n)
{
	(void)n;
	free(p);
}

#endif
