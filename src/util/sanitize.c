/*
 * sanitize: visible escapes for control characters, bidi overrides and
 * invalid UTF-8 in untrusted strings; terminal width arithmetic.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/sanitize.h"
#include "util/utf8.h"
#include "util/xmalloc.h"

int
sanitize_utf8_valid(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), k;
	uint32_t		 cp;

	while (n > 0) {
		if (*p < 0x80) {
			p++;
			n--;
			continue;
		}
		if ((k = utf8_decode(p, n, &cp)) == 0)
			return 0;
		p += k;
		n -= k;
	}
	return 1;
}

char *
sanitize_utf8_dup(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), k, o = 0;
	uint32_t		 cp;
	char			*out = xmalloc(n * 3 + 1);

	while (n > 0) {
		if ((k = utf8_decode(p, n, &cp)) == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			o += 3;
			p++;
			n--;
			continue;
		}
		memcpy(out + o, p, k);
		o += k;
		p += k;
		n -= k;
	}
	out[o] = '\0';
	return out;
}

/* Appends to buf at *o (capacity len, keeping room for NUL); returns 0 if
 * it did not fit. */
static int
put(char *buf, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + n + 1 > len)
		return 0;
	memcpy(buf + *o, s, n);
	*o += n;
	return 1;
}

size_t
sanitize_buf(const char *s, int ascii, char *buf, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n, o = 0, k;
	uint32_t		 cp;
	char			 esc[16];

	if (len == 0)
		return 0;
	n = s != NULL ? strlen(s) : 0;
	while (n > 0) {
		k = utf8_decode(p, n, &cp);
		if (k == 0) {
			snprintf(esc, sizeof esc, "\\x%02x", p[0]);
			if (!put(buf, len, &o, esc, 4))
				break;
			p++;
			n--;
			continue;
		}
		if (cp < 0x20 || cp == 0x7F) {
			snprintf(esc, sizeof esc, "\\x%02x", (unsigned)cp);
			if (!put(buf, len, &o, esc, 4))
				break;
		} else if (utf8_is_c1(cp) || utf8_is_bidi(cp)) {
			snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
			if (!put(buf, len, &o, esc, 6))
				break;
		} else if (ascii && cp >= 0x80) {
			if (!put(buf, len, &o, "?", 1))
				break;
		} else if (!put(buf, len, &o, (const char *)p, k))
			break;
		p += k;
		n -= k;
	}
	buf[o] = '\0';
	return o;
}

char *
sanitize_dup(const char *s, int ascii)
{
	size_t	 n = s != NULL ? strlen(s) : 0;
	char	*buf;

	/* Worst case: every byte becomes a 6-byte escape. */
	buf = xmalloc(n * 6 + 1);
	sanitize_buf(s, ascii, buf, n * 6 + 1);
	return buf;
}

void
sanitize_json_fputs(const char *s, FILE *f)
{
	const unsigned char	*p = (const unsigned char *)s, *run = p;
	size_t			 n = strlen(s), k;
	uint32_t		 cp;

	while (n > 0) {
		if (*p < 0x7F) {
			p++;
			n--;
			continue;
		}
		if ((k = utf8_decode(p, n, &cp)) == 0)
			k = 1, cp = p[0];
		if (cp == 0x7F || utf8_is_c1(cp) || utf8_is_bidi(cp)) {
			fwrite(run, 1, (size_t)(p - run), f);
			fprintf(f, "\\u%04x", (unsigned)cp);
			run = p + k;
		}
		p += k;
		n -= k;
	}
	fwrite(run, 1, (size_t)(p - run), f);
}

void
sanitize_fputs(const char *s, FILE *f)
{
	char	*c;

	if (s == NULL)
		return;
	c = sanitize_dup(s, 0);
	fputs(c, f);
	free(c);
}

void
sanitize_msg(FILE *f, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	sanitize_fputs(s, f);
	fputc('\n', f);
	free(s);
}

const char *
sanitize_tmp(const char *s)
{
	static char	buf[8][4096];
	static int	next;

	next = (next + 1) % 8;
	sanitize_buf(s, 0, buf[next], sizeof buf[next]);
	return buf[next];
}

static int
cp_width(uint32_t cp)
{
	int	w = wcwidth((wchar_t)cp);

	return w < 0 ? 1 : w;
}

size_t
sanitize_width(const char *safe)
{
	const unsigned char	*p = (const unsigned char *)safe;
	size_t			 n = strlen(safe), k, w = 0;
	uint32_t		 cp;

	while (n > 0) {
		if ((k = utf8_decode(p, n, &cp)) == 0)
			k = 1, cp = '?';
		w += (size_t)cp_width(cp);
		p += k;
		n -= k;
	}
	return w;
}

size_t
sanitize_fit(const char *safe, size_t cols)
{
	const unsigned char	*p = (const unsigned char *)safe;
	size_t			 n = strlen(safe), k, w = 0, cw;
	uint32_t		 cp;

	while (n > 0) {
		if ((k = utf8_decode(p, n, &cp)) == 0)
			k = 1, cp = '?';
		cw = (size_t)cp_width(cp);
		if (w + cw > cols)
			break;
		w += cw;
		p += k;
		n -= k;
	}
	return (size_t)((const char *)p - safe);
}

void
sanitize_print_cell(FILE *f, const char *safe, size_t width, int right,
    int last)
{
	size_t	w = sanitize_width(safe), fit, pad, i;

	if (w > width) {
		fit = sanitize_fit(safe, width > 0 ? width - 1 : 0);
		fwrite(safe, 1, fit, f);
		fputc('~', f);
		w = sanitize_width(safe) - sanitize_width(safe + fit) + 1;
		pad = w < width ? width - w : 0;
	} else {
		pad = width - w;
		if (right) {
			for (i = 0; i < pad; i++)
				fputc(' ', f);
			pad = 0;
		}
		fputs(safe, f);
	}
	if (last) {
		fputc('\n', f);
		return;
	}
	for (i = 0; i < pad; i++)
		fputc(' ', f);
	fputs("  ", f);
}
