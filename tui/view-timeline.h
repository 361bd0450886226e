/*
 * view-timeline: the timeline view, as a table of callbacks (view.h).
 *
 * Screen, top to bottom: the ruler (title on the left, a marked range
 * shown reversed), the rows (labels column, then the lanes drawn by
 * lod.c), a detail pane about the selected event (its top rule also shows
 * the filter, the search and the marked range), and a status line that
 * always shows the cursor time, the window width and the selection, or the
 * prompt being typed. The actions it runs are listed in
 * view_timeline_actions; the keys that run them are the keymap's
 * "timeline" table (keymap.c).
 *
 * Overlays of its own: the statistics of a marked range (`]`) and the
 * bookmark list (`'`).
 */
#ifndef GPULENS_VIEW_TIMELINE_H
#define GPULENS_VIEW_TIMELINE_H

#include <stddef.h>

#include "tui/view.h"

extern const struct view_ops	view_timeline_ops;

extern const struct view_action	view_timeline_actions[];
extern const size_t		view_timeline_nactions;

/* For tests: the window of a view made by view_timeline_ops.init. */
void	view_timeline_window(void *, int64_t *t0, int64_t *span,
	    int *cursor);
/* For tests: the selected visible row and event (NONE32 none). */
void	view_timeline_selection(void *, size_t *row, uint32_t *gid);
/* For tests: the number of events the minimum-duration filter left
 * (all lane rows) and the search's matches. */
void	view_timeline_counts(void *, uint64_t *filtered, uint64_t *matches);

#endif
