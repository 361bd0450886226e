/*
 * schedshade: a CPU thread's rows shaded by its scheduling state, where the
 * trace records it (model.h, struct sched_thread): the empty cells of a
 * column in which the thread never ran (descheduled: blocked, sleeping,
 * preempted, not started or ended) get a dim shade; the cells it ran in
 * stay blank, and events are never drawn over.
 */
#ifndef GPULENS_SCHEDSHADE_H
#define GPULENS_SCHEDSHADE_H

#include <stdint.h>

#include "model/model.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/lod.h"

/* Per model thread, its scheduling entry or NONE32; NULL when the trace
 * has no scheduling data. The caller frees. */
uint32_t	*schedshade_map(const struct model *);
/* Shades row y from column x (lv->ncols columns) for scheduling entry st. */
void		 schedshade_draw(struct cellgrid *, int x, int y,
		    const struct model *, uint32_t st, const struct lod_view *,
		    const struct glyph *);

#endif
