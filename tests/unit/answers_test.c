/*
 * answers_test: the key of a stored answer covers every input of the
 * output (program, model cache, trace, words, format, the width of a table,
 * locale and GPULENS_* variables) and nothing that changes no output; an
 * answer file reads back as written, and any damaged byte, any truncation
 * or another request's key makes it unreadable.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "headless/answers.h"
#include "headless/out.h"
#include "tsupport.h"

struct req {
	const char		*bin;
	struct cache_stamp	 st;
	char			*argv[4];
	int			 argc;
	int			 format;
	char			*env[6];
};

static void
req_init(struct req *r)
{
	memset(r, 0, sizeof *r);
	r->bin = "e9c2afd5-0123456789abcdef";
	r->st.hdr = 0x1234;
	r->st.size = 4096;
	r->st.id.size = 100;
	r->st.id.mtime = 5;
	r->st.id.ctime = 6;
	r->st.id.ino = 7;
	r->st.id.dev = 8;
	r->st.id.fp = 9;
	r->argv[0] = (char *)"summary";
	r->argv[1] = (char *)"t.sqlite";
	r->argv[2] = (char *)"--json";
	r->argc = 3;
	r->format = OUT_JSON;
	r->env[0] = (char *)"HOME=/root";
	r->env[1] = (char *)"GPULENS_SQLITE_STEPS=100";
	r->env[2] = NULL;
}

static char *
req_key(const struct req *r, size_t *len)
{
	return answers_key(r->bin, &r->st, r->argc, r->argv, r->format,
	    r->env, len);
}

/* 1 if r's key equals base's. */
static int
key_same(const struct req *base, const struct req *r)
{
	char	*a, *b;
	size_t	 la, lb;
	int	 same;

	a = req_key(base, &la);
	b = req_key(r, &lb);
	same = la == lb && memcmp(a, b, la) == 0;
	free(a);
	free(b);
	return same;
}

static void
test_key_inputs(void **state)
{
	struct req	base, r;

	(void)state;
	req_init(&base);
	r = base;
	assert_true(key_same(&base, &r));
	r.bin = "e9c2afd6-0123456789abcdef";
	assert_false(key_same(&base, &r));
	r = base; r.st.hdr++;
	assert_false(key_same(&base, &r));
	r = base; r.st.size++;
	assert_false(key_same(&base, &r));
	r = base; r.st.id.mtime++;
	assert_false(key_same(&base, &r));
	r = base; r.st.id.ctime++;
	assert_false(key_same(&base, &r));
	r = base; r.st.id.fp++;
	assert_false(key_same(&base, &r));
	r = base; r.argv[1] = (char *)"./t.sqlite";
	assert_false(key_same(&base, &r));
	r = base; r.argv[1] = (char *)"--json"; r.argv[2] = (char *)"t.sqlite";
	assert_false(key_same(&base, &r));
	/* Words are delimited: "a b" is not "a" "b". */
	r = base; r.argv[1] = (char *)"t.sqlite --json"; r.argc = 2;
	assert_false(key_same(&base, &r));
	r = base; r.argc = 2;
	assert_false(key_same(&base, &r));
	r = base; r.format = OUT_CSV;
	assert_false(key_same(&base, &r));
	/* A GPULENS_* variable that may change output, locale, time zone. */
	r = base; r.env[1] = (char *)"GPULENS_SQLITE_STEPS=101";
	assert_false(key_same(&base, &r));
	r = base; r.env[2] = (char *)"GPULENS_NEW=1";
	assert_false(key_same(&base, &r));
	r = base; r.env[2] = (char *)"TZ=UTC";
	assert_false(key_same(&base, &r));
	r = base; r.env[2] = (char *)"LC_ALL=C";
	assert_false(key_same(&base, &r));
	/* What changes no output: these variables, COLUMNS in JSON, order. */
	r = base; r.env[2] = (char *)"GPULENS_TIMING=1";
	r.env[3] = (char *)"GPULENS_ANSWER_MIN_MS=0";
	r.env[4] = (char *)"GPULENS_CACHE_MAX=1G";
	assert_true(key_same(&base, &r));
	r = base; r.env[2] = (char *)"COLUMNS=80";
	r.env[3] = (char *)"PATH=/bin";
	assert_true(key_same(&base, &r));
	r = base; r.env[2] = (char *)"GPULENS_B=1"; r.env[3] = (char *)"GPULENS_A=1";
	base.env[2] = (char *)"GPULENS_A=1"; base.env[3] = (char *)"GPULENS_B=1";
	assert_true(key_same(&base, &r));
}

static void
test_key_width(void **state)
{
	struct req	base, r;

	(void)state;
	req_init(&base);
	base.format = OUT_TABLE;
	base.argc = 2;
	r = base;
	r.env[2] = (char *)"COLUMNS=80";
	assert_false(key_same(&base, &r));
	base.env[2] = (char *)"COLUMNS=100";
	assert_false(key_same(&base, &r));
	base.env[2] = (char *)"COLUMNS=80";
	assert_true(key_same(&base, &r));
}

static void
test_file_roundtrip(void **state)
{
	const char	*key = "the key", *out, *err;
	uint8_t		*b, *c;
	size_t		 len, ol, el, i;
	int		 status;

	(void)state;
	b = answers_encode(key, strlen(key), "{\"a\":1}\n", 8, "warning: x\n",
	    11, 1, &len);
	assert_int_equal(answers_decode(b, len, key, strlen(key), &out, &ol,
	    &err, &el, &status), 0);
	assert_int_equal(status, 1);
	assert_int_equal(ol, 8);
	assert_memory_equal(out, "{\"a\":1}\n", 8);
	assert_int_equal(el, 11);
	assert_memory_equal(err, "warning: x\n", 11);
	/* Another request's key. */
	assert_int_equal(answers_decode(b, len, "the kez", 7, &out, &ol, &err,
	    &el, &status), -1);
	assert_int_equal(answers_decode(b, len, "the ke", 6, &out, &ol, &err,
	    &el, &status), -1);
	/* Every damaged byte and every truncation is refused. */
	c = malloc(len);
	assert_non_null(c);
	for (i = 0; i < len; i++) {
		memcpy(c, b, len);
		c[i] ^= 0x20;
		assert_int_equal(answers_decode(c, len, key, strlen(key),
		    &out, &ol, &err, &el, &status), -1);
		assert_int_equal(answers_decode(b, i, key, strlen(key),
		    &out, &ol, &err, &el, &status), -1);
	}
	free(c);
	free(b);
	/* Empty output. */
	b = answers_encode(key, strlen(key), "", 0, "", 0, 0, &len);
	assert_int_equal(answers_decode(b, len, key, strlen(key), &out, &ol,
	    &err, &el, &status), 0);
	assert_int_equal(ol + el + (size_t)status, 0);
	free(b);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_key_inputs),
	cmocka_unit_test(test_key_width),
	cmocka_unit_test(test_file_roundtrip))
