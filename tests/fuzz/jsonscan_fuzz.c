/*
 * jsonscan_fuzz: the streaming JSON scanner (sources/jsonscan.c) that the
 * Kineto reader is built on, on arbitrary bytes, checked against cJSON.
 *
 * The input is scanned from memory (jsonscan_open_mem) to the end or the
 * first error, and every member of every event goes through the value
 * helpers (jsonscan_str, _i64, _double, _is). Checks, on inputs without
 * NUL bytes, NaN/Infinity literals (jsonscan's one extension), \u escapes
 * (cJSON rejects lone surrogates, which JSON's grammar allows), a
 * byte-order mark after leading blanks (jsonscan skips it, cJSON does not)
 * and deep nesting (cJSON's limit):
 *   - a document jsonscan reads to its end is one cJSON parses too;
 *   - for an object whose only "traceEvents" member is an array of
 *     objects, or a bare array of objects, jsonscan yields exactly one
 *     event per element.
 * Top-level members are read with small bounds (jsonscan_set_meta_bytes),
 * so that most take the streaming path: a skipped one must be over its
 * bound and lie within the input. An error must come with a reason, and
 * after it every call fails again.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "sources/jsonscan.h"
#include "util/xmalloc.h"

FUZZ_NO_INIT

/* Whether the input is one the cJSON comparison applies to. */
static int
comparable(const uint8_t *d, size_t n)
{
	size_t	i;
	int	depth = 0, maxdepth = 0, instr = 0;

	if (memchr(d, '\0', n) != NULL)
		return 0;
	for (i = 0; i < n; i++) {
		if (instr) {
			if (d[i] == '\\') {
				if (i + 1 < n && d[i + 1] == 'u')
					return 0;
				i++;
			} else if (d[i] == '"')
				instr = 0;
			continue;
		}
		switch (d[i]) {
		case '"':
			instr = 1;
			break;
		case '[':
		case '{':
			if (++depth > maxdepth)
				maxdepth = depth;
			break;
		case ']':
		case '}':
			depth--;
			break;
		case 'N':		/* NaN */
		case 'I':		/* Infinity */
			return 0;
		case 0xef:
			/*
			 * A byte-order mark after leading blanks: jsonscan
			 * skips it, cJSON only at the very start.
			 */
			if (i > 0)
				return 0;
			break;
		}
	}
	return maxdepth < 500;
}

/* The number of events cJSON says the document holds, -1 if unclear. */
static int
expected_events(const cJSON *doc)
{
	const cJSON	*arr = NULL, *it;
	int		 ntrace = 0;

	if (cJSON_IsArray(doc))
		arr = doc;
	else if (cJSON_IsObject(doc)) {
		cJSON_ArrayForEach(it, doc) {
			if (it->string != NULL &&
			    strcmp(it->string, "traceEvents") == 0) {
				ntrace++;
				arr = it;
			}
		}
		if (ntrace != 1)
			return -1;
	}
	if (!cJSON_IsArray(arr))
		return -1;
	cJSON_ArrayForEach(it, arr)
		if (!cJSON_IsObject(it))
			return -1;
	return cJSON_GetArraySize(arr);
}

static void
exercise(struct jsonscan_obj *ev)
{
	struct jsonscan_val	*v;
	int64_t			 i;
	double			 d;
	size_t			 k;

	for (k = 0; k < ev->n; k++) {
		FUZZ_CHECK(ev->m[k].key.type == JSONSCAN_STRING);
		v = &ev->m[k].val;
		FUZZ_CHECK(v->type <= JSONSCAN_OBJECT);
		(void)jsonscan_is(&ev->m[k].key, "ph");
		(void)jsonscan_is_ci(v, "X");
		(void)jsonscan_i64(v, &i);
		(void)jsonscan_double(v, &d);
		if (v->type == JSONSCAN_STRING) {
			FUZZ_CHECK(jsonscan_str(v) == 0);
			FUZZ_CHECK(memchr(v->p, '\0', v->len) == NULL);
		}
	}
}

static const char *const want_keys[] = { "deviceProperties", NULL };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonscan		*js;
	struct jsonscan_item	*it;
	cJSON			*doc;
	char			*cause = NULL, *buf;
	int			 rc, nev = 0, want;

	js = jsonscan_open_mem((const char *)data, size, "fuzz.json");
	FUZZ_CHECK(js != NULL);
	jsonscan_set_max_item(js, 1u << 20);
	/* Small bounds, so that members beyond them are streamed past. */
	jsonscan_want(js, want_keys);
	jsonscan_set_meta_bytes(js, 256, 32);
	while ((rc = jsonscan_next(js, &it, &cause)) == 1) {
		if (it->kind == JSONSCAN_EVENT) {
			nev++;
			exercise(&it->ev);
		} else if (it->kind == JSONSCAN_SKIPPED) {
			FUZZ_CHECK(it->key != NULL && it->meta == NULL);
			FUZZ_CHECK(it->size > 32 || it->nodes >
			    JSONSCAN_META_NODES);
			FUZZ_CHECK(it->offset + it->size <= size);
		} else
			FUZZ_CHECK(it->kind == JSONSCAN_META && it->key != NULL);
	}
	if (rc == -1) {
		FUZZ_CHECK(cause != NULL && *cause != '\0');
		free(cause);
		cause = NULL;
		FUZZ_CHECK(jsonscan_next(js, &it, &cause) == -1);
		free(cause);
	} else
		FUZZ_CHECK(rc == 0);
	jsonscan_close(js);

	if (rc != 0 || !comparable(data, size))
		return 0;
	buf = xmalloc(size + 1);
	memcpy(buf, data, size);
	buf[size] = '\0';
	doc = cJSON_ParseWithOpts(buf, NULL, 1);
	FUZZ_CHECK(doc != NULL);
	if ((want = expected_events(doc)) >= 0)
		FUZZ_CHECK(nev == want);
	cJSON_Delete(doc);
	free(buf);
	return 0;
}
