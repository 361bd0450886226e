/*
 * view-report: the terminal view of an Nsight Compute report (view.h).
 *
 * Screen, top to bottom: a title line; the launch table (id, duration,
 * SM and memory throughput, achieved occupancy, registers, grid and block
 * on wide screens, kernel name), one row per launch with the selected one
 * highlighted; a separator naming the selected launch; the detail pane,
 * which shows either the launch's metrics (grouped by section, with label,
 * value and unit) or its rule results (type, estimated speedup, rule,
 * section and the wrapped message), switched with Tab; and a status line.
 * The actions it runs are listed in view_report_actions (the keys are the
 * keymap's "report" table); keys it does not bind (help, quit) go back to
 * the application (REACT_PASS).
 *
 * A report is not a model: the view takes its report from view_env.arg
 * (const struct report *, never NULL, which must outlive the view; the
 * application makes this view only for a report input) and has no model.
 */
#ifndef GPULENS_VIEW_REPORT_H
#define GPULENS_VIEW_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "tui/view.h"

extern const struct view_ops	view_report_ops;
extern const struct view_action	view_report_actions[];
extern const size_t		view_report_nactions;

enum view_report_mode {
	VR_METRICS = 0,
	VR_RULES,
	VR_SOURCE,	/* PC sampling per source line or instruction */
};

/* For tests: the selected launch, the detail mode and its scroll. */
void	 view_report_state(void *, uint32_t *launch, int *mode,
	    size_t *scroll);

#endif
