/*
 * action: the named things a key can do in the terminal interface (tig's
 * requests, tmux's commands bound in key tables).
 *
 * ACTION_LIST is the one list of actions: an identifier (ACT_ID), the name
 * that key tables, scripts (":action NAME") and `gpulens --list-keys` use,
 * the views it applies to (AV_* bits; AV_GLOBAL: handled by the
 * application in every view) and a one-line help that the `?` overlay
 * shows. An action that applies to several views means the same thing in
 * each (row-up selects the previous row in the timeline and in every
 * table); something that differs gets its own action.
 *
 * Which key runs an action is not said here: the key tables are keymap.h's,
 * and each view maps the actions it applies to onto its own functions
 * (struct view_action, view.h).
 *
 * Adding an action: one line below, a binding in keymap.c's default
 * keymap, a line in the handling view's action table, and the key in the
 * man page (tests/cli/man_test.sh and tests/unit/keymap_test.c check).
 */
#ifndef GPULENS_ACTION_H
#define GPULENS_ACTION_H

#include <stddef.h>

/* The views an action applies to. */
#define AV_GLOBAL	0x01	/* the application, in every view */
#define AV_TIMELINE	0x02
#define AV_NVTX		0x04
#define AV_KERNELS	0x08
#define AV_FINDINGS	0x10
#define AV_REPORT	0x20
#define AV_OVERLAY	0x40	/* while a box is over a view */
#define AV_JOB		0x80	/* a job's overview of its ranks */
#define AV_TABLES	(AV_NVTX | AV_KERNELS | AV_FINDINGS | AV_JOB)

#define ACTION_LIST(X)							\
	/* Every view: switching, help, quitting. */			\
	X(VIEW_TIMELINE, "view-timeline", AV_GLOBAL, "timeline view")	\
	X(VIEW_NVTX, "view-nvtx", AV_GLOBAL, "NVTX tree view")		\
	X(VIEW_KERNELS, "view-kernels", AV_GLOBAL, "kernel table view")	\
	X(VIEW_FINDINGS, "view-findings", AV_GLOBAL, "findings panel")	\
	X(VIEW_REPORT, "view-report", AV_GLOBAL,			\
	    "Nsight Compute report view")				\
	X(HELP, "help", AV_GLOBAL, "this help")				\
	X(WARNINGS, "warnings", AV_GLOBAL,				\
	    "load warnings of the trace")				\
	X(REPAINT, "repaint", AV_GLOBAL, "repaint the screen")		\
	X(QUIT, "quit", AV_GLOBAL,					\
	    "quit (in a job's rank: back to the job)")		\
	X(QUIT_ALL, "quit-all", AV_GLOBAL,				\
	    "quit gpulens, from a rank of a job too")			\
	/* Any overlay (help, warnings, range statistics, bookmarks). */\
	X(OVERLAY_CLOSE, "overlay-close", AV_OVERLAY,			\
	    "close the box (never quits)")				\
	/* Moving the selection, in the timeline and the tables. */	\
	X(ROW_UP, "row-up", AV_TIMELINE | AV_TABLES | AV_REPORT,	\
	    "previous row")						\
	X(ROW_DOWN, "row-down", AV_TIMELINE | AV_TABLES | AV_REPORT,	\
	    "next row")							\
	X(PAGE_UP, "page-up", AV_TABLES, "page up")			\
	X(PAGE_DOWN, "page-down", AV_TABLES, "page down")		\
	X(ROW_FIRST, "row-first", AV_TABLES | AV_REPORT, "first row")	\
	X(ROW_LAST, "row-last", AV_TABLES | AV_REPORT, "last row")	\
	X(ROW_CLICK, "row-click", AV_TABLES,				\
	    "select the row; on it: as Enter")				\
	/* The timeline. */						\
	X(PAN_LEFT, "pan-left", AV_TIMELINE, "pan left 1/8 window")	\
	X(PAN_RIGHT, "pan-right", AV_TIMELINE, "pan right 1/8 window")	\
	X(PAN_PAGE_LEFT, "pan-page-left", AV_TIMELINE,			\
	    "pan left a window")					\
	X(PAN_PAGE_RIGHT, "pan-page-right", AV_TIMELINE,		\
	    "pan right a window")					\
	X(GO_START, "go-start", AV_TIMELINE, "go to the trace start")	\
	X(GO_END, "go-end", AV_TIMELINE, "go to the trace end")		\
	X(ZOOM_IN, "zoom-in", AV_TIMELINE, "zoom in at the cursor")	\
	X(ZOOM_OUT, "zoom-out", AV_TIMELINE, "zoom out at the cursor")	\
	X(ZOOM_ALL, "zoom-all", AV_TIMELINE, "zoom to the whole trace")	\
	X(ZOOM_SELECTION, "zoom-selection", AV_TIMELINE,		\
	    "zoom to the range or event")				\
	X(CURSOR_LEFT, "cursor-left", AV_TIMELINE, "cursor left")	\
	X(CURSOR_RIGHT, "cursor-right", AV_TIMELINE, "cursor right")	\
	X(GOTO_TIME, "goto-time", AV_TIMELINE, "go to a time")		\
	X(EVENT_NEXT, "event-next", AV_TIMELINE,			\
	    "next event on the row")					\
	X(EVENT_PREV, "event-prev", AV_TIMELINE,			\
	    "previous event on the row")				\
	X(PICK, "pick", AV_TIMELINE, "fold group / pick event")		\
	X(CLICK, "click", AV_TIMELINE, "pick row, move cursor")		\
	X(SEARCH, "search", AV_TIMELINE, "search event names")		\
	X(SEARCH_NEXT, "search-next", AV_TIMELINE, "next match")	\
	X(SEARCH_PREV, "search-prev", AV_TIMELINE, "previous match")	\
	X(MARK_START, "mark-start", AV_TIMELINE, "mark range start")	\
	X(MARK_END, "mark-end", AV_TIMELINE,				\
	    "mark range end: statistics")				\
	X(FILTER_DURATION, "filter-duration", AV_TIMELINE,		\
	    "minimum duration filter")					\
	X(FOLD, "fold", AV_TIMELINE, "fold the row's group")		\
	X(FOLD_ALL, "fold-all", AV_TIMELINE,				\
	    "fold or unfold all groups")				\
	X(TOGGLE_API, "toggle-api", AV_TIMELINE,			\
	    "hide or show API rows")					\
	X(TOGGLE_SYNC, "toggle-sync", AV_TIMELINE,			\
	    "per-stream sync and overlap rows")			\
	X(COUNTER_NEXT, "counter-next", AV_TIMELINE,			\
	    "GPU metrics rows: draw the next counter")			\
	X(TOGGLE_TIME, "toggle-time", AV_TIMELINE,			\
	    "absolute or relative times")				\
	X(BOOKMARK, "bookmark", AV_TIMELINE, "bookmark the cursor")	\
	X(BOOKMARKS, "bookmarks", AV_TIMELINE,				\
	    "bookmarks: list and jump")					\
	X(CLEAR_SELECTION, "clear-selection", AV_TIMELINE,		\
	    "clear selection and range")				\
	X(LABEL_NARROWER, "label-narrower", AV_TIMELINE,		\
	    "narrower label column")					\
	X(LABEL_WIDER, "label-wider", AV_TIMELINE,			\
	    "wider label column")					\
	X(FOLLOW_LAUNCH, "follow-launch", AV_TIMELINE,			\
	    "launch: GPU work <-> call, NVTX -> work")	\
	X(JUMP_BACK, "jump-back", AV_TIMELINE,				\
	    "back to where the last jump left")				\
	X(JUMP_FORWARD, "jump-forward", AV_TIMELINE,			\
	    "forward again along the jumps")				\
	/* The NVTX tree and the kernel table. */			\
	X(EXPAND, "expand", AV_NVTX, "expand")				\
	X(COLLAPSE, "collapse", AV_NVTX,				\
	    "collapse, or go to the parent")				\
	X(EXPAND_TOGGLE, "expand-toggle", AV_NVTX,			\
	    "expand or collapse")					\
	X(EXPAND_ALL, "expand-all", AV_NVTX, "expand everything")	\
	X(COLLAPSE_ALL, "collapse-all", AV_NVTX, "collapse everything")	\
	X(NEXT_INSTANCE, "next-instance", AV_NVTX | AV_KERNELS,		\
	    "next instance on the timeline")				\
	X(SORT_NEXT, "sort-next", AV_NVTX | AV_KERNELS | AV_JOB,		\
	    "sort by the next column")					\
	X(SORT_REVERSE, "sort-reverse", AV_NVTX | AV_KERNELS | AV_JOB,	\
	    "reverse the sort order")					\
	X(FILTER, "filter", AV_KERNELS | AV_JOB, "filter by name")	\
	X(FILTER_CLEAR, "filter-clear", AV_KERNELS | AV_JOB,		\
	    "clear the filter")						\
	X(NAME_FORM, "name-form", AV_KERNELS,				\
	    "elided, full or short names")				\
	/* The job overview. */						\
	X(OPEN_RANK, "open-rank", AV_JOB,				\
	    "open the rank (Esc cancels; q: back)")	\
	/* The findings panel. */					\
	X(SHOW_EVIDENCE, "show-evidence", AV_FINDINGS,			\
	    "show the evidence on the timeline")			\
	/* The report view's detail pane. */				\
	X(DETAIL_MODE, "detail-mode", AV_REPORT,			\
	    "metrics, rules or stalls by source line")		\
	X(DETAIL_DOWN, "detail-down", AV_REPORT,			\
	    "scroll the detail pane down")				\
	X(DETAIL_UP, "detail-up", AV_REPORT,				\
	    "scroll the detail pane up")				\
	X(DETAIL_PAGE_DOWN, "detail-page-down", AV_REPORT,		\
	    "detail pane down a page")					\
	X(DETAIL_PAGE_UP, "detail-page-up", AV_REPORT,			\
	    "detail pane up a page")					\
	X(SET_BASELINE, "set-baseline", AV_REPORT,			\
	    "baseline: the selected launch, or none")

enum action {
	ACT_NONE = 0,
#define ACTION_ENUM(id, name, views, help) ACT_##id,
	ACTION_LIST(ACTION_ENUM)
#undef ACTION_ENUM
	ACT_COUNT
};

struct action_info {
	const char	*name;
	unsigned	 views;		/* AV_* */
	const char	*help;
};

/* The action act (ACT_NONE < act < ACT_COUNT), or NULL. */
const struct action_info *action_get(int act);
/* The action called name, or ACT_NONE. */
int		 action_find(const char *name);
/* Its name, or "none". */
const char	*action_name(int act);

/* The AV_* bit of a view (its view_ops name, or "global"), or 0. */
unsigned	 action_view_bit(const char *view);

#endif
