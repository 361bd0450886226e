/*
 * ruler: the time axis above the timeline.
 *
 * Ticks fall on round times (1, 2 or 5 times a power of ten nanoseconds)
 * relative to the trace origin, spaced so that every label fits before the
 * next tick; labels use fmt_time_res() at the tick step, so the unit
 * adapts from ns to s with the zoom. The cursor column is marked.
 */
#ifndef GPULENS_RULER_H
#define GPULENS_RULER_H

#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/lod.h"

/* The tick step (ns) ruler_draw() uses for this view. */
int64_t	 ruler_step(const struct lod_view *, int64_t origin);
/* Draws the ruler for v on row y from x; cursor < 0: no cursor mark. */
void	 ruler_draw(struct cellgrid *, int x, int y, const struct lod_view *,
	    int64_t origin, int cursor, const struct glyph *);

#endif
