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
 * and costs a few branches per structural character; numbers are kept as text and converted only
 * when the caller asks (jsonscan_us_ns parses microsecond timestamps
 * digit by digit into exact nanoseconds).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/jsonscan.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

#define JS_CHUNK	(256u << 10)	/* initial buffer size */
#define JS_PIPE_CHUNK	(128u << 10)	/* decompressed chunk size */
#define JS_PIPE_N	4		/* chunks in flight */
#define JS_PIPE_STACK	(256u << 10)	/* the reader thread's stack */
#define JS_MAX_DEPTH	512		/* nesting limit of skipped values */
#define JS_NUMTEXT	64		/* longest number converted via text */

enum { JS_OK = 0, JS_MORE = 1, JS_ERR = -1, JS_DONE = 2 };

/* Byte-parallel tests on a uint64_t (any byte zero; any byte below n,
 * n <= 128). */
#define JS_ONES		0x0101010101010101ULL
#define JS_HIGHS	0x8080808080808080ULL
#define JS_HASZERO(x)	(((x) - JS_ONES) & ~(x) & JS_HIGHS)
#define JS_HASLESS(x, n) (((x) - JS_ONES * (n)) & ~(x) & JS_HIGHS)

enum js_state {
	ST_START = 0,	/* before the top-level value */
	ST_OBJ,		/* in the top-level object: a key or '}' */
	ST_EVENTS,	/* in the event array: an event or ']' */
	ST_META,	/* a top-level member's value (key and ':' read) */
	ST_SKIP,	/* streaming past a member's value (struct js_skip) */
	ST_DONE,	/* after the top-level value: only whitespace */
	ST_END,		/* the end was reported */
	ST_FAILED,	/* an error was reported */
};

/*
 * The decompression thread: it fills a ring of JS_PIPE_N chunks from the
 * zfile while the parser works, so inflating and parsing overlap on two
 * cores. Slots [head, head + count) are full and belong to the consumer;
 * the next one belongs to the reader. An error is reported once the
 * chunks read before it have been consumed, as a sequential read would.
 */
struct js_pipe {
	pthread_t		 th;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	char			*chunk[JS_PIPE_N];
	size_t			 len[JS_PIPE_N];
	size_t			 head, count;
	size_t			 off;		/* consumed of chunk[head] */
	int			 done;		/* EOF or error reached */
	int			 stop;		/* close: the reader quits */
	char			*err;
	uint64_t		 raw_off;
};

/*
 * Streaming past a value without holding it (ST_SKIP): a pushdown
 * automaton that consumes one token at a time, so that only the token
 * being read (a number, a literal, or what is left of a string) is in the
 * buffer. It validates as js_value does.
 */
enum js_expect {
	EX_VALUE = 0,		/* a value */
	EX_VALUE_OR_CLOSE,	/* after '[': a value or ']' */
	EX_KEY,			/* after ',' in an object */
	EX_KEY_OR_CLOSE,	/* after '{': a key or '}' */
	EX_COLON,
	EX_COMMA_OR_CLOSE,	/* after a value inside a container */
	EX_IN_STRING,		/* inside a string (a value or a key) */
};

struct js_skip {
	int		 depth;
	int		 expect;	/* enum js_expect */
	int		 after;		/* IN_STRING: what follows the string */
	uint64_t	 nodes;
	char		 stack[JS_MAX_DEPTH];	/* '{' or '[' */
};

struct jsonscan {
	char			*name;		/* for messages */
	struct zfile		*zf;		/* NULL: memory */
	struct js_pipe		*pipe;		/* NULL: read in this thread */
	char			*buf;
	size_t			 cap, pos, hi;
	uint64_t		 base;		/* stream offset of buf[0] */
	int			 eof;
	enum js_state		 state;
	int			 first;		/* no comma before this one */
	int			 bare;		/* the document is an array */
	int			 container;	/* '{' or '[' */
	size_t			 maxitem;
	uint64_t		 index;		/* next event's position */

	struct jsonscan_member	*m;
	size_t			 n, mcap;
	struct jsonscan_item	 item;
	char			*key;		/* META key */
	cJSON			*meta;

	char			*err;		/* last error, full message */
	int			 depth;

	/* Top-level members other than the event array. */
	int			 comma;		/* the ',' before this unit was
						   consumed */
	const char *const	*want;		/* jsonscan_want(), or NULL */
	size_t			 meta_big, meta_small;	/* the bounds */
	size_t			 mlimit;	/* bytes the value may hold */
	uint64_t		 mstart;	/* offset of the value */
	uint64_t		 nodes;		/* values parsed in this unit */
	struct js_skip		 skip;
};

/* Bytes that end the fast scan of a string: controls, '"' and '\\'. */
static const uint8_t js_stop[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static int
js_fail(struct jsonscan *js, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
js_fail(struct jsonscan *js, const char *at, const char *fmt, ...)
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

static const char *
js_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'))
		p++;
	return p;
}

static int
js_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A string starting at *pp (the opening quote). */
static int
js_string(struct jsonscan *js, const char **pp, struct jsonscan_val *v)
{
	const char	*end = js->buf + js->hi, *s = *pp + 1, *p = s;
	int		 esc = 0, k;

	for (;;) {
		/* Eight bytes at a time while none is '"', '\\' or a
		 * control character (the usual bit tricks), then bytewise. */
		while (end - p >= 8) {
			uint64_t x, hit;
			memcpy(&x, p, 8);
			hit = JS_HASZERO(x ^ (JS_ONES * '"')) |
			    JS_HASZERO(x ^ (JS_ONES * '\\')) |
			    JS_HASLESS(x, 0x20);
			if (hit != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
				/* The lowest flagged byte is a true hit. */
				p += __builtin_ctzll(hit) >> 3;
#endif
				break;
			}
			p += 8;
		}
		while (p < end && !js_stop[(unsigned char)*p])
			p++;
		if (p >= end)
			return JS_MORE;
		if (*p == '"')
			break;
		if (*p != '\\')
			return js_fail(js, p, "control character 0x%02x in a "
			    "string", (unsigned char)*p);
		if (p + 1 >= end)
			return JS_MORE;
		switch (p[1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n':
		case 'r': case 't':
			p += 2;
			break;
		case 'u':
			if (p + 6 > end)
				return JS_MORE;
			for (k = 2; k < 6; k++)
				if (js_hex((unsigned char)p[k]) < 0)
					return js_fail(js, p, "bad \\u escape "
					    "in a string");
			p += 6;
			break;
		default:
			return js_fail(js, p, "invalid escape in a string");
		}
		esc = 1;
	}
	v->type = JSONSCAN_STRING;
	v->p = s;
	v->len = (size_t)(p - s);
	v->esc = (uint8_t)esc;
	*pp = p + 1;
	return JS_OK;
}

/* A literal (true, false, null, NaN, Infinity) at *pp. */
static int
js_literal(struct jsonscan *js, const char **pp, const char *lit, int type,
    struct jsonscan_val *v)
{
	const char	*p = *pp, *end = js->buf + js->hi;
	size_t		 n = strlen(lit), avail = (size_t)(end - p);

	if (memcmp(p, lit, avail < n ? avail : n) != 0)
		return js_fail(js, p, "invalid literal");
	if (avail < n)
		return JS_MORE;
	v->type = (uint8_t)type;
	v->p = p;
	v->len = n;
	v->esc = 0;
	*pp = p + n;
	return JS_OK;
}

static int
js_digits(const char **pp, const char *end)
{
	const char	*p = *pp;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	*pp = p;
	return p < end ? JS_OK : JS_MORE;
}

/* A number at *pp: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, or
 * -Infinity. */
static int
js_number(struct jsonscan *js, const char **pp, struct jsonscan_val *v)
{
	const char	*s = *pp, *p = s, *end = js->buf + js->hi;

	if (*p == '-') {
		if (++p >= end)
			return JS_MORE;
		if (*p == 'I') {
			int rc = js_literal(js, &p, "Infinity",
			    JSONSCAN_NUMBER, v);
			if (rc != JS_OK)
				return rc;
			v->p = s;
			v->len = (size_t)(p - s);
			*pp = p;
			return JS_OK;
		}
	}
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9') {
		if (js_digits(&p, end) != JS_OK)
			return JS_MORE;
	} else
		return js_fail(js, p, "invalid number");
	if (p >= end)
		return JS_MORE;
	if (*p == '.') {
		if (++p >= end)
			return JS_MORE;
		if (*p < '0' || *p > '9')
			return js_fail(js, p, "invalid number (no digit "
			    "after '.')");
		if (js_digits(&p, end) != JS_OK)
			return JS_MORE;
	}
	if (*p == 'e' || *p == 'E') {
		if (++p >= end)
			return JS_MORE;
		if (*p == '+' || *p == '-')
			if (++p >= end)
				return JS_MORE;
		if (*p < '0' || *p > '9')
			return js_fail(js, p, "invalid number (bad "
			    "exponent)");
		if (js_digits(&p, end) != JS_OK)
			return JS_MORE;
	}
	v->type = JSONSCAN_NUMBER;
	v->p = s;
	v->len = (size_t)(p - s);
	v->esc = 0;
	*pp = p;
	return JS_OK;
}

static int	js_value(struct jsonscan *, const char **, struct jsonscan_val *);

/* Skips (validating) an array or object at *pp; v spans it. */
static int
js_container(struct jsonscan *js, const char **pp, struct jsonscan_val *v)
{
	const char		*s = *pp, *p = s + 1, *end = js->buf + js->hi;
	struct jsonscan_val	 x;
	int			 obj = *s == '{', rc;
	char			 close = obj ? '}' : ']';

	if (++js->depth > JS_MAX_DEPTH) {
		js->depth--;
		return js_fail(js, s, "nesting deeper than %d levels",
		    JS_MAX_DEPTH);
	}
	p = js_ws(p, end);
	if (p >= end)
		goto more;
	if (*p != close) {
		for (;;) {
			if (obj) {
				if (*p != '"') {
					rc = js_fail(js, p, "expected a string "
					    "key in an object");
					goto out;
				}
				if ((rc = js_string(js, &p, &x)) != JS_OK)
					goto out;
				p = js_ws(p, end);
				if (p >= end)
					goto more;
				if (*p != ':') {
					rc = js_fail(js, p, "expected ':' "
					    "after an object key");
					goto out;
				}
				p = js_ws(p + 1, end);
				if (p >= end)
					goto more;
			}
			if ((rc = js_value(js, &p, &x)) != JS_OK)
				goto out;
			p = js_ws(p, end);
			if (p >= end)
				goto more;
			if (*p == close)
				break;
			if (*p != ',') {
				rc = js_fail(js, p, "expected ',' or '%c' in "
				    "an %s", close, obj ? "object" : "array");
				goto out;
			}
			p = js_ws(p + 1, end);
			if (p >= end)
				goto more;
		}
	}
	p++;
	v->type = obj ? JSONSCAN_OBJECT : JSONSCAN_ARRAY;
	v->p = s;
	v->len = (size_t)(p - s);
	v->esc = 0;
	*pp = p;
	js->depth--;
	return JS_OK;
more:
	rc = JS_MORE;
out:
	js->depth--;
	return rc;
}

/* Any value at *pp (p < end). */
static int
js_value(struct jsonscan *js, const char **pp, struct jsonscan_val *v)
{
	js->nodes++;
	switch (**pp) {
	case '"':
		return js_string(js, pp, v);
	case '{':
	case '[':
		return js_container(js, pp, v);
	case 't':
		return js_literal(js, pp, "true", JSONSCAN_TRUE, v);
	case 'f':
		return js_literal(js, pp, "false", JSONSCAN_FALSE, v);
	case 'n':
		return js_literal(js, pp, "null", JSONSCAN_NULL, v);
	case 'N':
		return js_literal(js, pp, "NaN", JSONSCAN_NUMBER, v);
	case 'I':
		return js_literal(js, pp, "Infinity", JSONSCAN_NUMBER, v);
	case '-': case '0': case '1': case '2': case '3': case '4': case '5':
	case '6': case '7': case '8': case '9':
		return js_number(js, pp, v);
	}
	if ((unsigned char)**pp < 0x20 || (unsigned char)**pp >= 0x7f)
		return js_fail(js, *pp, "unexpected byte 0x%02x",
		    (unsigned char)**pp);
	return js_fail(js, *pp, "unexpected character '%c'", **pp);
}

/* The rest of a string being skipped: JS_OK past its closing quote, or
 * JS_MORE with *pp where reading must resume (an escape is never split). */
static int
js_skip_string(struct jsonscan *js, const char **pp)
{
	const char	*p = *pp, *end = js->buf + js->hi;
	int		 k;

	for (;;) {
		while (p < end && !js_stop[(unsigned char)*p])
			p++;
		if (p >= end)
			break;
		if (*p == '"') {
			*pp = p + 1;
			return JS_OK;
		}
		if (*p != '\\')
			return js_fail(js, p, "control character 0x%02x in a "
			    "string", (unsigned char)*p);
		if (p + 1 >= end)
			break;
		if (p[1] == 'u') {
			if (p + 6 > end)
				break;
			for (k = 2; k < 6; k++)
				if (js_hex((unsigned char)p[k]) < 0)
					return js_fail(js, p, "bad \\u escape "
					    "in a string");
			p += 6;
		} else if (strchr("\"\\/bfnrt", p[1]) != NULL && p[1] != '\0')
			p += 2;
		else
			return js_fail(js, p, "invalid escape in a string");
	}
	*pp = p;
	return JS_MORE;
}

/* After a complete value inside the skipped one: 1 if it was the whole. */
static int
js_skip_after_value(struct js_skip *sk)
{
	sk->nodes++;
	if (sk->depth == 0)
		return 1;
	sk->expect = EX_COMMA_OR_CLOSE;
	return 0;
}

/*
 * Skips on from js->pos: JS_DONE when the value is complete (js->pos after
 * it), else JS_MORE or JS_ERR. Every complete token moves js->pos, so a
 * refill keeps only the token being read.
 */
static int
js_skip_step(struct jsonscan *js)
{
	struct js_skip		*sk = &js->skip;
	struct jsonscan_val	 v;
	const char		*p, *end = js->buf + js->hi;
	char			 top;
	int			 rc;

	for (;;) {
		p = js->buf + js->pos;
		if (sk->expect == EX_IN_STRING) {
			rc = js_skip_string(js, &p);
			js->pos = (size_t)(p - js->buf);
			if (rc != JS_OK)
				return rc;
			sk->expect = sk->after;
			if (sk->expect == EX_COMMA_OR_CLOSE &&
			    js_skip_after_value(sk))
				return JS_DONE;
			continue;
		}
		p = js_ws(p, end);
		js->pos = (size_t)(p - js->buf);
		if (p >= end)
			return JS_MORE;
		top = sk->depth > 0 ? sk->stack[sk->depth - 1] : 0;
		switch (sk->expect) {
		case EX_VALUE_OR_CLOSE:
			if (*p == ']')
				goto close;
			/* FALLTHROUGH */
		case EX_VALUE:
			if (*p == '{' || *p == '[') {
				if (sk->depth >= JS_MAX_DEPTH)
					return js_fail(js, p, "nesting deeper "
					    "than %d levels", JS_MAX_DEPTH);
				sk->stack[sk->depth++] = *p;
				sk->expect = *p == '{' ? EX_KEY_OR_CLOSE :
				    EX_VALUE_OR_CLOSE;
				js->pos++;
				continue;
			}
			if (*p == '"') {
				sk->expect = EX_IN_STRING;
				sk->after = EX_COMMA_OR_CLOSE;
				js->pos++;
				continue;
			}
			if ((rc = js_value(js, &p, &v)) != JS_OK)
				return rc;
			js->pos = (size_t)(p - js->buf);
			if (js_skip_after_value(sk))
				return JS_DONE;
			continue;
		case EX_KEY_OR_CLOSE:
			if (*p == '}')
				goto close;
			/* FALLTHROUGH */
		case EX_KEY:
			if (*p != '"')
				return js_fail(js, p, "expected a string key in "
				    "an object");
			sk->expect = EX_IN_STRING;
			sk->after = EX_COLON;
			js->pos++;
			continue;
		case EX_COLON:
			if (*p != ':')
				return js_fail(js, p, "expected ':' after an "
				    "object key");
			sk->expect = EX_VALUE;
			js->pos++;
			continue;
		case EX_COMMA_OR_CLOSE:
			if (*p == ',') {
				sk->expect = top == '{' ? EX_KEY : EX_VALUE;
				js->pos++;
				continue;
			}
			if (*p == (top == '{' ? '}' : ']'))
				goto close;
			return js_fail(js, p, "expected ',' or '%c' in an %s",
			    top == '{' ? '}' : ']', top == '{' ? "object" :
			    "array");
		}
		continue;
close:
		sk->depth--;
		js->pos++;
		if (js_skip_after_value(sk))
			return JS_DONE;
	}
}

/*
 * An event object at *pp: its members are recorded, and at level 0 the
 * members of object values too. Keys and values are parsed straight into
 * the member array (no temporaries to copy).
 */
static int
js_event(struct jsonscan *js, const char **pp, int level)
{
	const char		*s = *pp, *p = s + 1, *end = js->buf + js->hi;
	const char		*vs;
	struct jsonscan_member	*mb;
	size_t			 idx;
	int			 rc;

	p = js_ws(p, end);
	if (p >= end)
		return JS_MORE;
	if (*p != '}') {
		for (;;) {
			if (*p != '"')
				return js_fail(js, p, "expected a string key "
				    "in an object");
			if (js->n == js->mcap)
				XGROW(js->m, js->mcap, js->n + 1);
			idx = js->n;
			mb = &js->m[idx];
			if ((rc = js_string(js, &p, &mb->key)) != JS_OK)
				return rc;
			p = js_ws(p, end);
			if (p >= end)
				return JS_MORE;
			if (*p != ':')
				return js_fail(js, p, "expected ':' after an "
				    "object key");
			p = js_ws(p + 1, end);
			if (p >= end)
				return JS_MORE;
			js->n = idx + 1;
			if (*p == '{' && level == 0) {
				vs = p;
				if ((rc = js_event(js, &p, 1)) != JS_OK)
					return rc;
				mb = &js->m[idx];	/* may have moved */
				mb->val.type = JSONSCAN_OBJECT;
				mb->val.p = vs;
				mb->val.len = (size_t)(p - vs);
				mb->val.esc = 0;
				mb->nkids = (uint32_t)(js->n - idx - 1);
			} else {
				if ((rc = js_value(js, &p, &mb->val)) != JS_OK)
					return rc;
				mb->nkids = 0;
			}
			p = js_ws(p, end);
			if (p >= end)
				return JS_MORE;
			if (*p == '}')
				break;
			if (*p != ',')
				return js_fail(js, p, "expected ',' or '}' in "
				    "an object");
			p = js_ws(p + 1, end);
			if (p >= end)
				return JS_MORE;
		}
	}
	*pp = p + 1;
	return JS_OK;
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
			return js_fail(js, p, "a trace must be a JSON object "
			    "or array");
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
		if (!js->first && !js->comma) {
			if (*p != ',')
				return js_fail(js, p, "expected ',' or '}' in "
				    "the top-level object");
			js->comma = 1;
			p = js_ws(p + 1, end);
			js->pos = (size_t)(p - js->buf);
			if (p >= end)
				return JS_MORE;
		}
		if (*p != '"')
			return js_fail(js, p, "expected a string key in the "
			    "top-level object");
		if ((rc = js_string(js, &p, &key)) != JS_OK)
			return rc;
		p = js_ws(p, end);
		if (p >= end)
			return JS_MORE;
		if (*p != ':')
			return js_fail(js, p, "expected ':' after an object "
			    "key");
		p = js_ws(p + 1, end);
		if (p >= end)
			return JS_MORE;
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
		rc = js_value(js, &p, &val);
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
		if ((rc = js_skip_step(js)) != JS_DONE)
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
		if (!js->first && !js->comma) {
			if (*p != ',')
				return js_fail(js, p, "expected ',' or ']' in "
				    "the event array");
			js->comma = 1;
			p = js_ws(p + 1, end);
			js->pos = (size_t)(p - js->buf);
			if (p >= end)
				return JS_MORE;
		}
		if (*p != '{')
			return js_fail(js, p, "expected an event object in "
			    "the event array");
		s = p;
		js->n = 0;
		if ((rc = js_event(js, &p, 0)) != JS_OK)
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
			return js_fail(js, p, "data after the end of the "
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

static void *
js_reader(void *arg)
{
	struct jsonscan	*js = arg;
	struct js_pipe	*pp = js->pipe;
	char		*cause = NULL;
	size_t		 slot, n;
	ssize_t		 r;
	int		 end = 0;

	while (!end) {
		pthread_mutex_lock(&pp->mu);
		while (pp->count == JS_PIPE_N && !pp->stop)
			pthread_cond_wait(&pp->cv, &pp->mu);
		if (pp->stop) {
			pthread_mutex_unlock(&pp->mu);
			break;
		}
		slot = (pp->head + pp->count) % JS_PIPE_N;
		pthread_mutex_unlock(&pp->mu);

		for (n = 0; n < JS_PIPE_CHUNK; n += (size_t)r) {
			r = zfile_read(js->zf, pp->chunk[slot] + n,
			    JS_PIPE_CHUNK - n, &cause);
			if (r <= 0) {
				end = 1;
				break;
			}
		}

		pthread_mutex_lock(&pp->mu);
		pp->len[slot] = n;
		if (n > 0)
			pp->count++;
		pp->raw_off = zfile_raw_offset(js->zf);
		if (end) {
			pp->done = 1;
			pp->err = cause;
		}
		pthread_cond_broadcast(&pp->cv);
		pthread_mutex_unlock(&pp->mu);
	}
	return NULL;
}

static void
js_pipe_start(struct jsonscan *js)
{
	struct js_pipe	*pp;
	pthread_attr_t	 attr;
	int		 i, rc;

	pp = xcalloc(1, sizeof *pp);
	for (i = 0; i < JS_PIPE_N; i++)
		pp->chunk[i] = xmalloc(JS_PIPE_CHUNK);
	pthread_mutex_init(&pp->mu, NULL);
	pthread_cond_init(&pp->cv, NULL);
	js->pipe = pp;
	/* A small stack: the reader only decompresses (and address space
	 * may be limited, see --max-memory). */
	pthread_attr_init(&attr);
	(void)pthread_attr_setstacksize(&attr, JS_PIPE_STACK);
	rc = pthread_create(&pp->th, &attr, js_reader, js);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		/* No thread: read in this one. */
		js->pipe = NULL;
		for (i = 0; i < JS_PIPE_N; i++)
			free(pp->chunk[i]);
		pthread_mutex_destroy(&pp->mu);
		pthread_cond_destroy(&pp->cv);
		free(pp);
	}
}

static void
js_pipe_stop(struct jsonscan *js)
{
	struct js_pipe	*pp = js->pipe;
	int		 i;

	if (pp == NULL)
		return;
	pthread_mutex_lock(&pp->mu);
	pp->stop = 1;
	pthread_cond_broadcast(&pp->cv);
	pthread_mutex_unlock(&pp->mu);
	pthread_join(pp->th, NULL);
	for (i = 0; i < JS_PIPE_N; i++)
		free(pp->chunk[i]);
	free(pp->err);
	pthread_mutex_destroy(&pp->mu);
	pthread_cond_destroy(&pp->cv);
	free(pp);
	js->pipe = NULL;
}

/* Up to len bytes from the reader thread: the count, 0 at the end, or -1
 * with *cause. */
static ssize_t
js_pipe_read(struct js_pipe *pp, char *dst, size_t len, char **cause)
{
	size_t	n;

	pthread_mutex_lock(&pp->mu);
	while (pp->count == 0 && !pp->done)
		pthread_cond_wait(&pp->cv, &pp->mu);
	if (pp->count == 0) {
		pthread_mutex_unlock(&pp->mu);
		if (pp->err != NULL) {
			*cause = xstrdup(pp->err);
			return -1;
		}
		return 0;
	}
	pthread_mutex_unlock(&pp->mu);
	/* chunk[head] is ours until count drops. */
	n = pp->len[pp->head] - pp->off;
	if (n > len)
		n = len;
	memcpy(dst, pp->chunk[pp->head] + pp->off, n);
	pp->off += n;
	if (pp->off == pp->len[pp->head]) {
		pthread_mutex_lock(&pp->mu);
		pp->head = (pp->head + 1) % JS_PIPE_N;
		pp->count--;
		pp->off = 0;
		pthread_cond_broadcast(&pp->cv);
		pthread_mutex_unlock(&pp->mu);
	}
	return (ssize_t)n;
}

/* Keeps buf[pos, hi), reads more behind it. 0, or -1 with js->err. */
static int
js_refill(struct jsonscan *js)
{
	char		*cause = NULL;
	ssize_t		 r;
	size_t		 ncap;
	const char	*what, *p, *end;

	if (js->eof) {
		switch (js->state) {
		case ST_START:
			what = js->base + js->hi == 0 ? "empty document" :
			    "no JSON value";
			break;
		case ST_EVENTS:
			/* Inside an event, or between events? */
			p = js->buf + js->pos;
			end = js->buf + js->hi;
			while (p < end && (*p == ',' || *p == ' ' ||
			    *p == '\n' || *p == '\r' || *p == '\t'))
				p++;
			if (p < end && *p == '{') {
				free(js->err);
				js->err = xasprintf("%s: truncated JSON: the "
				    "data ends at byte %llu, inside the event "
				    "that starts at byte %llu", js->name,
				    (unsigned long long)(js->base + js->hi),
				    (unsigned long long)(js->base +
				    (uint64_t)(p - js->buf)));
				return -1;
			}
			what = "in the event array";
			break;
		default:
			what = "inside the top-level object";
			break;
		}
		free(js->err);
		js->err = xasprintf("%s: truncated JSON: the data ends at byte "
		    "%llu, %s (from byte %llu)", js->name,
		    (unsigned long long)(js->base + js->hi), what,
		    (unsigned long long)(js->base + js->pos));
		if (js->state == ST_START) {
			free(js->err);
			js->err = xasprintf("%s: %s (%llu bytes)", js->name,
			    what, (unsigned long long)(js->base + js->hi));
		}
		return -1;
	}
	if (js->pos > 0) {
		memmove(js->buf, js->buf + js->pos, js->hi - js->pos);
		js->base += js->pos;
		js->hi -= js->pos;
		js->pos = 0;
	}
	if (js->hi == js->cap) {
		if (js->cap >= js->maxitem) {
			free(js->err);
			js->err = xasprintf("%s: an item larger than %zu bytes "
			    "at byte %llu (limit reached)", js->name,
			    js->maxitem, (unsigned long long)js->base);
			return -1;
		}
		ncap = js->cap * 2;
		if (ncap > js->maxitem)
			ncap = js->maxitem;
		js->buf = xrealloc(js->buf, ncap);
		js->cap = ncap;
	}
	/* Fill the buffer: the unit is parsed again from its start only
	 * once the buffer has doubled, so a long one costs linear time. */
	while (js->hi < js->cap) {
		if (js->pipe != NULL)
			r = js_pipe_read(js->pipe, js->buf + js->hi, js->cap -
			    js->hi, &cause);
		else
			r = zfile_read(js->zf, js->buf + js->hi, js->cap -
			    js->hi, &cause);
		if (r < 0) {
			free(js->err);
			js->err = cause;
			return -1;
		}
		if (r == 0) {
			js->eof = 1;
			break;
		}
		js->hi += (size_t)r;
	}
	return 0;
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
	js_pipe_start(js);
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
	js_pipe_stop(js);
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
			if (js_refill(js) != 0)
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

/* Value helpers. */

static char *
js_utf8(char *w, uint32_t cp)
{
	if (cp == 0) {
		*w++ = (char)0xc0;	/* modified UTF-8: no NUL in text */
		*w++ = (char)0x80;
	} else if (cp < 0x80)
		*w++ = (char)cp;
	else if (cp < 0x800) {
		*w++ = (char)(0xc0 | cp >> 6);
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xe0 | cp >> 12);
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*w++ = (char)(0xf0 | cp >> 18);
		*w++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	}
	return w;
}

static uint32_t
js_u4(const char *p)
{
	return (uint32_t)(js_hex((unsigned char)p[0]) << 12 |
	    js_hex((unsigned char)p[1]) << 8 | js_hex((unsigned char)p[2]) <<
	    4 | js_hex((unsigned char)p[3]));
}

int
jsonscan_str(struct jsonscan_val *v)
{
	const char	*r, *e;
	char		*w;
	uint32_t	 cp, lo;

	if (v->type != JSONSCAN_STRING)
		return -1;
	if (!v->esc)
		return 0;
	r = v->p;
	e = v->p + v->len;
	w = (char *)(uintptr_t)v->p;	/* the scanner's own buffer */
	while (r < e) {
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		/* The scanner checked every escape; stay safe anyway. */
		if (r + 1 >= e)
			break;
		switch (r[1]) {
		case 'b': *w++ = '\b'; r += 2; continue;
		case 'f': *w++ = '\f'; r += 2; continue;
		case 'n': *w++ = '\n'; r += 2; continue;
		case 'r': *w++ = '\r'; r += 2; continue;
		case 't': *w++ = '\t'; r += 2; continue;
		case 'u': break;
		default: *w++ = r[1]; r += 2; continue;
		}
		if (r + 6 > e)
			break;
		cp = js_u4(r + 2);
		r += 6;
		if (cp >= 0xd800 && cp <= 0xdbff && r + 6 <= e && r[0] ==
		    '\\' && r[1] == 'u' && (lo = js_u4(r + 2)) >= 0xdc00 &&
		    lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			r += 6;
		} else if (cp >= 0xd800 && cp <= 0xdfff)
			cp = 0xfffd;	/* a lone surrogate */
		w = js_utf8(w, cp);
	}
	v->len = (size_t)(w - v->p);
	v->esc = 0;
	return 0;
}

int
jsonscan_is(const struct jsonscan_val *v, const char *s)
{
	size_t	n = strlen(s);

	return v->type == JSONSCAN_STRING && !v->esc && v->len == n &&
	    memcmp(v->p, s, n) == 0;
}

int
jsonscan_is_ci(const struct jsonscan_val *v, const char *s)
{
	size_t	n = strlen(s), i;
	int	a, b;

	if (v->type != JSONSCAN_STRING || v->esc || v->len != n)
		return 0;
	for (i = 0; i < n; i++) {
		a = (unsigned char)v->p[i];
		b = (unsigned char)s[i];
		if (a >= 'A' && a <= 'Z')
			a += 'a' - 'A';
		if (b >= 'A' && b <= 'Z')
			b += 'a' - 'A';
		if (a != b)
			return 0;
	}
	return 1;
}

/* The numeric text of v (a NUMBER, or a STRING without escapes). */
static int
js_numtext(const struct jsonscan_val *v, const char **p, size_t *len)
{
	if (v->type == JSONSCAN_NUMBER || (v->type == JSONSCAN_STRING &&
	    !v->esc)) {
		*p = v->p;
		*len = v->len;
		return *len > 0 ? 0 : -1;
	}
	return -1;
}

int
jsonscan_i64(const struct jsonscan_val *v, int64_t *out)
{
	const char	*p, *e;
	size_t		 len;
	uint64_t	 u = 0, lim;
	int		 neg = 0;

	if (js_numtext(v, &p, &len) != 0)
		return -1;
	e = p + len;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p == e)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (u > (lim - (uint64_t)(*p - '0')) / 10)
			return -1;
		u = u * 10 + (uint64_t)(*p - '0');
	}
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

int
jsonscan_double(const struct jsonscan_val *v, double *out)
{
	char		 buf[JS_NUMTEXT], *end;
	const char	*p;
	size_t		 len;

	if (js_numtext(v, &p, &len) != 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	if (end != buf + len || end == buf)
		return -1;
	return 0;
}

int
jsonscan_us_ns(const struct jsonscan_val *v, int64_t *ns)
{
	const char	*p, *e, *q;
	size_t		 len;
	uint64_t	 ip = 0, frac = 0, lim;
	int		 neg = 0, k = 0, round = 0;
	double		 d;

	if (js_numtext(v, &p, &len) != 0)
		return -1;
	e = p + len;
	for (q = p; q < e; q++)
		if (*q == 'e' || *q == 'E' || *q == 'N' || *q == 'I')
			break;
	if (q < e) {
		/* An exponent (or NaN/Infinity): through a double. */
		if (jsonscan_double(v, &d) != 0 || !(d > -9.2e15 &&
		    d < 9.2e15))
			return -1;	/* NaN and Infinity too */
		d *= 1000.0;
		*ns = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
		return 0;
	}
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p == e || *p < '0' || *p > '9')
		return -1;
	lim = (uint64_t)INT64_MAX / 1000 - 1;
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		ip = ip * 10 + (uint64_t)(*p - '0');
		if (ip > lim)
			return -1;
	}
	if (p < e && *p == '.') {
		p++;
		for (; p < e && *p >= '0' && *p <= '9'; p++) {
			if (k < 3)
				frac = frac * 10 + (uint64_t)(*p - '0');
			else if (k == 3)
				round = *p >= '5';
			k++;
		}
	}
	if (p != e)
		return -1;
	for (; k < 3; k++)
		frac *= 10;
	ip = ip * 1000 + frac + (uint64_t)round;
	*ns = neg ? -(int64_t)ip : (int64_t)ip;
	return 0;
}

int
jsonscan_i64_array(const struct jsonscan_val *v, int64_t *out, size_t max)
{
	const char		*p, *e, *s;
	struct jsonscan_val	 x;
	int64_t			 i;
	int			 n = 0;

	if (v->type != JSONSCAN_ARRAY)
		return -1;
	p = v->p + 1;
	e = v->p + v->len - 1;		/* the closing ']' */
	p = js_ws(p, e);
	while (p < e) {
		s = p;
		while (p < e && *p != ',' && *p != ' ' && *p != '\n' &&
		    *p != '\r' && *p != '\t')
			p++;
		x.type = JSONSCAN_NUMBER;
		x.p = s;
		x.len = (size_t)(p - s);
		x.esc = 0;
		if (jsonscan_i64(&x, &i) != 0)
			return -1;
		if ((size_t)n < max)
			out[n] = i;
		n++;
		p = js_ws(p, e);
		if (p < e) {
			if (*p != ',')
				return -1;
			p = js_ws(p + 1, e);
		}
	}
	return n;
}
