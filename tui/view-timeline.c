/*
 * view-timeline: the timeline view.
 *
 * State is a window [t0, t0 + span) over the trace, a cursor time (and
 * its column), a selected row (an index into the layout's visible rows)
 * and an optional selected event. Keys come bound to actions (keymap.h);
 * the action table runs them, and they return the panes they damaged;
 * draw() repaints only those: moving between rows repaints two labels,
 * the detail pane and the status line, not the lanes.
 *
 * Per frame the view queries O(visible rows x columns) lane aggregates
 * through lod.c into a column buffer allocated at resize, and formats text
 * into fixed buffers, so a steady-state frame allocates nothing. The
 * detail pane is rebuilt only when the selection changes. Searching,
 * filtering and range statistics cost O(events) once, when asked for
 * (search.c, layout.c, rangestat.c); n / N are O(rows x log matches).
 *
 * After every key the view publishes its window, cursor and selection in
 * the shared state (view.h), which the other views' status lines show.
 *
 * This file holds the state's helpers, the key table and dispatch, and
 * the view's life cycle; the key actions are in view-timeline-nav.c,
 * -find.c, -rows.c and -mark.c, the drawing in view-timeline-draw.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/event.h"
#include "tui/action.h"
#include "tui/bookmark.h"
#include "tui/detail.h"
#include "tui/labw.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/prompt.h"
#include "tui/rangestat.h"
#include "tui/safetext.h"
#include "tui/search.h"
#include "tui/view-timeline.h"
#include "tui/schedshade.h"
#include "tui/view-timeline-int.h"
#include "util/xmalloc.h"

int64_t
tl_total(const struct tl *v)
{
	int64_t	total = v->m->end_ns - v->m->origin_ns;

	return total < v->tw ? v->tw : total;
}

struct lod_view
tl_lodview(const struct tl *v)
{
	struct lod_view	lv;

	lv.t0 = v->t0;
	lv.span = v->span;
	lv.ncols = v->tw;
	return lv;
}

/* Keeps the window inside the trace and at least one ns per column. */
void
tl_clamp(struct tl *v)
{
	struct lod_view	lv;
	int64_t		total = tl_total(v), lo = v->m->origin_ns;

	if (v->span < v->tw)
		v->span = v->tw;
	if (v->span > total)
		v->span = total;
	if (v->t0 > lo + total - v->span)
		v->t0 = lo + total - v->span;
	if (v->t0 < lo)
		v->t0 = lo;
	/* The cursor stays inside the window. */
	if (v->tc >= v->t0 + v->span)
		v->tc = v->t0 + v->span - 1;
	if (v->tc < v->t0)
		v->tc = v->t0;
	lv = tl_lodview(v);
	v->cur = lod_col_of(&lv, v->tc);
	if (v->cur >= v->tw)
		v->cur = v->tw - 1;
	if (v->cur < 0)
		v->cur = 0;
}

void
tl_scroll(struct tl *v)
{
	size_t	n = layout_nrows(v->lay);

	if (n == 0) {
		v->sel = v->top = 0;
		return;
	}
	if (v->sel >= n)
		v->sel = n - 1;
	if (v->rows_h <= 0)
		return;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + (size_t)v->rows_h)
		v->top = v->sel - (size_t)v->rows_h + 1;
	if (v->top + (size_t)v->rows_h > n)
		v->top = n > (size_t)v->rows_h ? n - (size_t)v->rows_h : 0;
}

void
tl_publish(struct tl *v)
{
	v->sh->t0 = v->t0;
	v->sh->span = v->span;
	v->sh->cursor = v->tc;
	v->sh->sel = v->sel_gid;
	v->sh->res = v->tw > 0 && v->span / v->tw > 0 ? v->span / v->tw : 1;
	v->sh->overlay = v->overlay != TL_OV_NONE;
}

void
tl_select(struct tl *v, uint32_t gid, const struct lane *l, size_t idx)
{
	v->sel_gid = gid;
	v->sel_lane = l;
	v->sel_idx = idx;
	detail_build(v->m, gid, v->sh->abs_time, &v->det);
}

/*
 * After the rows changed (filter, hidden types, collapsing): finds the
 * selected event's lane again and keeps the selected row, or the nearest
 * row above it that is still visible.
 */
void
tl_resync(struct tl *v, size_t old_all)
{
	const struct layout_row	*r;
	size_t			 i, row;
	int64_t			 idx;

	if (old_all != (size_t)-1) {
		for (i = old_all + 1; i-- > 0; )
			if ((row = layout_visible(v->lay, i)) != (size_t)-1) {
				v->sel = row;
				break;
			}
	}
	tl_scroll(v);
	v->sel_lane = NULL;
	if (v->sel_gid == NONE32)
		return;
	row = layout_find(v->lay, v->sel_gid);
	if (row == (size_t)-1 || (r = layout_row(v->lay, row)) == NULL)
		return;
	idx = layout_lane_index(v->lay, r, v->sel_gid);
	if (idx >= 0) {
		v->sel_lane = r->lane;
		v->sel_idx = (size_t)idx;
	}
}

static void	tl_resize(void *, int, int);

/* Each GPU track's stream's sync track (NONE32 if none or another type). */
static uint32_t *
tl_sync_map(const struct model *m)
{
	const struct track	*a, *b;
	uint32_t		*map, t, u;

	map = xreallocarray(NULL, m->ntracks > 0 ? m->ntracks : 1,
	    sizeof *map);
	for (t = 0; t < m->ntracks; t++)
		map[t] = NONE32;
	for (t = 0; t < m->ntracks; t++) {
		a = &m->tracks[t];
		if (a->type != TRACK_SYNC || a->stream == NONE32)
			continue;
		for (u = 0; u < m->ntracks; u++) {
			b = &m->tracks[u];
			if (b->type == TRACK_GPU && b->device == a->device &&
			    b->stream == a->stream) {
				map[u] = t;
				break;
			}
		}
	}
	return map;
}

/* The columns the longest label needs: indent, fold mark, text, a gap. */
static int
tl_labneed(const struct tl *v)
{
	const struct layout_row	*r;
	size_t			 a, n = layout_nall(v->lay);
	int			 w, need = 0;

	for (a = 0; a < n; a++) {
		if ((r = layout_all(v->lay, a)) == NULL)
			continue;
		w = r->level * 2 + (r->kind == LROW_GROUP ? 2 : 0) +
		    safetext_width(r->label, (size_t)-1, v->san) + 1;
		if (w > need)
			need = w;
	}
	return need;
}

/* label-narrower (-1), label-wider (1): the label column by LABW_STEP. */
static int
tl_labw(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	int		 was = v->labw;

	(void)k;
	v->labadj += arg * LABW_STEP;
	tl_resize(v, v->w, v->h);
	/* At a bound: forget the steps that changed nothing. */
	if (v->labw == was)
		v->labadj -= arg * LABW_STEP;
	snprintf(v->msg, sizeof v->msg, "label column %d columns", v->labw);
	return REDRAW_ALL;
}

static int
tl_abs(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	v->sh->abs_time = !v->sh->abs_time;
	detail_build(v->m, v->sel_gid, v->sh->abs_time, &v->det);
	snprintf(v->msg, sizeof v->msg, "%s times", v->sh->abs_time ?
	    "absolute (@: source clock)" : "relative (+: from the trace "
	    "start)");
	return REDRAW_RULER | REDRAW_STATUS | REDRAW_DETAIL;
}

const struct view_action view_timeline_actions[] = {
	{ ACT_PAN_LEFT, tl_nav_pan, -1 },
	{ ACT_PAN_RIGHT, tl_nav_pan, 1 },
	{ ACT_PAN_PAGE_LEFT, tl_nav_pan, -8 },
	{ ACT_PAN_PAGE_RIGHT, tl_nav_pan, 8 },
	{ ACT_GO_START, tl_nav_home, 0 },
	{ ACT_GO_END, tl_nav_home, 1 },
	{ ACT_ZOOM_IN, tl_nav_zoom, 1 },
	{ ACT_ZOOM_OUT, tl_nav_zoom, 0 },
	{ ACT_ZOOM_ALL, tl_nav_whole, 0 },
	{ ACT_ZOOM_SELECTION, tl_nav_zoomsel, 0 },
	{ ACT_CURSOR_LEFT, tl_nav_cursor, -1 },
	{ ACT_CURSOR_RIGHT, tl_nav_cursor, 1 },
	{ ACT_GOTO_TIME, tl_find_prompt, TL_PR_GOTO },
	{ ACT_ROW_UP, tl_nav_row, -1 },
	{ ACT_ROW_DOWN, tl_nav_row, 1 },
	{ ACT_EVENT_NEXT, tl_nav_next, 1 },
	{ ACT_EVENT_PREV, tl_nav_next, -1 },
	{ ACT_PICK, tl_nav_enter, 0 },
	{ ACT_CLICK, tl_nav_click, 0 },
	{ ACT_SEARCH, tl_find_prompt, TL_PR_SEARCH },
	{ ACT_SEARCH_NEXT, tl_find_match, 1 },
	{ ACT_SEARCH_PREV, tl_find_match, -1 },
	{ ACT_MARK_START, tl_mark_range, 0 },
	{ ACT_MARK_END, tl_mark_range, 1 },
	{ ACT_FILTER_DURATION, tl_find_prompt, TL_PR_MINDUR },
	{ ACT_FOLD, tl_rows_fold, 0 },
	{ ACT_FOLD_ALL, tl_rows_foldall, 0 },
	{ ACT_TOGGLE_API, tl_rows_api, 0 },
	{ ACT_TOGGLE_SYNC, tl_rows_sync, 0 },
	{ ACT_COUNTER_NEXT, tl_counter_next, 0 },
	{ ACT_TOGGLE_TIME, tl_abs, 0 },
	{ ACT_BOOKMARK, tl_mark_bookmark, 0 },
	{ ACT_BOOKMARKS, tl_mark_list, 0 },
	{ ACT_CLEAR_SELECTION, tl_nav_escape, 0 },
	{ ACT_LABEL_NARROWER, tl_labw, -1 },
	{ ACT_LABEL_WIDER, tl_labw, 1 },
	{ ACT_FOLLOW_LAUNCH, tl_follow, 0 },
	{ ACT_JUMP_BACK, tl_jump, -1 },
	{ ACT_JUMP_FORWARD, tl_jump, 1 },
};
const size_t view_timeline_nactions =
    sizeof view_timeline_actions / sizeof view_timeline_actions[0];

static int
tl_key(void *p, const struct tui_key *k, int act)
{
	struct tl	*v = p;
	int		 r = view_clear_msg(v->msg);

	if (v->pr.active) {
		switch (prompt_key(&v->pr, k)) {
		case PROMPT_DONE:
			r |= tl_find_done(v);
			break;
		case PROMPT_CANCEL:
			r |= REDRAW_STATUS;
			break;
		default:
			r |= REDRAW_STATUS;
			break;
		}
	} else if (v->overlay != TL_OV_NONE && act == ACT_OVERLAY_CLOSE) {
		/* The application's overlay rule (app.c): q Q Esc close. */
		v->overlay = TL_OV_NONE;
		r |= REDRAW_ALL;
	} else if (v->overlay == TL_OV_BOOKMARKS)
		r |= tl_mark_key(v, k);
	else if (v->overlay == TL_OV_RANGE) {
		/* Any key closes the statistics. */
		v->overlay = TL_OV_NONE;
		r |= REDRAW_ALL;
	} else
		r |= view_action_run(view_timeline_actions,
		    view_timeline_nactions, v, k, act);
	tl_publish(v);
	return r;
}

/*
 * Selects event gid on its row and brings it into view (keeping the zoom
 * unless the event would be too thin to see or does not fit). A sync wait
 * or an API call whose rows are hidden brings those rows back: otherwise
 * it would have no row to be selected on. Returns 0 if gid is no event.
 */
int
tl_show_event(struct tl *v, uint32_t gid)
{
	int64_t		 s, e;
	size_t		 a, row = (size_t)-1;
	unsigned	 type;

	if (gid == NONE32 || gid >= v->m->nevents)
		return 0;
	s = model_ev_start(v->m, gid);
	e = model_ev_end(v->m, gid);
	type = event_track(v->m, gid)->type;
	if ((type == TRACK_SYNC || type == TRACK_API) &&
	    (v->hidden & (1u << type))) {
		v->hidden &= type == TRACK_SYNC ? ~LAYOUT_HIDE_DETAIL :
		    ~(1u << TRACK_API);
		layout_set_hidden(v->lay, v->hidden);
		if (v->srch.pat[0] != '\0')
			search_build(&v->srch, v->lay, v->srch.pat);
	}
	a = layout_find_all(v->lay, gid);
	if (a != (size_t)-1 &&
	    (row = layout_reveal(v->lay, a)) != (size_t)-1) {
		v->sel = row;
		tl_scroll(v);
	}
	tl_select(v, gid, NULL, 0);
	tl_resync(v, (size_t)-1);
	if (e - s > v->span || (e - s) * v->tw < 2 * v->span)
		tl_nav_show(v, s, e);
	else {
		v->t0 = s - (v->span - (e - s)) / 2;
		v->tc = s;
		tl_clamp(v);
	}
	if (a == (size_t)-1 || row == (size_t)-1)
		snprintf(v->msg, sizeof v->msg, "its row is hidden "
		    "(A shows API rows, S sync rows)");
	else if (v->sel_lane == NULL && v->min_dur > 0)
		snprintf(v->msg, sizeof v->msg, "hidden by the minimum "
		    "duration filter (f changes it)");
	return 1;
}

static int
tl_command(void *p, const struct view_msg *msg)
{
	struct tl	*v = p;

	if (msg->type == VMSG_SHOW_EVENT || msg->type == VMSG_SHOW_RANGE)
		tl_jump_push(v);
	switch (msg->type) {
	case VMSG_SHOW_EVENT:
		if (!tl_show_event(v, msg->gid))
			return 0;
		break;
	case VMSG_SHOW_RANGE:
		/* A range has no event: the previous selection (and its
		 * detail pane) would be off-screen and mean nothing here. */
		tl_select(v, NONE32, NULL, 0);
		v->t0 = msg->t0;
		v->span = msg->t1 - msg->t0;
		v->tc = msg->t0;
		tl_clamp(v);
		break;
	default:
		return 0;
	}
	if (msg->note[0] != '\0' && v->msg[0] == '\0')
		snprintf(v->sh->note, sizeof v->sh->note, "%s", msg->note);
	tl_publish(v);
	return REDRAW_ALL;
}

static void
tl_resize(void *p, int w, int h)
{
	struct tl	*v = p;

	v->w = w < 1 ? 1 : w;
	v->h = h < 1 ? 1 : h;
	v->labw = labw_width(v->w, v->labneed, v->labadj);
	v->tx = v->labw + 1;
	v->tw = v->w - v->tx;
	if (v->tw < 1)
		v->tw = 1;
	v->status_y = v->h - 1;
	v->det_h = v->h >= 16 ? TL_DETAIL_H : 0;
	v->det_y = v->status_y - v->det_h;
	v->rows_y = 1;
	v->rows_h = v->det_y - v->rows_y;
	if (v->rows_h < 0)
		v->rows_h = 0;
	XGROW(v->cols, v->colcap, (size_t)v->tw);
	v->wcols = xreallocarray(v->wcols, v->colcap, sizeof *v->wcols);
	tl_clamp(v);
	tl_scroll(v);
	tl_publish(v);
}

static void *
tl_init(const struct model *m, const struct view_env *env)
{
	struct tl	*v;
	size_t		 g;

	v = xcalloc(1, sizeof *v);
	v->m = m;
	v->gl = env->gl;
	v->title = env->title;
	v->sh = env->sh;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	v->lay = layout_new(m);
	/* GPU streams start compact: no sync rows, no overlap rows. */
	v->hidden = LAYOUT_HIDE_DETAIL;
	layout_set_hidden(v->lay, v->hidden);
	/* A thread of one track needs no header and a row: its folded
	 * header shows the track (Enter unfolds it). */
	for (g = 0; g < v->lay->ngroups; g++)
		if (v->lay->groups[g].kind == LG_THREAD &&
		    v->lay->groups[g].n == 1)
			layout_set_collapsed(v->lay, (uint32_t)g, 1);
	v->labneed = tl_labneed(v);
	v->sync_of = tl_sync_map(m);
	v->sched_of = schedshade_map(m);
	tl_counter_init(v);
	v->sel_gid = NONE32;
	v->follow_from = NONE32;
	jumps_init(&v->jl);
	v->det.gid = NONE32;
	search_init(&v->srch);
	rangestat_init(&v->rs);
	bookmarks_init(&v->bm);
	v->paths = env->paths;
	v->npaths = env->npaths;
	tl_mark_load(v);
	tl_resize(v, 80, 24);
	v->t0 = m->origin_ns;
	v->span = tl_total(v);
	v->tc = v->t0 + v->span / 2;
	tl_clamp(v);
	tl_publish(v);
	return v;
}

static void
tl_free(void *p)
{
	struct tl	*v = p;

	if (v == NULL)
		return;
	layout_free(v->lay);
	search_free(&v->srch);
	rangestat_free(&v->rs);
	bookmarks_free(&v->bm);
	free(v->cols);
	free(v->wcols);
	free(v->sync_of);
	free(v->sched_of);
	free(v->stab);
	free(v);
}

void
view_timeline_window(void *p, int64_t *t0, int64_t *span, int *cursor)
{
	struct tl	*v = p;

	*t0 = v->t0;
	*span = v->span;
	*cursor = v->cur;
}

void
view_timeline_selection(void *p, size_t *row, uint32_t *gid)
{
	struct tl	*v = p;

	*row = v->sel;
	*gid = v->sel_gid;
}

void
view_timeline_counts(void *p, uint64_t *filtered, uint64_t *matches)
{
	struct tl	*v = p;

	*filtered = v->nfiltered;
	*matches = v->srch.total;
}

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.label = "Timeline",
	.init = tl_init,
	.free = tl_free,
	.resize = tl_resize,
	.draw = tl_draw,
	.key = tl_key,
	.command = tl_command,
	.actions = view_timeline_actions,
	.nactions = sizeof view_timeline_actions /
	    sizeof view_timeline_actions[0],
};
