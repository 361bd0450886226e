/*
 * utf8: strict UTF-8 decoding and encoding. See utf8.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/utf8.h"

size_t
utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t	c, min;
	size_t		len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

size_t
utf8_encode(uint32_t c, unsigned char *b)
{
	if (c < 0x80) {
		b[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		b[0] = (unsigned char)(0xc0 | (c >> 6));
		b[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		b[0] = (unsigned char)(0xe0 | (c >> 12));
		b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	b[0] = (unsigned char)(0xf0 | (c >> 18));
	b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
	b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
	b[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

int
utf8_is_c1(uint32_t c)
{
	return c >= 0x80 && c <= 0x9f;
}

int
utf8_is_bidi(uint32_t c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

long
utf8_single(const char *s)
{
	size_t		n = strlen(s), len;
	uint32_t	c;

	if (n == 0 || (len = utf8_decode((const unsigned char *)s, n,
	    &c)) != n)
		return -1;
	return (long)c;
}
