/*
 * hmap: a hash map from 64-bit keys to 32-bit values (open addressing).
 *
 * Used wherever the model maps source identifiers (globalTid, stream ids,
 * correlation ids scoped by process) to dense indices. The map owns its
 * storage; free it with hmap_free(). Keys are arbitrary 64-bit values.
 */
#ifndef GPULENS_HMAP_H
#define GPULENS_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct hmap {
	uint64_t	*keys;
	uint32_t	*vals;
	uint8_t		*used;
	size_t		 n, mask;	/* entries; table size - 1 (0 if empty) */
};

void	hmap_init(struct hmap *);
void	hmap_free(struct hmap *);
/* Returns 1 and sets *val if key is present, else 0. */
int	hmap_get(const struct hmap *, uint64_t key, uint32_t *val);
/* The value of key, or UINT32_MAX (the model's NONE32) if it is absent. */
uint32_t hmap_find(const struct hmap *, uint64_t key);
/* Inserts or replaces. */
void	hmap_put(struct hmap *, uint64_t key, uint32_t val);
/*
 * Returns a pointer to the value of key, inserting it with value dflt if it
 * is absent (*isnew says which). The pointer is valid until the next insert.
 */
uint32_t *hmap_upsert(struct hmap *, uint64_t key, uint32_t dflt, int *isnew);

#define HMAP_FNV0	0xcbf29ce484222325ULL	/* FNV-1a offset basis */

/* Continues the 64-bit FNV-1a hash h over n bytes at p. */
static inline uint64_t
hmap_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char	*s = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The 64-bit FNV-1a hash of n bytes at p (keys for strings). */
static inline uint64_t
hmap_hash(const void *p, size_t n)
{
	return hmap_fnv(HMAP_FNV0, p, n);
}

/* Mixes two values into one key (for composite keys). */
static inline uint64_t
hmap_key2(uint64_t a, uint64_t b)
{
	return a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL +
	    (a << 6) + (a >> 2));
}

#endif
