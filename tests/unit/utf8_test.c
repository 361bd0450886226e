/*
 * utf8_test: the one UTF-8 decoder. Every scalar value encodes and decodes
 * back; every 1-, 2- and 3-byte input decodes only to the shortest form of
 * a scalar value; the classic invalid forms (overlong, surrogate, above
 * U+10FFFF, truncated, stray continuation) are reported as 0.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/utf8.h"

#include "tsupport.h"

static void
test_cases(void **state)
{
	static const struct {
		const char	*s;
		size_t		 len;
		uint32_t	 cp;
	} t[] = {
		{ "A", 1, 'A' },
		{ "\x7f", 1, 0x7f },
		{ "\xc2\x80", 2, 0x80 },
		{ "\xc3\xa9", 2, 0xe9 },
		{ "\xdf\xbf", 2, 0x7ff },
		{ "\xe0\xa0\x80", 3, 0x800 },
		{ "\xe2\x80\xae", 3, 0x202e },
		{ "\xed\x9f\xbf", 3, 0xd7ff },
		{ "\xee\x80\x80", 3, 0xe000 },
		{ "\xef\xbf\xbf", 3, 0xffff },
		{ "\xf0\x90\x80\x80", 4, 0x10000 },
		{ "\xf0\x9f\x98\x80", 4, 0x1f600 },
		{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
		/* Invalid. */
		{ "\x80", 0, 0 },		/* stray continuation */
		{ "\xbf", 0, 0 },
		{ "\xc0\x80", 0, 0 },		/* overlong NUL */
		{ "\xc1\xbf", 0, 0 },
		{ "\xe0\x9f\xbf", 0, 0 },	/* overlong 3-byte */
		{ "\xed\xa0\x80", 0, 0 },	/* surrogate */
		{ "\xed\xbf\xbf", 0, 0 },
		{ "\xf0\x8f\xbf\xbf", 0, 0 },	/* overlong 4-byte */
		{ "\xf4\x90\x80\x80", 0, 0 },	/* above U+10FFFF */
		{ "\xf5\x80\x80\x80", 0, 0 },
		{ "\xff", 0, 0 },
		{ "\xc3(", 0, 0 },		/* bad continuation */
		{ "\xe2\x80(", 0, 0 },
		{ "\xf0\x9f\x98(", 0, 0 },
	};
	size_t		i, n;
	uint32_t	cp;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		cp = 0xdeadbeef;
		n = utf8_decode((const unsigned char *)t[i].s, strlen(t[i].s),
		    &cp);
		assert_int_equal(n, t[i].len);
		assert_int_equal(cp, n != 0 ? t[i].cp : 0xdeadbeef);
	}
	/* Cut short by the end of the input, even with bytes behind it. */
	assert_int_equal(utf8_decode((const unsigned char *)"\xc3\xa9", 1,
	    &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xe2\x80\xae", 2,
	    &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80",
	    3, &cp), 0);
	/* A NUL is a character of its own. */
	assert_int_equal(utf8_decode((const unsigned char *)"", 1, &cp), 1);
	assert_int_equal(cp, 0);
}

static void
test_roundtrip(void **state)
{
	unsigned char	b[4];
	uint32_t	c, cp;
	size_t		n;

	(void)state;
	for (c = 0; c < 0x110000; c++) {
		n = utf8_encode(c, b);
		assert_int_equal(n, c < 0x80 ? 1 : c < 0x800 ? 2 :
		    c < 0x10000 ? 3 : 4);
		cp = 0xdeadbeef;
		if (c >= 0xd800 && c <= 0xdfff) {
			assert_int_equal(utf8_decode(b, n, &cp), 0);
			continue;
		}
		assert_int_equal(utf8_decode(b, n, &cp), n);
		assert_int_equal(cp, c);
	}
}

/* Every input of up to three bytes decodes only to a shortest form. */
static void
test_exhaustive(void **state)
{
	unsigned char	b[3], e[4];
	uint32_t	x, cp;
	size_t		n;

	(void)state;
	for (x = 0; x < (1u << 24); x++) {
		b[0] = (unsigned char)(x >> 16);
		b[1] = (unsigned char)(x >> 8);
		b[2] = (unsigned char)x;
		if ((n = utf8_decode(b, 3, &cp)) == 0) {
			assert_true(b[0] >= 0x80);
			continue;
		}
		assert_true(n <= 3);
		assert_false(cp >= 0xd800 && cp <= 0xdfff);
		assert_int_equal(utf8_encode(cp, e), n);
		if (memcmp(e, b, n) != 0)
			fail_msg("%02x %02x %02x decoded to U+%04X", b[0],
			    b[1], b[2], (unsigned)cp);
	}
}

static void
test_classes(void **state)
{
	(void)state;
	assert_false(utf8_is_c1(0x7f));
	assert_true(utf8_is_c1(0x80));
	assert_true(utf8_is_c1(0x9b));
	assert_true(utf8_is_c1(0x9f));
	assert_false(utf8_is_c1(0xa0));
	assert_false(utf8_is_bidi(0x2029));
	assert_true(utf8_is_bidi(0x202a));
	assert_true(utf8_is_bidi(0x202e));
	assert_false(utf8_is_bidi(0x202f));
	assert_false(utf8_is_bidi(0x2065));
	assert_true(utf8_is_bidi(0x2066));
	assert_true(utf8_is_bidi(0x2069));
	assert_false(utf8_is_bidi(0x206a));
}

/* utf8_single: exactly one character, else -1. */
static void
test_single(void **state)
{
	(void)state;
	assert_int_equal(utf8_single("a"), 'a');
	assert_int_equal(utf8_single("\xc3\xa9"), 0xe9);
	assert_int_equal(utf8_single("\xe2\x82\xac"), 0x20ac);
	assert_int_equal(utf8_single("\xf0\x9f\x98\x80"), 0x1f600);
	assert_int_equal(utf8_single(""), -1);
	assert_int_equal(utf8_single("ab"), -1);
	assert_int_equal(utf8_single("\xc3\xa9x"), -1);
	assert_int_equal(utf8_single("\xc3"), -1);		/* cut */
	assert_int_equal(utf8_single("\xc0\xaf"), -1);	/* overlong */
	assert_int_equal(utf8_single("\xed\xa0\x80"), -1);	/* surrogate */
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_cases),
	cmocka_unit_test(test_roundtrip),
	cmocka_unit_test(test_exhaustive),
	cmocka_unit_test(test_classes),
	cmocka_unit_test(test_single))
