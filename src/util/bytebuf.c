/*
 * bytebuf: byte buffers written and read field by field (bytebuf.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytebuf.h"
#include "util/xmalloc.h"

void
bytebuf_put(struct bytebuf *b, const void *v, size_t n)
{
	if (n == 0)
		return;
	XGROW(b->p, b->cap, b->len + n);
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

void
bytebuf_putstr(struct bytebuf *b, const char *s)
{
	size_t	n = strlen(s);

	bytebuf_put32(b, (uint32_t)n);
	bytebuf_put(b, s, n);
}

void
bytebuf_putarray(struct bytebuf *b, const void *a, size_t n, size_t sz)
{
	bytebuf_put64(b, n);
	bytebuf_put(b, a, n * sz);
}

void
bytebuf_free(struct bytebuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void
bytebuf_rd_init(struct bytebuf_rd *r, const void *p, size_t len)
{
	r->p = p;
	r->len = len;
	r->pos = 0;
	r->bad = 0;
}

const uint8_t *
bytebuf_get(struct bytebuf_rd *r, size_t n)
{
	const uint8_t	*p;

	if (r->bad || n > r->len - r->pos) {
		r->bad = 1;
		return NULL;
	}
	p = r->p + r->pos;
	r->pos += n;
	return p;
}

/*
 * The fixed-size values: bytebuf_putNAME(b, v) copies v's bytes in,
 * bytebuf_getNAME(r) copies them out (0 when bad).
 */
#define BYTEBUF_SCALAR(name, type)					\
void									\
bytebuf_put##name(struct bytebuf *b, type v)				\
{									\
	bytebuf_put(b, &v, sizeof v);					\
}									\
									\
type									\
bytebuf_get##name(struct bytebuf_rd *r)					\
{									\
	const uint8_t	*p = bytebuf_get(r, sizeof (type));		\
	type		 v = 0;						\
									\
	if (p != NULL)							\
		memcpy(&v, p, sizeof v);				\
	return v;							\
}
BYTEBUF_SCALAR(8, uint8_t)
BYTEBUF_SCALAR(32, uint32_t)
BYTEBUF_SCALAR(64, uint64_t)
BYTEBUF_SCALAR(dbl, double)
#undef BYTEBUF_SCALAR

char *
bytebuf_getstr(struct bytebuf_rd *r)
{
	uint32_t	 n = bytebuf_get32(r);
	const uint8_t	*p = bytebuf_get(r, n);

	if (p == NULL)
		return xstrdup("");
	return xstrndup((const char *)p, n);
}

size_t
bytebuf_getcount(struct bytebuf_rd *r, size_t sz)
{
	uint64_t	n = bytebuf_get64(r);

	if (r->bad || n > (r->len - r->pos) / sz) {
		r->bad = 1;
		return 0;
	}
	return (size_t)n;
}

void *
bytebuf_getarray(struct bytebuf_rd *r, size_t *np, size_t sz)
{
	const uint8_t	*p;
	void		*a;
	size_t		 n = bytebuf_getcount(r, sz);

	*np = 0;
	if (n == 0 || (p = bytebuf_get(r, n * sz)) == NULL)
		return NULL;
	a = xreallocarray(NULL, n, sz);
	memcpy(a, p, n * sz);
	*np = n;
	return a;
}
