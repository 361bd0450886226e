/*
 * sanitize: makes untrusted profile strings (kernel names, NVTX text,
 * process names) safe to show on a terminal.
 *
 * Control characters (C0, DEL, C1), which start escape sequences or move the
 * cursor, become visible escapes: ESC -> "\x1b", BEL -> "\x07", U+009B ->
 * "\u009b". Bidirectional overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), which reorder what the user sees, become "\u202e" etc.
 * Bytes that are not valid UTF-8 become "\xNN". In ASCII mode every other
 * non-ASCII character becomes "?". The result is valid UTF-8 (or ASCII)
 * with no control characters.
 */
#ifndef GPULENS_SANITIZE_H
#define GPULENS_SANITIZE_H

#include <stddef.h>
#include <stdio.h>

/* Returns a sanitised copy (caller frees). */
char	*sanitize_dup(const char *s, int ascii);
/* Sanitises into buf (always NUL-terminated; truncated at a character
 * boundary). Returns the length written. */
size_t	 sanitize_buf(const char *s, int ascii, char *buf, size_t len);
/* Whether s is valid UTF-8 (no overlong forms, surrogates or values
 * above U+10FFFF). */
int	 sanitize_utf8_valid(const char *s);
/* A copy of s with every byte that is not valid UTF-8 replaced by U+FFFD,
 * everything else unchanged (for JSON, which must be UTF-8). Caller frees. */
char	*sanitize_utf8_dup(const char *s);
/*
 * Writes the JSON text s (valid UTF-8) to f with DEL, the C1 controls and
 * the bidi overrides written as \uXXXX escapes: the same JSON values, but
 * no byte a terminal would act on (JSON writers escape C0 already). Only
 * strings can hold such characters, so escaping them is always valid.
 */
void	 sanitize_json_fputs(const char *s, FILE *);
/* Sanitised copy in one of 8 rotating static buffers of 4 KiB (for
 * printf arguments; truncated beyond that). Not thread-safe. */
const char *sanitize_tmp(const char *s);
/*
 * Prints a message to f sanitised as a whole (the one way every error,
 * warning and cause string reaches a terminal): the printf-formatted text
 * is run through sanitize_buf, so profile strings quoted in it cannot put
 * escapes on the screen, then a newline is written. Use it at the point of
 * printing, so that causes built anywhere stay raw for JSON.
 */
void	 sanitize_msg(FILE *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Writes s to f sanitised (no newline); s may be NULL (nothing). */
void	 sanitize_fputs(const char *s, FILE *);
/* Display width in terminal columns of a sanitised string. */
size_t	 sanitize_width(const char *safe);
/* Byte length of the longest prefix of safe that fits in cols columns. */
size_t	 sanitize_fit(const char *safe, size_t cols);
/*
 * Prints a sanitised cell padded to width columns (right-aligned when
 * right), cut with "~" when too wide, then two spaces, or a newline when
 * last.
 */
void	 sanitize_print_cell(FILE *, const char *safe, size_t width,
	    int right, int last);

#endif
