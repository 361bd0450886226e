/*
 * view-timeline: the timeline view.
 *
 * State is a window [t0, t0 + span) over the trace, a cursor column, a
 * selected row (an index into the layout's visible rows) and an optional
 * selected event. Keys go through one descriptor table (also the help
 * text) and return the panes they damaged; draw() repaints only those.
 *
 * Per frame the view queries O(visible rows x columns) lane aggregates
 * through lod.c into a column buffer allocated at resize, and formats text
 * into fixed buffers, so a steady-state frame allocates nothing. The
 * detail pane is rebuilt only when the selection changes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "layout.h"
#include "lod.h"
#include "ruler.h"
#include "safetext.h"
#include "fmt.h"
#include "view-timeline.h"
#include "xmalloc.h"

#define TL_LABEL_W	20	/* label column on wide screens */
#define TL_DETAIL_H	6	/* detail pane: a rule and five lines */
#define TL_ZOOM		2	/* zoom factor per key */

struct tl {
	const struct model	*m;
	const struct glyph	*gl;
	const char		*title;
	struct layout		*lay;
	int			 san;		/* sanitize flags */

	int			 w, h;
	int			 labw;		/* label column width */
	int			 tx, tw;	/* lanes: first column, width */
	int			 rows_y, rows_h;
	int			 det_y, det_h;	/* det_h 0: no detail pane */
	int			 status_y;

	size_t			 top;		/* first visible row shown */
	size_t			 sel;		/* selected row */
	int64_t			 t0, span;
	int64_t			 tc;		/* cursor time */
	int			 cur;		/* its column (tl_clamp) */
	int			 help;

	uint32_t		 sel_gid;	/* selected event or NONE32 */
	const struct lane	*sel_lane;	/* its row's lane ... */
	size_t			 sel_idx;	/* ... and index there */
	struct detail		 det;

	struct lod_col		*cols;		/* tw entries */
	size_t			 colcap;
	char			 msg[160];	/* one-shot status message */
};

static int64_t
tl_total(const struct tl *v)
{
	int64_t	total = v->m->end_ns - v->m->origin_ns;

	return total < v->tw ? v->tw : total;
}

static struct lod_view
tl_lodview(const struct tl *v)
{
	struct lod_view	lv;

	lv.t0 = v->t0;
	lv.span = v->span;
	lv.ncols = v->tw;
	return lv;
}

/* Keeps the window inside the trace and at least one ns per column. */
static void
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

static void
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

static void
tl_select(struct tl *v, uint32_t gid, const struct lane *l, size_t idx)
{
	v->sel_gid = gid;
	v->sel_lane = l;
	v->sel_idx = idx;
	detail_build(v->m, gid, &v->det);
}

/* Key actions. Each returns the reaction bitmask. */

#define TL_VIEW		(REDRAW_RULER | REDRAW_TIMELINE | REDRAW_STATUS | \
			 REDRAW_DETAIL)

static int
tl_pan(void *p, const struct tui_key *k, int eighths)
{
	struct tl	*v = p;
	int64_t		 d = v->span / 8 * eighths;

	/* The cursor keeps its column unless the window hits an end. */
	v->t0 += d;
	v->tc += d;
	tl_clamp(v);
	return TL_VIEW;
}

static int
tl_home(void *p, const struct tui_key *k, int end)
{
	struct tl	*v = p;
	int64_t		 old = v->t0;

	v->t0 = end ? v->m->origin_ns + tl_total(v) - v->span :
	    v->m->origin_ns;
	tl_clamp(v);
	v->tc += v->t0 - old;
	tl_clamp(v);
	return TL_VIEW;
}

/*
 * Zooms by num/den keeping time anchor where it is on the screen (at the
 * fraction off of the window).
 */
static int
tl_zoom_at(struct tl *v, int num, int den, int64_t anchor, double off)
{
	int64_t	span;

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
	return TL_VIEW;
}

static int
tl_zoom(void *p, const struct tui_key *k, int in)
{
	struct tl	*v = p;
	struct lod_view	 lv = tl_lodview(v);
	int64_t		 anchor = v->tc;
	double		 off = (double)(v->tc - v->t0) / (double)v->span;
	int		 col;

	/* The wheel zooms at the pointer, keys at the cursor. */
	if ((k->key == TK_WHEEL_UP || k->key == TK_WHEEL_DOWN) &&
	    k->x >= v->tx && k->x < v->tx + v->tw) {
		col = k->x - v->tx;
		anchor = (lod_colt(&lv, col) + lod_colt(&lv, col + 1)) / 2;
		off = (col + 0.5) / v->tw;
	}
	return in ? tl_zoom_at(v, 1, TL_ZOOM, anchor, off) :
	    tl_zoom_at(v, TL_ZOOM, 1, anchor, off);
}

static int
tl_whole(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	v->t0 = v->m->origin_ns;
	v->span = tl_total(v);
	tl_clamp(v);
	return TL_VIEW;
}

static int
tl_row(void *p, const struct tui_key *k, int delta)
{
	struct tl	*v = p;
	size_t		 n = layout_nrows(v->lay), top = v->top;

	if (n == 0)
		return 0;
	if (delta < 0 && v->sel > 0)
		v->sel--;
	else if (delta > 0 && v->sel + 1 < n)
		v->sel++;
	tl_scroll(v);
	if (v->top != top)
		return REDRAW_TIMELINE | REDRAW_STATUS | REDRAW_DETAIL;
	return REDRAW_LABELS | REDRAW_STATUS | REDRAW_DETAIL;
}

/*
 * Moves the cursor onto time t; when t is outside the window, pans so that
 * the cursor keeps its place on the screen.
 */
static void
tl_goto(struct tl *v, int64_t t)
{
	double	off = (double)(v->tc - v->t0) / (double)v->span;

	if (t < v->t0 || t >= v->t0 + v->span)
		v->t0 = t - (int64_t)((double)v->span * off);
	v->tc = t;
	tl_clamp(v);
}

static int
tl_next(void *p, const struct tui_key *k, int dir)
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
	tl_goto(v, l->start[idx]);
	return TL_VIEW;
}

static int
tl_enter(void *p, const struct tui_key *k, int arg)
{
	struct tl		*v = p;
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	struct lod_view		 lv = tl_lodview(v);
	int64_t			 d;

	if (r == NULL)
		return 0;
	if (r->kind == LROW_GROUP) {
		layout_toggle(v->lay, v->sel);
		tl_scroll(v);
		return REDRAW_TIMELINE | REDRAW_STATUS | REDRAW_DETAIL;
	}
	d = lane_dominant(r->lane, lod_colt(&lv, v->cur),
	    lod_colt(&lv, v->cur + 1));
	if (d < 0) {
		snprintf(v->msg, sizeof v->msg, "no event under the cursor");
		return REDRAW_STATUS;
	}
	tl_select(v, layout_gid(v->lay, r, (size_t)d), r->lane, (size_t)d);
	return REDRAW_TIMELINE | REDRAW_STATUS | REDRAW_DETAIL;
}

static int
tl_cursor(void *p, const struct tui_key *k, int delta)
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

static int
tl_click(void *p, const struct tui_key *k, int arg)
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

static int
tl_escape(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	tl_select(v, NONE32, NULL, 0);
	return TL_VIEW;
}

static int
tl_help(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	v->help = !v->help;
	return REDRAW_ALL;
}

static int
tl_quit(void *p, const struct tui_key *k, int arg)
{
	return REACT_QUIT;
}

const struct view_timeline_key view_timeline_keys[] = {
	{ { TK_LEFT, 'h' }, "Left h", "pan left 1/8 window", tl_pan, -1 },
	{ { TK_RIGHT, 'l' }, "Right l", "pan right 1/8 window", tl_pan, 1 },
	{ { TK_PGUP, 'H' }, "PgUp H", "pan left a window", tl_pan, -8 },
	{ { TK_PGDN, 'L' }, "PgDn L", "pan right a window", tl_pan, 8 },
	{ { TK_HOME }, "Home", "go to the trace start", tl_home, 0 },
	{ { TK_END }, "End", "go to the trace end", tl_home, 1 },
	{ { '+', '=', TK_WHEEL_UP }, "+ = wheel", "zoom in at the cursor",
	    tl_zoom, 1 },
	{ { '-', TK_WHEEL_DOWN }, "- wheel", "zoom out at the cursor",
	    tl_zoom, 0 },
	{ { '0' }, "0", "zoom to the whole trace", tl_whole, 0 },
	{ { ',', '<' }, ", <", "cursor left", tl_cursor, -1 },
	{ { '.', '>' }, ". >", "cursor right", tl_cursor, 1 },
	{ { TK_UP, 'k' }, "Up k", "previous row", tl_row, -1 },
	{ { TK_DOWN, 'j' }, "Down j", "next row", tl_row, 1 },
	{ { TK_TAB, 'n' }, "Tab n", "next event on row", tl_next, 1 },
	{ { TK_BTAB, 'N' }, "S-Tab N", "previous event on row", tl_next,
	    -1 },
	{ { TK_ENTER, ' ' }, "Enter", "fold group / pick event",
	    tl_enter, 0 },
	{ { TK_CLICK }, "click", "pick row, move cursor", tl_click, 0 },
	{ { TK_ESC }, "Esc", "clear the selection", tl_escape, 0 },
	{ { '?' }, "?", "show or hide this help", tl_help, 0 },
	{ { 'q', 'Q' }, "q", "quit", tl_quit, 0 },
};
const size_t view_timeline_nkeys =
    sizeof view_timeline_keys / sizeof view_timeline_keys[0];

static int
tl_key(void *p, const struct tui_key *k)
{
	struct tl	*v = p;
	size_t		 i;
	int		 j, r = 0;

	if (v->msg[0] != '\0') {
		v->msg[0] = '\0';
		r |= REDRAW_STATUS;
	}
	if (v->help && k->key != 'q' && k->key != 'Q') {
		v->help = 0;
		return REDRAW_ALL;
	}
	for (i = 0; i < view_timeline_nkeys; i++)
		for (j = 0; j < 3 && view_timeline_keys[i].keys[j] != 0; j++)
			if (view_timeline_keys[i].keys[j] == k->key)
				return r | view_timeline_keys[i].fn(v, k,
				    view_timeline_keys[i].arg);
	return r;
}

/* Drawing. */

static void
tl_draw_label(struct tl *v, struct cellgrid *g, int y, size_t ri)
{
	const struct layout_row	*r = layout_row(v->lay, ri);
	uint16_t		 attr;
	int			 x = 0, indent;

	cellgrid_fill(g, 0, y, v->labw, 1, L' ', CG_LABEL);
	cellgrid_put(g, v->labw, y, v->gl->vline, CG_BORDER);
	if (r == NULL)
		return;
	indent = r->level * 2;
	if (indent > v->labw / 3)
		indent = v->labw / 3;
	x = indent;
	if (r->kind == LROW_GROUP) {
		attr = CG_GROUP | CGA_BOLD;
		cellgrid_put(g, x, y, v->lay->groups[r->group].collapsed ?
		    v->gl->collapsed : v->gl->expanded, attr);
		x += 2;
	} else
		attr = CG_LABEL;
	cellgrid_text(g, x, y, v->labw - x, r->label, v->san | ST_ELLIPSIS,
	    attr);
	if (ri == v->sel)
		cellgrid_attr(g, 0, y, v->labw, CGA_REVERSE, 1);
}

static void
tl_draw_lanes(struct tl *v, struct cellgrid *g, int y, size_t ri,
    const struct lod_view *lv)
{
	const struct model	*m = v->m;
	const struct layout_row	*r = layout_row(v->lay, ri);
	const struct layout_group *grp;
	const struct coverage	*cov = NULL;
	const uint32_t		*mem;
	size_t			 n;

	cellgrid_fill(g, v->tx, y, v->tw, 1, L' ', CG_NORMAL);
	if (r == NULL)
		return;
	if (r->kind == LROW_LANE) {
		lod_lane(r->lane, lv, v->cols);
		lod_draw_lane(g, v->tx, y, m, r->lane, lv, v->cols, v->gl,
		    v->san);
	} else {
		grp = &v->lay->groups[r->group];
		if (grp->kind == LG_DEVICE && grp->id < m->ndevices &&
		    m->device_cov != NULL)
			cov = &m->device_cov[grp->id];
		mem = layout_members(v->lay, r->group, &n);
		lod_group(m, mem, n, cov, lv, v->cols);
		lod_draw_group(g, v->tx, y, lv, v->cols, v->gl);
	}
}

/* The cursor column, and the selected event, over the lanes. */
static void
tl_draw_overlays(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	struct cell	*c;
	size_t		 row;
	int		 y, c0, c1;
	int64_t		 s, e;

	for (y = v->rows_y; y < v->rows_y + v->rows_h; y++) {
		c = cellgrid_at(g, v->tx + v->cur, y);
		if (c == NULL)
			continue;
		if (c->ch == L' ')
			cellgrid_put(g, v->tx + v->cur, y, v->gl->cursor,
			    CG_DIM | CGA_CURSOR);
		else
			c->attr |= CGA_CURSOR;
	}
	if (v->sel_gid == NONE32)
		return;
	row = layout_find(v->lay, v->sel_gid);
	if (row == (size_t)-1 || row < v->top ||
	    row >= v->top + (size_t)v->rows_h)
		return;
	s = model_ev_start(v->m, v->sel_gid);
	e = model_ev_end(v->m, v->sel_gid);
	if (e >= lv->t0 + lv->span || s < lv->t0) {
		if (e < lv->t0 || s >= lv->t0 + lv->span)
			return;
	}
	c0 = lod_col_of(lv, s);
	c1 = e > s ? lod_col_of(lv, e - 1) : c0;
	if (c0 < 0)
		c0 = 0;
	if (c1 >= v->tw)
		c1 = v->tw - 1;
	if (c1 >= c0)
		cellgrid_attr(g, v->tx + c0, v->rows_y + (int)(row - v->top),
		    c1 - c0 + 1, CGA_SEL, 1);
}

static void
tl_draw_ruler(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	const char	*title = v->title != NULL ? v->title : "gpulens";

	/* A path's last component says most in a narrow column. */
	if (strrchr(title, '/') != NULL && strrchr(title, '/')[1] != '\0')
		title = strrchr(title, '/') + 1;
	cellgrid_fill(g, 0, 0, v->labw, 1, L' ', CG_RULER);
	cellgrid_text(g, 0, 0, v->labw, title, v->san | ST_ELLIPSIS,
	    CG_RULER | CGA_BOLD);
	cellgrid_put(g, v->labw, 0, v->gl->vline, CG_BORDER);
	ruler_draw(g, v->tx, 0, lv, v->m->origin_ns, v->cur, v->gl);
}

static void
tl_draw_detail(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	char			 buf[256];
	int			 x;

	if (v->det_h <= 0)
		return;
	cellgrid_fill(g, 0, v->det_y, v->w, 1, v->gl->hline, CG_BORDER);
	x = 1;
	if (r != NULL) {
		cellgrid_put(g, x++, v->det_y, L' ', CG_BORDER);
		x += cellgrid_text(g, x, v->det_y, v->w / 2, r->label,
		    v->san | ST_ELLIPSIS, CG_BORDER | CGA_BOLD);
		if (r->kind == LROW_LANE) {
			snprintf(buf, sizeof buf, ": %zu events, %.1f%% busy "
			    "in window ", r->lane->n, 100.0 *
			    (double)lane_busy(r->lane, lv->t0, lv->t0 +
			    lv->span) / (double)lv->span);
		} else {
			size_t n;

			layout_members(v->lay, r->group, &n);
			snprintf(buf, sizeof buf, ": %zu track%s%s ", n,
			    n == 1 ? "" : "s",
			    v->lay->groups[r->group].collapsed ?
			    ", collapsed" : "");
		}
		x += cellgrid_text(g, x, v->det_y, v->w - x, buf, ST_ASCII,
		    CG_BORDER);
	}
	if (v->sel_gid != NONE32) {
		detail_draw(g, 1, v->det_y + 1, v->w - 2, v->det_h - 1,
		    &v->det, v->san, v->gl);
		return;
	}
	cellgrid_fill(g, 0, v->det_y + 1, v->w, v->det_h - 1, L' ',
	    CG_DETAIL);
	cellgrid_text(g, 1, v->det_y + 1, v->w - 2, "No event selected. "
	    "Tab/Shift-Tab: next/previous event on the row; Enter: the "
	    "event under the cursor; ?: all keys.", ST_ASCII, CG_DIM);
}

static void
tl_draw_status(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	struct evref		 ev;
	char			 a[32], b[32], buf[256];
	const char		*right = " ? help  q quit ";
	int			 x, end, n;

	cellgrid_fill(g, 0, v->status_y, v->w, 1, L' ', CG_STATUS);
	/* The key hint on the right, when there is room for it. */
	n = (int)strlen(right);
	end = v->w;
	if (v->w >= 60) {
		cellgrid_text(g, v->w - n, v->status_y, n, right, ST_ASCII,
		    CG_STATUS | CGA_BOLD);
		end = v->w - n - 1;
	}
	fmt_time_res(a, sizeof a, v->tc - v->m->origin_ns,
	    lv->span / lv->ncols > 0 ? lv->span / lv->ncols : 1);
	fmt_time(b, sizeof b, lv->span);
	snprintf(buf, sizeof buf, " cursor +%s  window %s  ", a, b);
	x = cellgrid_text(g, 0, v->status_y, end, buf, ST_ASCII, CG_STATUS);
	if (v->msg[0] != '\0') {
		cellgrid_text(g, x, v->status_y, end - x, v->msg, ST_ASCII,
		    CG_STATUS | CGA_BOLD);
		return;
	}
	if (v->sel_gid != NONE32) {
		ev = model_ev(v->m, v->sel_gid);
		snprintf(buf, sizeof buf, "sel %s ", v->det.kind);
		x += cellgrid_text(g, x, v->status_y, end - x, buf, ST_ASCII,
		    CG_STATUS | CGA_BOLD);
		fmt_time(b, sizeof b, model_ev_end(v->m, v->sel_gid) -
		    model_ev_start(v->m, v->sel_gid));
		snprintf(buf, sizeof buf, " (%s)", b);
		n = (int)strlen(buf);
		x += cellgrid_text(g, x, v->status_y, end - x - n,
		    lod_event_name(v->m, &v->m->tracks[ev.track].lane, ev.idx),
		    v->san | ST_ELLIPSIS, CG_STATUS);
		cellgrid_text(g, x, v->status_y, end - x, buf, ST_ASCII,
		    CG_STATUS);
		return;
	}
	if (r != NULL) {
		x += cellgrid_text(g, x, v->status_y, end - x, "sel none  row ",
		    ST_ASCII, CG_STATUS);
		cellgrid_text(g, x, v->status_y, end - x, r->label,
		    v->san | ST_ELLIPSIS, CG_STATUS);
	}
}

static void
tl_draw_help(struct tl *v, struct cellgrid *g)
{
	const struct glyph	*gl = v->gl;
	int			 bw, bh, x0, y0, x, y, namew = 11, per, ncol;
	int			 colw, nk = (int)view_timeline_nkeys, i;

	/* As many columns of bindings as the height requires. */
	per = v->h - 6;
	if (per < 1)
		return;
	ncol = (nk + per - 1) / per;
	per = (nk + ncol - 1) / ncol;
	bw = v->w - 4 < 56 * ncol ? v->w - 4 : 56 * ncol;
	bh = per + 4;
	colw = (bw - 4) / ncol;
	if (bw < 20 || colw < namew + 4)
		return;
	x0 = (v->w - bw) / 2;
	y0 = (v->h - bh) / 2;
	cellgrid_fill(g, x0, y0, bw, bh, L' ', CG_HELP);
	cellgrid_fill(g, x0 + 1, y0, bw - 2, 1, gl->hline, CG_HELP);
	cellgrid_fill(g, x0 + 1, y0 + bh - 1, bw - 2, 1, gl->hline, CG_HELP);
	cellgrid_fill(g, x0, y0 + 1, 1, bh - 2, gl->vline, CG_HELP);
	cellgrid_fill(g, x0 + bw - 1, y0 + 1, 1, bh - 2, gl->vline, CG_HELP);
	cellgrid_put(g, x0, y0, gl->corner[0], CG_HELP);
	cellgrid_put(g, x0 + bw - 1, y0, gl->corner[1], CG_HELP);
	cellgrid_put(g, x0, y0 + bh - 1, gl->corner[2], CG_HELP);
	cellgrid_put(g, x0 + bw - 1, y0 + bh - 1, gl->corner[3], CG_HELP);
	cellgrid_text(g, x0 + 2, y0, bw - 4, " Keys (any key closes) ",
	    ST_ASCII, CG_HELP | CGA_BOLD);
	for (i = 0; i < nk; i++) {
		x = x0 + 2 + (i / per) * colw;
		y = y0 + 2 + i % per;
		cellgrid_text(g, x, y, namew, view_timeline_keys[i].name,
		    ST_ASCII, CG_HELP | CGA_BOLD);
		cellgrid_text(g, x + namew, y, colw - namew - 1,
		    view_timeline_keys[i].help, ST_ASCII | ST_ELLIPSIS,
		    CG_HELP);
	}
}

static void
tl_draw(void *p, struct cellgrid *g, int dirty)
{
	struct tl	*v = p;
	struct lod_view	 lv = tl_lodview(v);
	int		 i;

	if (v->help)
		dirty = REDRAW_ALL;
	if (dirty & REDRAW_RULER)
		tl_draw_ruler(v, g, &lv);
	if (dirty & (REDRAW_TIMELINE | REDRAW_LABELS)) {
		for (i = 0; i < v->rows_h; i++) {
			tl_draw_label(v, g, v->rows_y + i, v->top + (size_t)i);
			if (dirty & REDRAW_TIMELINE)
				tl_draw_lanes(v, g, v->rows_y + i,
				    v->top + (size_t)i, &lv);
		}
		if (dirty & REDRAW_TIMELINE)
			tl_draw_overlays(v, g, &lv);
	}
	if (dirty & REDRAW_DETAIL)
		tl_draw_detail(v, g, &lv);
	if (dirty & REDRAW_STATUS)
		tl_draw_status(v, g, &lv);
	if (v->help)
		tl_draw_help(v, g);
}

static void
tl_resize(void *p, int w, int h)
{
	struct tl	*v = p;

	v->w = w < 1 ? 1 : w;
	v->h = h < 1 ? 1 : h;
	v->labw = v->w >= 60 ? TL_LABEL_W : v->w / 3;
	if (v->labw < 1)
		v->labw = 1;
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
	tl_clamp(v);
	tl_scroll(v);
}

static void *
tl_init(const struct model *m, const struct view_env *env)
{
	struct tl	*v;

	v = xcalloc(1, sizeof *v);
	v->m = m;
	v->gl = env->gl;
	v->title = env->title;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	v->lay = layout_new(m);
	v->sel_gid = NONE32;
	v->det.gid = NONE32;
	tl_resize(v, 80, 24);
	v->t0 = m->origin_ns;
	v->span = tl_total(v);
	v->tc = v->t0 + v->span / 2;
	tl_clamp(v);
	return v;
}

static void
tl_free(void *p)
{
	struct tl	*v = p;

	if (v == NULL)
		return;
	layout_free(v->lay);
	free(v->cols);
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

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.init = tl_init,
	.free = tl_free,
	.resize = tl_resize,
	.draw = tl_draw,
	.key = tl_key,
};
