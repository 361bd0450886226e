/*
 * view-nvtx: the NVTX tree view (key 2): NVTX ranges per thread and
 * domain as a collapsible tree (nvtree.h) with count, CPU time,
 * GPU-projected time and share of the parent; sortable; Enter shows the
 * next instance of the selected range on the timeline.
 */
#ifndef GPULENS_VIEW_NVTX_H
#define GPULENS_VIEW_NVTX_H

#include <stddef.h>

#include "tui/view.h"

extern const struct view_ops	view_nvtx_ops;
extern const struct view_action	view_nvtx_actions[];
extern const size_t		view_nvtx_nactions;

#endif
