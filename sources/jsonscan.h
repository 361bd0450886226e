/*
 * jsonscan: a streaming JSON reader for trace files whose bulk is one long
 * array of small objects (Chrome trace / Kineto "traceEvents").
 *
 * The document is read from a zfile (plain, gzip or zstd, by content) in
 * large chunks into one buffer, and never held whole: memory is bounded by
 * the buffer, which only grows to hold the largest single item (an event,
 * or a token of a top-level member beyond the bounds below), up to a
 * limit. Blanks between items are never kept.
 *
 * jsonscan_next() yields, in document order:
 *   JSONSCAN_EVENT  one element of the top-level "traceEvents" array (or of
 *                   a bare top-level array, Chrome's other container form),
 *                   as a flat list of members: the object's own members and,
 *                   for members whose value is an object (e.g. "args"),
 *                   that object's members right after it. Deeper values and
 *                   arrays are kept as raw text spans. Nothing is allocated
 *                   per event and strings are not copied: spans point into
 *                   the buffer and stay valid until the next call.
 *   JSONSCAN_META   any other top-level member ("deviceProperties",
 *                   "distributedInfo", "baseTimeNanoseconds", ...), parsed
 *                   with cJSON when it is small: its text at most
 *                   JSONSCAN_META_BYTES (JSONSCAN_META_SMALL for a key
 *                   not named to jsonscan_want()) and at most
 *                   JSONSCAN_META_NODES values.
 *   JSONSCAN_SKIPPED a member beyond those bounds: its value was streamed
 *                   past (validated, never held whole: memory is the
 *                   token being read), and only its key, offset and size
 *                   are given, so that the reader can warn.
 * The whole input is validated as JSON (strings, escapes, numbers, nesting,
 * commas); the only extensions accepted are the NaN, Infinity and -Infinity
 * literals that Python's json module writes.
 *
 * Errors name the byte offset in the decompressed stream ("malformed JSON
 * at byte 1234: expected ',' or '}' in an object"); a document that ends
 * early says so with the offset of the event it was reading; a truncated or
 * corrupt gzip/zstd stream reports zfile's message (compressed offset).
 * Nothing here crashes or loops on bad input.
 *
 * Ownership: jsonscan_open() and jsonscan_open_mem() allocate; free with
 * jsonscan_close(). Items and their spans are borrowed.
 */
#ifndef GPULENS_JSONSCAN_H
#define GPULENS_JSONSCAN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

enum jsonscan_type {
	JSONSCAN_NULL = 0,
	JSONSCAN_FALSE,
	JSONSCAN_TRUE,
	JSONSCAN_NUMBER,		/* also NaN, Infinity, -Infinity */
	JSONSCAN_STRING,
	JSONSCAN_ARRAY,
	JSONSCAN_OBJECT,
};

/* A value as a span of the buffer. */
struct jsonscan_val {
	const char	*p;	/* STRING: the text between the quotes;
				   ARRAY/OBJECT: the whole text, brackets
				   included; others: the literal's text */
	size_t		 len;
	uint8_t		 type;	/* enum jsonscan_type */
	uint8_t		 esc;	/* STRING with backslash escapes (see
				   jsonscan_str) */
};

struct jsonscan_member {
	struct jsonscan_val	 key;	/* unescaped, not NUL-terminated */
	struct jsonscan_val	 val;
	uint32_t		 nkids;	/* OBJECT value of a top member: its
					   members follow this one */
};

/* One event: members [0, n), top-level ones at i, i + 1 + m[i].nkids... */
struct jsonscan_obj {
	struct jsonscan_member	*m;
	size_t			 n;
	uint64_t		 offset;	/* decompressed offset of '{' */
	uint64_t		 index;		/* position in the array */
};

enum jsonscan_kind {
	JSONSCAN_EVENT = 1,
	JSONSCAN_META,
	JSONSCAN_SKIPPED,
};

struct jsonscan_item {
	int			 kind;		/* enum jsonscan_kind */
	struct jsonscan_obj	 ev;		/* EVENT */
	const char		*key;		/* META, SKIPPED: the key */
	cJSON			*meta;		/* META: its value (NULL if
						   cJSON cannot hold it) */
	struct jsonscan_val	 val;		/* META: its text */
	uint64_t		 offset;	/* META, SKIPPED: offset of the
						   value */
	uint64_t		 size;		/* META, SKIPPED: its bytes */
	uint64_t		 nodes;		/* META, SKIPPED: its values
						   (counted as far as read) */
};

#define JSONSCAN_MAX_ITEM	(512u << 20)	/* default item size limit */
#define JSONSCAN_META_BYTES	(1u << 20)	/* a member read whole */
#define JSONSCAN_META_SMALL	(16u << 10)	/* ... of a key not wanted */
#define JSONSCAN_META_NODES	131072		/* values of such a member */

struct jsonscan;

/* Opens path (plain, gzip or zstd). NULL with *cause on failure. */
struct jsonscan	*jsonscan_open(const char *path, char **cause);
/* Reads from a copy of buf[0, len); name is used in messages. */
struct jsonscan	*jsonscan_open_mem(const char *buf, size_t len,
		    const char *name);
void		 jsonscan_close(struct jsonscan *);
/* Largest single item kept in memory (default JSONSCAN_MAX_ITEM). */
void		 jsonscan_set_max_item(struct jsonscan *, size_t);
/*
 * The top-level keys the reader needs (a NULL-terminated array that must
 * outlive the scanner): their values are parsed up to JSONSCAN_META_BYTES,
 * other keys' up to JSONSCAN_META_SMALL. Without it, every key is wanted.
 */
void		 jsonscan_want(struct jsonscan *, const char *const *keys);
/* Other byte bounds than JSONSCAN_META_BYTES and _SMALL (tests, fuzzing:
 * small inputs then take the streaming path). */
void		 jsonscan_set_meta_bytes(struct jsonscan *, size_t big,
		    size_t small);
/*
 * The next item: returns 1 with *item set (borrowed, valid until the next
 * call), 0 at the end of a complete document, -1 with *cause (caller
 * frees) on malformed or truncated input or an I/O error. After -1 every
 * further call fails again.
 */
int		 jsonscan_next(struct jsonscan *, struct jsonscan_item **item,
		    char **cause);
/* Decompressed bytes consumed, and compressed progress (for a bar). */
uint64_t	 jsonscan_offset(const struct jsonscan *);
uint64_t	 jsonscan_raw_offset(const struct jsonscan *);
uint64_t	 jsonscan_raw_size(const struct jsonscan *);
/* '{' or '[': the top-level container (0 before the first item). */
int		 jsonscan_container(const struct jsonscan *);

/*
 * Value helpers. They never allocate.
 *
 * jsonscan_str: decodes a STRING's escapes in place (the span shrinks; the
 * buffer is the scanner's), so that v->p[0, v->len) is the UTF-8 text
 * (\u0000 becomes the two bytes C0 80, so the text has no NUL). Returns 0,
 * or -1 if v is not a string.
 */
int	 jsonscan_str(struct jsonscan_val *v);
/* 1 if v is a STRING (already decoded, or without escapes) equal to s. */
int	 jsonscan_is(const struct jsonscan_val *v, const char *s);
/* The same, ignoring ASCII case. */
int	 jsonscan_is_ci(const struct jsonscan_val *v, const char *s);
/*
 * An integer NUMBER, or a STRING holding one (Kineto writes some ids as
 * strings): 0 with *out, -1 if v is not an integer that fits int64.
 */
int	 jsonscan_i64(const struct jsonscan_val *v, int64_t *out);
/* Any NUMBER (or numeric STRING) as a double: 0, or -1. */
int	 jsonscan_double(const struct jsonscan_val *v, double *out);
/*
 * A decimal count of microseconds as exact nanoseconds: the integer and
 * fraction digits are read as text ("198093488368.463" -> 198093488368463),
 * never through a double; digits beyond the nanosecond round half away
 * from zero; exponents go through a double. 0, or -1 if v is not numeric
 * or the result does not fit int64.
 */
int	 jsonscan_us_ns(const struct jsonscan_val *v, int64_t *ns);
/* The integers of an ARRAY of integers ("grid": [512, 1, 1]): returns
 * how many (at most max are stored), or -1 if v is not such an array. */
int	 jsonscan_i64_array(const struct jsonscan_val *v, int64_t *out,
	    size_t max);

#endif
