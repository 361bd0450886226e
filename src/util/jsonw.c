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
#include "util/utf8.h"

/* 1 for the C1 controls and the bidirectional overrides and isolates. */
static int
jsonw_unsafe(uint32_t cp)
{
	return utf8_is_c1(cp) || utf8_is_bidi(cp);
}

/* The short escapes; any other byte that needs one is written \uXXXX. */
static const char *const jsonw_esc[0x80] = {
	['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\r'] = "\\r",
	['\t'] = "\\t", ['\b'] = "\\b", ['\f'] = "\\f",
};

void
jsonw_strn(FILE *fp, const char *str, size_t len)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 i = 0, run = 0, u = 0;
	uint32_t		 cp = 0;
	unsigned char		 c;

	fputc('"', fp);
	while (i < len) {
		c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80 && (u = utf8_decode(s + i, len - i, &cp)) != 0 &&
		    !jsonw_unsafe(cp)) {
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
			fprintf(fp, "\\u%04x", (unsigned)cp);
			i += u;
			continue;
		}
		if (run > 0)
			fwrite(s + i - run, 1, run, fp);
		run = 0;
		if (c < 0x80 && jsonw_esc[c] != NULL)
			fputs(jsonw_esc[c], fp);
		else
			fprintf(fp, "\\u%04x", (unsigned)c);
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
