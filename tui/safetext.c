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
#include "util/utf8.h"

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
	size_t	n;

	*bad = 0;
	if ((n = utf8_decode(s, avail, cp)) != 0)
		return n;
	*bad = 1;
	*cp = 0xfffd;
	return 1;
}

static int
safetext_is_bidi(uint32_t c)
{
	return utf8_is_bidi(c) || c == 0x200e || c == 0x200f || c == 0x061c;
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
	if (utf8_is_c1(c) || safetext_is_bidi(c)) {
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
	unsigned char	 b[4];

	/* Long inputs are cut at 511 wide characters; enough for one line. */
	w = safetext_wcs(s, len, flags, maxw, wbuf,
	    sizeof wbuf / sizeof wbuf[0]);
	for (i = 0; wbuf[i] != L'\0'; i++) {
		n = utf8_encode((uint32_t)wbuf[i], b);
		if (o + n + 1 > outlen)
			break;
		memcpy(out + o, b, n);
		o += n;
	}
	out[o] = '\0';
	return w;
}
