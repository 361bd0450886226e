/*
 * samprow: the CPU samples in the timeline: a sampled thread's density row
 * (LROW_SAMPLES in layout.h: each column shaded by the samples in it, on
 * the height ramp, relative to the densest visible column) and the top
 * functions by self samples of a marked time range (analysis/samples.h),
 * in the detail pane.
 *
 * Everything here is pure: it reads the model and writes into a cellgrid.
 */
#ifndef GPULENS_SAMPROW_H
#define GPULENS_SAMPROW_H

#include <stdint.h>

#include "model/model.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/lod.h"

/* Draws sampled thread h's density over ncols columns from x on row y. */
void	samprow_draw(struct cellgrid *, int x, int y, const struct model *,
	    uint32_t h, const struct lod_view *, const struct glyph *);
/* The samples of sampled thread h in [t0, t1). */
uint64_t samprow_count(const struct model *, uint32_t h, int64_t t0,
	    int64_t t1);
/*
 * Draws the top functions of [t0, t1) over every thread (self samples and
 * share, total, function and module) into the w x h box at (x, y).
 */
void	samprow_top(struct cellgrid *, int x, int y, int w, int h,
	    const struct model *, int64_t t0, int64_t t1, int sanflags);

#endif
