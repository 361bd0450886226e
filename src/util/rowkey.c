/*
 * rowkey: building and reading row keys (see rowkey.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kelide.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

struct rk {
	char	*s;
	size_t	 len, cap;
};

static void
rk_putc(struct rk *b, char c)
{
	if (b->len + 2 > b->cap) {
		b->cap = b->cap < 64 ? 64 : b->cap * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

static void
rk_puts(struct rk *b, const char *s)
{
	for (; *s != '\0'; s++)
		rk_putc(b, *s);
}

static int
rk_special(unsigned char c)
{
	return c == '|' || c == '%' || c < 0x20 || c == 0x7f;
}

static void
rk_value(struct rk *b, const char *v)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const unsigned char	*p;

	for (p = (const unsigned char *)v; *p != '\0'; p++) {
		if (rk_special(*p)) {
			rk_putc(b, '%');
			rk_putc(b, hex[*p >> 4]);
			rk_putc(b, hex[*p & 15]);
		} else
			rk_putc(b, (char)*p);
	}
}

char *
rowkey_v(const char *kind, const char *fmt, va_list ap)
{
	struct rk	 b = { NULL, 0, 0 };
	char		 num[32], spec[8];
	const char	*p, *q;
	size_t		 n;

	rk_puts(&b, kind);
	if (fmt == NULL)
		return b.s;
	rk_putc(&b, '|');
	for (p = fmt; *p != '\0'; p++) {
		if (*p != '%') {
			rk_putc(&b, *p);
			continue;
		}
		if (p[1] == '%') {
			rk_puts(&b, "%25");
			p++;
			continue;
		}
		/* The conversion: length modifiers then d, u or s. */
		for (q = p + 1; *q == 'l' || *q == 'z'; q++)
			;
		n = (size_t)(q - p) + 1;
		if (n >= sizeof spec)
			abort();
		memcpy(spec, p, n);
		spec[n] = '\0';
		if (*q == 's')
			rk_value(&b, va_arg(ap, const char *));
		else if (strcmp(spec, "%d") == 0)
			snprintf(num, sizeof num, "%d", va_arg(ap, int)),
			    rk_puts(&b, num);
		else if (strcmp(spec, "%u") == 0)
			snprintf(num, sizeof num, "%u", va_arg(ap, unsigned)),
			    rk_puts(&b, num);
		else if (strcmp(spec, "%ld") == 0)
			snprintf(num, sizeof num, "%ld", va_arg(ap, long)),
			    rk_puts(&b, num);
		else if (strcmp(spec, "%lu") == 0)
			snprintf(num, sizeof num, "%lu",
			    va_arg(ap, unsigned long)), rk_puts(&b, num);
		else if (strcmp(spec, "%lld") == 0)
			snprintf(num, sizeof num, "%lld",
			    va_arg(ap, long long)), rk_puts(&b, num);
		else if (strcmp(spec, "%llu") == 0)
			snprintf(num, sizeof num, "%llu",
			    va_arg(ap, unsigned long long)), rk_puts(&b, num);
		else if (strcmp(spec, "%zu") == 0)
			snprintf(num, sizeof num, "%zu", va_arg(ap, size_t)),
			    rk_puts(&b, num);
		else
			abort();	/* a format rowkey does not take: a bug */
		p = q;
	}
	return b.s;
}

char *
rowkey(const char *kind, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = rowkey_v(kind, fmt, ap);
	va_end(ap);
	return s;
}

char *
rowkey_buf(char *buf, size_t len, const char *kind, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = rowkey_v(kind, fmt, ap);
	va_end(ap);
	snprintf(buf, len, "%s", s);
	free(s);
	return buf;
}

void
rowkey_part(char *buf, size_t len, size_t *o, const char *field,
    const char *value)
{
	struct rk	 b = { NULL, 0, 0 };
	int		 n;

	if (*o != 0)
		rk_putc(&b, '|');
	rk_puts(&b, field);
	rk_putc(&b, '=');
	rk_value(&b, value);
	n = snprintf(buf + *o, len - *o, "%s", b.s);
	free(b.s);
	if (n > 0)
		*o = *o + (size_t)n < len ? *o + (size_t)n : len - 1;
}

void
rowkey_name(char *buf, size_t len, size_t *o, const char *field,
    const char *name)
{
	char		*e, hf[64], hv[16];
	size_t		 n = 3 * strlen(name) + 1;
	uint32_t	 h = 2166136261u;
	const char	*p;

	e = xmalloc(n);
	kname_elide(name, e, n);
	rowkey_part(buf, len, o, field, e);
	if (strcmp(e, name) != 0) {
		for (p = name; *p != '\0'; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		snprintf(hf, sizeof hf, "%s_hash", field);
		snprintf(hv, sizeof hv, "%08x", h);
		rowkey_part(buf, len, o, hf, hv);
	}
	free(e);
}

static size_t
rk_name(const char *p)
{
	size_t	n = 0;

	if (!(p[0] >= 'a' && p[0] <= 'z'))
		return 0;
	for (n = 1; (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' &&
	    p[n] <= '9') || p[n] == '_' || p[n] == '-'; n++)
		;
	return n;
}

static int
rk_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
rowkey_valid(const char *key)
{
	const char	*p = key;
	size_t		 n;

	if ((n = rk_name(p)) == 0)
		return 0;
	p += n;
	while (*p == '|') {
		p++;
		if ((n = rk_name(p)) == 0 || p[n] != '=')
			return 0;
		for (p += n + 1; *p != '\0' && *p != '|'; p++) {
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				return 0;
			if (*p == '%' && (rk_hex(p[1]) < 0 ||
			    rk_hex(p[2]) < 0))
				return 0;
		}
	}
	return *p == '\0';
}

int
rowkey_is(const char *key, const char *kind)
{
	size_t	n = strlen(kind);

	return strncmp(key, kind, n) == 0 && (key[n] == '\0' ||
	    key[n] == '|');
}

char *
rowkey_get(const char *key, const char *field)
{
	struct rk	 b = { NULL, 0, 0 };
	const char	*p;
	size_t		 n = strlen(field);

	if (!rowkey_valid(key))
		return NULL;
	for (p = strchr(key, '|'); p != NULL; p = strchr(p + 1, '|')) {
		if (strncmp(p + 1, field, n) != 0 || p[1 + n] != '=')
			continue;
		rk_puts(&b, "");
		for (p += n + 2; *p != '\0' && *p != '|'; p++) {
			if (*p == '%') {
				rk_putc(&b, (char)(rk_hex(p[1]) * 16 +
				    rk_hex(p[2])));
				p += 2;
			} else
				rk_putc(&b, *p);
		}
		if (b.s == NULL)
			b.s = xstrdup("");
		return b.s;
	}
	return NULL;
}

int
rowkey_parse_id(const char *arg, const char *kind, uint32_t *id)
{
	const char		*p = arg;
	size_t			 n = strlen(kind);
	unsigned long long	 v = 0;

	if (strncmp(p, kind, n) == 0 && strncmp(p + n, "|id=", 4) == 0)
		p += n + 4;
	else if (strncmp(p, kind, n) == 0 && p[n] == ':')
		p += n + 1;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v >= UINT32_MAX)
			return -1;
	}
	if (*p != '\0')
		return -1;
	*id = (uint32_t)v;
	return 0;
}
