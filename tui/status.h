/*
 * status: the status line every view ends with.
 *
 * It always shows the timeline's cursor time and window width (from the
 * shared state, so the NVTX tree and the kernel table show them too), then
 * what the view adds (the selection, a message, a prompt), and the key
 * hint "? help  q quit" on the right when the line is wide enough (from
 * 120 columns also "1 2 3 views").
 */
#ifndef GPULENS_STATUS_H
#define GPULENS_STATUS_H

#include <stdint.h>

#include "tui/cellgrid.h"
#include "model/model.h"
#include "tui/view.h"

/*
 * Clears row y (w wide), draws the hint and " cursor T  window W  " (no
 * model, a job overview: " ").
 * Returns the column after that text; *end is where the view's text must
 * stop (the hint's start). res is the time resolution (ns per column).
 */
int	 status_begin(struct cellgrid *, int y, int w, const struct model *,
	    const struct view_shared *, int64_t res, int *end);

#endif
