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
	/* Sizes in both styles: three significant digits, and the verbs'
	 * one decimal, in the same units. */
	static const struct {
		uint64_t	 n;
		const char	*sig, *verbs;
	} sizes[] = {
		{ 512, "512 B", "512 B" },
		{ 1536, "1.50 KiB", "1.5 KiB" },
		{ 64ULL << 20, "64.0 MiB", "64.0 MiB" },
		{ 600ULL << 20, "600 MiB", "600.0 MiB" },
		{ 3ULL << 60, "3072 PiB", "3072.0 PiB" },
	};
	char	b[64];
	size_t	i;

	assert_string_equal(fmt_time(b, sizeof b, 850), "850ns");
	assert_string_equal(fmt_time(b, sizeof b, 12345), "12.35us");
	assert_string_equal(fmt_time(b, sizeof b, 1234567), "1.235ms");
	assert_string_equal(fmt_time(b, sizeof b, 2500000000LL), "2.500s");
	assert_string_equal(fmt_time(b, sizeof b, -1500), "-1.500us");
	assert_string_equal(fmt_time_res(b, sizeof b, 1234567, 1000),
	    "1.235ms");
	for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		assert_string_equal(units_bytes_sig(sizes[i].n, b, sizeof b),
		    sizes[i].sig);
		assert_string_equal(units_bytes(sizes[i].n, b, sizeof b),
		    sizes[i].verbs);
	}
	assert_string_equal(units_rate(12.3e9, b, sizeof b), "12.3 GB/s");
	assert_string_equal(units_rate(500, b, sizeof b), "500 B/s");
	assert_string_equal(units_rate(5e15, b, sizeof b), "5000 TB/s");
	assert_string_equal(units_flops(1.4819e12, b, sizeof b),
	    "1.48 TFLOP/s");
	assert_string_equal(units_flops(2.5e8, b, sizeof b), "250 MFLOP/s");
	assert_string_equal(units_flops(0, b, sizeof b), "0.00 FLOP/s");
	assert_string_equal(fmt_when(b, sizeof b, 1500, 500, 0, 1),
	    "+1.000us");
	assert_string_equal(fmt_when(b, sizeof b, 1500, 500, 1, 1),
	    "@1.500us");
	assert_string_equal(fmt_when(b, sizeof b, 0, 500, 0, 1), "-500ns");
}

/* Checks that units_parse_dur() reads s as want ns. */
static void
dur_is(const char *s, int64_t want)
{
	int64_t	v;

	assert_int_equal(units_parse_dur(s, &v), 0);
	assert_int_equal(v, want);
}

static void
test_parse(void **state)
{
	int64_t	v;
	int	abs;

	dur_is("1500", 1500);
	dur_is("1.5us", 1500);
	dur_is("2ms", 2000000);
	dur_is("0.25s", 250000000);
	dur_is("1min", 60000000000LL);
	dur_is("9007199254740993", 9007199254740993LL);	/* exact */
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
