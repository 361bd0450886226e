/*
 * fmt_test: times, sizes and rates for people (tui/fmt.c), and the parsing
 * of times typed into the `g` and `f` prompts (the verbs' grammar).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/fmt.h"
#include "util/units.h"

#include "tsupport.h"

static void
test_format(void **state)
{
	char	b[64];

	assert_string_equal(fmt_time(b, sizeof b, 850), "850ns");
	assert_string_equal(fmt_time(b, sizeof b, 12345), "12.35us");
	assert_string_equal(fmt_time(b, sizeof b, 1234567), "1.235ms");
	assert_string_equal(fmt_time(b, sizeof b, 2500000000LL), "2.500s");
	assert_string_equal(fmt_time(b, sizeof b, -1500), "-1.500us");
	assert_string_equal(fmt_time_res(b, sizeof b, 1234567, 1000),
	    "1.235ms");
	assert_string_equal(units_bytes_sig(512, b, sizeof b), "512 B");
	assert_string_equal(units_bytes_sig(1536, b, sizeof b), "1.50 KiB");
	assert_string_equal(units_bytes_sig(64ULL << 20, b, sizeof b),
	    "64.0 MiB");
	assert_string_equal(units_bytes_sig(600ULL << 20, b, sizeof b),
	    "600 MiB");
	assert_string_equal(units_rate(12.3e9, b, sizeof b), "12.3 GB/s");
	assert_string_equal(units_rate(500, b, sizeof b), "500 B/s");
	assert_string_equal(units_rate(5e15, b, sizeof b), "5000 TB/s");
	/* The verbs' style: one decimal, the same units. */
	assert_string_equal(units_bytes(1536, b, sizeof b), "1.5 KiB");
	assert_string_equal(units_bytes(600ULL << 20, b, sizeof b),
	    "600.0 MiB");
	assert_string_equal(units_bytes(3ULL << 60, b, sizeof b),
	    "3072.0 PiB");
	assert_string_equal(fmt_when(b, sizeof b, 1500, 500, 0, 1),
	    "+1.000us");
	assert_string_equal(fmt_when(b, sizeof b, 1500, 500, 1, 1),
	    "@1.500us");
	assert_string_equal(fmt_when(b, sizeof b, 0, 500, 0, 1), "-500ns");
}

static void
test_parse(void **state)
{
	int64_t	v;
	int	abs;

	assert_int_equal(units_parse_dur("1500", &v), 0);
	assert_int_equal(v, 1500);
	assert_int_equal(units_parse_dur("1.5us", &v), 0);
	assert_int_equal(v, 1500);
	assert_int_equal(units_parse_dur("2ms", &v), 0);
	assert_int_equal(v, 2000000);
	assert_int_equal(units_parse_dur("0.25s", &v), 0);
	assert_int_equal(v, 250000000);
	assert_int_equal(units_parse_dur("1min", &v), 0);
	assert_int_equal(v, 60000000000LL);
	assert_int_equal(units_parse_dur("9007199254740993", &v), 0);
	assert_int_equal(v, 9007199254740993LL);	/* exact */
	assert_int_equal(units_parse_dur("1 ms", &v), -1);
	assert_int_equal(units_parse_dur("ms", &v), -1);
	assert_int_equal(units_parse_dur("1h", &v), -1);
	assert_int_equal(units_parse_dur("1e30s", &v), -1);
	assert_int_equal(units_parse_time(" 12ms ", &v, &abs), 0);
	assert_int_equal(v, 12000000);
	assert_int_equal(abs, 0);
	assert_int_equal(units_parse_time("@1.5s", &v, &abs), 0);
	assert_int_equal(v, 1500000000);
	assert_int_equal(abs, 1);
	assert_int_equal(units_parse_time("", &v, &abs), -1);
	assert_int_equal(units_parse_time("@", &v, &abs), -1);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_format),
	cmocka_unit_test(test_parse))
