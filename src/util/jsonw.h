/*
 * jsonw: small streaming JSON writers for output too large to hold as a
 * cJSON tree (export writes millions of events as it goes).
 *
 * Every function writes to a stdio stream and allocates nothing; callers
 * check ferror() once at the end.
 */
#ifndef GPULENS_JSONW_H
#define GPULENS_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Writes s (len bytes) as a JSON string literal, quotes included: '"',
 * '\\' and control characters are escaped (\n, \t, ... or \u00XX), and so
 * is DEL; a byte that is not part of valid UTF-8 becomes \u00XX (its
 * Latin-1 reading), so the result is valid JSON and valid UTF-8 whatever
 * the input.
 */
void	 jsonw_strn(FILE *, const char *s, size_t len);
/* As jsonw_strn for a NUL-terminated string (NULL writes ""). */
void	 jsonw_str(FILE *, const char *s);
/* Writes a signed / unsigned 64-bit integer exactly. */
void	 jsonw_int(FILE *, int64_t);
void	 jsonw_uint(FILE *, uint64_t);
/* Writes a double with 17 significant digits, or null if not finite. */
void	 jsonw_num(FILE *, double);
/* Writes ns nanoseconds as microseconds with exactly three decimals
 * ("1234.567", "-0.001"): the exact value, no rounding. */
void	 jsonw_us(FILE *, int64_t ns);

#endif
