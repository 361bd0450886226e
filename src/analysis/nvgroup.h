/*
 * nvgroup: the NVTX ranges of a selection grouped by (domain, family path,
 * style): per group the ranges' CPU durations and the sums of their GPU
 * projections (nvtree.h). What `nvtx` prints as its rows.
 *
 * The ranges of each CPU thread are grouped on the pool thread that then
 * sweeps that thread's calls (nvtree_proj_each()), in groups of its
 * own, their paths in the pathset of the pool thread (so that a CPU
 * thread costs what its ranges do, however many there are); the groups
 * of the threads are then merged, by path, and ordered by their first
 * range (track, then index), the order one pass over the tracks gives.
 * Nothing depends on which pool thread took which CPU thread.
 *
 * Ownership: struct nvgroups owns its groups, their samples, its pathset
 * and the strings the groups point to; nvgroups_free() releases them.
 */
#ifndef GPULENS_ANALYSIS_NVGROUP_H
#define GPULENS_ANALYSIS_NVGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"
#include "model/model.h"
#include "model/nvtxpath.h"

struct nvgroup {
	uint32_t		 domain;
	uint32_t		 path;		/* node of nvgroups.np */
	const char		*name;		/* the first range's (folded) name */
	int64_t			 depth;		/* the first range's depth */
	int			 startend;	/* StartEnd, not push/pop */
	struct stats_sample	 cpu;		/* durations */
	int64_t			 proj_total;	/* GPU projections, summed */
	int64_t			 busy_total;	/* GPU busy times, summed */
	uint64_t		 kernels;
	uint64_t		 with_gpu;	/* ranges with GPU work */
	uint32_t		 first_t, first_i;	/* its first range */
};

/*
 * Which ranges: those of the NVTX tracks track() keeps that overlap
 * [t0, t1) (lane_overlap()) and event() keeps. shared: the two may run on
 * several threads at once (else the ranges are grouped on one thread,
 * before the sweep).
 */
struct nvgroup_sel {
	int64_t		 t0, t1;
	int		(*track)(void *arg, uint32_t t);
	int		(*event)(void *arg, uint32_t t, uint32_t i);
	void		*arg;
	int		 shared;
};

struct nvgroups {
	struct nvgroup		*g;
	size_t			 n;
	struct nvtx_pathset	 np;	/* the groups' paths (folded) */
	void			*priv;	/* the threads' pathsets and names */
};

void	nvgroups_build(const struct model *, const struct nvgroup_sel *,
	    struct nvgroups *);
void	nvgroups_free(struct nvgroups *);

#endif
