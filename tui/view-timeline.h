/*
 * view-timeline: the timeline view, as a table of callbacks (view.h).
 *
 * Screen, top to bottom: the ruler (title on the left), the rows (labels
 * column, then the lanes drawn by lod.c), a detail pane about the selected
 * event, and a status line that always shows the cursor time, the window
 * width and the selection. Keys are listed in view_timeline_keys (the same
 * table drives the help overlay, `?`).
 */
#ifndef GPULENS_VIEW_TIMELINE_H
#define GPULENS_VIEW_TIMELINE_H

#include <stddef.h>

#include "view.h"

extern const struct view_ops	view_timeline_ops;

/* One binding: up to three keys, a label for help, the help text. */
struct view_timeline_key {
	int		 keys[3];	/* 0-terminated */
	const char	*name;		/* "Left h" */
	const char	*help;
	int		 (*fn)(void *, const struct tui_key *, int arg);
	int		 arg;
};
extern const struct view_timeline_key	view_timeline_keys[];
extern const size_t			view_timeline_nkeys;

/* For tests: the window of a view made by view_timeline_ops.init. */
void	view_timeline_window(void *, int64_t *t0, int64_t *span,
	    int *cursor);
/* For tests: the selected visible row and event (NONE32 none). */
void	view_timeline_selection(void *, size_t *row, uint32_t *gid);

#endif
