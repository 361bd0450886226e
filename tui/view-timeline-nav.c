/*
 * view-timeline-nav: the timeline's moves: panning and zooming the window,
 * moving between rows and between a row's events, the cursor, the mouse.
 */
#include "config.h"

#include <stdio.h>

#include "model/model.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

/*
 * The reaction of a move that started from window t0, span and cursor tc:
 * nothing to redraw when it changed none of them (a zoom out with the
 * whole trace in view, a pan at an end), so such a key costs no frame.
 */
static int
tl_moved(const struct tl *v, int64_t t0, int64_t span, int64_t tc)
{
	return v->t0 == t0 && v->span == span && v->tc == tc ? 0 : TL_VIEW;
}

int
tl_nav_pan(void *p, const struct tui_key *k, int eighths)
{
	struct tl	*v = p;
	int64_t		 d = v->span / 8 * eighths;
	int64_t		 t0 = v->t0, tc = v->tc;

	/* The cursor keeps its column unless the window hits an end. */
	v->t0 += d;
	v->tc += d;
	tl_clamp(v);
	return tl_moved(v, t0, v->span, tc);
}

/* Home / End: the trace's start or end, cursor and window, whatever the
 * zoom. */
int
tl_nav_home(void *p, const struct tui_key *k, int end)
{
	struct tl	*v = p;
	int64_t		 lo = v->m->origin_ns, total = tl_total(v);
	int64_t		 t0 = v->t0, tc = v->tc;

	tl_jump_push(v);
	v->t0 = end ? lo + total - v->span : lo;
	v->tc = end ? lo + total - 1 : lo;
	if (v->tc < lo)
		v->tc = lo;
	tl_clamp(v);
	return tl_moved(v, t0, v->span, tc);
}

/*
 * Zooms by num/den keeping time anchor where it is on the screen (at the
 * fraction off of the window).
 */
static int
tl_zoom_at(struct tl *v, int num, int den, int64_t anchor, double off,
    int64_t tc)
{
	int64_t	span, t0 = v->t0, span0 = v->span;

	span = (int64_t)((double)v->span * num / den);
	if (span == v->span)
		span += num > den ? 1 : -1;
	/* Limit the span here: tl_clamp() on the old t0 would move tc. */
	if (span > tl_total(v))
		span = tl_total(v);
	if (span < v->tw)
		span = v->tw;
	v->span = span;
	v->t0 = anchor - (int64_t)((double)v->span * off);
	tl_clamp(v);
	return tl_moved(v, t0, span0, tc);
}

int
tl_nav_zoom(void *p, const struct tui_key *k, int in)
{
	struct tl	*v = p;
	struct lod_view	 lv = tl_lodview(v);
	int64_t		 anchor = v->tc, tc = v->tc;
	double		 off = (double)(v->tc - v->t0) / (double)v->span;
	int		 col;

	/* The wheel zooms at the pointer (the cursor goes there), keys at
	 * the cursor. */
	if ((k->key == TK_WHEEL_UP || k->key == TK_WHEEL_DOWN) &&
	    k->x >= v->tx && k->x < v->tx + v->tw) {
		col = k->x - v->tx;
		anchor = (lod_colt(&lv, col) + lod_colt(&lv, col + 1)) / 2;
		off = (col + 0.5) / v->tw;
		v->tc = anchor;
	}
	return in ? tl_zoom_at(v, 1, TL_ZOOM, anchor, off, tc) :
	    tl_zoom_at(v, TL_ZOOM, 1, anchor, off, tc);
}

int
tl_nav_whole(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	int64_t		 t0 = v->t0, span = v->span, tc = v->tc;

	v->t0 = v->m->origin_ns;
	v->span = tl_total(v);
	tl_clamp(v);
	return tl_moved(v, t0, span, tc);
}

/* Shows [s, e) with a margin, the cursor on s. */
void
tl_nav_show(struct tl *v, int64_t s, int64_t e)
{
	int64_t	d = e > s ? e - s : 0;

	v->span = d + d / 4;
	if (v->span < v->tw)
		v->span = v->tw;
	if (v->span > tl_total(v))
		v->span = tl_total(v);
	v->t0 = s - (v->span - d) / 2;
	v->tc = s;
	tl_clamp(v);
	v->tc = s;
	tl_clamp(v);
}

int
tl_nav_zoomsel(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	if (v->marked == 3) {
		v->t0 = v->mark[0];
		v->span = v->mark[1] - v->mark[0];
		v->tc = v->t0;
		tl_clamp(v);
		return TL_VIEW;
	}
	if (v->sel_gid == NONE32) {
		snprintf(v->msg, sizeof v->msg, "nothing to zoom to: select an "
		    "event or mark a range with [ and ]");
		return REDRAW_STATUS;
	}
	tl_nav_show(v, model_ev_start(v->m, v->sel_gid),
	    model_ev_end(v->m, v->sel_gid));
	return TL_VIEW;
}

int
tl_nav_row(void *p, const struct tui_key *k, int delta)
{
	struct tl	*v = p;
	size_t		 n = layout_nrows(v->lay), top = v->top;

	if (n == 0)
		return 0;
	v->prev_sel = v->sel;
	if (delta < 0 && v->sel > 0)
		v->sel--;
	else if (delta > 0 && v->sel + 1 < n)
		v->sel++;
	tl_scroll(v);
	if (v->top != top)
		return TL_ROWS;
	return REDRAW_LABELS | REDRAW_STATUS | REDRAW_DETAIL;
}

/*
 * Moves the cursor onto time t; when t is outside the window, pans so that
 * the cursor keeps its place on the screen.
 */
void
tl_nav_goto(struct tl *v, int64_t t)
{
	double	off = (double)(v->tc - v->t0) / (double)v->span;

	if (t < v->t0 || t >= v->t0 + v->span)
		v->t0 = t - (int64_t)((double)v->span * off);
	v->tc = t;
	tl_clamp(v);
}

int
tl_nav_next(void *p, const struct tui_key *k, int dir)
{
	struct tl		*v = p;
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	const struct lane	*l;
	int64_t			 idx;

	if (r == NULL || r->kind != LROW_LANE) {
		snprintf(v->msg, sizeof v->msg, "not an event row");
		return REDRAW_STATUS;
	}
	l = r->lane;
	if (v->sel_gid != NONE32 && v->sel_lane == l)
		idx = (int64_t)v->sel_idx + dir;
	else {
		idx = (int64_t)lane_lower(l, v->tc);
		if (dir < 0)
			idx--;
	}
	if (idx < 0 || (size_t)idx >= l->n) {
		snprintf(v->msg, sizeof v->msg, "no %s event on this row",
		    dir > 0 ? "next" : "previous");
		return REDRAW_STATUS;
	}
	tl_select(v, layout_gid(v->lay, r, (size_t)idx), l, (size_t)idx);
	tl_nav_goto(v, l->start[idx]);
	return TL_VIEW;
}

int
tl_nav_enter(void *p, const struct tui_key *k, int arg)
{
	struct tl		*v = p;
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	struct lod_view		 lv = tl_lodview(v);
	int64_t			 d;

	if (r == NULL)
		return 0;
	if (r->kind == LROW_GROUP)	/* opens or closes it */
		return tl_rows_fold(p, k, arg);
	if (r->kind != LROW_LANE) {
		snprintf(v->msg, sizeof v->msg, "not an event row (mark a "
		    "range with [ and ] for its top functions)");
		return REDRAW_STATUS;
	}
	d = lane_dominant(r->lane, lod_colt(&lv, v->cur),
	    lod_colt(&lv, v->cur + 1));
	if (d < 0) {
		snprintf(v->msg, sizeof v->msg, "no event under the cursor");
		return REDRAW_STATUS;
	}
	tl_select(v, layout_gid(v->lay, r, (size_t)d), r->lane, (size_t)d);
	return TL_ROWS;
}

int
tl_nav_cursor(void *p, const struct tui_key *k, int delta)
{
	struct tl	*v = p;
	struct lod_view	 lv = tl_lodview(v);
	int		 c = v->cur + delta;

	if (c < 0 || c >= v->tw) {
		/* Past the edge: pan by one column. */
		v->t0 += v->span / v->tw * delta;
		v->tc += v->span / v->tw * delta;
	} else
		v->tc = lod_colt(&lv, c);
	tl_clamp(v);
	return TL_VIEW;
}

int
tl_nav_click(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	struct lod_view	 lv;
	size_t		 row;

	if (k->y >= v->rows_y && k->y < v->rows_y + v->rows_h) {
		row = v->top + (size_t)(k->y - v->rows_y);
		if (row < layout_nrows(v->lay))
			v->sel = row;
	}
	if (k->x >= v->tx && k->x < v->tx + v->tw) {
		lv = tl_lodview(v);
		v->tc = lod_colt(&lv, k->x - v->tx);
		tl_clamp(v);
	}
	return TL_VIEW;
}

int
tl_nav_escape(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	tl_select(v, NONE32, NULL, 0);
	v->marked = 0;
	return TL_VIEW;
}
