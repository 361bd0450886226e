/*
 * verb-ktop: kernel time per kernel name, for the "top_kernels" lists of
 * the answers (summary, phases): per name its launches and total time,
 * most time first (ties by name id, so the order is total).
 *
 * Ownership: struct verb_ktop owns its items and index; verb_ktop_free()
 * releases them.
 */
#ifndef GPULENS_VERB_KTOP_H
#define GPULENS_VERB_KTOP_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "model/model.h"

struct verb_ktop_item {
	uint32_t	 name;		/* string id */
	uint64_t	 count;
	int64_t		 total;		/* ns */
};

struct verb_ktop {
	struct verb_ktop_item	*v;
	size_t			 n, cap;
	int64_t			 total;		/* of every item */
	uint32_t		*of;		/* per name id: item + 1, or 0 */
	size_t			 nof;
};

void	 verb_ktop_init(struct verb_ktop *);
/* The index in v of the item of name, added when new. */
size_t	 verb_ktop_item_of(struct verb_ktop *, uint32_t name);

/* Counts one kernel named name that ran dur ns. Inline: it runs once a
 * kernel, and a known name needs no call. */
static inline void
verb_ktop_add(struct verb_ktop *k, uint32_t name, int64_t dur)
{
	struct verb_ktop_item	*it;
	size_t			 x;

	/* The slow path may move v: index it after the call. */
	if (name < k->nof && k->of[name] != 0)
		x = k->of[name] - 1;
	else
		x = verb_ktop_item_of(k, name);
	it = &k->v[x];
	it->count++;
	it->total += dur;
	k->total += dur;
}
/* Counts count kernels named name that ran total ns in all. */
void	 verb_ktop_add_sum(struct verb_ktop *, uint32_t name, uint64_t count,
	    int64_t total);
/*
 * Sorts the items, most time first, and adds the first max of them to obj
 * as the array key: objects {name, count, total_ns}, with share_pct (of
 * the time of every item) when share is set.
 */
void	 verb_ktop_emit(struct verb_ktop *, const struct model *, cJSON *obj,
	    const char *key, size_t max, int share);
void	 verb_ktop_free(struct verb_ktop *);

#endif
