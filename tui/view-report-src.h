/*
 * view-report-src: the source pane of the report view: the PC sampling of
 * the selected launch (report/stalls.h) as a bar per source line (where
 * the cubin has a line table) or per instruction, longest first, with its
 * samples, not-issued samples and top stall reason.
 */
#ifndef GPULENS_VIEW_REPORT_SRC_H
#define GPULENS_VIEW_REPORT_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "report/stalls.h"

struct cellgrid;
struct glyph;
struct report;

struct vrsrc {
	struct report_stalls		 st;
	struct report_stall_group	*g;
	size_t				 n;
	double				 max;
	int				 ok;	/* the launch has samples */
	int				 by_line;
};

/* Builds the pane's rows for a launch (none without PC sampling). */
void	 vrsrc_build(struct vrsrc *, const struct report *, uint32_t launch);
void	 vrsrc_free(struct vrsrc *);
/* Draws row i at line y, w columns wide. */
void	 vrsrc_draw(const struct vrsrc *, const struct report *,
	    struct cellgrid *, const struct glyph *, int san, int y, int w,
	    size_t i);

#endif
