/*
 * launch-times: the statistics of the four times of a group of `gpulens
 * launch` (cmd-launch.c) from its samples (launch-walk.h): the API and
 * kernel times as they are, the queue times the delays that are not
 * negative, the total times api + max(0, delay + kernel).
 *
 * Where the samples are narrow, the four are found together without
 * storing the made times: one pass for each time's smallest and largest,
 * one that feeds the four histograms of stats-hist.h, one that gathers
 * the keys at their ranks. A time those do not suit (too few values, a
 * spread of 2^32 or more), and every time of a group with a wide sample,
 * is computed the plain way: its values made into an array and computed
 * there. Both ways give the same bits.
 */
#ifndef GPULENS_LAUNCH_TIMES_H
#define GPULENS_LAUNCH_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"
#include "headless/launch-walk.h"

enum launch_time {
	LT_API, LT_QUEUE, LT_KERNEL, LT_TOTAL, LT_COUNT
};

/* Working memory of the statistics of groups' times, reused across them
 * (zeroed to begin; launch_times_free() after). */
struct launch_scratch {
	struct stats_acc	 sorted;	/* scratch of stats_sample_compute */
	struct stats_acc	 made;		/* a group's made times */
	uint32_t		*q32;		/* a group's narrow queue times */
	size_t			 q32cap;
	struct stats_acc	 hist[LT_COUNT];	/* the histograms' */
};

/*
 * The statistics of g's four times (and those of g->x's kernels) into
 * st[LT_*]. A wide sample may be left sorted, so that g's samples are
 * good for nothing after but freeing.
 */
void	launch_times(struct launch_scratch *c, struct launch_group *g,
	    struct stats st[LT_COUNT]);
/* The same, every time the plain way (for the tests). */
void	launch_times_plain(struct launch_scratch *c, struct launch_group *g,
	    struct stats st[LT_COUNT]);
void	launch_times_free(struct launch_scratch *c);

#endif
