/*
 * jsonscan_test: events and top-level members of small documents, member
 * layout, string decoding, exact microsecond-to-nanosecond conversion,
 * errors with their byte offsets, and large gzip files read through many
 * buffer refills (events split across chunks, a buffer that must grow, an
 * item limit, a gzip stream cut short); top-level members beyond the
 * bounds streamed past and reported; blanks between units consumed.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <zlib.h>

#include "sources/jsonscan.h"
#include "tsupport.h"

static struct jsonscan *
mem(const char *s)
{
	return jsonscan_open_mem(s, strlen(s), "doc");
}

/* The member of o at top level named key, or NULL. */
static struct jsonscan_member *
member(struct jsonscan_obj *o, const char *key)
{
	size_t	i;

	for (i = 0; i < o->n; i += 1 + o->m[i].nkids)
		if (o->m[i].key.len == strlen(key) &&
		    memcmp(o->m[i].key.p, key, strlen(key)) == 0)
			return &o->m[i];
	return NULL;
}

static void
test_events_and_meta(void **state)
{
	struct jsonscan		*js;
	struct jsonscan_item	*it;
	struct jsonscan_member	*mb;
	char			*cause = NULL;
	int64_t			 v;

	(void)state;
	js = mem(" {\"schemaVersion\": 1, \"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"ts\": 1.5, \"args\": {\"a\": [1, {\"b\": 2}],"
	    " \"c\": \"x\"}, \"name\": \"k\"},\n"
	    "{}\n], \"baseTimeNanoseconds\": 1735632360000000123}\n");
	assert_non_null(js);
	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	assert_int_equal(it->kind, JSONSCAN_META);
	assert_string_equal(it->key, "schemaVersion");
	assert_true(cJSON_IsNumber(it->meta));
	assert_int_equal((int)it->meta->valuedouble, 1);
	assert_int_equal(jsonscan_container(js), '{');

	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	assert_int_equal(it->kind, JSONSCAN_EVENT);
	assert_int_equal(it->ev.index, 0);
	assert_int_equal(it->ev.offset, 39);	/* the '{' of the event */
	/* ph, ts, args (+ a, c), name */
	assert_int_equal(it->ev.n, 6);
	mb = member(&it->ev, "args");
	assert_non_null(mb);
	assert_int_equal(mb->val.type, JSONSCAN_OBJECT);
	assert_int_equal(mb->nkids, 2);
	assert_int_equal(mb[1].val.type, JSONSCAN_ARRAY);
	assert_int_equal(mb[1].val.len, strlen("[1, {\"b\": 2}]"));
	assert_true(jsonscan_is(&mb[2].val, "x"));
	assert_true(jsonscan_is(&member(&it->ev, "name")->val, "k"));
	assert_int_equal(jsonscan_us_ns(&member(&it->ev, "ts")->val, &v), 0);
	assert_int_equal(v, 1500);

	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	assert_int_equal(it->kind, JSONSCAN_EVENT);
	assert_int_equal(it->ev.n, 0);
	assert_int_equal(it->ev.index, 1);

	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	assert_int_equal(it->kind, JSONSCAN_META);
	assert_string_equal(it->key, "baseTimeNanoseconds");
	/* Exact through the text, whatever cJSON's double says. */
	assert_int_equal(jsonscan_i64(&it->val, &v), 0);
	assert_true(v == 1735632360000000123LL);
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);

	/* The bare-array form. */
	js = mem("[{\"ph\":\"i\"},{\"ph\":\"M\"}]");
	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	assert_int_equal(jsonscan_container(js), '[');
	assert_true(jsonscan_is(&it->ev.m[0].val, "i"));
	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);
}

static void
test_strings(void **state)
{
	struct jsonscan		*js;
	struct jsonscan_item	*it;
	struct jsonscan_val	 v;
	char			*cause = NULL;

	(void)state;
	js = mem("[{\"n\\u0061me\": \"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00"
	    "\\ud800x\\u0000\", \"k\": \"Memcpy\"}]");
	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	/* Keys are decoded before the event is returned. */
	assert_int_equal(it->ev.m[0].key.len, 4);
	assert_memory_equal(it->ev.m[0].key.p, "name", 4);
	v = it->ev.m[0].val;
	assert_true(v.esc);
	assert_false(jsonscan_is(&v, "x"));
	assert_int_equal(jsonscan_str(&v), 0);
	assert_int_equal(v.len, 19);
	assert_memory_equal(v.p, "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80"
	    "\xef\xbf\xbdx\xc0\x80", 19);
	assert_true(jsonscan_is_ci(&it->ev.m[1].val, "memcpy"));
	assert_false(jsonscan_is(&it->ev.m[1].val, "memcpy"));
	assert_int_equal(jsonscan_str(&it->ev.m[1].val), 0);
	jsonscan_close(js);
}

static void
num(const char *text, int type, int64_t *ns, int *rc)
{
	struct jsonscan_val	v;

	v.p = text;
	v.len = strlen(text);
	v.type = (uint8_t)type;
	v.esc = 0;
	*rc = jsonscan_us_ns(&v, ns);
}

static void
test_numbers(void **state)
{
	struct jsonscan_val	 v;
	int64_t			 ns, a[4];
	double			 d;
	int			 rc;

	(void)state;
	num("198093488368.463", JSONSCAN_NUMBER, &ns, &rc);
	assert_int_equal(rc, 0);
	assert_true(ns == 198093488368463LL);
	/* 1712195495505583.0: beyond a double's exact ns, exact here. */
	num("1712195495505583.123", JSONSCAN_NUMBER, &ns, &rc);
	assert_int_equal(rc, 0);
	assert_true(ns == 1712195495505583123LL);
	num("4.928", JSONSCAN_NUMBER, &ns, &rc);
	assert_true(ns == 4928);
	num("1.0005", JSONSCAN_NUMBER, &ns, &rc);	/* half up */
	assert_true(ns == 1001);
	num("1.00049999", JSONSCAN_NUMBER, &ns, &rc);
	assert_true(ns == 1000);
	num("-2.5", JSONSCAN_NUMBER, &ns, &rc);
	assert_true(ns == -2500);
	num("7", JSONSCAN_NUMBER, &ns, &rc);
	assert_true(ns == 7000);
	num("1.5e3", JSONSCAN_NUMBER, &ns, &rc);
	assert_int_equal(rc, 0);
	assert_true(ns == 1500000);
	num("12.25", JSONSCAN_STRING, &ns, &rc);	/* numeric string */
	assert_true(rc == 0 && ns == 12250);
	num("abc", JSONSCAN_STRING, &ns, &rc);
	assert_int_equal(rc, -1);
	num("NaN", JSONSCAN_NUMBER, &ns, &rc);
	assert_int_equal(rc, -1);
	num("99999999999999999999", JSONSCAN_NUMBER, &ns, &rc);
	assert_int_equal(rc, -1);

	v.p = "-25738";
	v.len = 6;
	v.type = JSONSCAN_STRING;
	v.esc = 0;
	assert_int_equal(jsonscan_i64(&v, &ns), 0);
	assert_true(ns == -25738);
	v.p = "9223372036854775808";
	v.len = strlen(v.p);
	v.type = JSONSCAN_NUMBER;
	assert_int_equal(jsonscan_i64(&v, &ns), -1);
	v.p = "1.5";
	v.len = 3;
	assert_int_equal(jsonscan_i64(&v, &ns), -1);
	assert_int_equal(jsonscan_double(&v, &d), 0);
	assert_true(d == 1.5);
	v.p = "[512, 1 ,2, 9]";
	v.len = strlen(v.p);
	v.type = JSONSCAN_ARRAY;
	assert_int_equal(jsonscan_i64_array(&v, a, 3), 4);
	assert_true(a[0] == 512 && a[1] == 1 && a[2] == 2);
	v.p = "[1, \"x\"]";
	v.len = strlen(v.p);
	assert_int_equal(jsonscan_i64_array(&v, a, 3), -1);
}

/* Scans doc to its end; expects an error naming needle, after nitems
 * items (any number if nitems is -1). */
static void
expect_error_after(const char *doc, size_t len, int nitems,
    const char *needle)
{
	struct jsonscan		*js = jsonscan_open_mem(doc, len, "bad");
	struct jsonscan_item	*it;
	char			*cause = NULL;
	int			 rc, n = 0;

	while ((rc = jsonscan_next(js, &it, &cause)) == 1)
		n++;
	assert_int_equal(rc, -1);
	if (nitems >= 0)
		assert_int_equal(n, nitems);
	ts_cause_has(cause, needle);
	free(cause);
	/* Failing again, never crashing or looping. */
	assert_int_equal(jsonscan_next(js, &it, &cause), -1);
	free(cause);
	jsonscan_close(js);
}

#define EXPECT_ERROR_AFTER(s, n, needle)					\
	expect_error_after((s), strlen(s), (n), (needle))
#define EXPECT_ERROR(s, needle)	EXPECT_ERROR_AFTER(s, -1, needle)

static void
test_errors(void **state)
{
	char	deep[2200];
	int	i;

	(void)state;
	EXPECT_ERROR("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1",
	    "truncated JSON: the data ends at byte 36, inside the event that "
	    "starts at byte 17");
	EXPECT_ERROR("{\"traceEvents\": [{\"ph\": \"X\"}, ",
	    "truncated JSON: the data ends at byte 30, in the event array");
	EXPECT_ERROR("[{\"a\": 1,}]", "at byte 9: expected a string key");
	EXPECT_ERROR("[{\"a\" 1}]", "at byte 6: expected ':'");
	EXPECT_ERROR("[{\"a\": 1} {\"b\": 2}]", "at byte 10: expected ',' or "
	    "']' in the event array");
	EXPECT_ERROR("[{\"a\": tru}]", "at byte 7: invalid literal");
	EXPECT_ERROR("[{\"a\": 01}]", "at byte 8: expected ',' or '}'");
	EXPECT_ERROR("[{\"a\": -}]", "at byte 8: invalid number");
	EXPECT_ERROR("[{\"a\": 1.}]", "no digit after '.'");
	EXPECT_ERROR("[{\"a\": \"x\ty\"}]", "control character 0x09");
	EXPECT_ERROR("[{\"a\": \"\\q\"}]", "at byte 8: invalid escape");
	EXPECT_ERROR("[{\"a\": \"\\u12G4\"}]", "bad \\u escape");
	EXPECT_ERROR("[1]", "expected an event object");
	EXPECT_ERROR("[{}] x", "at byte 5: data after the end");
	EXPECT_ERROR("\"x\"", "must be a JSON object or array");
	EXPECT_ERROR("", "empty document");
	EXPECT_ERROR("   \n", "no JSON value");
	EXPECT_ERROR("{\"a\": [1, 2", "truncated JSON");
	expect_error_after("[{\"a\": \"\0\"}]", 12, -1,
	    "control character 0x00");
	/* Nesting beyond the limit. */
	strcpy(deep, "[{\"a\": ");
	for (i = 0; i < 600; i++)
		strcat(deep, "[");
	strcat(deep, "]");
	EXPECT_ERROR(deep, "nesting deeper than 512");
}

/* A gzip file of n events; event i has "i": i and a padding of pad
 * bytes; one event in the middle is big (bigpad bytes). */
static void
write_events(const char *p, int n, int pad, int bigpad)
{
	gzFile	 g = gzopen(p, "wb1");
	char	*buf;
	int	 i, k;

	assert_non_null(g);
	buf = malloc((size_t)(pad > bigpad ? pad : bigpad) + 1);
	gzprintf(g, "{\"traceEvents\": [");
	for (i = 0; i < n; i++) {
		k = i == n / 2 ? bigpad : pad;
		memset(buf, 'x', (size_t)k);
		buf[k] = '\0';
		/* gzprintf's buffer is small: the padding goes by gzputs. */
		gzprintf(g, "%s{\"ph\": \"X\", \"i\": %d, \"args\": {\"p\": "
		    "\"", i > 0 ? ",\n" : "", i);
		gzputs(g, buf);
		gzprintf(g, "\", \"q\": [%d]}}", i);
	}
	gzprintf(g, "], \"traceName\": \"big\"}");
	free(buf);
	assert_int_equal(gzclose(g), Z_OK);
}

/* The scanner of the file name in the scratch directory, which must
 * open. */
static struct jsonscan *
scan_file(const char *name)
{
	struct jsonscan	*js;
	char		*cause = NULL;

	if ((js = jsonscan_open(ts_path(name), &cause)) == NULL)
		fail_msg("%s: %s", name, cause);
	return js;
}

/* Reads js to its end, which must be a failure whose cause says want,
 * and closes it. */
static void
scan_fails(struct jsonscan *js, const char *want)
{
	struct jsonscan_item	*it;
	char			*cause = NULL;
	int			 rc;

	while ((rc = jsonscan_next(js, &it, &cause)) == 1)
		;
	assert_int_equal(rc, -1);
	ts_cause_has(cause, want);
	free(cause);
	jsonscan_close(js);
}

/* A new gzip file name in the scratch directory, written with mode. */
static gzFile
gz_new(const char *name, const char *mode)
{
	gzFile	g = gzopen(ts_path(name), mode);

	assert_non_null(g);
	return g;
}

/* Closes g, the gzip file name, and returns scan_file(name). */
static struct jsonscan *
gz_scan(gzFile g, const char *name)
{
	assert_int_equal(gzclose(g), Z_OK);
	return scan_file(name);
}

static void
test_large_files(void **state)
{
	struct jsonscan		*js;
	struct jsonscan_item	*it;
	char			*cause = NULL, cmd[600];
	int64_t			 v;
	int			 n = 0, rc, bad = 0;

	(void)state;
	/* 60000 events of ~100 bytes: several chunks; one of 3 MiB, larger
	 * than the initial buffer. */
	write_events(ts_path("big.json.gz"), 60000, 60, 3 << 20);
	js = scan_file("big.json.gz");
	while ((rc = jsonscan_next(js, &it, &cause)) == 1) {
		if (it->kind != JSONSCAN_EVENT)
			continue;
		if (it->ev.n != 5 || jsonscan_i64(&it->ev.m[1].val, &v) != 0 ||
		    v != n || it->ev.m[2].nkids != 2)
			bad++;
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, 60000);
	assert_int_equal(bad, 0);
	assert_true(jsonscan_offset(js) > (3u << 20));
	assert_true(jsonscan_raw_offset(js) == jsonscan_raw_size(js));
	jsonscan_close(js);

	/* The item limit. */
	js = scan_file("big.json.gz");
	jsonscan_set_max_item(js, 2u << 20);
	scan_fails(js, "an item larger than");

	/* A gzip stream cut short: zfile's message, not a crash. */
	snprintf(cmd, sizeof cmd, "head -c 40000 %s > %s",
	    ts_path("big.json.gz"), ts_path("cut.json.gz"));
	assert_int_equal(system(cmd), 0);
	scan_fails(scan_file("cut.json.gz"),
	    "gzip stream truncated at byte 40000");

	/* Closing early stops the reader thread. */
	js = scan_file("big.json.gz");
	assert_int_equal(jsonscan_next(js, &it, &cause), 1);
	jsonscan_close(js);

	assert_null(jsonscan_open(ts_path("missing"), &cause));
	assert_non_null(strstr(cause, "No such file"));
	free(cause);
}

/* Appends text, then n copies of s, to the gzip stream. */
static void
gz_repeat(gzFile g, const char *text, const char *s, size_t n)
{
	static char	buf[65536];
	size_t		len = strlen(s), per = sizeof buf / len, k, i;

	assert_true(gzputs(g, text) >= 0);
	for (i = 0; i < per; i++)
		memcpy(buf + i * len, s, len);
	while (n > 0) {
		k = n < per ? n : per;
		assert_int_equal(gzwrite(g, buf, (unsigned)(k * len)),
		    (int)(k * len));
		n -= k;
	}
}

/* The next item, which must be of the given kind (and key). */
static struct jsonscan_item *
next_is(struct jsonscan *js, int kind, const char *key)
{
	struct jsonscan_item	*it;
	char			*cause = NULL;
	int			 rc;

	rc = jsonscan_next(js, &it, &cause);
	if (rc != 1)
		fail_msg("no item (%d): %s", rc, cause != NULL ? cause : "");
	assert_int_equal(it->kind, kind);
	if (key != NULL)
		assert_string_equal(it->key, key);
	return it;
}

/*
 * Top-level members: wanted ones are parsed up to JSONSCAN_META_BYTES,
 * others up to JSONSCAN_META_SMALL; larger ones (or ones of too many
 * values) are streamed past, validated, and reported as SKIPPED with
 * their exact size, whatever the buffer size.
 */
static void
test_members_bounded(void **state)
{
	static const char *const want[] = { "deviceProperties", NULL };
	struct jsonscan		*js;
	struct jsonscan_item	*it;
	char			*doc, *p, *cause = NULL;
	size_t			 big = 60000, i;
	gzFile			 g;

	(void)state;
	/* In memory: a small member, one over the small bound, a wanted
	 * one over it too, a long string, an event, a nested one. */
	doc = malloc(4 * big + 4 * JSONSCAN_META_NODES + 1000);
	p = doc;
	p += sprintf(p, "{\"a\": [1, 2, 3], \"t\": \"hi\", \"big\": [");
	for (i = 0; i < big / 2; i++)
		p += sprintf(p, "%s0", i > 0 ? "," : "");
	p += sprintf(p, "], \"deviceProperties\": [{\"id\": 0, \"pad\": \"");
	memset(p, 'x', big);
	p += big;
	p += sprintf(p, "\"}], \"s\": \"");
	for (i = 0; i < big / 2; i++)
		p += sprintf(p, "\\n");
	p += sprintf(p, "\", \"traceEvents\": [{\"ph\": \"X\"}], \"deep\": "
	    "{\"x\": [{\"y\": \"z\\u0041\"}, true, null, -1.5e3]}}");
	js = jsonscan_open_mem(doc, strlen(doc), "doc");
	jsonscan_want(js, want);
	it = next_is(js, JSONSCAN_META, "a");
	assert_int_equal(cJSON_GetArraySize(it->meta), 3);
	assert_int_equal(it->nodes, 4);
	/* A string member's value is the string (not its bare text). */
	it = next_is(js, JSONSCAN_META, "t");
	assert_true(cJSON_IsString(it->meta));
	assert_string_equal(it->meta->valuestring, "hi");
	it = next_is(js, JSONSCAN_SKIPPED, "big");
	assert_int_equal(it->size, big - 1 + 2);	/* "[0,0,...,0]" */
	assert_null(it->meta);
	it = next_is(js, JSONSCAN_META, "deviceProperties");
	assert_true(cJSON_IsArray(it->meta));
	assert_int_equal(it->offset, strstr(doc, "[{\"id\"") - doc);
	it = next_is(js, JSONSCAN_SKIPPED, "s");
	assert_int_equal(it->size, big + 2);
	next_is(js, JSONSCAN_EVENT, NULL);
	it = next_is(js, JSONSCAN_META, "deep");
	assert_true(cJSON_IsObject(it->meta));
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);

	/* Too many values for a wanted member, however few bytes. */
	p = doc;
	p += sprintf(p, "{\"deviceProperties\": [");
	for (i = 0; i < JSONSCAN_META_NODES + 1; i++)
		p += sprintf(p, "%s0", i > 0 ? "," : "");
	p += sprintf(p, "]}");
	js = jsonscan_open_mem(doc, strlen(doc), "doc");
	jsonscan_want(js, want);
	it = next_is(js, JSONSCAN_SKIPPED, "deviceProperties");
	assert_true(it->nodes > JSONSCAN_META_NODES);
	assert_null(it->meta);
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);
	free(doc);

	/*
	 * From a gzip file, through refills: 64 MiB of numbers in one
	 * member (what a few KiB of gzip inflate to), strings with escapes
	 * and objects in another, then an event. The skipped values never
	 * need the whole member in memory: a 1 MiB item limit is enough.
	 */
	g = gz_new("members.json.gz", "wb9");
	gz_repeat(g, "{\"junk\": [0", ",0", 32u << 20);
	gz_repeat(g, "], \"more\": {\"k\": [",
	    "{\"a\\\"b\": \"c\\u00e9\\\\\", \"n\": [true, false, null, "
	    "-0.5e-3]}, ", 200000);
	gzputs(g, "{}]}, \"traceEvents\": [{\"ph\": \"X\"}]}");
	js = gz_scan(g, "members.json.gz");
	jsonscan_set_max_item(js, 1u << 20);
	it = next_is(js, JSONSCAN_SKIPPED, "junk");
	assert_int_equal(it->size, (64u << 20) + 3);
	assert_int_equal(it->offset, 9);
	it = next_is(js, JSONSCAN_SKIPPED, "more");
	assert_int_equal(it->nodes, 200000 * 7 + 1 + 1 + 1);
	next_is(js, JSONSCAN_EVENT, NULL);
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);

	/* Errors inside a skipped value name their offset. */
	g = gz_new("bad.json.gz", "wb1");
	gz_repeat(g, "{\"junk\": [0", ",0", 1u << 20);
	gzputs(g, ",x]}");
	scan_fails(gz_scan(g, "bad.json.gz"),
	    "at byte 2097164: unexpected character 'x'");
	doc = malloc(3 * big);
	p = doc;
	p += sprintf(p, "{\"junk\": {\"k\": [0");
	for (i = 0; i < big; i++)
		p += sprintf(p, ",0");
	p += sprintf(p, "], \"j\" 1}}");
	js = jsonscan_open_mem(doc, strlen(doc), "doc");
	jsonscan_want(js, want);
	assert_int_equal(jsonscan_next(js, &it, &cause), -1);
	ts_cause_has(cause, "expected ':' after an object key");
	free(cause);
	jsonscan_close(js);
	free(doc);
}

/*
 * Whitespace between units is consumed as it is read: 64 MiB of blanks
 * between two events (and 8 MiB inside an event) load under an item
 * limit of 1 MiB, in linear time (tests/cli/json_limits_cli.sh times it).
 */
static void
test_whitespace(void **state)
{
	struct jsonscan		*js;
	struct jsonscan_item	*it;
	char			*cause = NULL;
	gzFile			 g;

	(void)state;
	g = gz_new("blank.json.gz", "wb9");
	gz_repeat(g, "{\"traceEvents\": [{\"ph\": \"X\", \"n\": 1}",
	    " \n\t\r", 8u << 20);
	gz_repeat(g, ",", "  ", 16u << 20);
	gz_repeat(g, "{\"ph\": \"X\", \"n\":", "\n", 8u << 20);
	gz_repeat(g, "2}]", " ", 4u << 20);
	gzputs(g, ", \"k\": 3}");
	js = gz_scan(g, "blank.json.gz");
	/* The event holding 8 MiB of blanks needs a buffer that large. */
	jsonscan_set_max_item(js, 16u << 20);
	next_is(js, JSONSCAN_EVENT, NULL);
	it = next_is(js, JSONSCAN_EVENT, NULL);
	assert_int_equal(it->ev.index, 1);
	assert_int_equal(it->ev.offset, 36 + (64u << 20) + 1);
	it = next_is(js, JSONSCAN_META, "k");
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);

	/* Without blanks inside an event, 1 MiB is enough. */
	g = gz_new("blank.json.gz", "wb9");
	gz_repeat(g, "[{\"ph\": \"X\"}", " ", 64u << 20);
	gz_repeat(g, ",", " ", 64u << 20);
	gz_repeat(g, "{\"ph\": \"Y\"}]", "\n", 1u << 20);
	js = gz_scan(g, "blank.json.gz");
	jsonscan_set_max_item(js, 1u << 20);
	next_is(js, JSONSCAN_EVENT, NULL);
	it = next_is(js, JSONSCAN_EVENT, NULL);
	assert_true(jsonscan_is(&it->ev.m[0].val, "Y"));
	assert_int_equal(jsonscan_next(js, &it, &cause), 0);
	jsonscan_close(js);

	/* A comma consumed before the blanks still forbids a ']'. */
	EXPECT_ERROR_AFTER("[{}, \n ]", 1, "expected an event object");
	EXPECT_ERROR_AFTER("{\"a\": 1,   }", 1, "expected a string key");
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_events_and_meta),
	cmocka_unit_test(test_strings),
	cmocka_unit_test(test_numbers),
	cmocka_unit_test(test_errors),
	cmocka_unit_test(test_large_files),
	cmocka_unit_test(test_members_bounded),
	cmocka_unit_test(test_whitespace))
