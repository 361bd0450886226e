/*
 * jsonw_test: the streaming JSON writers: escapes, invalid UTF-8, valid
 * multi-byte text kept as it is, exact microseconds with three decimals
 * (negative values and INT64_MIN included), integers and non-finite
 * doubles; every string written must parse back with cJSON.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "tsupport.h"
#include "util/jsonw.h"

/* What fn wrote, as a string (caller frees). */
static char *
capture_str(const char *s, size_t len)
{
	FILE	*fp = tmpfile();

	assert_non_null(fp);
	jsonw_strn(fp, s, len);
	return ts_read_fp(fp);
}

static char *
capture_us(int64_t ns)
{
	FILE	*fp = tmpfile();

	assert_non_null(fp);
	jsonw_us(fp, ns);
	return ts_read_fp(fp);
}

static void
expect_str(const char *in, size_t len, const char *want)
{
	char	*got = capture_str(in, len);
	cJSON	*j;

	assert_string_equal(got, want);
	j = cJSON_Parse(got);
	assert_non_null(j);
	assert_true(cJSON_IsString(j));
	cJSON_Delete(j);
	free(got);
}

static void
test_escapes(void **state)
{
	(void)state;
	expect_str("plain", 5, "\"plain\"");
	expect_str("", 0, "\"\"");
	expect_str("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	expect_str("x\ny\tz\r", 6, "\"x\\ny\\tz\\r\"");
	expect_str("\x1b[31m", 5, "\"\\u001b[31m\"");
	expect_str("del\x7f", 4, "\"del\\u007f\"");
	/* Embedded NUL with an explicit length. */
	expect_str("a\0b", 3, "\"a\\u0000b\"");
}

static void
test_utf8(void **state)
{
	char	*got;
	cJSON	*j;

	(void)state;
	/* Valid multi-byte text passes through. */
	expect_str("\xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80", 14,
	    "\"\xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80\"");
	/* Invalid bytes become \u00XX: a lone continuation, a truncated
	 * sequence, an overlong form, a surrogate, 0xff. */
	expect_str("a\x80z", 3, "\"a\\u0080z\"");
	expect_str("\xe2\x86", 2, "\"\\u00e2\\u0086\"");
	expect_str("\xc0\xaf", 2, "\"\\u00c0\\u00af\"");
	expect_str("\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"");
	expect_str("\xff", 1, "\"\\u00ff\"");
	/* C1 controls and bidi overrides are valid, but escaped: they would
	 * act on a terminal showing the JSON (export --to perfetto). */
	expect_str("a\xc2\x9b" "1m", 5, "\"a\\u009b1m\"");
	expect_str("\xe2\x80\xae" "evil", 7, "\"\\u202eevil\"");
	expect_str("\xe2\x81\xa6" "x\xe2\x81\xa9", 7,
	    "\"\\u2066x\\u2069\"");
	/* Their neighbours pass: U+00A0, U+202F. */
	expect_str("\xc2\xa0\xe2\x80\xaf", 5, "\"\xc2\xa0\xe2\x80\xaf\"");
	/* A sequence cut short by the end of the string. */
	expect_str("ok\xf0\x9f\x9a", 5, "\"ok\\u00f0\\u009f\\u009a\"");
	/* The Latin-1 reading round-trips through a JSON parser. */
	got = capture_str("\xe9", 1);
	j = cJSON_Parse(got);
	assert_string_equal(j->valuestring, "\xc3\xa9");
	cJSON_Delete(j);
	free(got);
}

static void
test_us(void **state)
{
	static const struct {
		int64_t		 ns;
		const char	*want;
	} cases[] = {
		{ 0, "0.000" },
		{ 1, "0.001" },
		{ 999, "0.999" },
		{ 1000, "1.000" },
		{ 1234567, "1234.567" },
		{ -1, "-0.001" },
		{ -1500, "-1.500" },
		{ INT64_MAX, "9223372036854775.807" },
		{ INT64_MIN, "-9223372036854775.808" },
	};
	size_t	i;
	char	*got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = capture_us(cases[i].ns);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void
test_numbers(void **state)
{
	FILE	*fp = tmpfile();
	char	 buf[256];
	size_t	 n;

	(void)state;
	jsonw_int(fp, INT64_MIN);
	fputc(' ', fp);
	jsonw_uint(fp, UINT64_MAX);
	fputc(' ', fp);
	jsonw_num(fp, 0.5);
	fputc(' ', fp);
	jsonw_num(fp, NAN);
	fputc(' ', fp);
	jsonw_num(fp, INFINITY);
	fputc(' ', fp);
	jsonw_str(fp, NULL);
	fflush(fp);
	rewind(fp);
	n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	assert_string_equal(buf, "-9223372036854775808 18446744073709551615 "
	    "0.5 null null \"\"");
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_escapes),
	cmocka_unit_test(test_utf8),
	cmocka_unit_test(test_us),
	cmocka_unit_test(test_numbers))
