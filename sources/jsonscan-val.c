/*
 * jsonscan-val: the value helpers of jsonscan.h: string unescaping in
 * place, comparisons, and numbers (integers, doubles, and microsecond
 * timestamps read digit by digit into exact nanoseconds). They never
 * allocate.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sources/jsonscan.h"
#include "sources/jsonscan-int.h"

static char *
js_utf8(char *w, uint32_t cp)
{
	if (cp == 0) {
		*w++ = (char)0xc0;	/* modified UTF-8: no NUL in text */
		*w++ = (char)0x80;
	} else if (cp < 0x80)
		*w++ = (char)cp;
	else if (cp < 0x800) {
		*w++ = (char)(0xc0 | cp >> 6);
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xe0 | cp >> 12);
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*w++ = (char)(0xf0 | cp >> 18);
		*w++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	}
	return w;
}

static uint32_t
js_u4(const char *p)
{
	return (uint32_t)(js_hex((unsigned char)p[0]) << 12 |
	    js_hex((unsigned char)p[1]) << 8 | js_hex((unsigned char)p[2]) <<
	    4 | js_hex((unsigned char)p[3]));
}

int
jsonscan_str(struct jsonscan_val *v)
{
	const char	*r, *e;
	char		*w;
	uint32_t	 cp, lo;

	if (v->type != JSONSCAN_STRING)
		return -1;
	if (!v->esc)
		return 0;
	r = v->p;
	e = v->p + v->len;
	w = (char *)(uintptr_t)v->p;	/* the scanner's own buffer */
	while (r < e) {
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		/* The scanner checked every escape; stay safe anyway. */
		if (r + 1 >= e)
			break;
		switch (r[1]) {
		case 'b': *w++ = '\b'; r += 2; continue;
		case 'f': *w++ = '\f'; r += 2; continue;
		case 'n': *w++ = '\n'; r += 2; continue;
		case 'r': *w++ = '\r'; r += 2; continue;
		case 't': *w++ = '\t'; r += 2; continue;
		case 'u': break;
		default: *w++ = r[1]; r += 2; continue;
		}
		if (r + 6 > e)
			break;
		cp = js_u4(r + 2);
		r += 6;
		if (cp >= 0xd800 && cp <= 0xdbff && r + 6 <= e && r[0] ==
		    '\\' && r[1] == 'u' && (lo = js_u4(r + 2)) >= 0xdc00 &&
		    lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			r += 6;
		} else if (cp >= 0xd800 && cp <= 0xdfff)
			cp = 0xfffd;	/* a lone surrogate */
		w = js_utf8(w, cp);
	}
	v->len = (size_t)(w - v->p);
	v->esc = 0;
	return 0;
}

int
jsonscan_is(const struct jsonscan_val *v, const char *s)
{
	size_t	n = strlen(s);

	return v->type == JSONSCAN_STRING && !v->esc && v->len == n &&
	    memcmp(v->p, s, n) == 0;
}

int
jsonscan_is_ci(const struct jsonscan_val *v, const char *s)
{
	size_t	n = strlen(s), i;
	int	a, b;

	if (v->type != JSONSCAN_STRING || v->esc || v->len != n)
		return 0;
	for (i = 0; i < n; i++) {
		a = (unsigned char)v->p[i];
		b = (unsigned char)s[i];
		if (a >= 'A' && a <= 'Z')
			a += 'a' - 'A';
		if (b >= 'A' && b <= 'Z')
			b += 'a' - 'A';
		if (a != b)
			return 0;
	}
	return 1;
}

/* The numeric text of v (a NUMBER, or a STRING without escapes). */
static int
js_numtext(const struct jsonscan_val *v, const char **p, size_t *len)
{
	if (v->type == JSONSCAN_NUMBER || (v->type == JSONSCAN_STRING &&
	    !v->esc)) {
		*p = v->p;
		*len = v->len;
		return *len > 0 ? 0 : -1;
	}
	return -1;
}

int
jsonscan_i64(const struct jsonscan_val *v, int64_t *out)
{
	const char	*p, *e;
	size_t		 len;
	uint64_t	 u = 0, lim;
	int		 neg = 0;

	if (js_numtext(v, &p, &len) != 0)
		return -1;
	e = p + len;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p == e)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (u > (lim - (uint64_t)(*p - '0')) / 10)
			return -1;
		u = u * 10 + (uint64_t)(*p - '0');
	}
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

int
jsonscan_double(const struct jsonscan_val *v, double *out)
{
	char		 buf[JS_NUMTEXT], *end;
	const char	*p;
	size_t		 len;

	if (js_numtext(v, &p, &len) != 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	if (end != buf + len || end == buf)
		return -1;
	return 0;
}

int
jsonscan_us_ns(const struct jsonscan_val *v, int64_t *ns)
{
	const char	*p, *e, *q;
	size_t		 len;
	uint64_t	 ip = 0, frac = 0, lim;
	int		 neg = 0, k = 0, round = 0;
	double		 d;

	if (js_numtext(v, &p, &len) != 0)
		return -1;
	e = p + len;
	for (q = p; q < e; q++)
		if (*q == 'e' || *q == 'E' || *q == 'N' || *q == 'I')
			break;
	if (q < e) {
		/* An exponent (or NaN/Infinity): through a double. */
		if (jsonscan_double(v, &d) != 0 || !(d > -9.2e15 &&
		    d < 9.2e15))
			return -1;	/* NaN and Infinity too */
		d *= 1000.0;
		*ns = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
		return 0;
	}
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p == e || *p < '0' || *p > '9')
		return -1;
	lim = (uint64_t)INT64_MAX / 1000 - 1;
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		ip = ip * 10 + (uint64_t)(*p - '0');
		if (ip > lim)
			return -1;
	}
	if (p < e && *p == '.') {
		p++;
		for (; p < e && *p >= '0' && *p <= '9'; p++) {
			if (k < 3)
				frac = frac * 10 + (uint64_t)(*p - '0');
			else if (k == 3)
				round = *p >= '5';
			k++;
		}
	}
	if (p != e)
		return -1;
	for (; k < 3; k++)
		frac *= 10;
	ip = ip * 1000 + frac + (uint64_t)round;
	*ns = neg ? -(int64_t)ip : (int64_t)ip;
	return 0;
}

int
jsonscan_i64_array(const struct jsonscan_val *v, int64_t *out, size_t max)
{
	const char		*p, *e, *s;
	struct jsonscan_val	 x;
	int64_t			 i;
	int			 n = 0;

	if (v->type != JSONSCAN_ARRAY)
		return -1;
	p = v->p + 1;
	e = v->p + v->len - 1;		/* the closing ']' */
	p = js_ws(p, e);
	while (p < e) {
		s = p;
		while (p < e && *p != ',' && *p != ' ' && *p != '\n' &&
		    *p != '\r' && *p != '\t')
			p++;
		x.type = JSONSCAN_NUMBER;
		x.p = s;
		x.len = (size_t)(p - s);
		x.esc = 0;
		if (jsonscan_i64(&x, &i) != 0)
			return -1;
		if ((size_t)n < max)
			out[n] = i;
		n++;
		p = js_ws(p, e);
		if (p < e) {
			if (*p != ',')
				return -1;
			p = js_ws(p + 1, e);
		}
	}
	return n;
}
