/*
 * view-timeline: the timeline view.
 *
 * State is a window [t0, t0 + span) over the trace, a cursor time (and
 * its column), a selected row (an index into the layout's visible rows)
 * and an optional selected event. Keys come bound to actions (keymap.h);
 * the action table runs them, and they return the panes they damaged; draw() repaints
 * only those: moving between rows repaints two labels, the detail pane and
 * the status line, not the lanes.
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
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/action.h"
#include "tui/bookmark.h"
#include "tui/detail.h"
#include "tui/fmt.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/prompt.h"
#include "tui/rangestat.h"
#include "tui/ruler.h"
#include "tui/safetext.h"
#include "tui/search.h"
#include "tui/status.h"
#include "util/units.h"
#include "tui/view-timeline.h"
#include "util/xmalloc.h"

#define TL_LABEL_W	20	/* label column on wide screens */
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
	size_t			 bm_sel;
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
tl_publish(struct tl *v)
{
	v->sh->t0 = v->t0;
	v->sh->span = v->span;
	v->sh->cursor = v->tc;
	v->sh->sel = v->sel_gid;
	v->sh->res = v->tw > 0 && v->span / v->tw > 0 ? v->span / v->tw : 1;
}

static void
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
static void
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

/* Key actions. Each returns the reaction bitmask. */

#define TL_VIEW		(REDRAW_RULER | REDRAW_TIMELINE | REDRAW_STATUS | \
			 REDRAW_DETAIL)
#define TL_ROWS		(REDRAW_TIMELINE | REDRAW_STATUS | REDRAW_DETAIL)

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

/* Shows [s, e) with a margin, the cursor on s. */
static void
tl_show(struct tl *v, int64_t s, int64_t e)
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

static int
tl_zoomsel(void *p, const struct tui_key *k, int arg)
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
	tl_show(v, model_ev_start(v->m, v->sel_gid),
	    model_ev_end(v->m, v->sel_gid));
	return TL_VIEW;
}

static int
tl_row(void *p, const struct tui_key *k, int delta)
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
		tl_resync(v, (size_t)-1);
		return TL_ROWS;
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
	v->marked = 0;
	return TL_VIEW;
}

static int
tl_prompt(void *p, const struct tui_key *k, int id)
{
	struct tl	*v = p;
	char		 buf[48];

	switch (id) {
	case TL_PR_SEARCH:
		prompt_open(&v->pr, id, "search: ", NULL);
		break;
	case TL_PR_GOTO:
		prompt_open(&v->pr, id, "go to (e.g. 1.5ms; @T absolute): ",
		    NULL);
		break;
	case TL_PR_MINDUR:
		buf[0] = '\0';
		if (v->min_dur > 0)
			snprintf(buf, sizeof buf, "%lldns",
			    (long long)v->min_dur);
		prompt_open(&v->pr, id, "min duration (e.g. 10us; empty: "
		    "all): ", buf);
		break;
	}
	return REDRAW_STATUS;
}

/* Selects event idx of all-row a's lane, revealing the row. */
static void
tl_select_at(struct tl *v, size_t a, size_t idx)
{
	const struct layout_row	*r = layout_all(v->lay, a);
	size_t			 row;

	row = layout_reveal(v->lay, a);
	if (row != (size_t)-1) {
		v->prev_sel = v->sel;
		v->sel = row;
		tl_scroll(v);
	}
	tl_select(v, layout_gid(v->lay, r, idx), r->lane, idx);
	tl_goto(v, r->lane->start[idx]);
}

static int
tl_match(void *p, const struct tui_key *k, int dir)
{
	struct tl		*v = p;
	struct search_pos	 from, to;
	size_t			 a;

	if (v->srch.pat[0] == '\0') {
		snprintf(v->msg, sizeof v->msg, "no search yet: / searches "
		    "event names");
		return REDRAW_STATUS;
	}
	from.start = v->tc;
	from.row = (size_t)-1;
	from.idx = 0;
	a = layout_all_index(v->lay, v->sel);
	if (v->sel_gid != NONE32 && v->sel_lane != NULL && a != (size_t)-1 &&
	    layout_all(v->lay, a)->lane == v->sel_lane) {
		from.start = v->sel_lane->start[v->sel_idx];
		from.row = a;
		from.idx = v->sel_idx;
	}
	if (search_step(&v->srch, v->lay, &from, dir, &to) != 0) {
		snprintf(v->msg, sizeof v->msg, "no match for \"%.60s\"",
		    v->srch.pat);
		return REDRAW_STATUS;
	}
	tl_select_at(v, to.row, to.idx);
	snprintf(v->msg, sizeof v->msg, "match %llu of %llu",
	    (unsigned long long)search_rank(&v->srch, v->lay, &to),
	    (unsigned long long)v->srch.total);
	return TL_VIEW;
}

static void
tl_search(struct tl *v, const char *pat)
{
	struct tui_key	k;
	uint64_t	n;

	memset(&k, 0, sizeof k);
	n = search_build(&v->srch, v->lay, pat);
	if (pat[0] == '\0')
		return;
	if (n == 0) {
		snprintf(v->msg, sizeof v->msg, "no event name contains "
		    "\"%.60s\"", pat);
		return;
	}
	/* The first match at or after the cursor. */
	tl_select(v, NONE32, NULL, 0);
	tl_match(v, &k, 1);
}

static void
tl_setfilter(struct tl *v, int64_t ns)
{
	size_t	a = layout_all_index(v->lay, v->sel);
	char	buf[32];

	v->min_dur = ns;
	v->nfiltered = layout_set_min_dur(v->lay, ns);
	tl_resync(v, a);
	if (v->srch.pat[0] != '\0')
		search_build(&v->srch, v->lay, v->srch.pat);
	if (ns == 0)
		snprintf(v->msg, sizeof v->msg, "filter off");
	else
		snprintf(v->msg, sizeof v->msg, "filter: %llu events of at "
		    "least %s", (unsigned long long)v->nfiltered,
		    fmt_time(buf, sizeof buf, ns));
}

static int
tl_prompt_done(struct tl *v)
{
	int64_t	t;
	int	abs;

	switch (v->pr.id) {
	case TL_PR_SEARCH:
		tl_search(v, v->pr.buf);
		break;
	case TL_PR_GOTO:
		if (units_parse_time(v->pr.buf, &t, &abs) != 0) {
			snprintf(v->msg, sizeof v->msg, "not a time: \"%.40s\" "
			    "(e.g. 12ms, 1.5s, @T)", v->pr.buf);
			break;
		}
		if (!abs)
			t += v->m->origin_ns;
		if (t < v->m->origin_ns || t > v->m->end_ns)
			snprintf(v->msg, sizeof v->msg, "outside the trace: "
			    "moved to its %s", t < v->m->origin_ns ? "start" :
			    "end");
		tl_goto(v, t);
		break;
	case TL_PR_MINDUR:
		if (v->pr.buf[strspn(v->pr.buf, " ")] == '\0')
			t = 0;
		else if (units_parse_dur(v->pr.buf, &t) != 0 || t < 0) {
			snprintf(v->msg, sizeof v->msg, "not a duration: "
			    "\"%.40s\" (e.g. 10us)", v->pr.buf);
			break;
		}
		tl_setfilter(v, t);
		break;
	}
	return REDRAW_ALL;
}

static int
tl_mark(void *p, const struct tui_key *k, int end)
{
	struct tl	*v = p;
	char		 a[48];
	int64_t		 t;

	v->mark[end] = v->tc;
	v->marked |= end ? 2 : 1;
	if (v->marked != 3) {
		snprintf(v->msg, sizeof v->msg, "range %s at %s; %s marks the "
		    "%s", end ? "end" : "start", fmt_when(a, sizeof a, v->tc,
		    v->m->origin_ns, v->sh->abs_time, v->sh->res), end ? "[" :
		    "]", end ? "start" : "end");
		return REDRAW_RULER | REDRAW_STATUS | REDRAW_DETAIL;
	}
	if (v->mark[1] < v->mark[0]) {
		t = v->mark[0];
		v->mark[0] = v->mark[1];
		v->mark[1] = t;
	}
	if (v->mark[1] == v->mark[0]) {
		/* One column's worth at least. */
		v->mark[1] = v->mark[0] + (v->sh->res > 0 ? v->sh->res : 1);
	}
	rangestat_compute(&v->rs, v->m, v->mark[0], v->mark[1]);
	v->overlay = TL_OV_RANGE;
	return REDRAW_ALL;
}

static int
tl_fold(void *p, const struct tui_key *k, int arg)
{
	struct tl		*v = p;
	const struct layout_row	*r = layout_row(v->lay, v->sel), *h;
	size_t			 i;

	if (r == NULL)
		return 0;
	if (r->kind == LROW_GROUP) {
		layout_toggle(v->lay, v->sel);
		tl_resync(v, (size_t)-1);
		return TL_ROWS;
	}
	if (r->group == NONE32)
		return 0;
	/* Collapse the row's group and select its header (above it). */
	for (i = v->sel; i > 0; i--) {
		h = layout_row(v->lay, i - 1);
		if (h->kind == LROW_GROUP && h->group == r->group)
			break;
	}
	if (i == 0)
		return 0;
	layout_set_collapsed(v->lay, r->group, 1);
	v->prev_sel = v->sel;
	v->sel = i - 1;
	tl_resync(v, (size_t)-1);
	return TL_ROWS;
}

static int
tl_foldall(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	size_t		 g, a = layout_all_index(v->lay, v->sel);
	int		 any = 0;

	for (g = 0; g < v->lay->ngroups; g++)
		if (!v->lay->groups[g].collapsed)
			any = 1;
	layout_collapse_all(v->lay, any);
	tl_resync(v, a);
	return TL_ROWS;
}

static int
tl_api(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	size_t		 a = layout_all_index(v->lay, v->sel);

	v->hidden ^= 1u << TRACK_API;
	layout_set_hidden(v->lay, v->hidden);
	tl_resync(v, a);
	if (v->srch.pat[0] != '\0')
		search_build(&v->srch, v->lay, v->srch.pat);
	snprintf(v->msg, sizeof v->msg, "API rows %s",
	    (v->hidden & (1u << TRACK_API)) ? "hidden" : "shown");
	return TL_ROWS;
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

static int
tl_bookmark(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	char		 a[48];
	int		 id;

	id = bookmarks_add(&v->bm, v->t0, v->span, v->tc, v->sel_gid);
	if (id < 0)
		snprintf(v->msg, sizeof v->msg, "too many bookmarks");
	else
		snprintf(v->msg, sizeof v->msg, "bookmark %d at %s (' lists "
		    "them)", id, fmt_when(a, sizeof a, v->tc, v->m->origin_ns,
		    v->sh->abs_time, v->sh->res));
	return REDRAW_STATUS;
}

static int
tl_bmlist(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	v->overlay = TL_OV_BOOKMARKS;
	if (v->bm_sel >= v->bm.n)
		v->bm_sel = v->bm.n > 0 ? v->bm.n - 1 : 0;
	return REDRAW_ALL;
}

static void
tl_bmjump(struct tl *v, size_t i)
{
	const struct bookmark	*b = &v->bm.b[i];
	size_t			 a;

	v->t0 = b->t0;
	v->span = b->span;
	v->tc = b->cursor;
	tl_clamp(v);
	if (b->gid != NONE32 && (a = layout_find_all(v->lay, b->gid)) !=
	    (size_t)-1) {
		if (layout_reveal(v->lay, a) != (size_t)-1) {
			v->sel = layout_visible(v->lay, a);
			tl_scroll(v);
		}
		tl_select(v, b->gid, NULL, 0);
		tl_resync(v, (size_t)-1);
	}
	snprintf(v->msg, sizeof v->msg, "bookmark %d", b->id);
}

const struct view_action view_timeline_actions[] = {
	{ ACT_PAN_LEFT, tl_pan, -1 },
	{ ACT_PAN_RIGHT, tl_pan, 1 },
	{ ACT_PAN_PAGE_LEFT, tl_pan, -8 },
	{ ACT_PAN_PAGE_RIGHT, tl_pan, 8 },
	{ ACT_GO_START, tl_home, 0 },
	{ ACT_GO_END, tl_home, 1 },
	{ ACT_ZOOM_IN, tl_zoom, 1 },
	{ ACT_ZOOM_OUT, tl_zoom, 0 },
	{ ACT_ZOOM_ALL, tl_whole, 0 },
	{ ACT_ZOOM_SELECTION, tl_zoomsel, 0 },
	{ ACT_CURSOR_LEFT, tl_cursor, -1 },
	{ ACT_CURSOR_RIGHT, tl_cursor, 1 },
	{ ACT_GOTO_TIME, tl_prompt, TL_PR_GOTO },
	{ ACT_ROW_UP, tl_row, -1 },
	{ ACT_ROW_DOWN, tl_row, 1 },
	{ ACT_EVENT_NEXT, tl_next, 1 },
	{ ACT_EVENT_PREV, tl_next, -1 },
	{ ACT_PICK, tl_enter, 0 },
	{ ACT_CLICK, tl_click, 0 },
	{ ACT_SEARCH, tl_prompt, TL_PR_SEARCH },
	{ ACT_SEARCH_NEXT, tl_match, 1 },
	{ ACT_SEARCH_PREV, tl_match, -1 },
	{ ACT_MARK_START, tl_mark, 0 },
	{ ACT_MARK_END, tl_mark, 1 },
	{ ACT_FILTER_DURATION, tl_prompt, TL_PR_MINDUR },
	{ ACT_FOLD, tl_fold, 0 },
	{ ACT_FOLD_ALL, tl_foldall, 0 },
	{ ACT_TOGGLE_API, tl_api, 0 },
	{ ACT_TOGGLE_TIME, tl_abs, 0 },
	{ ACT_BOOKMARK, tl_bookmark, 0 },
	{ ACT_BOOKMARKS, tl_bmlist, 0 },
	{ ACT_CLEAR_SELECTION, tl_escape, 0 },
};
const size_t view_timeline_nactions =
    sizeof view_timeline_actions / sizeof view_timeline_actions[0];

/* A key while the bookmark list is up. */
static int
tl_bmkey(struct tl *v, const struct tui_key *k)
{
	size_t	i;

	switch (k->key) {
	case TK_UP:
	case 'k':
		if (v->bm_sel > 0)
			v->bm_sel--;
		return REDRAW_ALL;
	case TK_DOWN:
	case 'j':
		if (v->bm_sel + 1 < v->bm.n)
			v->bm_sel++;
		return REDRAW_ALL;
	case 'd':
		bookmarks_del(&v->bm, v->bm_sel);
		if (v->bm_sel >= v->bm.n && v->bm_sel > 0)
			v->bm_sel--;
		return REDRAW_ALL;
	case TK_ENTER:
		v->overlay = TL_OV_NONE;
		if (v->bm_sel < v->bm.n)
			tl_bmjump(v, v->bm_sel);
		return REDRAW_ALL;
	}
	if (k->key >= '1' && k->key <= '9') {
		i = (size_t)(k->key - '1');
		v->overlay = TL_OV_NONE;
		if (i < v->bm.n) {
			v->bm_sel = i;
			tl_bmjump(v, i);
		}
		return REDRAW_ALL;
	}
	v->overlay = TL_OV_NONE;
	return REDRAW_ALL | ((k->key == 'q' || k->key == 'Q') ? REACT_PASS :
	    0);
}

static int
tl_key(void *p, const struct tui_key *k, int act)
{
	struct tl			*v = p;
	const struct view_action	*b;
	int			 r = view_clear_msg(v->msg);

	if (v->pr.active) {
		switch (prompt_key(&v->pr, k)) {
		case PROMPT_DONE:
			r |= tl_prompt_done(v);
			break;
		case PROMPT_CANCEL:
			r |= REDRAW_STATUS;
			break;
		default:
			r |= REDRAW_STATUS;
			break;
		}
	} else if (v->overlay == TL_OV_BOOKMARKS)
		r |= tl_bmkey(v, k);
	else if (v->overlay == TL_OV_RANGE) {
		/* Any key closes the statistics; q still quits. */
		v->overlay = TL_OV_NONE;
		r |= REDRAW_ALL;
		if (k->key == 'q' || k->key == 'Q')
			r |= REACT_PASS;
	} else if ((b = view_action_find(view_timeline_actions,
	    view_timeline_nactions, act)) != NULL)
		r |= b->fn(v, k, b->arg);
	else
		r |= REACT_PASS;
	tl_publish(v);
	return r;
}

static int
tl_command(void *p, const struct view_msg *msg)
{
	struct tl	*v = p;
	int64_t		 s, e;
	size_t		 a, row = (size_t)-1;

	switch (msg->type) {
	case VMSG_SHOW_EVENT:
		if (msg->gid == NONE32 || msg->gid >= v->m->nevents)
			return 0;
		s = model_ev_start(v->m, msg->gid);
		e = model_ev_end(v->m, msg->gid);
		a = layout_find_all(v->lay, msg->gid);
		if (a != (size_t)-1 &&
		    (row = layout_reveal(v->lay, a)) != (size_t)-1) {
			v->sel = row;
			tl_scroll(v);
		}
		tl_select(v, msg->gid, NULL, 0);
		tl_resync(v, (size_t)-1);
		/* Keep the zoom unless the event would be too thin to see
		 * or does not fit. */
		if (e - s > v->span || (e - s) * v->tw < 2 * v->span)
			tl_show(v, s, e);
		else {
			v->t0 = s - (v->span - (e - s)) / 2;
			v->tc = s;
			tl_clamp(v);
		}
		if (a == (size_t)-1 || row == (size_t)-1)
			snprintf(v->msg, sizeof v->msg, "its row is hidden "
			    "(A shows API rows)");
		else if (v->sel_lane == NULL && v->min_dur > 0)
			snprintf(v->msg, sizeof v->msg, "hidden by the minimum "
			    "duration filter (f changes it)");
		break;
	case VMSG_SHOW_RANGE:
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
	if (e < lv->t0 || s >= lv->t0 + lv->span)
		return;
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
	int		 c0, c1;

	/* A path's last component says most in a narrow column. */
	if (strrchr(title, '/') != NULL && strrchr(title, '/')[1] != '\0')
		title = strrchr(title, '/') + 1;
	cellgrid_fill(g, 0, 0, v->labw, 1, L' ', CG_RULER);
	cellgrid_text(g, 0, 0, v->labw, title, v->san | ST_ELLIPSIS,
	    CG_RULER | CGA_BOLD);
	cellgrid_put(g, v->labw, 0, v->gl->vline, CG_BORDER);
	ruler_draw(g, v->tx, 0, lv, v->sh->abs_time ? 0 : v->m->origin_ns,
	    v->cur, v->gl);
	/* The marked range (or its start) in reverse video. */
	if (v->marked == 0)
		return;
	c0 = lod_col_of(lv, v->mark[v->marked == 2 ? 1 : 0]);
	c1 = v->marked == 3 ? lod_col_of(lv, v->mark[1] - 1) : c0;
	if (c1 < 0 || c0 >= v->tw)
		return;
	if (c0 < 0)
		c0 = 0;
	if (c1 >= v->tw)
		c1 = v->tw - 1;
	cellgrid_attr(g, v->tx + c0, 0, c1 - c0 + 1, CGA_REVERSE, 1);
}

/* Tags on the right of the detail pane's rule: filter, search, range. */
static void
tl_draw_tags(struct tl *v, struct cellgrid *g, int y)
{
	char	buf[256], a[32], b[160];
	size_t	o = 0;
	int	n;

	buf[0] = '\0';
	if (v->hidden & (1u << TRACK_API))
		o += (size_t)snprintf(buf + o, sizeof buf - o, " [API hidden]");
	if (v->min_dur > 0 && o < sizeof buf)
		o += (size_t)snprintf(buf + o, sizeof buf - o, " [>=%s]",
		    fmt_time(a, sizeof a, v->min_dur));
	if (v->marked == 3 && o < sizeof buf)
		o += (size_t)snprintf(buf + o, sizeof buf - o, " [range %s]",
		    fmt_time(a, sizeof a, v->mark[1] - v->mark[0]));
	if (v->srch.pat[0] != '\0' && o < sizeof buf) {
		safetext_utf8(v->srch.pat, (size_t)-1, v->san | ST_ELLIPSIS, 24,
		    b, sizeof b);
		o += (size_t)snprintf(buf + o, sizeof buf - o, " [/%s: %llu]",
		    b, (unsigned long long)v->srch.total);
	}
	if (o == 0 || o >= sizeof buf)
		return;
	n = safetext_width(buf, (size_t)-1, 0) + 1;
	if (n > v->w / 2)
		return;
	cellgrid_text(g, v->w - n, y, n, buf, 0, CG_BORDER | CGA_BOLD);
}

static void
tl_draw_detail(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	char			 buf[256];
	size_t			 n;
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
			layout_members(v->lay, r->group, &n);
			snprintf(buf, sizeof buf, ": %zu track%s%s ", n,
			    n == 1 ? "" : "s",
			    v->lay->groups[r->group].collapsed ?
			    ", collapsed" : "");
		}
		cellgrid_text(g, x, v->det_y, v->w - x, buf, ST_ASCII,
		    CG_BORDER);
	}
	tl_draw_tags(v, g, v->det_y);
	cellgrid_fill(g, 0, v->det_y + 1, v->w, v->det_h - 1, L' ',
	    CG_DETAIL);
	if (v->sel_gid != NONE32) {
		detail_draw(g, 1, v->det_y + 1, v->w - 2, v->det_h - 1,
		    &v->det, v->san, v->gl);
		return;
	}
	cellgrid_text(g, 1, v->det_y + 1, v->w - 2, "No event selected. "
	    "Tab/Shift-Tab: next/previous event on the row; Enter: the "
	    "event under the cursor; /: search; ?: all keys.", ST_ASCII,
	    CG_DIM);
}

static void
tl_draw_status(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	const struct layout_row	*r = layout_row(v->lay, v->sel);
	struct evref		 ev;
	char			 b[32], buf[256];
	int			 x, end, n;

	if (v->pr.active) {
		cellgrid_fill(g, 0, v->status_y, v->w, 1, L' ', CG_STATUS);
		prompt_draw(&v->pr, g, 1, v->status_y, v->w - 2, v->san);
		return;
	}
	x = status_begin(g, v->status_y, v->w, v->m, v->sh,
	    lv->span / lv->ncols > 0 ? lv->span / lv->ncols : 1, &end);
	if (v->msg[0] != '\0' || v->sh->note[0] != '\0') {
		cellgrid_text(g, x, v->status_y, end - x, v->msg[0] != '\0' ?
		    v->msg : v->sh->note, v->san | ST_ELLIPSIS,
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
tl_draw(void *p, struct cellgrid *g, int dirty)
{
	struct tl	*v = p;
	struct lod_view	 lv = tl_lodview(v);
	size_t		 ri;
	int		 i;

	if (v->overlay != TL_OV_NONE)
		dirty = REDRAW_ALL;
	if (dirty & REDRAW_RULER)
		tl_draw_ruler(v, g, &lv);
	if (dirty & REDRAW_TIMELINE) {
		for (i = 0; i < v->rows_h; i++) {
			ri = v->top + (size_t)i;
			tl_draw_label(v, g, v->rows_y + i, ri);
			tl_draw_lanes(v, g, v->rows_y + i, ri, &lv);
		}
		tl_draw_overlays(v, g, &lv);
	} else if (dirty & REDRAW_LABELS) {
		/* Only the rows the selection left and entered. */
		if (v->prev_sel >= v->top &&
		    v->prev_sel < v->top + (size_t)v->rows_h)
			tl_draw_label(v, g, v->rows_y +
			    (int)(v->prev_sel - v->top), v->prev_sel);
		if (v->sel >= v->top && v->sel < v->top + (size_t)v->rows_h)
			tl_draw_label(v, g, v->rows_y +
			    (int)(v->sel - v->top), v->sel);
	}
	if (dirty & REDRAW_DETAIL)
		tl_draw_detail(v, g, &lv);
	if (dirty & REDRAW_STATUS)
		tl_draw_status(v, g, &lv);
	switch (v->overlay) {
	case TL_OV_RANGE:
		rangestat_draw(g, v->gl, v->w, v->h, &v->rs, v->m,
		    v->sh->abs_time, v->san);
		break;
	case TL_OV_BOOKMARKS:
		bookmarks_draw(g, v->gl, v->w, v->h, &v->bm, v->bm_sel, v->m,
		    v->sh->abs_time, v->san);
		break;
	}
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
	tl_publish(v);
}

static void *
tl_init(const struct model *m, const struct view_env *env)
{
	struct tl	*v;

	v = xcalloc(1, sizeof *v);
	v->m = m;
	v->gl = env->gl;
	v->title = env->title;
	v->sh = env->sh;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	v->lay = layout_new(m);
	v->sel_gid = NONE32;
	v->det.gid = NONE32;
	search_init(&v->srch);
	rangestat_init(&v->rs);
	bookmarks_init(&v->bm);
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
