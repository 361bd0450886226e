/*
 * view-kernels: the kernel table view. See view-kernels.h.
 *
 * Screen: a title line (kernel and launch counts, the filter), the column
 * header, the rows (short names; the selected row's full name is in the
 * footer), and the status line. The table is computed when the view is
 * first shown; sorting and filtering work on the per-name rows only.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "ktable.h"
#include "prompt.h"
#include "safetext.h"
#include "status.h"
#include "table.h"
#include "view-kernels.h"
#include "xmalloc.h"

enum {
	KV_SHARE, KV_TOTAL, KV_COUNT, KV_MEAN, KV_MEDIAN, KV_MIN, KV_MAX,
	KV_STDDEV, KV_NAME, KV_NCOLS
};

/* The column of each sort key. */
static const int kv_sortcol[KT_SORT_COUNT_] = {
	KV_TOTAL, KV_COUNT, KV_MEAN, KV_MEDIAN, KV_MIN, KV_MAX, KV_STDDEV,
	KV_NAME
};

static const struct table_col kv_cols[KV_NCOLS] = {
	[KV_SHARE] = { "Time%", 6, 7, 1, 0, 0, 0, 0 },
	[KV_TOTAL] = { "Total", 9, 8, 1, 0, 0, 0, 0 },
	[KV_COUNT] = { "Count", 8, 6, 1, 0, 0, 0, 0 },
	[KV_MEAN] = { "Mean", 9, 5, 1, 0, 0, 0, 0 },
	[KV_MEDIAN] = { "Median", 9, 4, 1, 0, 0, 0, 0 },
	[KV_MIN] = { "Min", 9, 2, 1, 0, 0, 0, 0 },
	[KV_MAX] = { "Max", 9, 3, 1, 0, 0, 0, 0 },
	[KV_STDDEV] = { "StdDev", 9, 1, 1, 0, 0, 0, 0 },
	[KV_NAME] = { "Name", 0, 0, 0, 1, 0, 0, 0 },
};

struct kv {
	const struct model	*m;
	const struct glyph	*gl;
	struct view_shared	*sh;
	struct ktable		*kt;
	int			 san;
	int			 w, h, rows_y, rows_h;
	size_t			 top, sel;
	uint32_t		 inst_name;	/* instances cached for */
	uint32_t		*inst;
	size_t			 ninst, instcap, inst_pos;
	struct table_col	 col[KV_NCOLS];
	struct prompt		 pr;
	char			 msg[160];
};

static int
kv_move(void *p, const struct tui_key *k, int d)
{
	struct kv	*v = p;
	size_t		 n = v->kt->nvis;
	int64_t		 s = (int64_t)v->sel;

	if (n == 0)
		return 0;
	if (d == 1000 || d == -1000)
		d = d > 0 ? (v->rows_h > 1 ? v->rows_h - 1 : 1) :
		    -(v->rows_h > 1 ? v->rows_h - 1 : 1);
	if (d == 100000)
		s = (int64_t)n - 1;
	else if (d == -100000)
		s = 0;
	else
		s += d;
	if (s < 0)
		s = 0;
	if (s >= (int64_t)n)
		s = (int64_t)n - 1;
	v->sel = (size_t)s;
	table_scroll(&v->top, v->sel, n, v->rows_h);
	return REDRAW_BODY | REDRAW_STATUS;
}

/* Re-sorts or re-filters, keeping the selected name when still shown. */
static void
kv_refresh(struct kv *v, const char *filter, int sort, int desc)
{
	uint32_t	keep = v->sel < v->kt->nvis ? v->kt->vis[v->sel] : NONE32;
	size_t		i;

	ktable_view(v->kt, filter, sort, desc);
	v->sel = 0;
	for (i = 0; i < v->kt->nvis; i++)
		if (v->kt->vis[i] == keep)
			v->sel = i;
	table_scroll(&v->top, v->sel, v->kt->nvis, v->rows_h);
}

static int
kv_sort(void *p, const struct tui_key *k, int rev)
{
	struct kv	*v = p;
	int		 key = v->kt->sort, desc = v->kt->desc;

	if (rev)
		desc = !desc;
	else {
		key = (key + 1) % KT_SORT_COUNT_;
		desc = key != KT_SORT_NAME;
	}
	kv_refresh(v, v->kt->filter, key, desc);
	snprintf(v->msg, sizeof v->msg, "sorted by %s, %s",
	    ktable_sort_name(key), desc ? "descending" : "ascending");
	return REDRAW_ALL;
}

static int
kv_filter(void *p, const struct tui_key *k, int arg)
{
	struct kv	*v = p;

	prompt_open(&v->pr, 1, "filter names: ", v->kt->filter);
	return REDRAW_STATUS;
}

static int
kv_clear(void *p, const struct tui_key *k, int arg)
{
	struct kv	*v = p;

	if (v->kt->filter[0] == '\0')
		return 0;
	kv_refresh(v, "", v->kt->sort, v->kt->desc);
	return REDRAW_ALL;
}

static int
kv_enter(void *p, const struct tui_key *k, int arg)
{
	struct kv		*v = p;
	const struct ktable_row	*r;
	char			 lab[64];

	if (v->sel >= v->kt->nvis)
		return 0;
	r = &v->kt->r[v->kt->vis[v->sel]];
	if (v->inst_name != r->name || v->ninst == 0) {
		v->ninst = ktable_instances(v->m, r->name, &v->inst,
		    &v->instcap);
		v->inst_name = r->name;
		v->inst_pos = 0;
	} else
		v->inst_pos = (v->inst_pos + 1) % v->ninst;
	if (v->ninst == 0)
		return 0;
	v->sh->want = "timeline";
	memset(&v->sh->msg, 0, sizeof v->sh->msg);
	v->sh->msg.type = VMSG_SHOW_EVENT;
	v->sh->msg.gid = v->inst[v->inst_pos];
	safetext_utf8(model_str(v->m, r->short_name != 0 ? r->short_name :
	    r->name), (size_t)-1, v->san | ST_ELLIPSIS, 40, lab, sizeof lab);
	snprintf(v->sh->msg.note, sizeof v->sh->msg.note, "instance %zu/%zu "
	    "of %s (3 Enter: next)", v->inst_pos + 1, v->ninst, lab);
	return REACT_SWITCH;
}

const struct view_key view_kernels_keys[] = {
	{ { TK_UP, 'k', TK_WHEEL_UP }, "Up k wheel", "previous row", kv_move,
	    -1 },
	{ { TK_DOWN, 'j', TK_WHEEL_DOWN }, "Down j wheel", "next row", kv_move,
	    1 },
	{ { TK_PGUP }, "PgUp", "page up", kv_move, -1000 },
	{ { TK_PGDN }, "PgDn", "page down", kv_move, 1000 },
	{ { TK_HOME }, "Home", "first row", kv_move, -100000 },
	{ { TK_END }, "End", "last row", kv_move, 100000 },
	{ { TK_ENTER }, "Enter", "next instance on the timeline", kv_enter,
	    0 },
	{ { 's' }, "s", "sort by the next column", kv_sort, 0 },
	{ { 'S' }, "S", "reverse the sort order", kv_sort, 1 },
	{ { '/' }, "/", "filter by name", kv_filter, 0 },
	{ { TK_ESC }, "Esc", "clear the filter", kv_clear, 0 },
};
const size_t view_kernels_nkeys = sizeof view_kernels_keys /
    sizeof view_kernels_keys[0];

static int
kv_key(void *p, const struct tui_key *k)
{
	struct kv		*v = p;
	const struct view_key	*b;
	int			 r = 0;

	if (v->msg[0] != '\0') {
		v->msg[0] = '\0';
		r |= REDRAW_STATUS;
	}
	if (v->pr.active) {
		if (prompt_key(&v->pr, k) == PROMPT_DONE) {
			kv_refresh(v, v->pr.buf, v->kt->sort, v->kt->desc);
			if (v->kt->nvis == 0)
				snprintf(v->msg, sizeof v->msg, "no kernel "
				    "name contains that (Esc: all)");
			return r | REDRAW_ALL;
		}
		return r | REDRAW_STATUS;
	}
	if ((b = view_key_find(view_kernels_keys, view_kernels_nkeys,
	    k->key)) == NULL)
		return r | REACT_PASS;
	return r | b->fn(v, k, b->arg);
}

static void
kv_draw_row(struct kv *v, struct cellgrid *g, int y, size_t ri)
{
	const struct ktable_row	*r;
	const struct stats	*st;
	char			 buf[64];

	cellgrid_fill(g, 0, y, v->w, 1, L' ', CG_NORMAL);
	if (ri >= v->kt->nvis)
		return;
	r = &v->kt->r[v->kt->vis[ri]];
	st = &r->st;
	snprintf(buf, sizeof buf, "%.1f", v->kt->grand > 0 ? 100.0 *
	    (double)st->total / (double)v->kt->grand : 0.0);
	table_cell(g, y, &v->col[KV_SHARE], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_TOTAL], fmt_time(buf, sizeof buf,
	    st->total), ST_ASCII, CG_LABEL);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)st->count);
	table_cell(g, y, &v->col[KV_COUNT], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_MEAN], fmt_time(buf, sizeof buf,
	    (int64_t)(st->mean + 0.5)), ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_MEDIAN], fmt_time(buf, sizeof buf,
	    (int64_t)(st->median + 0.5)), ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_MIN], fmt_time(buf, sizeof buf, st->min),
	    ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_MAX], fmt_time(buf, sizeof buf, st->max),
	    ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_STDDEV], fmt_time(buf, sizeof buf,
	    (int64_t)(st->stddev + 0.5)), ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[KV_NAME], model_str(v->m, r->short_name != 0 ?
	    r->short_name : r->name), v->san, CG_KERNEL);
	if (ri == v->sel)
		cellgrid_attr(g, 0, y, v->w, CGA_REVERSE, 1);
}

static void
kv_draw_status(struct kv *v, struct cellgrid *g)
{
	char	buf[160];
	int	x, end, y = v->h - 1;

	if (v->pr.active) {
		cellgrid_fill(g, 0, y, v->w, 1, L' ', CG_STATUS);
		prompt_draw(&v->pr, g, 1, y, v->w - 2, v->san);
		return;
	}
	x = status_begin(g, y, v->w, v->m, v->sh, v->sh->res, &end);
	if (v->msg[0] != '\0' || v->sh->note[0] != '\0') {
		cellgrid_text(g, x, y, end - x, v->msg[0] != '\0' ? v->msg :
		    v->sh->note, v->san | ST_ELLIPSIS, CG_STATUS | CGA_BOLD);
		return;
	}
	if (v->sel < v->kt->nvis) {
		snprintf(buf, sizeof buf, "row %zu of %zu; Enter shows an "
		    "instance", v->sel + 1, v->kt->nvis);
		cellgrid_text(g, x, y, end - x, buf, ST_ASCII, CG_STATUS);
	} else
		cellgrid_text(g, x, y, end - x, v->kt->n == 0 ? "no kernels "
		    "in this trace" : "no kernel matches the filter",
		    ST_ASCII, CG_STATUS);
}

static void
kv_draw(void *p, struct cellgrid *g, int dirty)
{
	struct kv	*v = p;
	char		 buf[256], a[32], f[64];
	int		 i, x;

	if (dirty & (REDRAW_RULER | REDRAW_TIMELINE)) {
		cellgrid_fill(g, 0, 0, v->w, 1, L' ', CG_RULER);
		f[0] = '\0';
		if (v->kt->filter[0] != '\0')
			safetext_utf8(v->kt->filter, (size_t)-1, v->san |
			    ST_ELLIPSIS, 24, f, sizeof f);
		snprintf(buf, sizeof buf, " Kernels: %zu names, %llu launches, "
		    "%s; sorted by %s%s%s%s", v->kt->n,
		    (unsigned long long)v->kt->nkernels, fmt_time(a, sizeof a,
		    v->kt->grand), ktable_sort_name(v->kt->sort),
		    f[0] != '\0' ? "; filter \"" : "", f, f[0] != '\0' ?
		    "\"" : "");
		cellgrid_text(g, 0, 0, v->w, buf, v->san | ST_ELLIPSIS,
		    CG_RULER | CGA_BOLD);
		table_header(g, 1, v->w, v->col, KV_NCOLS,
		    kv_sortcol[v->kt->sort], v->kt->desc, v->gl);
	}
	if (dirty & (REDRAW_BODY | REDRAW_TIMELINE)) {
		for (i = 0; i < v->rows_h; i++)
			kv_draw_row(v, g, v->rows_y + i, v->top + (size_t)i);
		if (v->h >= 5) {
			cellgrid_fill(g, 0, v->h - 2, v->w, 1, v->gl->hline,
			    CG_BORDER);
			if (v->sel < v->kt->nvis) {
				cellgrid_put(g, 1, v->h - 2, L' ', CG_BORDER);
				x = cellgrid_text(g, 2, v->h - 2, v->w - 4,
				    model_str(v->m,
				    v->kt->r[v->kt->vis[v->sel]].name),
				    v->san | ST_ELLIPSIS, CG_BORDER | CGA_BOLD);
				cellgrid_put(g, 2 + x, v->h - 2, L' ',
				    CG_BORDER);
			}
		}
	}
	if (dirty & REDRAW_STATUS)
		kv_draw_status(v, g);
}

static void
kv_resize(void *p, int w, int h)
{
	struct kv	*v = p;

	v->w = w < 1 ? 1 : w;
	v->h = h < 1 ? 1 : h;
	v->rows_y = 2;
	v->rows_h = v->h - 4;
	if (v->rows_h < 0)
		v->rows_h = 0;
	memcpy(v->col, kv_cols, sizeof v->col);
	table_layout(v->col, KV_NCOLS, v->w);
	table_scroll(&v->top, v->sel, v->kt->nvis, v->rows_h);
}

static void *
kv_init(const struct model *m, const struct view_env *env)
{
	struct kv	*v;

	v = xcalloc(1, sizeof *v);
	v->m = m;
	v->gl = env->gl;
	v->sh = env->sh;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	v->kt = ktable_build(m);
	v->inst_name = NONE32;
	kv_resize(v, 80, 24);
	return v;
}

static void
kv_free(void *p)
{
	struct kv	*v = p;

	if (v == NULL)
		return;
	ktable_free(v->kt);
	free(v->inst);
	free(v);
}

const struct view_ops view_kernels_ops = {
	.name = "kernels",
	.label = "Kernel table",
	.init = kv_init,
	.free = kv_free,
	.resize = kv_resize,
	.draw = kv_draw,
	.key = kv_key,
	.command = NULL,
	.keys = view_kernels_keys,
	.nkeys = sizeof view_kernels_keys / sizeof view_kernels_keys[0],
};
