/*
 * replaymark: the boundaries of CUDA and HIP graph replays on a GPU stream
 * row of the timeline. A replay (model/replay.h) that covers two columns
 * or more gets its first column marked '[' and its last ']' (bold), over
 * the bar; a replay narrower than that is left as it is. Only rows that
 * show a whole stream lane are marked, and only while the window holds at
 * most REPLAYMARK_MAX events of the lane (zoomed far out the marks would
 * cover the bars).
 */
#ifndef GPULENS_REPLAYMARK_H
#define GPULENS_REPLAYMARK_H

#include <stdint.h>

#include "model/model.h"
#include "tui/cellgrid.h"
#include "tui/lod.h"

#define REPLAYMARK_MAX	4096

void	 replaymark_draw(struct cellgrid *, int x, int y,
	    const struct model *, uint32_t track, const struct lod_view *);

#endif
