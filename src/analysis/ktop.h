/*
 * ktop: kernel time per kernel name, the top kernels of the overview
 * (overview.h) and of each phase: per name its launches and total time;
 * ktop_sort() puts them most time first, ties by name id, so the order is
 * total and does not depend on the order the kernels were added in.
 *
 * Sums are integer: the lists of parts of a trace (threads of a pool,
 * say) added up with ktop_merge() give what one pass over the whole gave.
 *
 * Ownership: struct ktop owns its items and index; ktop_free() releases
 * them.
 */
#ifndef GPULENS_KTOP_H
#define GPULENS_KTOP_H

#include <stddef.h>
#include <stdint.h>

struct ktop_item {
	uint32_t	 name;		/* string id */
	uint64_t	 count;
	int64_t		 total;		/* ns */
};

struct ktop {
	struct ktop_item	*v;	/* in the order first added, until
					   ktop_sort() */
	size_t			 n, cap;
	int64_t			 total;		/* of every item */
	uint32_t		*of;		/* per name id: item + 1, or 0 */
	size_t			 nof;
};

void	 ktop_init(struct ktop *);
/* The index in v of the item of name, added when new. */
size_t	 ktop_item_of(struct ktop *, uint32_t name);

/* Counts one kernel named name that ran dur ns. Inline: it runs once a
 * kernel, and a known name needs no call. */
static inline void
ktop_add(struct ktop *k, uint32_t name, int64_t dur)
{
	struct ktop_item	*it;
	size_t			 x;

	/* The slow path may move v: index it after the call. */
	if (name < k->nof && k->of[name] != 0)
		x = k->of[name] - 1;
	else
		x = ktop_item_of(k, name);
	it = &k->v[x];
	it->count++;
	it->total += dur;
	k->total += dur;
}
/* Counts count kernels named name that ran total ns in all. */
void	 ktop_add_sum(struct ktop *, uint32_t name, uint64_t count,
	    int64_t total);
/* Adds every item of src (sorted or not) to k. */
void	 ktop_merge(struct ktop *k, const struct ktop *src);
/* Sorts the items most time first, ties by name id (a name added after
 * goes last, until sorted again). */
void	 ktop_sort(struct ktop *);
void	 ktop_free(struct ktop *);

#endif
