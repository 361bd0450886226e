/*
 * strpool_test: interning, ids, growth, and the uint64 hash map.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/hmap.h"
#include "util/strpool.h"
#include "util/units.h"

#include "tsupport.h"

static void
test_empty_is_zero(void **state)
{
	struct strpool	*sp = strpool_new();

	(void)state;
	assert_int_equal(strpool_count(sp), 1);
	assert_string_equal(strpool_get(sp, 0), "");
	assert_int_equal(strpool_intern(sp, "", 0), 0);
	assert_int_equal(strpool_intern0(sp, NULL), 0);
	assert_string_equal(strpool_get(sp, 12345), "");
	strpool_free(sp);
}

static void
test_intern_dedup(void **state)
{
	struct strpool	*sp = strpool_new();
	uint32_t	 a, b, c;

	(void)state;
	a = strpool_intern0(sp, "ncclDevKernel_AllReduce");
	b = strpool_intern0(sp, "gemm");
	c = strpool_intern0(sp, "ncclDevKernel_AllReduce");
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(a, c);
	assert_string_equal(strpool_get(sp, b), "gemm");
	assert_int_equal(strpool_len(sp, a), 23);
	assert_int_equal(strpool_find(sp, "gemm", 4), b);
	assert_int_equal(strpool_find(sp, "gem", 3), UINT32_MAX);
	/* Embedded bytes and prefixes are distinct strings. */
	assert_int_not_equal(strpool_intern(sp, "gemm", 3), b);
	strpool_free(sp);
}

static void
test_many_strings_and_long(void **state)
{
	struct strpool	*sp = strpool_new();
	char		 buf[64], *big;
	uint32_t	 i, id;
	const uint32_t	 n = 200000;

	(void)state;
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof buf, "kernel_%u", i);
		assert_int_equal(strpool_intern0(sp, buf), i + 1);
	}
	for (i = 0; i < n; i += 997) {
		snprintf(buf, sizeof buf, "kernel_%u", i);
		assert_string_equal(strpool_get(sp, i + 1), buf);
		assert_int_equal(strpool_intern0(sp, buf), i + 1);
	}
	/* A string as large as a chunk gets its own chunk; a longer one
	 * is cut to STRPOOL_MAX_LEN (once a 100 MB name cost gigabytes in
	 * the verbs' tables), and found again by the same long string. */
	big = malloc(3u << 20);
	memset(big, 'x', 3u << 20);
	assert_int_equal(strpool_ncut(sp), 0);
	id = strpool_intern(sp, big, 3u << 20);
	assert_int_equal(strpool_len(sp, id), STRPOOL_MAX_LEN);
	assert_memory_equal(strpool_get(sp, id), big, STRPOOL_MAX_LEN);
	assert_int_equal(strpool_get(sp, id)[STRPOOL_MAX_LEN], '\0');
	assert_int_equal(strpool_ncut(sp), 1);
	assert_int_equal(strpool_find(sp, big, 3u << 20), id);
	assert_int_equal(strpool_intern(sp, big, STRPOOL_MAX_LEN), id);
	assert_string_equal(strpool_get(sp, 1), "kernel_0");
	/* The cut never splits a UTF-8 character: "\xc3\xa9" straddling
	 * the bound goes whole. */
	big[STRPOOL_MAX_LEN - 1] = (char)0xc3;
	big[STRPOOL_MAX_LEN] = (char)0xa9;
	id = strpool_intern(sp, big, (2u << 20));
	assert_int_equal(strpool_len(sp, id), STRPOOL_MAX_LEN - 1);
	assert_int_equal(strpool_ncut(sp), 2);
	free(big);
	strpool_free(sp);
}

static void
test_hmap(void **state)
{
	struct hmap	h;
	uint32_t	v, *p;
	uint64_t	i;
	int		isnew;

	(void)state;
	hmap_init(&h);
	assert_false(hmap_get(&h, 7, &v));
	for (i = 0; i < 100000; i++)
		hmap_put(&h, i * 0x1000000ULL + 0xFF00000000000000ULL,
		    (uint32_t)i);
	assert_int_equal(h.n, 100000);
	for (i = 0; i < 100000; i += 7) {
		assert_true(hmap_get(&h, i * 0x1000000ULL +
		    0xFF00000000000000ULL, &v));
		assert_int_equal(v, i);
	}
	assert_false(hmap_get(&h, 5, &v));
	p = hmap_upsert(&h, 5, 99, &isnew);
	assert_true(isnew);
	assert_int_equal(*p, 99);
	p = hmap_upsert(&h, 5, 1, &isnew);
	assert_false(isnew);
	assert_int_equal(*p, 99);
	assert_int_not_equal(hmap_key2(1, 2), hmap_key2(2, 1));
	hmap_free(&h);
}

static void
test_units(void **state)
{
	char	b[64];

	(void)state;
	assert_string_equal(units_dur(950, b, sizeof b), "950 ns");
	assert_string_equal(units_dur(12345, b, sizeof b), "12.345 us");
	assert_string_equal(units_dur(-1500000, b, sizeof b), "-1.500 ms");
	assert_string_equal(units_dur(2000000000, b, sizeof b), "2.000 s");
	assert_string_equal(units_bytes(512, b, sizeof b), "512 B");
	assert_string_equal(units_bytes(1536, b, sizeof b), "1.5 KiB");
	assert_string_equal(units_count(1234567, b, sizeof b), "1,234,567");
	assert_string_equal(units_count(12, b, sizeof b), "12");
	assert_string_equal(units_count(123456, b, sizeof b), "123,456");
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_empty_is_zero),
	cmocka_unit_test(test_intern_dedup),
	cmocka_unit_test(test_many_strings_and_long),
	cmocka_unit_test(test_hmap),
	cmocka_unit_test(test_units))
