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

/* Checks that the string k (freed here) is want. */
static void
key_is(char *k, const char *want)
{
	assert_non_null(k);
	assert_string_equal(k, want);
	free(k);
}

static void
test_build(void **state)
{
	char	*k, buf[16];
	size_t	 o;

	(void)state;
	key_is(rowkey("ev", "id=%u", 42u), "ev|id=42");
	key_is(rowkey("launch", NULL), "launch");
	key_is(rowkey("gap", "device=%u|start=%lld|n=%zu", 3u, -5LL, (size_t)7),
	    "gap|device=3|start=-5|n=7");
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
	(void)state;
	key_is(rowkey_get("range|domain=a%7Cb|path=x = 1%25%0A", "path"),
	    "x = 1%\n");
	key_is(rowkey_get("range|domain=|path=p", "domain"), "");
	assert_null(rowkey_get("range|domain=a", "path"));
	assert_null(rowkey_get("ev:5", "id"));
	assert_true(rowkey_is("ev|id=5", "ev"));
	assert_false(rowkey_is("event|id=5", "ev"));
	assert_true(rowkey_is("launch", "launch"));
}

static void
test_valid(void **state)
{
	static const char *const valid[] = {
		"kernel", "comm|kind=kernel|collective=All Reduce",
		"nvtx|path=aten::mm, seq = 47317",
	}, *const invalid[] = {
		"", "ev:5", "|ProfilerStep#*", "type=straggler", "gpu|device",
		"gpu|device=1|", "k|v=50%", "k|v=a\tb", "Kernel|name=x",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof valid / sizeof *valid; i++)
		assert_true(rowkey_valid(valid[i]));
	for (i = 0; i < sizeof invalid / sizeof *invalid; i++)
		if (rowkey_valid(invalid[i]))
			fail_msg("'%s' taken for a row key", invalid[i]);
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
