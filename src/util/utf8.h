/*
 * utf8: the one strict UTF-8 decoder (and encoder) every sanitiser and
 * writer uses, so that they all agree on what is valid.
 *
 * Valid means the shortest form of a Unicode scalar value: no overlong
 * forms, no surrogates (U+D800-U+DFFF), nothing above U+10FFFF, and no
 * sequence cut short by the end of the input.
 */
#ifndef GPULENS_UTF8_H
#define GPULENS_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decodes the character at s (n >= 1 bytes available). Returns its length
 * in bytes (1 to 4) and stores its code point in *cp, or returns 0, with
 * *cp untouched, when the bytes at s do not start a valid sequence.
 */
size_t	utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
/*
 * Writes code point cp (below U+110000) as UTF-8 into out, which has room
 * for 4 bytes; returns the number of bytes written.
 */
size_t	utf8_encode(uint32_t cp, unsigned char *out);
/* The code point of s if s is exactly one UTF-8 character, else -1. */
long	utf8_single(const char *s);
/*
 * The code points a terminal would act on or that reorder what it shows:
 * the C1 controls (U+0080-U+009F) and the bidirectional embeddings,
 * overrides and isolates (U+202A-U+202E, U+2066-U+2069).
 */
int	utf8_is_c1(uint32_t cp);
int	utf8_is_bidi(uint32_t cp);

#endif
