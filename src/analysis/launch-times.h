/*
 * launch-times: the statistics of the four times of a launch group
 * (launch.h) from its samples (launch-walk.h): the API and
 * kernel times as they are, the queue times the delays that are not
 * negative, the total times api + max(0, delay + kernel).
 *
 * Where the samples are narrow, each time is found without storing its
 * values: from its smallest and largest (which the walk keeps), a pass
 * over the samples that feeds the histogram of stats-hist.h and one that
 * gathers the keys at its ranks, the queue and total times made on the
 * fly. A time those do not suit (too few values, a spread of 2^32 or
 * more), and every time of a group with a wide sample, is computed the
 * plain way: its values made into an array and computed there. Both ways
 * give the same bits.
 */
#ifndef GPULENS_LAUNCH_TIMES_H
#define GPULENS_LAUNCH_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/launch-walk.h"
#include "analysis/stats.h"
#include "util/pool.h"

/* Working memory of the statistics of groups' times, reused across them
 * (zeroed to begin; launch_times_free() after). */
struct launch_scratch {
	struct stats_acc	 sorted;	/* scratch of stats_sample_compute */
	struct stats_acc	 made;		/* a group's made times */
	uint32_t		*q32;		/* a group's narrow queue times */
	size_t			 q32cap;
	struct stats_acc	 hist;		/* the histogram's */
	POOL_PAD;
};

/*
 * The statistics of g's four times (and those of g->x's kernels) into
 * st[LT_*]. A wide sample may be left sorted, so that g's samples are
 * good for nothing after but freeing.
 */
void	launch_times(struct launch_scratch *c, struct launch_group *g,
	    struct stats st[LT_COUNT]);
/*
 * Whether g's times may be computed one by one (launch_time_one()), on
 * several threads at once: its samples are narrow, and nothing then
 * writes them.
 */
int	launch_times_split(const struct launch_group *g);
/* Time j (LT_*) of launch_times(), alone, where launch_times_split(). */
void	launch_time_one(struct launch_scratch *c, struct launch_group *g,
	    int j, struct stats *st);
/* The same, every time the plain way (for the tests). */
void	launch_times_plain(struct launch_scratch *c, struct launch_group *g,
	    struct stats st[LT_COUNT]);
void	launch_times_free(struct launch_scratch *c);

#endif
