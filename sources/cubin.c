/*
 * cubin: a bounds-checked ELF64 reader for CUDA cubins (see cubin.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/cubin.h"
#include "util/xmalloc.h"

#define CUBIN_EHDR	64
#define CUBIN_SHDR	64
#define CUBIN_SYM	24
#define CUBIN_MAX_SECS	65536

static uint16_t
cubin_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
cubin_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
cubin_u64(const uint8_t *p)
{
	return (uint64_t)cubin_u32(p) | (uint64_t)cubin_u32(p + 4) << 32;
}

/* A NUL-terminated string at off of a string section, or "". */
static const char *
cubin_str(const struct cubin *c, const struct cubin_sec *strs, uint64_t off)
{
	const uint8_t	*s;

	if (strs == NULL || off >= strs->size)
		return "";
	s = c->p + strs->off + off;
	if (memchr(s, '\0', (size_t)(strs->size - off)) == NULL)
		return "";
	return (const char *)s;
}

int
cubin_open(struct cubin *c, const uint8_t *p, size_t len, const char **cause)
{
	uint64_t		 shoff;
	uint16_t		 shentsize, shnum, shstrndx;
	const struct cubin_sec	*strs;
	const uint8_t		*h;
	size_t			 i;

	memset(c, 0, sizeof *c);
	c->p = p;
	c->len = len;
	if (len < CUBIN_EHDR || memcmp(p, "\177ELF", 4) != 0) {
		*cause = "not an ELF image";
		return -1;
	}
	if (p[4] != 2 || p[5] != 1) {
		*cause = "not a little-endian ELF64 image";
		return -1;
	}
	c->flags = cubin_u32(p + 0x30);
	shoff = cubin_u64(p + 0x28);
	shentsize = cubin_u16(p + 0x3a);
	shnum = cubin_u16(p + 0x3c);
	shstrndx = cubin_u16(p + 0x3e);
	if (shnum == 0 || shentsize < CUBIN_SHDR || shoff > len ||
	    (uint64_t)shnum * shentsize > len - shoff) {
		*cause = "section headers outside the image";
		return -1;
	}
	c->secs = xcalloc(shnum, sizeof *c->secs);
	c->nsecs = shnum;
	for (i = 0; i < shnum; i++) {
		h = p + shoff + i * shentsize;
		c->secs[i].type = cubin_u32(h + 4);
		c->secs[i].off = cubin_u64(h + 0x18);
		c->secs[i].size = cubin_u64(h + 0x20);
		c->secs[i].link = cubin_u32(h + 0x28);
		c->secs[i].info = cubin_u32(h + 0x2c);
		/* NOBITS (8) sections take no room in the image. */
		if (c->secs[i].type == 8 || c->secs[i].off > len ||
		    c->secs[i].size > len - c->secs[i].off)
			c->secs[i].off = c->secs[i].size = 0;
		if (c->secs[i].type == CUBIN_SHT_SYMTAB && c->symtab == 0)
			c->symtab = (uint32_t)i;
	}
	strs = shstrndx < shnum ? &c->secs[shstrndx] : NULL;
	for (i = 0; i < shnum; i++) {
		h = p + shoff + i * shentsize;
		c->secs[i].name = cubin_str(c, strs, cubin_u32(h));
	}
	return 0;
}

void
cubin_close(struct cubin *c)
{
	free(c->secs);
	c->secs = NULL;
	c->nsecs = 0;
}

uint32_t
cubin_find(const struct cubin *c, const char *name)
{
	size_t	i;

	for (i = 1; i < c->nsecs; i++)
		if (strcmp(c->secs[i].name, name) == 0)
			return (uint32_t)i;
	return 0;
}

const uint8_t *
cubin_data(const struct cubin *c, uint32_t sec, size_t *len)
{
	if (sec == 0 || sec >= c->nsecs || c->secs[sec].size == 0) {
		*len = 0;
		return NULL;
	}
	*len = (size_t)c->secs[sec].size;
	return c->p + c->secs[sec].off;
}

int
cubin_sym(const struct cubin *c, uint32_t i, struct cubin_sym *s)
{
	const struct cubin_sec	*st, *strs;
	const uint8_t		*e;

	if (c->symtab == 0)
		return -1;
	st = &c->secs[c->symtab];
	if (i >= st->size / CUBIN_SYM)
		return -1;
	strs = st->link < c->nsecs ? &c->secs[st->link] : NULL;
	e = c->p + st->off + (size_t)i * CUBIN_SYM;
	s->name = cubin_str(c, strs, cubin_u32(e));
	s->type = e[4] & 0xf;
	s->shndx = cubin_u16(e + 6);
	s->value = cubin_u64(e + 8);
	s->size = cubin_u64(e + 16);
	return 0;
}

size_t
cubin_rels(const struct cubin *c, uint32_t sec, struct cubin_rel **out)
{
	struct cubin_rel	*v = NULL;
	const uint8_t		*e;
	size_t			 i, k, n = 0, cap = 0, ent, cnt;

	for (i = 1; i < c->nsecs; i++) {
		const struct cubin_sec *s = &c->secs[i];
		if ((s->type != CUBIN_SHT_REL && s->type != CUBIN_SHT_RELA) ||
		    s->info != sec)
			continue;
		ent = s->type == CUBIN_SHT_RELA ? 24 : 16;
		cnt = (size_t)(s->size / ent);
		for (k = 0; k < cnt; k++) {
			e = c->p + s->off + k * ent;
			XGROW(v, cap, n + 1);
			v[n].off = cubin_u64(e);
			v[n].sym = (uint32_t)(cubin_u64(e + 8) >> 32);
			v[n].has_addend = s->type == CUBIN_SHT_RELA;
			v[n].addend = v[n].has_addend ?
			    (int64_t)cubin_u64(e + 16) : 0;
			n++;
		}
	}
	*out = v;
	return n;
}
