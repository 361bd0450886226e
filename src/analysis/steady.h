/*
 * steady: the steady-state analysis window of a trace, chosen the same way
 * on every run so that two captures of one workload are compared over
 * comparable windows (`gpulens window`, and `--window steady` for the
 * verbs that take a time window).
 *
 * The rule, first that applies:
 *   1. Iterations (iters.h: a repeating NVTX range, ProfilerStep# first,
 *      or else the periodic kernel sequence): take the process with the
 *      most iterations (ties: the smaller pid) if it has at least 3, and its
 *      middle iteration, index n / 2 in start order (the upper median for
 *      an even count, as PithTrain's find_window picks rows[len // 2]). An
 *      iteration whose duration is more than 20% away from the median
 *      iteration duration is an outlier (a GC pause, a checkpoint) and is
 *      skipped for the nearest one that is not: n / 2 + 1, n / 2 - 1,
 *      n / 2 + 2, ... The window is that iteration's [start, end).
 *   2. Phases (phase.h, default options, bins at least one median
 *      iteration wide): the longest phase that is not
 *      idle (the GPUs busy at least 1% of it), if there are several.
 *   3. The whole trace.
 *
 * Ownership: struct steady owns its marker string (steady_free).
 */
#ifndef GPULENS_STEADY_H
#define GPULENS_STEADY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/activity.h"
#include "model/model.h"

#define STEADY_OUTLIER		0.20	/* of the median iteration */
#define STEADY_MIN_ITERS	3

enum steady_method {
	STEADY_ITER_NVTX = 0,	/* a repeating NVTX range */
	STEADY_ITER_KERNEL,	/* the periodic kernel sequence */
	STEADY_PHASE,		/* the longest busy phase */
	STEADY_WHOLE,		/* the whole trace */
};

struct steady {
	int		 method;	/* enum steady_method */
	int64_t		 start, end;	/* the window, source clock */
	uint32_t	 process;	/* reference process or NONE32 */
	int64_t		 iter;		/* index of the iteration, -1 */
	size_t		 niters;	/* iterations of that process */
	double		 median_ns;	/* their median duration */
	int64_t		 skipped;	/* outlier iterations passed over */
	uint32_t	 range;		/* NVTX range of the iteration or
					   NONE32 */
	char		*marker;	/* iteration marker or phase label */
	size_t		 nphases;	/* phases considered (method PHASE) */
};

const char	*steady_method_name(int);
/*
 * Finds the window. a may be NULL (built and freed inside when needed).
 * Returns 0, or -1 with *cause (caller frees); free with steady_free().
 */
int	 steady_find(const struct model *, const struct activity *,
	    struct steady *, char **cause);
void	 steady_free(struct steady *);
/* The median duration of all iterations (iters.h), 0 without any: the
 * phases' minimum bin width. */
int64_t	 steady_iter_median(const struct model *);
/* Just the window, for option handling (`--window steady`). */
int	 steady_bounds(const struct model *, int64_t *t0, int64_t *t1,
	    char **cause);

#endif
