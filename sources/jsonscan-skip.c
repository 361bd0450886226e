/*
 * jsonscan-skip: streaming past a top-level member's value without holding
 * it (ST_SKIP): a pushdown automaton that consumes one token at a time, so
 * that only the token being read (a number, a literal, or what is left of a
 * string) is in the buffer. It validates as jsonscan_lex_value does.
 */
#include "config.h"

#include <string.h>

#include "sources/jsonscan.h"
#include "sources/jsonscan-int.h"

/* The rest of a string being skipped: JS_OK past its closing quote, or
 * JS_MORE with *pp where reading must resume (an escape is never split). */
static int
js_skip_string(struct jsonscan *js, const char **pp)
{
	const char	*p = *pp, *end = js->buf + js->hi;
	int		 k;

	for (;;) {
		while (p < end && !jsonscan_lex_stop[(unsigned char)*p])
			p++;
		if (p >= end)
			break;
		if (*p == '"') {
			*pp = p + 1;
			return JS_OK;
		}
		if (*p != '\\')
			return jsonscan_fail(js, p, "control character 0x%02x "
			    "in a string", (unsigned char)*p);
		if (p + 1 >= end)
			break;
		if (p[1] == 'u') {
			if (p + 6 > end)
				break;
			for (k = 2; k < 6; k++)
				if (js_hex((unsigned char)p[k]) < 0)
					return jsonscan_fail(js, p, "bad \\u "
					    "escape in a string");
			p += 6;
		} else if (strchr("\"\\/bfnrt", p[1]) != NULL && p[1] != '\0')
			p += 2;
		else
			return jsonscan_fail(js, p, "invalid escape in a "
			    "string");
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
int
jsonscan_skip_step(struct jsonscan *js)
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
					return jsonscan_fail(js, p, "nesting "
					    "deeper than %d levels",
					    JS_MAX_DEPTH);
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
			if ((rc = jsonscan_lex_value(js, &p, &v)) != JS_OK)
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
				return jsonscan_fail(js, p, "expected a string "
				    "key in an object");
			sk->expect = EX_IN_STRING;
			sk->after = EX_COLON;
			js->pos++;
			continue;
		case EX_COLON:
			if (*p != ':')
				return jsonscan_fail(js, p, "expected ':' "
				    "after an object key");
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
			return jsonscan_fail(js, p, "expected ',' or '%c' in "
			    "an %s", top == '{' ? '}' : ']',
			    top == '{' ? "object" : "array");
		}
		continue;
close:
		sk->depth--;
		js->pos++;
		if (js_skip_after_value(sk))
			return JS_DONE;
	}
}
