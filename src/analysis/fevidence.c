/*
 * fevidence: typed evidence items of a finding (see fevidence.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/fevidence.h"
#include "util/xmalloc.h"

void
fev_free(struct fevidence *ev)
{
	size_t	i;

	for (i = 0; i < ev->n; i++)
		if (ev->v[i].type == FEV_STR)
			free(ev->v[i].u.s);
	free(ev->v);
	memset(ev, 0, sizeof *ev);
}

static struct fev *
fev_push(struct fevidence *ev, const char *key, int type)
{
	struct fev	*x;

	x = XAPPEND(ev->v, ev->cap, ev->n++);
	x->key = key;
	x->type = type;
	return x;
}

void
fev_int(struct fevidence *ev, const char *key, int64_t v)
{
	fev_push(ev, key, FEV_INT)->u.i = v;
}

void
fev_real(struct fevidence *ev, const char *key, double v)
{
	fev_push(ev, key, FEV_REAL)->u.r = v;
}

void
fev_bool(struct fevidence *ev, const char *key, int v)
{
	fev_push(ev, key, FEV_BOOL)->u.b = v != 0;
}

void
fev_str(struct fevidence *ev, const char *key, const char *v)
{
	fev_push(ev, key, FEV_STR)->u.s = xstrdup(v);
}

void
fev_null(struct fevidence *ev, const char *key)
{
	fev_push(ev, key, FEV_NULL);
}

void
fev_record(struct fevidence *ev, const char *key)
{
	fev_push(ev, key, FEV_RECORD);
}

void
fev_list(struct fevidence *ev, const char *key)
{
	fev_push(ev, key, FEV_LIST);
}

void
fev_end(struct fevidence *ev)
{
	fev_push(ev, NULL, FEV_END);
}

size_t
fev_next(const struct fevidence *ev, size_t i)
{
	size_t	depth = 0;

	do {
		if (ev->v[i].type == FEV_RECORD || ev->v[i].type == FEV_LIST)
			depth++;
		else if (ev->v[i].type == FEV_END)
			depth--;
		i++;
	} while (depth > 0 && i < ev->n);
	return i;
}

const struct fev *
fev_get(const struct fevidence *ev, const char *key)
{
	size_t	i;

	for (i = 0; i < ev->n; i = fev_next(ev, i))
		if (ev->v[i].key != NULL && strcmp(ev->v[i].key, key) == 0)
			return &ev->v[i];
	return NULL;
}
