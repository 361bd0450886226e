/*
 * hmap: linear-probing hash map, uint64 -> uint32, grown at 50% load.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/xmalloc.h"

static inline size_t
hmap_slot(uint64_t k, size_t mask)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & mask;
}

void
hmap_init(struct hmap *h)
{
	memset(h, 0, sizeof *h);
}

void
hmap_free(struct hmap *h)
{
	free(h->keys);
	free(h->vals);
	free(h->used);
	memset(h, 0, sizeof *h);
}

static void
hmap_resize(struct hmap *h, size_t size)
{
	struct hmap	 old = *h;
	size_t		 i, j;

	h->keys = xcalloc(size, sizeof *h->keys);
	h->vals = xcalloc(size, sizeof *h->vals);
	h->used = xcalloc(size, 1);
	h->mask = size - 1;
	for (i = 0; old.used != NULL && i <= old.mask; i++) {
		if (!old.used[i])
			continue;
		j = hmap_slot(old.keys[i], h->mask);
		while (h->used[j])
			j = (j + 1) & h->mask;
		h->used[j] = 1;
		h->keys[j] = old.keys[i];
		h->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
	free(old.used);
}

int
hmap_get(const struct hmap *h, uint64_t key, uint32_t *val)
{
	size_t	j;

	if (h->used == NULL)
		return 0;
	j = hmap_slot(key, h->mask);
	while (h->used[j]) {
		if (h->keys[j] == key) {
			if (val != NULL)
				*val = h->vals[j];
			return 1;
		}
		j = (j + 1) & h->mask;
	}
	return 0;
}

uint32_t *
hmap_upsert(struct hmap *h, uint64_t key, uint32_t dflt, int *isnew)
{
	size_t	j;

	if (h->used == NULL || (h->n + 1) * 2 > h->mask + 1)
		hmap_resize(h, h->used == NULL ? 64 : (h->mask + 1) * 2);
	j = hmap_slot(key, h->mask);
	while (h->used[j]) {
		if (h->keys[j] == key) {
			if (isnew != NULL)
				*isnew = 0;
			return &h->vals[j];
		}
		j = (j + 1) & h->mask;
	}
	h->used[j] = 1;
	h->keys[j] = key;
	h->vals[j] = dflt;
	h->n++;
	if (isnew != NULL)
		*isnew = 1;
	return &h->vals[j];
}

uint32_t
hmap_find(const struct hmap *h, uint64_t key)
{
	uint32_t	v;

	return hmap_get(h, key, &v) ? v : UINT32_MAX;
}

void
hmap_put(struct hmap *h, uint64_t key, uint32_t val)
{
	*hmap_upsert(h, key, val, NULL) = val;
}
