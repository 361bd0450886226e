/*
 * jsonscan-input: the bytes behind the buffer. Decompression runs in a
 * thread of its own (struct js_pipe), a few chunks ahead of the parser;
 * a refill keeps the unit being parsed and reads more behind it, growing
 * the buffer up to the item limit.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sources/jsonscan.h"
#include "sources/jsonscan-int.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

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

void
jsonscan_input_start(struct jsonscan *js)
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

void
jsonscan_input_stop(struct jsonscan *js)
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
int
jsonscan_input_refill(struct jsonscan *js)
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
