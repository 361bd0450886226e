/*
 * verb-ktop: kernel time per kernel name (see verb-ktop.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "headless/out.h"
#include "headless/verb-ktop.h"
#include "util/sort.h"
#include "util/xmalloc.h"

void
verb_ktop_init(struct verb_ktop *k)
{
	k->v = NULL;
	k->n = k->cap = 0;
	k->total = 0;
	k->of = NULL;
	k->nof = 0;
}

size_t
verb_ktop_item_of(struct verb_ktop *k, uint32_t name)
{
	size_t	old = k->nof;

	/* Name ids are dense: an array, not a hash, finds the item. */
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
verb_ktop_add_sum(struct verb_ktop *k, uint32_t name, uint64_t count,
    int64_t total)
{
	struct verb_ktop_item	*it;
	size_t			 x;

	/* The call may move v: index it after. */
	x = verb_ktop_item_of(k, name);
	it = &k->v[x];
	it->count += count;
	it->total += total;
	k->total += total;
}

static int
verb_ktop_cmp(const void *a, const void *b)
{
	const struct verb_ktop_item	*x = a, *y = b;

	return sort_lex3(y->total, x->total, x->name, y->name, 0, 0);
}

void
verb_ktop_emit(struct verb_ktop *k, const struct model *m, cJSON *obj,
    const char *key, size_t max, int share)
{
	cJSON	*arr, *o;
	size_t	 i;

	if (k->n > 1)
		qsort(k->v, k->n, sizeof *k->v, verb_ktop_cmp);
	arr = cJSON_AddArrayToObject(obj, key);
	for (i = 0; i < k->n && i < max; i++) {
		o = cJSON_CreateObject();
		out_str(o, "name", model_str(m, k->v[i].name));
		out_int(o, "count", (int64_t)k->v[i].count);
		out_int(o, "total_ns", k->v[i].total);
		if (share)
			out_num(o, "share_pct", k->total > 0 ? 100.0 *
			    (double)k->v[i].total / (double)k->total : 0.0);
		cJSON_AddItemToArray(arr, o);
	}
}

void
verb_ktop_free(struct verb_ktop *k)
{
	free(k->v);
	free(k->of);
	k->v = NULL;
	k->n = k->cap = 0;
}
