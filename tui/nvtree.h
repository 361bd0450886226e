/*
 * nvtree: the NVTX ranges of a trace as an aggregated tree, for the NVTX
 * tree view.
 *
 * One root per NVTX track (a thread and a domain). Below it, ranges are
 * grouped by their path of names: a node stands for every range with the
 * same parent node and the same name family, where "ProfilerStep#12" and
 * "ProfilerStep#13" are one family "ProfilerStep#*" (as nvtx.h counts
 * iterations). A node holds:
 *   count	the number of ranges;
 *   cpu	the sum of their durations;
 *   gpu	the sum of their GPU-projected times (as nvtx.h and the
 *		`nvtx` verb define them: last end - first start of the kernels,
 *		copies and memsets launched by API calls made inside the range
 *		on its thread); with_gpu counts the ranges that have any;
 *   share	cpu / the parent's cpu (a root's cpu is the sum of its
 *		top-level ranges);
 *   instances	the ranges' global ids in start order (Enter cycles
 *		through them).
 * Marks (instant events) are left out.
 *
 * nvtree_build() costs O(ranges + API calls x NVTX tracks of their
 * thread) once, in sequential passes over the lanes: the tree is one pass
 * over each NVTX lane (parents found with a stack, as nvtx.h finds them),
 * the projection one sweep over the API calls of those threads beside
 * their GPU work (m->gpu_of_api), not a per-range search, and its memory
 * is 20 bytes per range. Sorting reorders every node's children;
 * nvtree_flatten() lists the rows of the expanded nodes in display order.
 *
 * Ownership: nvtree_build() returns a tree freed with nvtree_free().
 */
#ifndef GPULENS_NVTREE_H
#define GPULENS_NVTREE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/strpool.h"

enum nvtree_sort {
	NVTREE_SORT_CPU,	/* total CPU time, descending by default */
	NVTREE_SORT_GPU,
	NVTREE_SORT_COUNT,
	NVTREE_SORT_NAME,
	NVTREE_SORT_START,	/* first instance */
	NVTREE_SORT_COUNT_	/* number of sort keys */
};

struct nvtree_node {
	uint32_t	 parent;	/* node index, NONE32 for roots */
	uint32_t	 track;		/* the NVTX track */
	uint32_t	 name;		/* model string id of an instance */
	uint32_t	 label;		/* local string id ("Step#*"), or 0 */
	uint32_t	 famkey;	/* grouping key (see nvtree.c) */
	uint16_t	 depth;		/* 0 for roots */
	uint8_t		 expanded;
	uint64_t	 count;
	int64_t		 cpu, gpu;
	uint64_t	 with_gpu;
	int64_t		 first;		/* earliest instance start */
	size_t		 kid0, nkids;	/* children: kids[kid0..+nkids) */
	size_t		 inst0, ninst;	/* instances: inst[inst0..+ninst) */
};

struct nvtree {
	const struct model	*m;
	struct strpool		*local;		/* family labels */
	struct nvtree_node	*n;
	size_t			 nn;
	uint32_t		*kids;		/* child node indices */
	uint32_t		*roots;		/* root node indices */
	size_t			 nroots;
	uint32_t		*inst;		/* instance global ids */
	int			 sort, desc;
	uint32_t		*rows;		/* nvtree_flatten() output */
	size_t			 nrows, rowcap;
};

struct nvtree	*nvtree_build(const struct model *);
void		 nvtree_free(struct nvtree *);
/* Sorts every node's children by key (desc: descending). */
void		 nvtree_sort(struct nvtree *, int key, int desc);
/* Lists the visible rows (node indices) into t->rows. */
void		 nvtree_flatten(struct nvtree *);
/* Expands (1) or collapses (0) every node. */
void		 nvtree_expand_all(struct nvtree *, int e);
/* The label of node i into buf ("tid 12 main", "fwd", "Step#*"). */
const char	*nvtree_label(const struct nvtree *, size_t i, char *buf,
		    size_t len);
/* Name of a sort key ("cpu", "gpu", "count", "name", "start"). */
const char	*nvtree_sort_name(int);

#endif
