/*
 * rangestat: statistics of a marked time range (`[` and `]` on the
 * timeline): the busy share of every GPU stream in the range and the
 * kernels that took the most time in it.
 *
 * Busy time is the union of a stream's events (kernels, copies, memsets)
 * clipped to the range, from the lane's coverage (O(log n) per stream).
 * Kernel time is each kernel's duration clipped to the range, summed by
 * name over all streams; count is the number of kernels overlapping the
 * range. Computing it visits every kernel in the range once. The list
 * shows kernels by their short names (full names are in the detail pane).
 *
 * Ownership: rangestat_compute() fills a caller-provided struct;
 * rangestat_free() releases its arrays.
 */
#ifndef GPULENS_RANGESTAT_H
#define GPULENS_RANGESTAT_H

#include <stddef.h>
#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"

struct rangestat_stream {
	uint32_t	 track;
	int64_t		 busy;		/* ns inside the range */
	uint64_t	 events;	/* events overlapping the range */
};

struct rangestat_kernel {
	uint32_t	 name;		/* string id */
	uint32_t	 short_name;	/* of the first one seen, 0 unknown */
	uint64_t	 count;
	int64_t		 time;		/* ns inside the range */
};

struct rangestat {
	int64_t			 t0, t1;
	struct rangestat_stream	*s;		/* layout order: device,
						   stream */
	size_t			 ns;
	struct rangestat_kernel	*k;		/* by time, descending */
	size_t			 nk;
	uint64_t		 nkernels;
	int64_t			 ktime;		/* all kernels' time */
};

void	rangestat_init(struct rangestat *);
void	rangestat_free(struct rangestat *);
/* Computes the statistics of [t0, t1) (t0 < t1). */
void	rangestat_compute(struct rangestat *, const struct model *,
	    int64_t t0, int64_t t1);
/*
 * Draws them as a box over a w x h screen; times relative to origin
 * unless abs.
 */
void	rangestat_draw(struct cellgrid *, const struct glyph *, int w, int h,
	    const struct rangestat *, const struct model *, int abs,
	    int sanflags);

#endif
