/*
 * table: the component of the table views. See table.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/safetext.h"
#include "tui/status.h"
#include "tui/table.h"

void
table_init(struct table *t, const struct table_spec *s,
    const struct model *m, const struct view_env *env)
{
	memset(t, 0, sizeof *t);
	t->spec = s;
	t->m = m;
	t->sh = env->sh;
	t->gl = env->gl;
	t->san = env->gl->utf8 ? 0 : ST_ASCII;
	t->desc = 1;
}

void
table_open(struct table *t, const struct table_spec *s,
    const struct model *m, const struct view_env *env, int sort, int desc,
    size_t n)
{
	table_init(t, s, m, env);
	t->sort = sort;
	t->desc = desc;
	table_rows(t, n);
}

void
table_place(struct table *t, int w, int h, int rows_y, int rows_h)
{
	const struct table_spec	*s = t->spec;

	t->w = w < 1 ? 1 : w;
	t->h = h < 1 ? 1 : h;
	t->rows_y = rows_y;
	t->rows_h = rows_h < 0 ? 0 : rows_h;
	if (s->cols != NULL) {
		memcpy(t->col, s->cols, (size_t)s->ncols * sizeof t->col[0]);
		table_layout(t->col, s->ncols, t->w);
	}
	table_scroll(&t->top, t->sel, t->n, t->rows_h);
}

void
table_rows(struct table *t, size_t n)
{
	t->n = n;
	if (t->sel >= n)
		t->sel = n > 0 ? n - 1 : 0;
	table_scroll(&t->top, t->sel, t->n, t->rows_h);
}

void
table_keep(struct table *t, const uint32_t *ids, size_t n, uint32_t id)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (ids[i] == id) {
			t->sel = i;
			break;
		}
	table_rows(t, n);
}

int
table_move(struct table *t, int d)
{
	size_t	old = t->sel;
	int64_t	s = (int64_t)t->sel;
	int	page = t->rows_h > 1 ? t->rows_h - 1 : 1;

	if (t->n == 0)
		return 0;
	if (d == TABLE_END)
		s = (int64_t)t->n - 1;
	else if (d == -TABLE_END)
		s = 0;
	else if (d == TABLE_PAGE || d == -TABLE_PAGE)
		s += d > 0 ? page : -page;
	else
		s += d;
	if (s < 0)
		s = 0;
	if (s >= (int64_t)t->n)
		s = (int64_t)t->n - 1;
	t->sel = (size_t)s;
	table_scroll(&t->top, t->sel, t->n, t->rows_h);
	return t->sel != old;
}

struct view_msg *
table_to_timeline(struct table *t, int type, uint32_t gid)
{
	t->sh->want = "timeline";
	memset(&t->sh->msg, 0, sizeof t->sh->msg);
	t->sh->msg.type = type;
	t->sh->msg.gid = gid;
	return &t->sh->msg;
}

int
table_show_instance(struct table *t, uint32_t gid, size_t pos, size_t n,
    const char *label, int key)
{
	struct view_msg	*msg;
	char		 lab[64];

	msg = table_to_timeline(t, VMSG_SHOW_EVENT, gid);
	safetext_utf8(label, (size_t)-1, t->san | ST_ELLIPSIS, 40, lab,
	    sizeof lab);
	snprintf(msg->note, sizeof msg->note, "instance %zu/%zu of %s (%c "
	    "Enter: next)", pos + 1, n, lab, key);
	return REACT_SWITCH;
}

/* View functions. */

void
table_resize(void *p, int w, int h)
{
	struct table	*t = p;

	h = h < 1 ? 1 : h;
	table_place(t, w, h, 2, h - 4);
}

int
table_key(void *p, const struct tui_key *k, int act)
{
	struct table		*t = p;
	const struct table_spec	*s = t->spec;
	int			 r = view_clear_msg(t->msg);

	if (t->pr.active) {
		if (prompt_key(&t->pr, k) != PROMPT_DONE)
			return r | REDRAW_STATUS;
		snprintf(t->filter, sizeof t->filter, "%s", t->pr.buf);
		s->refresh(p);
		if (t->n == 0 && s->filter_none != NULL)
			snprintf(t->msg, sizeof t->msg, "%s", s->filter_none);
		return r | REDRAW_ALL;
	}
	return r | view_action_run(s->actions, s->nactions, p, k, act);
}

void
table_footer(struct table *t, struct cellgrid *g, int y, const char *text)
{
	int	x;

	cellgrid_fill(g, 0, y, t->w, 1, t->gl->hline, CG_BORDER);
	if (text == NULL)
		return;
	cellgrid_put(g, 1, y, L' ', CG_BORDER);
	x = cellgrid_text(g, 2, y, t->w - 4, text, t->san | ST_ELLIPSIS,
	    CG_BORDER | CGA_BOLD);
	cellgrid_put(g, 2 + x, y, L' ', CG_BORDER);
}

static void
table_draw_rows(struct table *t, struct cellgrid *g)
{
	const struct table_spec	*s = t->spec;
	size_t			 ri;
	int			 i, y;

	for (i = 0; i < t->rows_h; i++) {
		y = t->rows_y + i;
		ri = t->top + (size_t)i;
		cellgrid_fill(g, 0, y, t->w, 1, L' ', CG_NORMAL);
		if (ri >= t->n)
			continue;
		s->row(t, g, y, ri);
		if (ri == t->sel)
			cellgrid_attr(g, 0, y, t->w, CGA_REVERSE, 1);
	}
	if (t->n == 0 && s->empty != NULL && t->rows_h > 0)
		cellgrid_text(g, 1, t->rows_y, t->w - 2, s->empty, ST_ASCII,
		    CG_DIM);
}

static void
table_draw_status(struct table *t, struct cellgrid *g)
{
	char	buf[160];
	int	x, end, y = t->h - 1;

	if (t->pr.active) {
		cellgrid_fill(g, 0, y, t->w, 1, L' ', CG_STATUS);
		prompt_draw(&t->pr, g, 1, y, t->w - 2, t->san);
		return;
	}
	x = status_begin(g, y, t->w, t->m, t->sh, t->sh->res, &end);
	if (t->msg[0] != '\0' || t->sh->note[0] != '\0') {
		cellgrid_text(g, x, y, end - x, t->msg[0] != '\0' ? t->msg :
		    t->sh->note, t->san | ST_ELLIPSIS, CG_STATUS | CGA_BOLD);
		return;
	}
	cellgrid_text(g, x, y, end - x, t->spec->status(t, buf, sizeof buf),
	    ST_ASCII, CG_STATUS);
}

void
table_draw(void *p, struct cellgrid *g, int dirty)
{
	struct table		*t = p;
	const struct table_spec	*s = t->spec;
	char			 buf[1024];

	if (dirty & (REDRAW_RULER | REDRAW_TIMELINE)) {
		cellgrid_fill(g, 0, 0, t->w, 1, L' ', CG_RULER);
		cellgrid_text(g, 0, 0, t->w, s->title(p, buf, sizeof buf),
		    s->title_user ? t->san | ST_ELLIPSIS : ST_ASCII,
		    CG_RULER | CGA_BOLD);
		if (s->cols != NULL)
			table_header(g, t->rows_y - 1, t->w, t->col, s->ncols,
			    s->nsort > 0 ? s->sortcol[t->sort] : -1, t->desc,
			    t->gl);
	}
	if (dirty & (REDRAW_BODY | REDRAW_TIMELINE)) {
		table_draw_rows(t, g);
		if (s->footer != NULL && t->h >= 5)
			table_footer(t, g, t->h - 2, s->footer(p, buf,
			    sizeof buf));
	}
	if (dirty & REDRAW_STATUS)
		table_draw_status(t, g);
}

/* Action functions. */

int
table_key_move(void *p, const struct tui_key *k, int d)
{
	struct table	*t = p;

	return table_move(t, d) ? t->spec->move_damage : 0;
}

size_t
table_row_at(const struct table *t, int y)
{
	size_t	r;

	if (y < t->rows_y || y >= t->rows_y + t->rows_h)
		return (size_t)-1;
	r = t->top + (size_t)(y - t->rows_y);
	return r < t->n ? r : (size_t)-1;
}

int
table_key_click(void *p, const struct tui_key *k, int arg)
{
	struct table			*t = p;
	const struct table_spec		*s = t->spec;
	const struct view_action	*b;
	size_t				 r = table_row_at(t, k->y), old;

	(void)arg;
	if (r == (size_t)-1)
		return 0;
	if (r == t->sel) {
		if ((b = view_action_find(s->actions, s->nactions,
		    ACT_NEXT_INSTANCE)) == NULL)
			b = view_action_find(s->actions, s->nactions,
			    ACT_SHOW_EVIDENCE);
		if (b == NULL)
			b = view_action_find(s->actions, s->nactions,
			    ACT_OPEN_RANK);
		return b != NULL ? b->fn(p, k, b->arg) : 0;
	}
	old = t->sel;
	t->sel = r;
	table_scroll(&t->top, t->sel, t->n, t->rows_h);
	return t->sel != old ? s->move_damage : 0;
}

int
table_key_sort(void *p, const struct tui_key *k, int rev)
{
	struct table		*t = p;
	const struct table_spec	*s = t->spec;

	if (s->nsort == 0 || s->refresh == NULL)
		return 0;
	if (rev)
		t->desc = !t->desc;
	else {
		t->sort = (t->sort + 1) % s->nsort;
		t->desc = (s->sort_asc & 1U << t->sort) == 0;
	}
	s->refresh(p);
	snprintf(t->msg, sizeof t->msg, "sorted by %s, %s",
	    s->sort_name(t->sort), t->desc ? "descending" : "ascending");
	return REDRAW_ALL;
}

int
table_key_filter(void *p, const struct tui_key *k, int arg)
{
	struct table	*t = p;

	if (t->spec->filter_label == NULL || t->spec->refresh == NULL)
		return 0;
	prompt_open(&t->pr, 1, t->spec->filter_label, t->filter);
	return REDRAW_STATUS;
}

int
table_key_clear(void *p, const struct tui_key *k, int arg)
{
	struct table	*t = p;

	if (t->filter[0] == '\0' || t->spec->refresh == NULL)
		return 0;
	t->filter[0] = '\0';
	t->spec->refresh(p);
	return REDRAW_ALL;
}

/* Columns and cells. */
void
table_layout(struct table_col *c, int n, int width)
{
	int	i, used, low, lowi, x;

	for (i = 0; i < n; i++)
		c[i].shown = c[i].prio != TABLE_OFF;
	for (;;) {
		used = 0;
		for (i = 0; i < n; i++)
			if (c[i].shown && !c[i].flex)
				used += c[i].width + 1;
		if (used + TABLE_MIN_FLEX <= width)
			break;
		/* Drop the lowest priority fixed column still shown. */
		lowi = -1;
		low = 0;
		for (i = 0; i < n; i++)
			if (c[i].shown && !c[i].flex &&
			    (lowi < 0 || c[i].prio < low)) {
				lowi = i;
				low = c[i].prio;
			}
		if (lowi < 0)
			break;
		c[lowi].shown = 0;
	}
	x = 0;
	for (i = 0; i < n; i++) {
		c[i].x = x;
		c[i].w = 0;
		if (!c[i].shown)
			continue;
		c[i].w = c[i].flex ? width - used : c[i].width;
		if (c[i].w < 1)
			c[i].w = 1;
		x += c[i].w + 1;
	}
}

void
table_header(struct cellgrid *g, int y, int width, const struct table_col *c,
    int n, int sortcol, int desc, const struct glyph *gl)
{
	int	i;

	cellgrid_fill(g, 0, y, width, 1, L' ', CG_RULER);
	for (i = 0; i < n; i++) {
		if (!c[i].shown)
			continue;
		table_cell(g, y, &c[i], c[i].title, ST_ASCII,
		    (uint16_t)(CG_RULER | CGA_BOLD |
		    (i == sortcol ? CGA_UNDERLINE : 0)));
		if (i == sortcol && c[i].w > (int)strlen(c[i].title)) {
			/* The direction, next to the title. */
			cellgrid_put(g, c[i].right ? c[i].x + c[i].w -
			    (int)strlen(c[i].title) - 1 : c[i].x +
			    (int)strlen(c[i].title), y, gl->utf8 ?
			    (desc ? L'\u25bc' : L'\u25b2') : (desc ? L'v' :
			    L'^'), CG_RULER | CGA_BOLD);
		}
	}
}

void
table_cell(struct cellgrid *g, int y, const struct table_col *c,
    const char *text, int sanflags, uint16_t attr)
{
	int	tw;

	if (!c->shown || c->w <= 0)
		return;
	tw = safetext_width(text, (size_t)-1, sanflags);
	if (c->right && tw < c->w)
		cellgrid_text(g, c->x + c->w - tw, y, tw, text, sanflags,
		    attr);
	else
		cellgrid_text(g, c->x, y, c->w, text, sanflags | ST_ELLIPSIS,
		    attr);
}

void
table_scroll(size_t *top, size_t sel, size_t n, int rows)
{
	if (rows <= 0 || n == 0) {
		*top = 0;
		return;
	}
	if (sel < *top)
		*top = sel;
	if (sel >= *top + (size_t)rows)
		*top = sel - (size_t)rows + 1;
	if (*top + (size_t)rows > n)
		*top = n > (size_t)rows ? n - (size_t)rows : 0;
}
