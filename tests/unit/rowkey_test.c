/*
 * rowkey_test: row keys follow the one grammar (util/rowkey.h): a kind,
 * then field=value parts; '|', '%' and control bytes in a value are
 * escaped, and reading a field gives the value back.
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

#include "util/rowkey.h"

#include "tsupport.h"

static void
test_build(void **state)
{
	char	*k, buf[16];
	size_t	 o;

	(void)state;
	k = rowkey("ev", "id=%u", 42u);
	assert_string_equal(k, "ev|id=42");
	free(k);
	k = rowkey("launch", NULL);
	assert_string_equal(k, "launch");
	free(k);
	k = rowkey("gap", "device=%u|start=%lld|n=%zu", 3u, -5LL, (size_t)7);
	assert_string_equal(k, "gap|device=3|start=-5|n=7");
	free(k);
	/* A value holding the separators, '=' and a newline. */
	k = rowkey("range", "domain=%s|path=%s", "a|b", "x = 1%\n");
	assert_string_equal(k, "range|domain=a%7Cb|path=x = 1%25%0A");
	assert_true(rowkey_valid(k));
	free(k);
	/* Truncated into a small buffer. */
	assert_string_equal(rowkey_buf(buf, sizeof buf, "kernel", "name=%s",
	    "abcdefghijklmnop"), "kernel|name=abc");
	/* Parts appended to a buffer. */
	o = (size_t)snprintf(buf, sizeof buf, "kernel");
	rowkey_part(buf, sizeof buf, &o, "n", "a|b");
	assert_string_equal(buf, "kernel|n=a%7Cb");
}

static void
test_read(void **state)
{
	char	*v;

	(void)state;
	v = rowkey_get("range|domain=a%7Cb|path=x = 1%25%0A", "path");
	assert_string_equal(v, "x = 1%\n");
	free(v);
	v = rowkey_get("range|domain=|path=p", "domain");
	assert_string_equal(v, "");
	free(v);
	assert_null(rowkey_get("range|domain=a", "path"));
	assert_null(rowkey_get("ev:5", "id"));
	assert_true(rowkey_is("ev|id=5", "ev"));
	assert_false(rowkey_is("event|id=5", "ev"));
	assert_true(rowkey_is("launch", "launch"));
}

static void
test_valid(void **state)
{
	(void)state;
	assert_true(rowkey_valid("kernel"));
	assert_true(rowkey_valid("comm|kind=kernel|collective=All Reduce"));
	assert_true(rowkey_valid("nvtx|path=aten::mm, seq = 47317"));
	assert_false(rowkey_valid(""));
	assert_false(rowkey_valid("ev:5"));
	assert_false(rowkey_valid("|ProfilerStep#*"));
	assert_false(rowkey_valid("type=straggler"));
	assert_false(rowkey_valid("gpu|device"));
	assert_false(rowkey_valid("gpu|device=1|"));
	assert_false(rowkey_valid("k|v=50%"));
	assert_false(rowkey_valid("k|v=a\tb"));
	assert_false(rowkey_valid("Kernel|name=x"));
}

static void
test_parse_id(void **state)
{
	static const struct {
		const char	*arg, *kind;
		int		 rc;
		uint32_t	 id;	/* when rc is 0 */
	} cases[] = {
		{ "ev|id=42", "ev", 0, 42 },
		{ "launch:3", "launch", 0, 3 },
		{ "0", "ev", 0, 0 },
		{ "4294967294", "ev", 0, 4294967294u },
		{ "4294967295", "ev", -1, 0 },
		{ "99999999999999999999", "ev", -1, 0 },
		{ "launch|id=1", "ev", -1, 0 },
		{ "ev:", "ev", -1, 0 },
		{ "ev:1x", "ev", -1, 0 },
		{ "-1", "ev", -1, 0 },
		{ "", "ev", -1, 0 },
	};
	uint32_t	id;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		id = 7;
		assert_int_equal(rowkey_parse_id(cases[i].arg, cases[i].kind,
		    &id), cases[i].rc);
		assert_int_equal(id, cases[i].rc == 0 ? cases[i].id : 7);
	}
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_build),
	cmocka_unit_test(test_read),
	cmocka_unit_test(test_valid),
	cmocka_unit_test(test_parse_id))
