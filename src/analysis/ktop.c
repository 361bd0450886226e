/*
 * ktop: kernel time per kernel name (see ktop.h).
 *
 * Name ids are dense, so an array per name id, not a hash, finds a name's
 * item; the items stay in a short array of their own, the one sorted.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/ktop.h"
#include "util/sort.h"
#include "util/xmalloc.h"

void
ktop_init(struct ktop *k)
{
	k->v = NULL;
	k->n = k->cap = 0;
	k->total = 0;
	k->of = NULL;
	k->nof = 0;
}

size_t
ktop_item_of(struct ktop *k, uint32_t name)
{
	size_t	old = k->nof;

	if (name >= k->nof) {
		XGROW(k->of, k->nof, (size_t)name + 1);
		memset(k->of + old, 0, (k->nof - old) * sizeof *k->of);
	}
	if (k->of[name] == 0) {
		XGROW(k->v, k->cap, k->n + 1);
		k->v[k->n].name = name;
		k->v[k->n].count = 0;
		k->v[k->n].total = 0;
		k->of[name] = (uint32_t)++k->n;
	}
	return k->of[name] - 1;
}

void
ktop_add_sum(struct ktop *k, uint32_t name, uint64_t count, int64_t total)
{
	struct ktop_item	*it;
	size_t			 x;

	/* The call may move v: index it after. */
	x = ktop_item_of(k, name);
	it = &k->v[x];
	it->count += count;
	it->total += total;
	k->total += total;
}

void
ktop_merge(struct ktop *k, const struct ktop *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++)
		ktop_add_sum(k, src->v[i].name, src->v[i].count,
		    src->v[i].total);
}

static int
ktop_cmp(const void *a, const void *b)
{
	const struct ktop_item	*x = a, *y = b;

	return sort_lex3(y->total, x->total, x->name, y->name, 0, 0);
}

void
ktop_sort(struct ktop *k)
{
	size_t	i;

	if (k->n < 2)
		return;
	qsort(k->v, k->n, sizeof *k->v, ktop_cmp);
	/* The items moved: the index follows them. */
	for (i = 0; i < k->n; i++)
		k->of[k->v[i].name] = (uint32_t)(i + 1);
}

void
ktop_free(struct ktop *k)
{
	free(k->v);
	free(k->of);
	ktop_init(k);
}
