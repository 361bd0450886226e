/*
 * safetext: untrusted profile strings made safe and measurable for a
 * terminal.
 *
 * Kernel names, NVTX messages, thread and device names come from the
 * profiled program and may hold anything: escape sequences that would
 * reprogram the terminal, bidi overrides that reorder what is shown,
 * invalid UTF-8. Every string from the model goes through here before it is
 * drawn. The rules, applied per code point after a strict UTF-8 decode:
 *
 *   C0 controls and DEL		\xNN		(ESC is \x1b)
 *   C1 controls U+0080-U+009F	\u0080
 *   bidi controls (U+202A-202E, U+2066-2069, U+200E-200F, U+061C) and any
 *   other character of width <= 0 (combining, zero-width, unprintable)
 *					\uXXXX (\UXXXXXXXX above U+FFFF)
 *   invalid UTF-8 (bad lead byte, truncated or overlong sequence, surrogate,
 *   above U+10FFFF)		U+FFFD, one per bad byte
 *   ASCII mode: any other non-ASCII character, and U+FFFD	?
 *
 * Widths come from wcwidth(), so the caller must have set an UTF-8 locale
 * (LC_CTYPE) for the UTF-8 mode. Escapes are never split by truncation.
 */
#ifndef GPULENS_SAFETEXT_H
#define GPULENS_SAFETEXT_H

#include <stddef.h>
#include <wchar.h>

#define ST_ASCII	0x1	/* replace non-ASCII output by '?' */
#define ST_ELLIPSIS	0x2	/* mark truncation with an ellipsis */

/*
 * Converts len bytes of s (len (size_t)-1: up to the NUL) into at most maxw
 * columns (maxw < 0: unlimited) of displayable wide characters in out, which
 * holds cap entries including the terminating NUL (cap >= 1). When the text
 * does not fit, it is cut at a character boundary and, with ST_ELLIPSIS,
 * ends in an ellipsis ('~' in ASCII mode) within maxw. Returns the width in
 * columns of what was written.
 */
int	 safetext_wcs(const char *s, size_t len, int flags, int maxw,
	    wchar_t *out, size_t cap);
/* As safetext_wcs, writing UTF-8 into out (NUL-terminated, outlen >= 1). */
int	 safetext_utf8(const char *s, size_t len, int flags, int maxw,
	    char *out, size_t outlen);
/* Width in columns of the whole sanitised text, untruncated. */
int	 safetext_width(const char *s, size_t len, int flags);

#endif
