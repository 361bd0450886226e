/*
 * evpage: the page of events a verb shows. See evpage.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "headless/evpage.h"
#include "headless/evrow.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* The largest page kept apart; a larger one makes every row. */
#define EVPAGE_MAX	4000000

int
evpage_field(const char *spec, const char *const *fields, int *desc)
{
	const char	*colon = strchr(spec, ':');
	size_t		 n = colon != NULL ? (size_t)(colon - spec) :
			    strlen(spec);
	int		 i;

	*desc = 1;
	if (colon != NULL) {
		if (strcmp(colon + 1, "asc") == 0)
			*desc = 0;
		else if (strcmp(colon + 1, "desc") != 0)
			return -1;
	}
	for (i = 0; fields[i] != NULL; i++)
		if (strlen(fields[i]) == n && strncmp(spec, fields[i], n) == 0)
			return i;
	return -1;
}

int
evpage_init(struct evpage *p, long long offset, long long limit, int desc)
{
	memset(p, 0, sizeof *p);
	if (limit <= 0 || offset < 0 || limit > EVPAGE_MAX ||
	    offset > EVPAGE_MAX)
		return 0;
	p->k = (size_t)(offset + limit);
	p->desc = desc;
	p->h = xcalloc(p->k, sizeof *p->h);
	return 1;
}

/* Whether a comes before b in the output order. */
static int
evpage_before(const struct evpage *p, const struct evpage_item *a,
    const struct evpage_item *b)
{
	if (a->v != b->v)
		return p->desc ? a->v > b->v : a->v < b->v;
	return evrow_keycmp(a->gid, b->gid) < 0;
}

/* Moves item i down the heap (the root is the last item kept). */
static void
evpage_down(struct evpage *p, size_t i)
{
	struct evpage_item	tmp;
	size_t			c;

	for (; (c = 2 * i + 1) < p->n; i = c) {
		if (c + 1 < p->n && evpage_before(p, &p->h[c], &p->h[c + 1]))
			c++;
		if (!evpage_before(p, &p->h[i], &p->h[c]))
			return;
		tmp = p->h[i];
		p->h[i] = p->h[c];
		p->h[c] = tmp;
	}
}

void
evpage_add(struct evpage *p, int64_t v, uint32_t gid)
{
	struct evpage_item	it = { v, gid };
	size_t			i, up;

	if (p->n == p->k) {
		if (p->k == 0 || !evpage_before(p, &it, &p->h[0]))
			return;
		p->h[0] = it;
		evpage_down(p, 0);
		return;
	}
	/* Up from the new leaf while it comes after its parent. */
	for (i = p->n++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!evpage_before(p, &p->h[up], &it))
			break;
		p->h[i] = p->h[up];
	}
	p->h[i] = it;
}

static int
evpage_cmp(const void *a, const void *b, void *ctx)
{
	const struct evpage	*p = ctx;

	if (evpage_before(p, a, b))
		return -1;
	return evpage_before(p, b, a);
}

void
evpage_sort(struct evpage *p)
{
	sort_stable(p->h, p->n, sizeof *p->h, evpage_cmp, p);
}

void
evpage_free(struct evpage *p)
{
	free(p->h);
	memset(p, 0, sizeof *p);
}
