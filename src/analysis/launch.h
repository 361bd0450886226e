/*
 * launch: kernel launch overhead, with the definitions of nsys's
 * cuda_kern_exec_sum (FORMATS.md section 2). For every kept kernel with a
 * launching API call (correlate.h):
 *   API time    = api.end - api.start
 *   queue time  = kernel.start - api.end, only when >= 0 (nsys's QCount
 *                 counts these; a kernel that starts before its call
 *                 returns has no queue time)
 *   kernel time = kernel.end - kernel.start
 *   total time  = max(api.end, kernel.end) - api.start
 * and the kernel is "short" when its kernel time is below its API time (it
 * ran for less time than it took to launch). The kernels are grouped by
 * the axes asked for (launch-walk.h: API name, kernel name, short name,
 * device, stream, pid, tid, or none for one group); each group has its
 * count, queue count, short kernels and, for each of the four times, the
 * statistics of stats.h. API names lose their "_vNNNN" suffix as in nsys.
 * Kernels without a launching call are only counted (unlinked). A graph
 * launch (model/replay.h) is one launch: the first kernel of each replay
 * stands for it (its queue time is the replay's launch latency), and the
 * replay's other kernels, which no call of their own launched, are left
 * out and counted (replayed).
 *
 * launch_build() walks the kernels (launch-walk.h, on two threads where
 * the selection allows) and computes every group's statistics
 * (launch-times.h) on the pool's threads, the largest groups first so that
 * the threads end together.
 *
 * Ownership: the result holds the walk's state (its groups, their keys and
 * names) and the statistics; launch_free() releases them.
 */
#ifndef GPULENS_ANALYSIS_LAUNCH_H
#define GPULENS_ANALYSIS_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/launch-walk.h"
#include "analysis/stats.h"
#include "model/model.h"

struct launch_result {
	struct launch_ctx	 c, c2;	/* the walkers: c's groups are the
					   result (c.g, c.map's keys, c.names'
					   strings); c2's hang on them */
	struct stats		*st;	/* per group of c, LT_COUNT each */
	size_t			*order;	/* c's groups by their first kernel */
	size_t			 ng;
	int64_t			 nsel;	/* kernels kept */
	int64_t			 unlinked;	/* of them, with no call */
	int64_t			 replayed;	/* left out as replays */
};

/*
 * The groups of m's kernels that sel keeps (sel need not outlive the
 * call), by the naxes axes (LA_*) in axes, with their statistics. A
 * group's n is then its kernels (both walkers'), and its samples are
 * freed.
 */
void	launch_build(const struct model *m, const int *axes, int naxes,
	    const struct launch_sel *sel, struct launch_result *r);
void	launch_free(struct launch_result *r);

#endif
