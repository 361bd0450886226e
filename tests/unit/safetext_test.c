/*
 * safetext_test: untrusted strings made displayable (tui/safetext.c):
 * escape sequences, C1 controls, bidi overrides, invalid UTF-8, ASCII mode
 * and width-aware truncation, plus a randomised check of the invariants
 * against an independent computation of the output's width.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "tui/safetext.h"
#include "tsupport.h"

static int have_utf8;

static void
need_utf8(void)
{
	if (!have_utf8)
		skip();
}

/* Sanitises s (NUL-terminated) and checks the output and width. */
static void
check(const char *s, int flags, int maxw, const wchar_t *want, int wantw)
{
	wchar_t	out[256];
	int	w;

	w = safetext_wcs(s, (size_t)-1, flags, maxw, out, 256);
	if (wcscmp(out, want) != 0)
		fail_msg("input \"%s\": got \"%ls\", want \"%ls\"", s, out,
		    want);
	assert_int_equal(w, wantw);
}

static void
test_plain(void **state)
{
	check("hello", 0, -1, L"hello", 5);
	check("", 0, -1, L"", 0);
	check("a b\\c", 0, -1, L"a b\\c", 5);
}

static void
test_escape_sequences(void **state)
{
	/* CSI colour: ESC becomes visible, the rest is harmless text. */
	check("a\x1b[31mb", 0, -1, L"a\\x1b[31mb", 10);
	/* OSC title set with BEL terminator. */
	check("\x1b]0;pwned\x07", 0, -1, L"\\x1b]0;pwned\\x07", 16);
	/* Other C0 controls and DEL. */
	check("x\ty\nz\r\x7f", 0, -1, L"x\\x09y\\x0az\\x0d\\x7f", 19);
	check("\x01", ST_ASCII, -1, L"\\x01", 4);
}

static void
test_c1_controls(void **state)
{
	/* U+009B is a one-character CSI on some terminals. */
	check("\xc2\x9b" "31m", 0, -1, L"\\u009b31m", 9);
	check("\xc2\x80\xc2\x9f", ST_ASCII, -1, L"\\u0080\\u009f", 12);
	/* A raw 0x9b byte is invalid UTF-8, not a C1 control. */
	check("\x9b", ST_ASCII, -1, L"?", 1);
}

static void
test_bidi(void **state)
{
	check("abc\xe2\x80\xae" "def", 0, -1, L"abc\\u202edef", 12);
	check("\xe2\x80\xaa\xe2\x80\xad", 0, -1, L"\\u202a\\u202d", 12);
	check("\xe2\x81\xa6x\xe2\x81\xa9", 0, -1, L"\\u2066x\\u2069", 13);
	check("\xe2\x80\x8f", ST_ASCII, -1, L"\\u200f", 6);
}

static void
test_invalid_utf8(void **state)
{
	need_utf8();
	check("\xff", 0, -1, L"\xfffd", 1);
	check("a\xc3", 0, -1, L"a\xfffd", 2);		/* truncated */
	check("\xc0\xaf", 0, -1, L"\xfffd\xfffd", 2);	/* overlong */
	check("\xe0\x80\xaf", 0, -1, L"\xfffd\xfffd\xfffd", 3);
	check("\xed\xa0\x80", 0, -1, L"\xfffd\xfffd\xfffd", 3); /* surrogate */
	check("\xf4\x90\x80\x80", 0, -1, L"\xfffd\xfffd\xfffd\xfffd", 4);
	check("\xe2\x82", 0, -1, L"\xfffd\xfffd", 2);
	check("\xff" "ok", ST_ASCII, -1, L"?ok", 3);
}

static void
test_valid_unicode(void **state)
{
	need_utf8();
	check("caf\xc3\xa9", 0, -1, L"caf\xe9", 4);
	check("\xe6\x97\xa5\xe6\x9c\xac", 0, -1, L"\x65e5\x672c", 4);
	check("\xf0\x9f\x98\x80", 0, -1, L"\x1f600", 2);	/* emoji */
	/* Combining and zero-width characters are shown as escapes. */
	check("e\xcc\x81", 0, -1, L"e\\u0301", 7);
	check("a\xe2\x80\x8b" "b", 0, -1, L"a\\u200bb", 8);
}

static void
test_ascii_mode(void **state)
{
	check("caf\xc3\xa9", ST_ASCII, -1, L"caf?", 4);
	check("\xe6\x97\xa5\xe6\x9c\xac", ST_ASCII, -1, L"??", 2);
	check("abcdefgh", ST_ASCII | ST_ELLIPSIS, 5, L"abcd~", 5);
}

static void
test_truncation(void **state)
{
	check("abcdefgh", 0, 5, L"abcde", 5);
	check("abcdefgh", ST_ELLIPSIS, 5, L"abcd\x2026", 5);
	check("abcde", ST_ELLIPSIS, 5, L"abcde", 5);	/* fits exactly */
	check("abcdef", ST_ELLIPSIS | ST_ASCII, 0, L"", 0);
	check("abcdef", ST_ELLIPSIS | ST_ASCII, 1, L"~", 1);
	/* An escape is never split: "ab" + "\x1b" needs 6 columns. */
	check("ab\x1b", ST_ASCII | ST_ELLIPSIS, 5, L"ab~", 3);
	check("ab\x1b", ST_ASCII, 5, L"ab", 2);
}

static void
test_truncation_wide(void **state)
{
	/* Three characters of two columns each. */
	const char	*s = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e";

	need_utf8();
	check(s, 0, -1, L"\x65e5\x672c\x8a9e", 6);
	check(s, ST_ELLIPSIS, 6, L"\x65e5\x672c\x8a9e", 6);
	check(s, ST_ELLIPSIS, 5, L"\x65e5\x672c\x2026", 5);
	check(s, ST_ELLIPSIS, 4, L"\x65e5\x2026", 3);
	check(s, 0, 4, L"\x65e5\x672c", 4);
	check(s, 0, 3, L"\x65e5", 2);
	check(s, 0, 1, L"", 0);
	assert_int_equal(safetext_width(s, (size_t)-1, 0), 6);
	assert_int_equal(safetext_width(s, (size_t)-1, ST_ASCII), 3);
}

static void
test_small_buffer(void **state)
{
	wchar_t	out[4];
	int	w;

	w = safetext_wcs("abcdefgh", (size_t)-1, ST_ASCII | ST_ELLIPSIS, -1,
	    out, 4);
	assert_true(wcscmp(out, L"ab~") == 0);
	assert_int_equal(w, 3);
	w = safetext_wcs("abcdefgh", (size_t)-1, ST_ASCII, -1, out, 4);
	assert_true(wcscmp(out, L"abc") == 0);
	assert_int_equal(w, 3);
}

static void
test_length_argument(void **state)
{
	wchar_t	out[32];

	/* Only len bytes are read, even past a NUL-free prefix. */
	safetext_wcs("abc\x1b" "def", 4, 0, -1, out, 32);
	assert_true(wcscmp(out, L"abc\\x1b") == 0);
	assert_int_equal(safetext_width("abcdef", 2, 0), 2);
}

static void
test_utf8_output(void **state)
{
	char	out[64];
	int	w;

	w = safetext_utf8("a\x1b" "b", (size_t)-1, 0, -1, out, sizeof out);
	assert_string_equal(out, "a\\x1bb");
	assert_int_equal(w, 6);
	w = safetext_utf8("abcdefgh", (size_t)-1, ST_ASCII | ST_ELLIPSIS, 4,
	    out, sizeof out);
	assert_string_equal(out, "abc~");
	assert_int_equal(w, 4);
	if (!have_utf8)
		return;
	w = safetext_utf8("caf\xc3\xa9\xe2\x80\xae", (size_t)-1, 0, -1, out,
	    sizeof out);
	assert_string_equal(out, "caf\xc3\xa9\\u202e");
	assert_int_equal(w, 10);
	/* Output buffer too small: cut at a character boundary. */
	safetext_utf8("\xc3\xa9\xc3\xa9", (size_t)-1, 0, -1, out, 4);
	assert_string_equal(out, "\xc3\xa9");
}

/*
 * Random bytes: the output never holds a control, C1, bidi or zero-width
 * character, its width (recomputed with wcwidth) is what was returned and
 * at most maxw, and ASCII mode yields ASCII only.
 */
static void
test_random_invariants(void **state)
{
	static const unsigned char alphabet[] = {
	    'a', 'Z', ' ', 0x1b, 0x07, 0x7f, 0xc2, 0x9b, 0x80, 0xe2, 0x80,
	    0xae, 0xa6, 0x81, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0x98, 0xcc, 0xff,
	    0xc3, 0xa9, 0xed, 0xa0, 0x0a };
	char		in[40];
	wchar_t		out[256];
	unsigned int	seed = 7;
	int		iter, n, i, w, sum, maxw, flags, cw;

	for (iter = 0; iter < 20000; iter++) {
		seed = seed * 1103515245u + 12345u;
		n = (int)((seed >> 16) % 39);
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			in[i] = (char)alphabet[(seed >> 16) % sizeof alphabet];
		}
		in[n] = '\0';
		maxw = (int)((seed >> 8) % 30) - 1;
		flags = (int)((seed >> 4) & 3);
		if (!have_utf8)
			flags |= ST_ASCII;
		w = safetext_wcs(in, (size_t)n, flags, maxw, out, 256);
		sum = 0;
		for (i = 0; out[i] != L'\0'; i++) {
			wchar_t c = out[i];

			assert_false(c < 0x20 || (c >= 0x7f && c <= 0x9f));
			assert_false((c >= 0x202a && c <= 0x202e) ||
			    (c >= 0x2066 && c <= 0x2069));
			if (flags & ST_ASCII)
				assert_true(c < 0x7f);
			cw = c < 0x7f ? 1 : wcwidth(c);
			assert_true(cw >= 1);
			sum += cw;
		}
		assert_int_equal(w, sum);
		if (maxw >= 0)
			assert_true(w <= maxw);
		else
			assert_int_equal(w, safetext_width(in, (size_t)n,
			    flags));
	}
}

/* The group setup: a UTF-8 locale where there is one (the tests that
 * need it skip without). */
static int
setup(void **state)
{
	(void)state;
	have_utf8 = setlocale(LC_CTYPE, "C.UTF-8") != NULL ||
	    setlocale(LC_CTYPE, "en_US.UTF-8") != NULL;
	return 0;
}

TS_MAIN(setup, NULL,
	cmocka_unit_test(test_plain),
	cmocka_unit_test(test_escape_sequences),
	cmocka_unit_test(test_c1_controls),
	cmocka_unit_test(test_bidi),
	cmocka_unit_test(test_invalid_utf8),
	cmocka_unit_test(test_valid_unicode),
	cmocka_unit_test(test_ascii_mode),
	cmocka_unit_test(test_truncation),
	cmocka_unit_test(test_truncation_wide),
	cmocka_unit_test(test_small_buffer),
	cmocka_unit_test(test_length_argument),
	cmocka_unit_test(test_utf8_output),
	cmocka_unit_test(test_random_invariants))
