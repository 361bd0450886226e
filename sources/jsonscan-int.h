/*
 * jsonscan-int.h: what the files of the streaming JSON reader
 * (sources/jsonscan*.c) share: the scanner's state, the input pipe, the
 * skipping automaton, and the functions each file gives the others, named
 * after their file (jsonscan_lex_* in jsonscan-lex.c, ...). The interface
 * is jsonscan.h.
 */
#ifndef GPULENS_JSONSCAN_INT_H
#define GPULENS_JSONSCAN_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "sources/jsonscan.h"

struct zfile;

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

/* Whitespace, and hex digits. */
static inline const char *
js_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'))
		p++;
	return p;
}

static inline int
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

/* jsonscan.c: records "malformed JSON at byte N: ..."; returns JS_ERR. */
int		 jsonscan_fail(struct jsonscan *, const char *, const char *,
		     ...) __attribute__((format(printf, 3, 4)));

/* jsonscan-lex.c: tokens, whole values and events, parsed from *pp. */
extern const uint8_t jsonscan_lex_stop[256];
/* After an object key: the ':' and the whitespace around it; JS_OK with
 * *pp at the value, JS_MORE or JS_ERR. */
int		 jsonscan_lex_colon(struct jsonscan *, const char **,
		     const char *end);
int		 jsonscan_lex_string(struct jsonscan *, const char **,
		     struct jsonscan_val *);
int		 jsonscan_lex_value(struct jsonscan *, const char **,
		     struct jsonscan_val *);
int		 jsonscan_lex_event(struct jsonscan *, const char **, int);

/* jsonscan-skip.c: streaming past a value (ST_SKIP). */
int		 jsonscan_skip_step(struct jsonscan *);

/* jsonscan-input.c: the decompression thread and the buffer's refills. */
void		 jsonscan_input_start(struct jsonscan *);
void		 jsonscan_input_stop(struct jsonscan *);
int		 jsonscan_input_refill(struct jsonscan *);

#endif
