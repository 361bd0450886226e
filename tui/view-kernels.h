/*
 * view-kernels: the kernel table view (key 3): the `stats` verb's kernel
 * summary (ktable.h) as a sortable, filterable table; Enter shows the
 * selected kernel's next instance on the timeline.
 */
#ifndef GPULENS_VIEW_KERNELS_H
#define GPULENS_VIEW_KERNELS_H

#include <stddef.h>

#include "tui/view.h"

extern const struct view_ops	view_kernels_ops;
extern const struct view_action	view_kernels_actions[];
extern const size_t		view_kernels_nactions;

#endif
