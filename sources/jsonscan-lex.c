/*
 * jsonscan-lex: the recursive-descent parser of one unit: strings (scanned
 * eight bytes at a time; escapes validated, decoded later), numbers (kept as
 * text), literals (NaN and Infinity too, as Python writes them), arrays and
 * objects (validated and kept as spans), and an element of the event array
 * (a flat list of members: the object's own, and those of its object values
 * right after them). It only reads the buffer: when it runs off the end it
 * returns JS_MORE and nothing was consumed.
 */
#include "config.h"

#include <string.h>

#include "sources/jsonscan.h"
#include "sources/jsonscan-int.h"
#include "util/xmalloc.h"

/* Bytes that end the fast scan of a string: controls, '"' and '\\'. */
const uint8_t jsonscan_lex_stop[256] = {
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

/* A string starting at *pp (the opening quote). */
int
jsonscan_lex_string(struct jsonscan *js, const char **pp,
    struct jsonscan_val *v)
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
		while (p < end && !jsonscan_lex_stop[(unsigned char)*p])
			p++;
		if (p >= end)
			return JS_MORE;
		if (*p == '"')
			break;
		if (*p != '\\')
			return jsonscan_fail(js, p, "control character 0x%02x "
			    "in a string", (unsigned char)*p);
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
					return jsonscan_fail(js, p, "bad \\u "
					    "escape in a string");
			p += 6;
			break;
		default:
			return jsonscan_fail(js, p, "invalid escape in a "
			    "string");
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
		return jsonscan_fail(js, p, "invalid literal");
	if (avail < n)
		return JS_MORE;
	v->type = (uint8_t)type;
	v->p = p;
	v->len = n;
	v->esc = 0;
	*pp = p + n;
	return JS_OK;
}

/* The digits at *pp, *pp moved past them; unless why is NULL, at least
 * one (else the error "invalid number (why)"). JS_OK, JS_MORE at the end of
 * the buffer, or JS_ERR. */
static int
js_digits(struct jsonscan *js, const char **pp, const char *end,
    const char *why)
{
	const char	*p = *pp;

	if (why != NULL && (*p < '0' || *p > '9'))
		return jsonscan_fail(js, p, "invalid number (%s)", why);
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
	int		 rc;

	if (*p == '-') {
		if (++p >= end)
			return JS_MORE;
		if (*p == 'I') {
			rc = js_literal(js, &p, "Infinity", JSONSCAN_NUMBER, v);
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
		if (js_digits(js, &p, end, NULL) != JS_OK)
			return JS_MORE;
	} else
		return jsonscan_fail(js, p, "invalid number");
	if (p >= end)
		return JS_MORE;
	if (*p == '.') {
		if (++p >= end)
			return JS_MORE;
		if ((rc = js_digits(js, &p, end, "no digit after '.'")) !=
		    JS_OK)
			return rc;
	}
	if (*p == 'e' || *p == 'E') {
		if (++p >= end)
			return JS_MORE;
		if (*p == '+' || *p == '-')
			if (++p >= end)
				return JS_MORE;
		if ((rc = js_digits(js, &p, end, "bad exponent")) != JS_OK)
			return rc;
	}
	v->type = JSONSCAN_NUMBER;
	v->p = s;
	v->len = (size_t)(p - s);
	v->esc = 0;
	*pp = p;
	return JS_OK;
}

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
		return jsonscan_fail(js, s, "nesting deeper than %d levels",
		    JS_MAX_DEPTH);
	}
	p = js_ws(p, end);
	if (p >= end)
		goto more;
	if (*p != close) {
		for (;;) {
			if (obj) {
				if (*p != '"') {
					rc = jsonscan_fail(js, p, "expected a "
					    "string key in an object");
					goto out;
				}
				if ((rc = jsonscan_lex_string(js, &p, &x)) !=
				    JS_OK)
					goto out;
				p = js_ws(p, end);
				if (p >= end)
					goto more;
				if (*p != ':') {
					rc = jsonscan_fail(js, p, "expected "
					    "':' after an object key");
					goto out;
				}
				p = js_ws(p + 1, end);
				if (p >= end)
					goto more;
			}
			if ((rc = jsonscan_lex_value(js, &p, &x)) != JS_OK)
				goto out;
			p = js_ws(p, end);
			if (p >= end)
				goto more;
			if (*p == close)
				break;
			if (*p != ',') {
				rc = jsonscan_fail(js, p, "expected ',' or "
				    "'%c' in an %s", close,
				    obj ? "object" : "array");
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
int
jsonscan_lex_value(struct jsonscan *js, const char **pp, struct jsonscan_val *v)
{
	js->nodes++;
	switch (**pp) {
	case '"':
		return jsonscan_lex_string(js, pp, v);
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
		return jsonscan_fail(js, *pp, "unexpected byte 0x%02x",
		    (unsigned char)**pp);
	return jsonscan_fail(js, *pp, "unexpected character '%c'", **pp);
}

/*
 * An event object at *pp: its members are recorded, and at level 0 the
 * members of object values too. Keys and values are parsed straight into
 * the member array (no temporaries to copy).
 */
int
jsonscan_lex_event(struct jsonscan *js, const char **pp, int level)
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
				return jsonscan_fail(js, p, "expected a string "
				    "key in an object");
			if (js->n == js->mcap)
				XGROW(js->m, js->mcap, js->n + 1);
			idx = js->n;
			mb = &js->m[idx];
			if ((rc = jsonscan_lex_string(js, &p, &mb->key)) !=
			    JS_OK || (rc = jsonscan_lex_colon(js, &p, end)) !=
			    JS_OK)
				return rc;
			js->n = idx + 1;
			if (*p == '{' && level == 0) {
				vs = p;
				if ((rc = jsonscan_lex_event(js, &p, 1)) !=
				    JS_OK)
					return rc;
				mb = &js->m[idx];	/* may have moved */
				mb->val.type = JSONSCAN_OBJECT;
				mb->val.p = vs;
				mb->val.len = (size_t)(p - vs);
				mb->val.esc = 0;
				mb->nkids = (uint32_t)(js->n - idx - 1);
			} else {
				if ((rc = jsonscan_lex_value(js, &p,
				    &mb->val)) != JS_OK)
					return rc;
				mb->nkids = 0;
			}
			p = js_ws(p, end);
			if (p >= end)
				return JS_MORE;
			if (*p == '}')
				break;
			if (*p != ',')
				return jsonscan_fail(js, p, "expected ',' or "
				    "'}' in an object");
			p = js_ws(p + 1, end);
			if (p >= end)
				return JS_MORE;
		}
	}
	*pp = p + 1;
	return JS_OK;
}

int
jsonscan_lex_colon(struct jsonscan *js, const char **pp, const char *end)
{
	const char	*p = js_ws(*pp, end);

	if (p >= end)
		return JS_MORE;
	if (*p != ':')
		return jsonscan_fail(js, p, "expected ':' after an object key");
	p = js_ws(p + 1, end);
	if (p >= end)
		return JS_MORE;
	*pp = p;
	return JS_OK;
}
