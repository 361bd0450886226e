/*
 * jumps: the jump list. See jumps.h.
 */
#include "config.h"

#include <string.h>

#include "tui/jumps.h"

void
jumps_init(struct jumps *js)
{
	memset(js, 0, sizeof *js);
}

/* Appends p, dropping the oldest position when the list is full. */
static void
jumps_append(struct jumps *js, const struct jump *p)
{
	if (js->n == JUMPS_MAX) {
		memmove(&js->j[0], &js->j[1], (JUMPS_MAX - 1) *
		    sizeof js->j[0]);
		js->n--;
	}
	js->j[js->n++] = *p;
}

static int
jumps_same(const struct jump *a, const struct jump *b)
{
	return a->t0 == b->t0 && a->span == b->span &&
	    a->cursor == b->cursor && a->row == b->row && a->gid == b->gid;
}

void
jumps_push(struct jumps *js, const struct jump *here)
{
	if (js->cur < js->n)
		js->n = js->cur;
	/* Two jumps from one place leave one entry. */
	if (js->n == 0 || !jumps_same(&js->j[js->n - 1], here))
		jumps_append(js, here);
	js->cur = js->n;
}

int
jumps_back(struct jumps *js, const struct jump *here, struct jump *to)
{
	if (js->cur == 0 || js->n == 0)
		return -1;
	if (js->cur >= js->n) {
		/* The newest position: keep it for jumps_forward(). */
		if (jumps_same(&js->j[js->n - 1], here)) {
			if (js->n == 1)
				return -1;
		} else {
			jumps_append(js, here);
		}
		js->cur = js->n - 1;
	}
	js->cur--;
	*to = js->j[js->cur];
	return 0;
}

int
jumps_forward(struct jumps *js, struct jump *to)
{
	if (js->cur + 1 >= js->n)
		return -1;
	js->cur++;
	*to = js->j[js->cur];
	return 0;
}
