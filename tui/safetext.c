/*
 * safetext: turning untrusted bytes into displayable wide characters.
 *
 * The work happens in one walk, safetext_decode() then safetext_item(),
 * that decodes one code point (strictly: no overlongs, surrogates or
 * values above U+10FFFF) and expands it into the short run of wide
 * characters that represents it on screen, together with its width.
 * Everything else (measuring, truncating, converting to UTF-8) is built on
 * that walk, so the three public functions cannot disagree about what a
 * string looks like.
 *
 * src/util/sanitize.c does the same job for the headless verbs' text output
 * (UTF-8 in, UTF-8 out); this module serves the cellgrid, which needs wide
 * characters, widths and truncation to a number of columns.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "tui/safetext.h"

struct safetext_item {
	wchar_t		 wc[12];	/* what to draw */
	int		 n;		/* entries in wc */
	int		 width;		/* columns */
};

/*
 * Decodes one code point at s (at most avail bytes). Returns the number of
 * bytes consumed (>= 1) and stores the code point in *cp, or U+FFFD with
 * *bad set for an invalid sequence (which then consumes one byte).
 */
static size_t
safetext_decode(const unsigned char *s, size_t avail, uint32_t *cp, int *bad)
{
	uint32_t	c = s[0], min;
	size_t		n, i;

	*bad = 0;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		goto invalid;
	if (n > avail)
		goto invalid;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto invalid;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		goto invalid;
	*cp = c;
	return n;

invalid:
	*bad = 1;
	*cp = 0xfffd;
	return 1;
}

static int
safetext_is_bidi(uint32_t c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	    c == 0x200e || c == 0x200f || c == 0x061c;
}

static void
safetext_escape(struct safetext_item *it, const char *fmt, uint32_t c)
{
	char	buf[16];
	int	i, n;

	n = snprintf(buf, sizeof buf, fmt, (unsigned int)c);
	for (i = 0; i < n && i < (int)(sizeof it->wc / sizeof it->wc[0]); i++)
		it->wc[i] = (wchar_t)(unsigned char)buf[i];
	it->n = i;
	it->width = i;
}

/* The displayed form of code point c. */
static void
safetext_item(uint32_t c, int bad, int flags, struct safetext_item *it)
{
	int	w;

	if (c < 0x20 || c == 0x7f) {
		safetext_escape(it, "\\x%02x", c);
		return;
	}
	if (c < 0x7f) {
		it->wc[0] = (wchar_t)c;
		it->n = it->width = 1;
		return;
	}
	if (bad) {
		it->wc[0] = (flags & ST_ASCII) ? L'?' : (wchar_t)0xfffd;
		it->n = it->width = 1;
		return;
	}
	if ((c >= 0x80 && c <= 0x9f) || safetext_is_bidi(c)) {
		safetext_escape(it, "\\u%04x", c);
		return;
	}
	if (flags & ST_ASCII) {
		it->wc[0] = L'?';
		it->n = it->width = 1;
		return;
	}
	w = wcwidth((wchar_t)c);
	if (w <= 0) {
		safetext_escape(it, c > 0xffff ? "\\U%08x" : "\\u%04x", c);
		return;
	}
	it->wc[0] = (wchar_t)c;
	it->n = 1;
	it->width = w;
}

static size_t
safetext_len(const char *s, size_t len)
{
	return len == (size_t)-1 ? strlen(s) : len;
}

int
safetext_width(const char *s, size_t len, int flags)
{
	const unsigned char	*p = (const unsigned char *)s;
	struct safetext_item		 it;
	size_t			 i, k;
	uint32_t		 c;
	int			 bad, w = 0;

	len = safetext_len(s, len);
	for (i = 0; i < len; i += k) {
		k = safetext_decode(p + i, len - i, &c, &bad);
		safetext_item(c, bad, flags, &it);
		w += it.width;
	}
	return w;
}

/* Width of the sanitised text, but stop counting once it exceeds limit. */
static int
safetext_width_upto(const unsigned char *p, size_t len, int flags, int limit)
{
	struct safetext_item	it;
	size_t		i, k;
	uint32_t	c;
	int		bad, w = 0;

	for (i = 0; i < len && w <= limit; i += k) {
		k = safetext_decode(p + i, len - i, &c, &bad);
		safetext_item(c, bad, flags, &it);
		w += it.width;
	}
	return w;
}

int
safetext_wcs(const char *s, size_t len, int flags, int maxw, wchar_t *out,
    size_t cap)
{
	const unsigned char	*p = (const unsigned char *)s;
	struct safetext_item		 it;
	size_t			 i, k, o = 0;
	uint32_t		 c;
	int			 bad, w = 0, limit, cut = 0, j;
	wchar_t			 ell;

	len = safetext_len(s, len);
	ell = (flags & ST_ASCII) ? L'~' : (wchar_t)0x2026;
	limit = maxw;
	if (maxw >= 0 && safetext_width_upto(p, len, flags, maxw) > maxw) {
		cut = 1;
		if ((flags & ST_ELLIPSIS) && maxw > 0)
			limit = maxw - 1;
	}
	for (i = 0; i < len; i += k) {
		k = safetext_decode(p + i, len - i, &c, &bad);
		safetext_item(c, bad, flags, &it);
		if (maxw >= 0 && w + it.width > limit)
			break;
		if (o + (size_t)it.n + 1 + ((flags & ST_ELLIPSIS) ? 1 : 0) >
		    cap) {
			/* Out of room: a truncation like any other. */
			cut = 1;
			break;
		}
		for (j = 0; j < it.n; j++)
			out[o++] = it.wc[j];
		w += it.width;
	}
	if (cut && (flags & ST_ELLIPSIS) && maxw != 0 && o + 2 <= cap) {
		out[o++] = ell;
		w++;
	}
	out[o] = L'\0';
	return w;
}

int
safetext_utf8(const char *s, size_t len, int flags, int maxw, char *out,
    size_t outlen)
{
	wchar_t		 wbuf[512];
	size_t		 i, o = 0, n;
	int		 w;
	uint32_t	 c;
	unsigned char	 b[4];

	/* Long inputs are cut at 511 wide characters; enough for one line. */
	w = safetext_wcs(s, len, flags, maxw, wbuf,
	    sizeof wbuf / sizeof wbuf[0]);
	for (i = 0; wbuf[i] != L'\0'; i++) {
		c = (uint32_t)wbuf[i];
		if (c < 0x80) {
			b[0] = (unsigned char)c;
			n = 1;
		} else if (c < 0x800) {
			b[0] = (unsigned char)(0xc0 | (c >> 6));
			b[1] = (unsigned char)(0x80 | (c & 0x3f));
			n = 2;
		} else if (c < 0x10000) {
			b[0] = (unsigned char)(0xe0 | (c >> 12));
			b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
			b[2] = (unsigned char)(0x80 | (c & 0x3f));
			n = 3;
		} else {
			b[0] = (unsigned char)(0xf0 | (c >> 18));
			b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
			b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
			b[3] = (unsigned char)(0x80 | (c & 0x3f));
			n = 4;
		}
		if (o + n + 1 > outlen)
			break;
		memcpy(out + o, b, n);
		o += n;
	}
	out[o] = '\0';
	return w;
}
