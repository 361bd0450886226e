/*
 * nvtree: the NVTX ranges of a trace as an aggregated tree with their GPU
 * projection, for the NVTX tree view (tui/nvtree.h keeps the view's sort
 * order, expansion and rows over it).
 *
 * One root per NVTX track (a thread and a domain). Below it, ranges are
 * grouped by their path of names: a node stands for every range with the
 * same parent node and the same name family (nvtxfam.h), where
 * "ProfilerStep#12" and "ProfilerStep#13" are one family "ProfilerStep#*"
 * and "aten::mm, seq = 3" and "aten::mm, seq = 4" one family "aten::mm"
 * (as nvtx.h counts iterations). A node holds:
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
 * is 20 bytes per range. Children are listed in creation order (by first
 * start); nothing is expanded but the roots.
 *
 * Ownership: nvtree_build() returns a tree freed with nvtree_free().
 */
#ifndef GPULENS_ANALYSIS_NVTREE_H
#define GPULENS_ANALYSIS_NVTREE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/strpool.h"

struct nvtree_node {
	uint32_t	 parent;	/* node index, NONE32 for roots */
	uint32_t	 track;		/* the NVTX track */
	uint32_t	 name;		/* model string id of an instance */
	uint32_t	 label;		/* local string id ("Step#*"), or 0 */
	uint32_t	 famkey;	/* grouping key (see nvtree.c) */
	uint16_t	 depth;		/* 0 for roots */
	uint8_t		 expanded;	/* the view's (tui/nvtree.h) */
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
	/* The view's state (tui/nvtree.h): sort key, visible rows. */
	int			 sort, desc;
	uint32_t		*rows;
	size_t			 nrows, rowcap;
};

/*
 * The GPU projection of every NVTX range (nvtx.h's definition, as
 * nvtx_project() gives it, but in the one sweep described above): range i
 * of NVTX track t is span[off[t] + i]; lo > hi when it launched no GPU
 * work.
 */
struct nvtree_span {
	int64_t		 lo, hi;
	uint32_t	 nops, nkernels;
};
struct nvtree_proj {
	size_t			*off;		/* per track, ntracks + 1 */
	struct nvtree_span	*span;
	int64_t			*busy;		/* or NULL: see below */
};
void		 nvtree_proj_build(const struct model *, struct nvtree_proj *);
/* The off[] above (ntracks + 1, caller frees), *total its last. */
size_t		*nvtree_proj_offsets(const struct model *, size_t *total);
/*
 * The same, with busy[off[t] + i] the busy time of a range with GPU work
 * (nvtx_project_with()'s, merged in the sweep as it hands out the work),
 * or -1 where the sweep cannot tell it (a thread with several API
 * tracks, work that starts before the end of the merged segments the
 * range's union has already summed (it keeps its last 8 to 16), or
 * ends before it starts): the caller then asks
 * nvtx_project_with(). 8 bytes per range more.
 */
void		 nvtree_proj_build_busy(const struct model *,
		    struct nvtree_proj *);
void		 nvtree_proj_free(struct nvtree_proj *);
/*
 * The same projection and busy times (-1: unknown, as above), handed to
 * fn range by range instead of kept for every range: only the ranges
 * with GPU work, each once, in track order within a CPU thread, from the
 * pool's threads (tid below POOL_MAX, one CPU thread's ranges at a time
 * per tid). Its memory is that of the CPU thread with the most ranges.
 * begin (or NULL) is called before the ranges of a CPU thread are swept,
 * on the pool thread that then sweeps them: once for each CPU thread with
 * both NVTX ranges and API calls (and none when the model has no GPU work
 * of calls), so that what fn needs of a thread's ranges can be made beside
 * the sweeps of the others.
 */
typedef void	(*nvtree_range_fn)(void *arg, unsigned tid, uint32_t track,
		    uint32_t idx, const struct nvtree_span *, int64_t busy);
typedef void	(*nvtree_thread_fn)(void *arg, unsigned tid, uint32_t thread);
void		 nvtree_proj_each(const struct model *,
		    nvtree_thread_fn begin, nvtree_range_fn, void *arg);

struct nvtree	*nvtree_build(const struct model *);
void		 nvtree_free(struct nvtree *);
/* The label of node i into buf ("tid 12 main", "fwd", "Step#*"). */
const char	*nvtree_label(const struct nvtree *, size_t i, char *buf,
		    size_t len);

#endif
