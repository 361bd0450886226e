/*
 * jsonw: streaming JSON string, number and microsecond writers (see
 * jsonw.h). Strings are copied in runs of bytes that need no escape, so
 * plain ASCII names cost one fwrite.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/jsonw.h"

/* Length of the valid UTF-8 sequence starting at s (n bytes left), or 0. */
static size_t
jsonw_utf8(const unsigned char *s, size_t n)
{
	unsigned char	c = s[0];
	size_t		len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong forms, surrogates and code points above U+10FFFF. */
	if (c == 0xe0 && s[1] < 0xa0)
		return 0;
	if (c == 0xed && s[1] > 0x9f)
		return 0;
	if (c == 0xf0 && s[1] < 0x90)
		return 0;
	if (c == 0xf4 && s[1] > 0x8f)
		return 0;
	return len;
}

/* The code point of the valid sequence s of len bytes. */
static unsigned
jsonw_cp(const unsigned char *s, size_t len)
{
	unsigned	cp;
	size_t		i;

	cp = len == 2 ? s[0] & 0x1f : len == 3 ? s[0] & 0x0f : s[0] & 0x07;
	for (i = 1; i < len; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/* 1 for the C1 controls and the bidirectional overrides and isolates. */
static int
jsonw_unsafe(const unsigned char *s, size_t len)
{
	unsigned	cp;

	if (len > 3)
		return 0;
	cp = jsonw_cp(s, len);
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

void
jsonw_strn(FILE *fp, const char *str, size_t len)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 i = 0, run = 0, u = 0;
	unsigned char		 c;

	fputc('"', fp);
	while (i < len) {
		c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80 && (u = jsonw_utf8(s + i, len - i)) != 0 &&
		    !jsonw_unsafe(s + i, u)) {
			i += u;
			run += u;
			continue;
		}
		if (c >= 0x80 && u != 0) {
			/* A C1 control or a bidi override: valid, but it
			 * would act on a terminal showing the JSON. */
			if (run > 0)
				fwrite(s + i - run, 1, run, fp);
			run = 0;
			fprintf(fp, "\\u%04x", jsonw_cp(s + i, u));
			i += u;
			continue;
		}
		if (run > 0)
			fwrite(s + i - run, 1, run, fp);
		run = 0;
		switch (c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		default:
			fprintf(fp, "\\u%04x", (unsigned)c);
			break;
		}
		i++;
	}
	if (run > 0)
		fwrite(s + i - run, 1, run, fp);
	fputc('"', fp);
}

void
jsonw_str(FILE *fp, const char *s)
{
	if (s == NULL)
		s = "";
	jsonw_strn(fp, s, strlen(s));
}

void
jsonw_int(FILE *fp, int64_t v)
{
	fprintf(fp, "%" PRId64, v);
}

void
jsonw_uint(FILE *fp, uint64_t v)
{
	fprintf(fp, "%" PRIu64, v);
}

void
jsonw_num(FILE *fp, double v)
{
	if (!isfinite(v)) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "%.17g", v);
}

void
jsonw_us(FILE *fp, int64_t ns)
{
	uint64_t	a;

	/* The magnitude as unsigned, so INT64_MIN works too. */
	if (ns < 0) {
		fputc('-', fp);
		a = (uint64_t)0 - (uint64_t)ns;
	} else
		a = (uint64_t)ns;
	fprintf(fp, "%" PRIu64 ".%03u", a / 1000, (unsigned)(a % 1000));
}
