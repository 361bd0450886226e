/*
 * strpool: string interning with an open-addressing hash of ids.
 *
 * Layout: string bytes live in chunks of at least 1 MiB (a string longer
 * than that gets a chunk of its own); off[id] points at the bytes and len[id]
 * is the length. The hash table stores ids, probed linearly, and is rebuilt
 * at 50% load. Ids are dense and assigned in insertion order.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

#define STRPOOL_CHUNK	(1u << 20)

struct strpool {
	char		**chunks;	/* owned chunk buffers */
	size_t		  nchunks, chunkscap;
	size_t		  used;		/* bytes used in the last chunk */
	size_t		  lastcap;	/* capacity of the last chunk */
	const char	**str;		/* str[id] points into a chunk */
	uint32_t	 *len;		/* len[id] */
	uint32_t	  n, cap;
	uint32_t	 *tab;		/* hash slots: id + 1, 0 = empty */
	uint32_t	  tabmask;
	uint32_t	  ncut;		/* strings cut to STRPOOL_MAX_LEN */
};

/* len, or less than STRPOOL_MAX_LEN at a UTF-8 boundary if longer. */
static size_t
strpool_cut(const char *s, size_t len)
{
	size_t	n = STRPOOL_MAX_LEN;

	if (len <= n)
		return len;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

static uint64_t
strpool_hash(const char *s, size_t len)
{
	uint64_t	h = hmap_hash(s, len);

	return h ^ (h >> 29);
}

static void
strpool_rehash(struct strpool *sp, uint32_t size)
{
	uint32_t	i, j;

	free(sp->tab);
	sp->tab = xcalloc(size, sizeof *sp->tab);
	sp->tabmask = size - 1;
	for (i = 0; i < sp->n; i++) {
		j = (uint32_t)strpool_hash(sp->str[i], sp->len[i]) & sp->tabmask;
		while (sp->tab[j] != 0)
			j = (j + 1) & sp->tabmask;
		sp->tab[j] = i + 1;
	}
}

struct strpool *
strpool_new(void)
{
	struct strpool	*sp;

	sp = xcalloc(1, sizeof *sp);
	strpool_rehash(sp, 1024);
	strpool_intern(sp, "", 0);
	return sp;
}

void
strpool_free(struct strpool *sp)
{
	if (sp == NULL)
		return;
	xfree_strv(sp->chunks, sp->nchunks);
	free(sp->str);
	free(sp->len);
	free(sp->tab);
	free(sp);
}

static const char *
strpool_store(struct strpool *sp, const char *s, size_t len)
{
	char	*dst;
	size_t	 need = len + 1, cap;

	if (sp->nchunks == 0 || sp->used + need > sp->lastcap) {
		cap = need > STRPOOL_CHUNK ? need : STRPOOL_CHUNK;
		XGROW(sp->chunks, sp->chunkscap, sp->nchunks + 1);
		sp->chunks[sp->nchunks++] = xmalloc(cap);
		sp->lastcap = cap;
		sp->used = 0;
	}
	dst = sp->chunks[sp->nchunks - 1] + sp->used;
	if (len != 0)
		memcpy(dst, s, len);
	dst[len] = '\0';
	sp->used += need;
	return dst;
}

/*
 * The id of s (len bytes, already cut) or UINT32_MAX; *slot is then the
 * empty hash slot where it would go.
 */
static uint32_t
strpool_probe(const struct strpool *sp, const char *s, size_t len,
    uint32_t *slot)
{
	uint32_t	j, id;

	j = (uint32_t)strpool_hash(s, len) & sp->tabmask;
	while ((id = sp->tab[j]) != 0) {
		id--;
		if (sp->len[id] == len && memcmp(sp->str[id], s, len) == 0)
			return id;
		j = (j + 1) & sp->tabmask;
	}
	*slot = j;
	return UINT32_MAX;
}

uint32_t
strpool_find(const struct strpool *sp, const char *s, size_t len)
{
	uint32_t	j;

	if (s == NULL || len == 0)
		return 0;
	return strpool_probe(sp, s, strpool_cut(s, len), &j);
}

uint32_t
strpool_intern(struct strpool *sp, const char *s, size_t len)
{
	uint32_t	j, id;
	size_t		cap;

	if (s == NULL || len == 0) {
		s = "";
		len = 0;
	}
	if (len > STRPOOL_MAX_LEN) {
		len = strpool_cut(s, len);
		if (sp->ncut < UINT32_MAX)
			sp->ncut++;
	}
	if ((id = strpool_probe(sp, s, len, &j)) != UINT32_MAX)
		return id;
	if (sp->n == UINT32_MAX - 1)
		abort();
	if (sp->n == sp->cap) {
		cap = sp->cap;
		XGROW(sp->str, cap, (size_t)sp->n + 1);
		cap = sp->cap;
		XGROW(sp->len, cap, (size_t)sp->n + 1);
		sp->cap = (uint32_t)cap;
	}
	id = sp->n++;
	sp->str[id] = strpool_store(sp, s, len);
	sp->len[id] = (uint32_t)len;
	sp->tab[j] = id + 1;
	if ((uint64_t)sp->n * 2 > (uint64_t)sp->tabmask + 1)
		strpool_rehash(sp, (sp->tabmask + 1) * 2);
	return id;
}

uint32_t
strpool_intern0(struct strpool *sp, const char *s)
{
	return strpool_intern(sp, s, s == NULL ? 0 : strlen(s));
}

const char *
strpool_get(const struct strpool *sp, uint32_t id)
{
	if (sp == NULL || id >= sp->n)
		return "";
	return sp->str[id];
}

size_t
strpool_len(const struct strpool *sp, uint32_t id)
{
	if (sp == NULL || id >= sp->n)
		return 0;
	return sp->len[id];
}

uint32_t
strpool_count(const struct strpool *sp)
{
	return sp->n;
}

uint32_t
strpool_ncut(const struct strpool *sp)
{
	return sp->ncut;
}
