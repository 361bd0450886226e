/*
 * jsonscan: a streaming, validating JSON reader that yields the elements of
 * a trace's event array one at a time (jsonscan.h has the contract).
 *
 * Buffer: buf[0, hi) holds decompressed bytes; buf[pos] is the start of
 * the first unit not yet consumed. A unit is one event, one top-level
 * member (key and value), or one bracket or comma of the containers. A
 * unit is parsed from pos with a recursive-descent parser that only reads
 * the buffer; when it runs off the end it returns JS_MORE and nothing has
 * been consumed, so the bytes from pos are moved to the front, more are
 * read behind them until the buffer is full (it doubles when one unit
 * fills it, up to the item limit), and the unit is parsed again from its
 * start: a unit is reparsed only after the buffer has doubled, so a long
 * one costs linear time. Whitespace between units is consumed as soon as
 * it is seen (and so is a unit's leading comma), so blanks between events
 * are never kept or rescanned. Only a complete unit moves pos, and only
 * then may its strings be decoded in place (jsonscan_str), since a
 * retried parse must see the original bytes.
 *
 * Top-level members: the key (and ':') is one unit, its value the next.
 * A value within its bound (jsonscan.h) is parsed as a unit and given to
 * cJSON; one that outgrows it (the buffer holds more than the bound and
 * the value is not complete, or it is complete but over the bound in
 * bytes or values) is streamed past by a pushdown automaton (struct
 * js_skip) that consumes one token at a time, so that what a member
 * costs is the token being read, whatever its size.
 *
 * Per event nothing is allocated: the member list is one array reused
 * from event to event, and members are spans of the buffer.
 *
 * Decompression runs in a thread of its own (struct js_pipe), a few
 * chunks ahead of the parser. Scanning tests eight string bytes at a time
 * and costs a few branches per structural character; numbers are kept as
 * text and converted only when the caller asks (jsonscan_us_ns parses
 * microsecond timestamps digit by digit into exact nanoseconds).
 *
 * This file steps through the document's units and holds the interface;
 * the parser of a unit (an event too) is jsonscan-lex.c, the skipping
 * automaton jsonscan-skip.c, the input jsonscan-input.c and the value
 * helpers jsonscan-val.c.
 */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sources/jsonscan.h"
#include "sources/jsonscan-int.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

int
jsonscan_fail(struct jsonscan *js, const char *at, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	free(js->err);
	js->err = xasprintf("%s: malformed JSON at byte %llu: %s", js->name,
	    (unsigned long long)(js->base + (uint64_t)(at - js->buf)), msg);
	free(msg);
	return JS_ERR;
}

/* Keys are decoded once the event is complete (see the top comment). */
static void
js_decode_keys(struct jsonscan *js)
{
	size_t	i;

	for (i = 0; i < js->n; i++)
		if (js->m[i].key.esc)
			jsonscan_str(&js->m[i].key);
}

enum { STEP_ITEM, STEP_AGAIN, STEP_END };

/* The bytes a top-level member's value may hold (jsonscan_want). */
static size_t
js_meta_limit(const struct jsonscan *js, const struct jsonscan_val *key)
{
	const char *const	*w;

	if (js->want == NULL)
		return js->meta_big;
	for (w = js->want; *w != NULL; w++)
		if (strlen(*w) == key->len && memcmp(*w, key->p, key->len) == 0)
			return js->meta_big;
	return js->meta_small;
}

/* A member's value was skipped: the SKIPPED item. */
static void
js_skipped(struct jsonscan *js, uint64_t size, uint64_t nodes, int *step)
{
	struct jsonscan_item	*it = &js->item;

	memset(it, 0, sizeof *it);
	it->kind = JSONSCAN_SKIPPED;
	it->key = js->key;
	it->offset = js->mstart;
	it->size = size;
	it->nodes = nodes;
	js->state = ST_OBJ;
	*step = STEP_ITEM;
}

/*
 * Before a member of the top-level container: after the first, its comma
 * (closer: what else may come, for the message), consumed with the
 * whitespace after it. JS_OK with *pp at the member, JS_MORE or JS_ERR.
 */
static int
js_comma(struct jsonscan *js, const char **pp, const char *end,
    const char *closer)
{
	const char	*p = *pp;

	if (js->first || js->comma)
		return JS_OK;
	if (*p != ',')
		return jsonscan_fail(js, p, "expected ',' or %s", closer);
	js->comma = 1;
	p = js_ws(p + 1, end);
	js->pos = (size_t)(p - js->buf);
	*pp = p;
	return p >= end ? JS_MORE : JS_OK;
}

/* One unit at pos; returns STEP_* or JS_MORE / JS_ERR (negated). */
static int
js_step(struct jsonscan *js, int *step)
{
	const char		*p = js->buf + js->pos, *end = js->buf + js->hi;
	const char		*s;
	struct jsonscan_val	 key, val;
	struct jsonscan_item	*it = &js->item;
	int			 rc;

	/* Whitespace between units is consumed at once: a refill must not
	 * keep (and rescan) it. */
	p = js_ws(p, end);
	if (js->state != ST_START || p >= end)
		js->pos = (size_t)(p - js->buf);
	switch (js->state) {
	case ST_START:
		if (js->base == 0 && js->pos == 0 && end - p >= 3 &&
		    memcmp(p, "\xef\xbb\xbf", 3) == 0)
			p = js_ws(p + 3, end);
		if (p >= end)
			return JS_MORE;
		if (*p == '{') {
			js->state = ST_OBJ;
			js->container = '{';
		} else if (*p == '[') {
			js->state = ST_EVENTS;
			js->container = '[';
			js->bare = 1;
		} else
			return jsonscan_fail(js, p, "a trace must be a JSON "
			    "object or array");
		js->first = 1;
		js->comma = 0;
		js->pos = (size_t)(p + 1 - js->buf);
		*step = STEP_AGAIN;
		return JS_OK;

	case ST_OBJ:
		if (p >= end)
			return JS_MORE;
		if (*p == '}' && !js->comma) {
			js->state = ST_DONE;
			js->pos = (size_t)(p + 1 - js->buf);
			*step = STEP_AGAIN;
			return JS_OK;
		}
		if ((rc = js_comma(js, &p, end, "'}' in the top-level "
		    "object")) != JS_OK)
			return rc;
		if (*p != '"')
			return jsonscan_fail(js, p, "expected a string key in "
			    "the top-level object");
		if ((rc = jsonscan_lex_string(js, &p, &key)) != JS_OK ||
		    (rc = jsonscan_lex_colon(js, &p, end)) != JS_OK)
			return rc;
		js->first = 0;
		js->comma = 0;
		if (*p == '[' && !key.esc && key.len == 11 &&
		    memcmp(key.p, "traceEvents", 11) == 0) {
			js->state = ST_EVENTS;
			js->first = 1;
			js->pos = (size_t)(p + 1 - js->buf);
			*step = STEP_AGAIN;
			return JS_OK;
		}
		/* The key is complete: its value is the next unit. */
		jsonscan_str(&key);
		free(js->key);
		js->key = xstrndup(key.p, key.len);
		js->mlimit = js_meta_limit(js, &key);
		js->pos = (size_t)(p - js->buf);
		js->mstart = js->base + js->pos;
		js->state = ST_META;
		*step = STEP_AGAIN;
		return JS_OK;

	case ST_META:
		if (p >= end)
			return JS_MORE;
		s = p;
		js->nodes = 0;
		rc = jsonscan_lex_value(js, &p, &val);
		if (rc == JS_MORE && (js->hi - js->pos >= js->mlimit ||
		    (js->hi == js->cap && js->cap >= js->maxitem))) {
			/* Too large to hold: stream past it. */
			memset(&js->skip, 0, sizeof js->skip);
			js->state = ST_SKIP;
			*step = STEP_AGAIN;
			return JS_OK;
		}
		if (rc != JS_OK)
			return rc;
		js->pos = (size_t)(p - js->buf);
		if ((size_t)(p - s) > js->mlimit ||
		    js->nodes > JSONSCAN_META_NODES) {
			js_skipped(js, (uint64_t)(p - s), js->nodes, step);
			return JS_OK;
		}
		/* From s: a string's span leaves its quotes out. */
		js->meta = cJSON_ParseWithLength(s, (size_t)(p - s));
		memset(it, 0, sizeof *it);
		it->kind = JSONSCAN_META;
		it->key = js->key;
		it->meta = js->meta;
		it->val = val;
		it->offset = js->base + (uint64_t)(s - js->buf);
		it->size = (uint64_t)(p - s);
		it->nodes = js->nodes;
		js->state = ST_OBJ;
		*step = STEP_ITEM;
		return JS_OK;

	case ST_SKIP:
		if ((rc = jsonscan_skip_step(js)) != JS_DONE)
			return rc;
		js_skipped(js, js->base + js->pos - js->mstart, js->skip.nodes,
		    step);
		return JS_OK;

	case ST_EVENTS:
		if (p >= end)
			return JS_MORE;
		if (*p == ']' && !js->comma) {
			js->state = js->bare ? ST_DONE : ST_OBJ;
			js->first = 0;
			js->pos = (size_t)(p + 1 - js->buf);
			*step = STEP_AGAIN;
			return JS_OK;
		}
		if ((rc = js_comma(js, &p, end, "']' in the event array")) !=
		    JS_OK)
			return rc;
		if (*p != '{')
			return jsonscan_fail(js, p, "expected an event object "
			    "in the event array");
		s = p;
		js->n = 0;
		if ((rc = jsonscan_lex_event(js, &p, 0)) != JS_OK)
			return rc;
		js->first = 0;
		js->comma = 0;
		js_decode_keys(js);
		memset(it, 0, sizeof *it);
		it->kind = JSONSCAN_EVENT;
		it->ev.m = js->m;
		it->ev.n = js->n;
		it->ev.offset = js->base + (uint64_t)(s - js->buf);
		it->ev.index = js->index++;
		js->pos = (size_t)(p - js->buf);
		*step = STEP_ITEM;
		return JS_OK;

	case ST_DONE:
		if (p < end)
			return jsonscan_fail(js, p, "data after the end of the "
			    "document");
		js->pos = js->hi;
		if (!js->eof)
			return JS_MORE;
		*step = STEP_END;
		return JS_OK;

	default:
		*step = STEP_END;
		return JS_OK;
	}
}

static struct jsonscan *
js_new(const char *name)
{
	struct jsonscan	*js;

	js = xcalloc(1, sizeof *js);
	js->name = xstrdup(name);
	js->maxitem = JSONSCAN_MAX_ITEM;
	js->meta_big = JSONSCAN_META_BYTES;
	js->meta_small = JSONSCAN_META_SMALL;
	js->state = ST_START;
	return js;
}

struct jsonscan *
jsonscan_open(const char *path, char **cause)
{
	struct jsonscan	*js;
	struct zfile	*zf;

	if ((zf = zfile_open(path, cause)) == NULL)
		return NULL;
	js = js_new(path);
	js->zf = zf;
	js->cap = JS_CHUNK;
	js->buf = xmalloc(js->cap);
	jsonscan_input_start(js);
	return js;
}

struct jsonscan *
jsonscan_open_mem(const char *buf, size_t len, const char *name)
{
	struct jsonscan	*js;

	js = js_new(name != NULL ? name : "<memory>");
	js->cap = len > 0 ? len : 1;
	js->buf = xmalloc(js->cap);
	if (len > 0)
		memcpy(js->buf, buf, len);
	js->hi = len;
	js->eof = 1;
	if (js->maxitem < js->cap)
		js->maxitem = js->cap;
	return js;
}

void
jsonscan_close(struct jsonscan *js)
{
	if (js == NULL)
		return;
	jsonscan_input_stop(js);
	zfile_close(js->zf);
	cJSON_Delete(js->meta);
	free(js->key);
	free(js->m);
	free(js->buf);
	free(js->err);
	free(js->name);
	free(js);
}

void
jsonscan_set_max_item(struct jsonscan *js, size_t n)
{
	js->maxitem = n > js->cap ? n : js->cap;
}

void
jsonscan_want(struct jsonscan *js, const char *const *keys)
{
	js->want = keys;
}

void
jsonscan_set_meta_bytes(struct jsonscan *js, size_t big, size_t small)
{
	js->meta_big = big;
	js->meta_small = small;
}

int
jsonscan_next(struct jsonscan *js, struct jsonscan_item **item, char **cause)
{
	int	rc, step;

	cJSON_Delete(js->meta);
	js->meta = NULL;
	free(js->key);
	js->key = NULL;
	for (;;) {
		if (js->state == ST_FAILED) {
			*cause = xstrdup(js->err != NULL ? js->err :
			    "JSON error");
			return -1;
		}
		if (js->state == ST_END)
			return 0;
		js->depth = 0;
		step = STEP_AGAIN;
		rc = js_step(js, &step);
		if (rc == JS_MORE) {
			if (jsonscan_input_refill(js) != 0)
				js->state = ST_FAILED;
			continue;
		}
		if (rc == JS_ERR) {
			js->state = ST_FAILED;
			continue;
		}
		if (step == STEP_ITEM) {
			*item = &js->item;
			return 1;
		}
		if (step == STEP_END)
			js->state = ST_END;
	}
}

uint64_t
jsonscan_offset(const struct jsonscan *js)
{
	return js->base + js->pos;
}

uint64_t
jsonscan_raw_offset(const struct jsonscan *js)
{
	uint64_t	off;

	if (js->pipe != NULL) {
		pthread_mutex_lock(&js->pipe->mu);
		off = js->pipe->raw_off;
		pthread_mutex_unlock(&js->pipe->mu);
		return off;
	}
	return js->zf != NULL ? zfile_raw_offset(js->zf) : js->base + js->pos;
}

uint64_t
jsonscan_raw_size(const struct jsonscan *js)
{
	return js->zf != NULL ? zfile_raw_size(js->zf) : js->hi;
}

int
jsonscan_container(const struct jsonscan *js)
{
	return js->container;
}
