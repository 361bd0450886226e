/*
 * view-timeline-draw: drawing the panes a reaction damaged: labels, lanes
 * (through lod.c into the column buffer), the cursor and selection, the
 * ruler, the detail pane and its tags, the status line, the overlays.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/busy.h"
#include "tui/crumb.h"
#include "tui/detail.h"
#include "tui/fmt.h"
#include "tui/layout.h"
#include "tui/replaymark.h"
#include "tui/samprow.h"
#include "tui/lod.h"
#include "tui/ruler.h"
#include "tui/safetext.h"
#include "tui/schedshade.h"
#include "tui/status.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

static void
tl_draw_label(struct tl *v, struct cellgrid *g, int y, size_t ri, size_t flow)
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
	if (tl_counter_row(v, r) && tl_counter_label(v) != NULL) {
		char	lab[LAYOUT_LABEL];

		snprintf(lab, sizeof lab, "%s", tl_counter_label(v));
		cellgrid_text(g, x, y, v->labw - x, lab, v->san | ST_ELLIPSIS,
		    attr);
	} else
		cellgrid_text(g, x, y, v->labw - x, r->label,
		    v->san | ST_ELLIPSIS, attr);
	/* The flow mark: this row holds the selected work's launch. */
	if (ri == flow && v->labw > 2)
		cellgrid_put(g, v->labw - 1, y, v->gl->flow, CG_API | CGA_BOLD);
	if (ri == v->sel)
		cellgrid_attr(g, 0, y, v->labw, CGA_REVERSE, 1);
}

/*
 * Sync waits on a stream, while the sync rows are hidden: drawn in the
 * stream row's idle cells (a shade in the sync colour), never over work.
 */
static void
tl_draw_waits(struct tl *v, struct cellgrid *g, int y, const struct track *t,
    const struct lod_view *lv)
{
	struct cell	*c;
	int		 i;

	if (t->lane.n == 0)
		return;
	lod_lane(&t->lane, lv, v->wcols);
	for (i = 0; i < v->tw; i++) {
		if (v->wcols[i].count == 0)
			continue;
		c = cellgrid_at(g, v->tx + i, y);
		if (c != NULL && c->ch == L' ')
			cellgrid_put(g, v->tx + i, y, v->gl->wait, CG_SYNC);
	}
}

/* The scheduling shade of a CPU thread's row (schedshade.h). */
static void
tl_draw_sched(struct tl *v, struct cellgrid *g, int y, uint32_t thread,
    const struct lod_view *lv)
{
	if (v->sched_of == NULL || thread >= v->m->nthreads ||
	    v->sched_of[thread] == NONE32)
		return;
	schedshade_draw(g, v->tx, y, v->m, v->sched_of[thread], lv, v->gl);
}

static void
tl_draw_lanes(struct tl *v, struct cellgrid *g, int y, size_t ri,
    const struct lod_view *lv)
{
	const struct track	*tr;
	const struct model	*m = v->m;
	const struct layout_row	*r = layout_row(v->lay, ri);
	const struct layout_group *grp;
	uint32_t		 dev = NONE32;
	const uint32_t		*mem;
	size_t			 n;

	cellgrid_fill(g, v->tx, y, v->tw, 1, L' ', CG_NORMAL);
	if (r == NULL)
		return;
	if (tl_counter_row(v, r)) {
		tl_counter_draw(v, g, y, r, lv);
		return;
	}
	if (r->kind == LROW_LANE) {
		lod_lane(r->lane, lv, v->cols);
		lod_draw_lane(g, v->tx, y, m, r->lane, lv, v->cols, v->gl,
		    v->san);
		if ((v->hidden & (1u << TRACK_SYNC)) && r->track != NONE32 &&
		    v->sync_of[r->track] != NONE32)
			tl_draw_waits(v, g, y, &m->tracks[v->sync_of[r->track]],
			    lv);
		if (r->track < m->ntracks &&
		    r->lane == &m->tracks[r->track].lane)
			replaymark_draw(g, v->tx, y, m, r->track, lv);
		if (r->track < m->ntracks) {
			tr = &m->tracks[r->track];
			if (tr->type == TRACK_API || tr->type == TRACK_NVTX ||
			    tr->type == TRACK_OSRT)
				tl_draw_sched(v, g, y, tr->thread, lv);
		}
	} else if (r->kind == LROW_SAMPLES) {
		samprow_draw(g, v->tx, y, m, r->sthread, lv, v->gl);
	} else {
		grp = &v->lay->groups[r->group];
		if (grp->kind == LG_DEVICE && busy_device_known(m, grp->id))
			dev = grp->id;
		mem = layout_members(v->lay, r->group, &n);
		lod_group(m, mem, n, dev, lv, v->cols);
		lod_draw_group(g, v->tx, y, lv, v->cols, v->gl);
		if (grp->kind == LG_THREAD)
			tl_draw_sched(v, g, y, grp->id, lv);
	}
}

/*
 * The selected event's first and last columns in the lanes, clipped to
 * them; 0 when it lies outside the window.
 */
static int
tl_sel_cols(const struct tl *v, const struct lod_view *lv, int *c0, int *c1)
{
	int64_t	s, e;

	s = model_ev_start(v->m, v->sel_gid);
	e = model_ev_end(v->m, v->sel_gid);
	if (e < lv->t0 || s >= lv->t0 + lv->span)
		return 0;
	*c0 = lod_col_of(lv, s);
	*c1 = e > s ? lod_col_of(lv, e - 1) : *c0;
	if (*c0 < 0)
		*c0 = 0;
	if (*c1 >= v->tw)
		*c1 = v->tw - 1;
	return *c1 >= *c0;
}

/* The cursor column, and the selected event, over the lanes. */
static void
tl_draw_overlays(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	struct cell	*c;
	size_t		 row;
	int		 y, c0, c1;

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
	if (tl_sel_cols(v, lv, &c0, &c1))
		cellgrid_attr(g, v->tx + c0, v->rows_y + (int)(row - v->top),
		    c1 - c0 + 1, CGA_SEL, 1);
	/* The launching call: underlined and bold on its CPU row. */
	if ((y = tl_flow_row(v, lv, &c0, &c1)) >= 0 && c0 >= 0)
		cellgrid_attr(g, v->tx + c0, v->rows_y + y, c1 - c0 + 1,
		    CGA_UNDERLINE | CGA_BOLD, 1);
}

/*
 * The selected event's columns on the ruler: brackets either side and the
 * columns underlined. The bar itself is not inverted (a busy cell in
 * reverse video reads as an idle one).
 */
static void
tl_draw_selmark(struct tl *v, struct cellgrid *g, const struct lod_view *lv)
{
	int	c0, c1;

	if (v->sel_gid == NONE32 || layout_find(v->lay, v->sel_gid) ==
	    (size_t)-1)
		return;
	if (!tl_sel_cols(v, lv, &c0, &c1))
		return;
	if (c0 > 0)
		cellgrid_put(g, v->tx + c0 - 1, 0, L'[', CG_RULER | CGA_BOLD);
	if (c1 + 1 < v->tw)
		cellgrid_put(g, v->tx + c1 + 1, 0, L']', CG_RULER | CGA_BOLD);
	cellgrid_attr(g, v->tx + c0, 0, c1 - c0 + 1, CGA_UNDERLINE, 1);
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
	tl_draw_selmark(v, g, lv);
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

/* The breadcrumb of the event under the cursor into buf, in maxw columns. */
static int
tl_crumb(struct tl *v, char *buf, size_t len, int maxw)
{
	const char	*names[CRUMB_MAX];
	uint32_t	 chain[CRUMB_MAX];
	size_t		 i, n;

	buf[0] = '\0';
	n = crumb_chain(v->m, tl_under(v), chain, CRUMB_MAX, &v->stab,
	    &v->stabcap);
	for (i = 0; i < n; i++)
		names[i] = model_str(v->m, model_ev_name(v->m, chain[i]));
	return crumb_fit(names, n, v->gl->utf8 ? " \xe2\x80\xba " : " > ",
	    v->san, maxw, buf, len);
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
	/* The NVTX ancestry of the event under the cursor. */
	if (tl_crumb(v, buf, sizeof buf, v->w * 2 / 3) > 0) {
		cellgrid_put(g, x++, v->det_y, L' ', CG_BORDER);
		x += cellgrid_text(g, x, v->det_y, v->w - x, buf, v->san,
		    CG_NVTX | CGA_BOLD);
		cellgrid_put(g, x++, v->det_y, L' ', CG_BORDER);
		x++;
	}
	if (r != NULL) {
		cellgrid_put(g, x++, v->det_y, L' ', CG_BORDER);
		x += cellgrid_text(g, x, v->det_y, v->w / 2, r->label,
		    v->san | ST_ELLIPSIS, CG_BORDER | CGA_BOLD);
		if (r->kind == LROW_LANE) {
			snprintf(buf, sizeof buf, ": %zu events, %.1f%% busy "
			    "in window ", r->lane->n, 100.0 *
			    (double)busy_lane(r->lane, lv->t0, lv->t0 +
			    lv->span) / (double)lv->span);
		} else if (r->kind == LROW_SAMPLES) {
			snprintf(buf, sizeof buf, ": %llu samples, %llu in "
			    "window ", (unsigned long long)(r->sthread <
			    v->m->cs.nth ? v->m->cs.th[r->sthread].n : 0),
			    (unsigned long long)samprow_count(v->m,
			    r->sthread, lv->t0, lv->t0 + lv->span));
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
	if (v->marked == 3 && v->m->cs.ns > 0) {
		samprow_top(g, 1, v->det_y + 1, v->w - 2, v->det_h - 1, v->m,
		    v->mark[0], v->mark[1], v->san);
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

void
tl_draw(void *p, struct cellgrid *g, int dirty)
{
	struct tl	*v = p;
	struct lod_view	 lv = tl_lodview(v);
	size_t		 ri, flow = (size_t)-1;
	int		 i, c0, c1;

	if (v->overlay != TL_OV_NONE)
		dirty = REDRAW_ALL;
	if (dirty & (REDRAW_TIMELINE | REDRAW_LABELS) &&
	    (i = tl_flow_row(v, &lv, &c0, &c1)) >= 0)
		flow = v->top + (size_t)i;
	/* The ruler marks the selected event, which the lanes show. */
	if (dirty & (REDRAW_RULER | REDRAW_TIMELINE))
		tl_draw_ruler(v, g, &lv);
	if (dirty & REDRAW_TIMELINE) {
		for (i = 0; i < v->rows_h; i++) {
			ri = v->top + (size_t)i;
			tl_draw_label(v, g, v->rows_y + i, ri, flow);
			tl_draw_lanes(v, g, v->rows_y + i, ri, &lv);
		}
		tl_draw_overlays(v, g, &lv);
	} else if (dirty & REDRAW_LABELS) {
		/* Only the rows the selection left and entered. */
		if (v->prev_sel >= v->top &&
		    v->prev_sel < v->top + (size_t)v->rows_h)
			tl_draw_label(v, g, v->rows_y +
			    (int)(v->prev_sel - v->top), v->prev_sel, flow);
		if (v->sel >= v->top && v->sel < v->top + (size_t)v->rows_h)
			tl_draw_label(v, g, v->rows_y +
			    (int)(v->sel - v->top), v->sel, flow);
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
