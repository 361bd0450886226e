/*
 * rangestat: the statistics overlay of a marked time range (`[` and `]` on
 * the timeline): the busy share of every GPU stream in the range and the
 * kernels that took the most time in it.
 *
 * The numbers are the window statistics of the analysis layer (winstat.h:
 * busy time per stream, kernel time inside the range by name, from the
 * grouping analysis of gstats.h); this file keeps the overlay's order of
 * the kernels (time inside the range, descending, then count, descending,
 * then name) and draws the box. The list shows kernels by their short
 * names (full names are in the detail pane).
 *
 * Ownership: rangestat_compute() fills a caller-provided struct;
 * rangestat_free() releases what it holds.
 */
#ifndef GPULENS_RANGESTAT_H
#define GPULENS_RANGESTAT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/winstat.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"

struct rangestat {
	int64_t			 t0, t1;
	struct winstat		*w;		/* NULL before the first */
	uint32_t		*order;		/* kernel groups, shown order */
	size_t			 nk;
};

void	rangestat_init(struct rangestat *);
void	rangestat_free(struct rangestat *);
/* Computes the statistics of [t0, t1) (t0 < t1). */
void	rangestat_compute(struct rangestat *, const struct model *,
	    int64_t t0, int64_t t1);
/* The ith kernel group in the shown order. */
const struct gstats_group *rangestat_kernel(const struct rangestat *,
	    size_t i);
/*
 * Draws them as a box over a w x h screen; times relative to origin
 * unless abs.
 */
void	rangestat_draw(struct cellgrid *, const struct glyph *, int w, int h,
	    const struct rangestat *, const struct model *, int abs,
	    int sanflags);

#endif
