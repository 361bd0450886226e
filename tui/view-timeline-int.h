/*
 * view-timeline-int.h: what the files of the timeline view
 * (tui/view-timeline*.c) share: the view's state, its window and selection
 * helpers (view-timeline.c), and the key actions and drawing each other
 * file gives, named after it (tl_nav_* in view-timeline-nav.c, tl_find_*,
 * tl_mark_*, tl_rows_*, tl_draw). The interface is view-timeline.h.
 */
#ifndef GPULENS_VIEW_TIMELINE_INT_H
#define GPULENS_VIEW_TIMELINE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tui/bookmark.h"
#include "tui/detail.h"
#include "tui/jumps.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/prompt.h"
#include "tui/rangestat.h"
#include "tui/search.h"
#include "tui/view.h"

#define TL_DETAIL_H	6	/* detail pane: a rule and five lines */
#define TL_ZOOM		2	/* zoom factor per key */

enum {
	TL_PR_SEARCH = 1,
	TL_PR_GOTO,
	TL_PR_MINDUR
};

enum {
	TL_OV_NONE,
	TL_OV_RANGE,
	TL_OV_BOOKMARKS
};

struct tl {
	const struct model	*m;
	const struct glyph	*gl;
	const char		*title;
	struct view_shared	*sh;
	struct layout		*lay;
	int			 san;		/* sanitize flags */

	int			 w, h;
	int			 labw;		/* label column width */
	int			 labneed;	/* the longest label's */
	int			 labadj;	/* label-narrower/-wider */
	int			 tx, tw;	/* lanes: first column, width */
	int			 rows_y, rows_h;
	int			 det_y, det_h;	/* det_h 0: no detail pane */
	int			 status_y;

	size_t			 top;		/* first visible row shown */
	size_t			 sel;		/* selected row */
	size_t			 prev_sel;	/* before the last row move */
	int64_t			 t0, span;
	int64_t			 tc;		/* cursor time */
	int			 cur;		/* its column (tl_clamp) */

	uint32_t		 sel_gid;	/* selected event or NONE32 */
	const struct lane	*sel_lane;	/* its row's lane, or NULL */
	size_t			 sel_idx;	/* ... and index there */
	struct detail		 det;

	struct lod_col		*cols;		/* tw entries */
	struct lod_col		*wcols;		/* tw entries: sync waits */
	uint32_t		*sync_of;	/* per GPU track: its stream's
						   sync track, or NONE32 */
	uint32_t		*sched_of;	/* per thread: its scheduling
						   entry (schedshade.h), or
						   NULL without any */
	size_t			 colcap;
	char			 msg[160];	/* one-shot status message */

	struct prompt		 pr;
	struct search		 srch;
	int64_t			 mark[2];	/* marked range */
	int			 marked;	/* 1: start, 2: end set */
	int64_t			 min_dur;	/* filter, 0 none */
	uint64_t		 nfiltered;	/* events the filter kept */
	unsigned		 hidden;	/* hidden track types */
	int			 overlay;
	struct rangestat	 rs;
	struct bookmarks	 bm;
	const char *const	*paths;		/* where bookmarks are kept */
	int			 npaths;
	size_t			 bm_sel;
	struct jumps		 jl;		/* the jump list */
	uint32_t		*stab;		/* the breadcrumb's scratch */
	size_t			 stabcap;
	uint32_t		 follow_from;	/* GPU work a launch was
						   followed from, or NONE32 */
	uint32_t		 counter;	/* the GPU metric the GPUs'
						   counter rows draw, 0 none */
};

/* Reactions of the key actions (view.h): the window moved; the rows. */
#define TL_VIEW		(REDRAW_RULER | REDRAW_TIMELINE | REDRAW_STATUS | \
			 REDRAW_DETAIL)
#define TL_ROWS		(REDRAW_TIMELINE | REDRAW_STATUS | REDRAW_DETAIL)

/* view-timeline.c: the window, the rows and the selection. */
int64_t		 tl_total(const struct tl *);
struct lod_view	 tl_lodview(const struct tl *);
void		 tl_clamp(struct tl *);
void		 tl_scroll(struct tl *);
void		 tl_publish(struct tl *);
void		 tl_select(struct tl *, uint32_t, const struct lane *, size_t);
void		 tl_resync(struct tl *, size_t);
int		 tl_show_event(struct tl *, uint32_t);

/*
 * Key actions (view_timeline_actions): each takes the view, the key and the
 * table's argument, and returns the reaction bitmask.
 */
/* view-timeline-nav.c: panning, zooming, rows, events, the cursor. */
int		 tl_nav_pan(void *, const struct tui_key *, int);
int		 tl_nav_home(void *, const struct tui_key *, int);
int		 tl_nav_zoom(void *, const struct tui_key *, int);
int		 tl_nav_whole(void *, const struct tui_key *, int);
int		 tl_nav_zoomsel(void *, const struct tui_key *, int);
int		 tl_nav_row(void *, const struct tui_key *, int);
int		 tl_nav_next(void *, const struct tui_key *, int);
int		 tl_nav_enter(void *, const struct tui_key *, int);
int		 tl_nav_cursor(void *, const struct tui_key *, int);
int		 tl_nav_click(void *, const struct tui_key *, int);
int		 tl_nav_escape(void *, const struct tui_key *, int);
void		 tl_nav_show(struct tl *, int64_t, int64_t);
void		 tl_nav_goto(struct tl *, int64_t);

/* view-timeline-find.c: the search, go-to and filter prompts. */
int		 tl_find_prompt(void *, const struct tui_key *, int);
int		 tl_find_match(void *, const struct tui_key *, int);
int		 tl_find_done(struct tl *);

/* view-timeline-rows.c: folding groups, hiding API rows. */
int		 tl_rows_fold(void *, const struct tui_key *, int);
int		 tl_rows_foldall(void *, const struct tui_key *, int);
int		 tl_rows_api(void *, const struct tui_key *, int);
int		 tl_rows_sync(void *, const struct tui_key *, int);

/* view-timeline-mark.c: the marked range and the bookmarks. */
int		 tl_mark_range(void *, const struct tui_key *, int);
int		 tl_mark_bookmark(void *, const struct tui_key *, int);
int		 tl_mark_list(void *, const struct tui_key *, int);
int		 tl_mark_key(struct tl *, const struct tui_key *);
void		 tl_mark_load(struct tl *);

/* view-timeline-follow.c: following a launch; the flow mark. */
uint32_t	 tl_under(const struct tl *);
int		 tl_follow(void *, const struct tui_key *, int);
int		 tl_flow_row(const struct tl *, const struct lod_view *,
		    int *, int *);

/* view-timeline-jump.c: the jump list. */
void		 tl_jump_push(struct tl *);
int		 tl_jump(void *, const struct tui_key *, int);

/* view-timeline-counter.c: the GPU metrics rows' sparklines. */
struct cellgrid;
int		 tl_counter_row(const struct tl *, const struct layout_row *);
void		 tl_counter_init(struct tl *);
int		 tl_counter_next(void *, const struct tui_key *, int);
const char	*tl_counter_label(const struct tl *);
void		 tl_counter_draw(struct tl *, struct cellgrid *, int,
		    const struct layout_row *, const struct lod_view *);

/* view-timeline-draw.c: the panes a reaction damaged. */
void		 tl_draw(void *, struct cellgrid *, int);

#endif
