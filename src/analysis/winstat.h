/*
 * winstat: what the GPUs did in a time window, the TUI's range statistics
 * (a range marked on the timeline):
 *   per GPU stream (every GPU track, ordered by device source id, then
 *   stream source id): its busy time inside the window, the union of its
 *   events (kernels, copies, memsets) clipped to it (lane_busy()), and the
 *   number of its events overlapping it (lane_count());
 *   the kernels overlapping the window grouped by name (gstats.h, GS_SUMS
 *   and GS_CLIP): per name the count and the time inside the window; the
 *   result's grand total is all kernels' time inside the window, its event
 *   count the number of kernels.
 *
 * Cost: O(log n) per stream for the busy time and counts, and one visit of
 * every kernel in the window.
 *
 * Ownership: winstat_compute() returns a result freed with winstat_free();
 * the model is borrowed and must outlive it.
 */
#ifndef GPULENS_WINSTAT_H
#define GPULENS_WINSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/gstats.h"
#include "model/model.h"

struct winstat_stream {
	uint32_t	 track;
	int64_t		 busy;		/* ns inside the window */
	uint64_t	 events;	/* events overlapping the window */
};

struct winstat {
	int64_t			 t0, t1;
	struct winstat_stream	*s;		/* device, then stream order */
	size_t			 ns;
	struct gstats		*k;		/* kernels by name */
};

/* The statistics of [t0, t1). */
struct winstat	*winstat_compute(const struct model *, int64_t t0,
		    int64_t t1);
void		 winstat_free(struct winstat *);

#endif
