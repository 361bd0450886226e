/*
 * bytebuf_test: what bytebuf.h writes reads back field by field, in host
 * byte order at the sizes it states, and a read past the end gives zeros
 * and sets bad instead of reading beyond the bytes.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/bytebuf.h"

#include "tsupport.h"

static void
test_roundtrip(void **state)
{
	struct bytebuf		 b = BYTEBUF_INIT;
	struct bytebuf_rd	 r;
	uint32_t		 a[3] = { 7, 8, 9 }, *back;
	uint64_t		 v64 = UINT64_C(0x0102030405060708);
	char			*s;
	size_t			 n;

	(void)state;
	bytebuf_put8(&b, 0xab);
	bytebuf_put32(&b, 0xdeadbeef);
	bytebuf_put64(&b, v64);
	bytebuf_putdbl(&b, 2.5);
	bytebuf_putstr(&b, "AllReduce");
	bytebuf_putarray(&b, a, 3, sizeof *a);
	bytebuf_putarray(&b, NULL, 0, sizeof *a);
	assert_int_equal(b.len, 1 + 4 + 8 + 8 + 4 + 9 + 8 + 12 + 8);
	/* Host byte order, as memcpy gives it. */
	assert_memory_equal(b.p + 5, &v64, 8);

	bytebuf_rd_init(&r, b.p, b.len);
	assert_int_equal(bytebuf_get8(&r), 0xab);
	assert_int_equal(bytebuf_get32(&r), 0xdeadbeef);
	assert_true(bytebuf_get64(&r) == v64);
	assert_true(bytebuf_getdbl(&r) == 2.5);
	s = bytebuf_getstr(&r);
	assert_string_equal(s, "AllReduce");
	free(s);
	back = bytebuf_getarray(&r, &n, sizeof *back);
	assert_int_equal(n, 3);
	assert_int_equal(back[2], 9);
	free(back);
	assert_null(bytebuf_getarray(&r, &n, sizeof *back));
	assert_int_equal(n, 0);
	assert_false(r.bad);
	assert_int_equal(r.pos, r.len);
	bytebuf_free(&b);
	assert_null(b.p);
}

/*
 * Writes the count n and then 4 bytes into b and reads the count back for
 * elements of sz bytes: checks that it gives want and whether the reader
 * went bad.
 */
static void
check_count(struct bytebuf *b, uint64_t n, size_t sz, size_t want, int bad)
{
	struct bytebuf_rd	 r;

	b->len = 0;
	bytebuf_put64(b, n);
	bytebuf_put32(b, 1);
	bytebuf_rd_init(&r, b->p, b->len);
	assert_int_equal(bytebuf_getcount(&r, sz), want);
	assert_int_equal(r.bad != 0, bad);
}

static void
test_bounds(void **state)
{
	struct bytebuf		 b = BYTEBUF_INIT;
	struct bytebuf_rd	 r;
	char			*s;

	(void)state;
	bytebuf_put32(&b, 100);		/* a string of 100 bytes ... */
	bytebuf_put(&b, "abc", 3);	/* ... of which 3 are there */
	bytebuf_rd_init(&r, b.p, b.len);
	s = bytebuf_getstr(&r);
	assert_string_equal(s, "");
	free(s);
	assert_true(r.bad);
	/* Once bad, every read is zero and the cursor stays. */
	assert_int_equal(bytebuf_get8(&r), 0);
	assert_int_equal(bytebuf_get32(&r), 0);
	assert_null(bytebuf_get(&r, 0));

	/* A count that cannot fit what is left. */
	check_count(&b, 5, 4, 0, 1);
	check_count(&b, 5, 1, 0, 1);
	check_count(&b, 1, 4, 1, 0);
	bytebuf_free(&b);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_roundtrip),
	cmocka_unit_test(test_bounds))
