/*
 * nvtree: the NVTX tree view's state over the aggregated NVTX tree that
 * analysis/nvtree.h computes: the order of every node's children (a sort
 * key, descending or not), which nodes are expanded, and the visible rows
 * in display order.
 */
#ifndef GPULENS_TUI_NVTREE_H
#define GPULENS_TUI_NVTREE_H

#include "analysis/nvtree.h"

enum nvtree_sort {
	NVTREE_SORT_CPU,	/* total CPU time, descending by default */
	NVTREE_SORT_GPU,
	NVTREE_SORT_COUNT,
	NVTREE_SORT_NAME,
	NVTREE_SORT_START,	/* first instance */
	NVTREE_SORT_COUNT_	/* number of sort keys */
};

/* nvtree_build(), sorted by CPU time (descending) and flattened. */
struct nvtree	*nvtree_open(const struct model *);
/* Sorts every node's children by key (desc: descending). */
void		 nvtree_sort(struct nvtree *, int key, int desc);
/* Lists the visible rows (node indices) into t->rows. */
void		 nvtree_flatten(struct nvtree *);
/* Expands (1) or collapses (0) every node. */
void		 nvtree_expand_all(struct nvtree *, int e);
/* Name of a sort key ("cpu", "gpu", "count", "name", "start"). */
const char	*nvtree_sort_name(int);

#endif
