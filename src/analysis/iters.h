/*
 * iters: finding a trace's iterations (training steps), shared by the
 * `iters` and `summary` verbs.
 *
 * With a range name (--range NAME), every NVTX range of that name (or of
 * that name family: "ProfilerStep#" covers ProfilerStep#0, #1, ...) is an
 * iteration. Without one, the marker is chosen automatically: the NVTX name
 * family with the most instances (at least 2) among ranges at the top of
 * their thread's tree, preferring the "ProfilerStep#" family when present
 * and ignoring communication-library ranges (nccl*, rccl*, the NCCL domain,
 * EVF_COMM).
 * Without NVTX, iterations come from the periodic kernel sequence: among
 * kernel names occurring at least 3 times on one device, the one whose
 * inter-arrival times vary least (lowest coefficient of variation, ties to
 * the more frequent) marks the start of each iteration; an iteration runs
 * from one occurrence to the next.
 *
 * Each iteration belongs to one process; its GPU busy is, for each device
 * that process's streams run on, the union busy within the iteration,
 * summed over those devices (so it can reach ndevices x duration).
 */
#ifndef GPULENS_ITERS_H
#define GPULENS_ITERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum iters_method {
	ITERS_NONE = 0,
	ITERS_NVTX,		/* a repeating NVTX range */
	ITERS_KERNEL,		/* the periodic kernel sequence */
};

struct iter {
	uint32_t	 process;	/* index or NONE32 */
	uint32_t	 index;		/* 0-based within its process */
	uint32_t	 range;		/* NVTX range gid or NONE32 */
	int64_t		 start, end;
	int64_t		 gpu_busy;	/* union busy of each of the process's
					   GPUs, summed over those GPUs */
	uint32_t	 ndevices;	/* GPUs the process's streams use */
	uint64_t	 kernels;	/* kernels starting inside, its GPUs */
};

struct iters {
	enum iters_method method;
	char		*marker;	/* range family or kernel name */
	struct iter	*v;
	size_t		 n;
};

/*
 * Finds iterations. range may be NULL (automatic). Returns 0 (n may be 0
 * when nothing repeats), or -1 with *cause when a named range is absent.
 * Free with iters_free().
 */
int	 iters_find(const struct model *, const char *range, struct iters *,
	    char **cause);
void	 iters_free(struct iters *);
/* Name family: length of the "<prefix>#" part of "<prefix>#<digits>", or
 * the whole length when the name has no such suffix. */
size_t	 iters_family_len(const char *name);

#endif
