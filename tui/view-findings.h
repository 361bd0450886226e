/*
 * view-findings: the findings panel (key 4), a view (view.h) that lists
 * the trace's ranked findings (src/analysis/finding.h, the rules of `gpulens
 * findings`) with the selected one's numbers, next step, Amdahl bounds and
 * evidence window below.
 *
 * Enter shows the selected finding's evidence on the timeline, through the
 * application (REACT_SWITCH to "timeline"): its representative event
 * (VMSG_SHOW_EVENT: selected and brought into view) when it has one, else
 * its window with a tenth of its length as margin on each side
 * (VMSG_SHOW_RANGE). Findings are computed when the view is first shown,
 * over the whole trace.
 */
#ifndef GPULENS_VIEW_FINDINGS_H
#define GPULENS_VIEW_FINDINGS_H

#include <stddef.h>

#include "tui/view.h"

extern const struct view_ops	view_findings_ops;
extern const struct view_action	view_findings_actions[];
extern const size_t		view_findings_nactions;

/* For tests: the number of findings and the selected index. */
size_t	 view_findings_count(void *);
size_t	 view_findings_selected(void *);

#endif
