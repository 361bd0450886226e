/*
 * view-nvtx: the NVTX tree view. See view-nvtx.h.
 *
 * Screen: a title line (what is shown and the sort key), the column
 * header, the rows, a footer with the selected node's path and instance
 * count, and the status line. The tree is built when the view is first
 * shown (nvtree_build: one pass over the ranges and one over the API
 * calls); keys only re-sort or re-flatten it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "nvtree.h"
#include "safetext.h"
#include "status.h"
#include "table.h"
#include "view-nvtx.h"
#include "xmalloc.h"

enum { NV_NAME, NV_COUNT, NV_CPU, NV_GPU, NV_SHARE, NV_NCOLS };

/* Which column shows which sort key. */
static const int nv_sortcol[NVTREE_SORT_COUNT_] = {
	NV_CPU, NV_GPU, NV_COUNT, NV_NAME, -1
};

struct nv {
	const struct model	*m;
	const struct glyph	*gl;
	struct view_shared	*sh;
	struct nvtree		*t;
	int			 san;
	int			 w, h, rows_y, rows_h;
	size_t			 top, sel;
	uint32_t		 inst_node;	/* last node Enter was used on */
	size_t			 inst_pos;
	struct table_col	 col[NV_NCOLS];
	char			 msg[160];
};

static const struct table_col nv_cols[NV_NCOLS] = {
	[NV_NAME] = { "Range", 0, 0, 0, 1, 0, 0, 0 },
	[NV_COUNT] = { "Count", 8, 5, 1, 0, 0, 0, 0 },
	[NV_CPU] = { "CPU time", 10, 6, 1, 0, 0, 0, 0 },
	[NV_GPU] = { "GPU proj", 10, 4, 1, 0, 0, 0, 0 },
	[NV_SHARE] = { "Parent%", 7, 3, 1, 0, 0, 0, 0 },
};

static size_t
nv_node(const struct nv *v)
{
	return v->sel < v->t->nrows ? v->t->rows[v->sel] : (size_t)-1;
}

/* Keeps the selection on node n after the rows changed. */
static void
nv_keep(struct nv *v, size_t n)
{
	size_t	i;

	for (i = 0; i < v->t->nrows; i++)
		if (v->t->rows[i] == n) {
			v->sel = i;
			break;
		}
	if (v->sel >= v->t->nrows)
		v->sel = v->t->nrows > 0 ? v->t->nrows - 1 : 0;
	table_scroll(&v->top, v->sel, v->t->nrows, v->rows_h);
}

static int
nv_move(void *p, const struct tui_key *k, int d)
{
	struct nv	*v = p;
	size_t		 n = v->t->nrows;
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

static int
nv_expand(void *p, const struct tui_key *k, int e)
{
	struct nv		*v = p;
	size_t			 n = nv_node(v);
	struct nvtree_node	*nd;

	if (n == (size_t)-1)
		return 0;
	nd = &v->t->n[n];
	if (e == 2)
		e = !nd->expanded;
	if (e && nd->nkids == 0)
		return 0;
	if (!e && (!nd->expanded || nd->nkids == 0)) {
		/* Already closed: go to the parent. */
		if (nd->parent != NONE32)
			nv_keep(v, nd->parent);
		return REDRAW_BODY | REDRAW_STATUS;
	}
	nd->expanded = (uint8_t)(e != 0);
	nvtree_flatten(v->t);
	nv_keep(v, n);
	return REDRAW_BODY | REDRAW_STATUS;
}

static int
nv_expand_all(void *p, const struct tui_key *k, int e)
{
	struct nv	*v = p;
	size_t		 n = nv_node(v);

	nvtree_expand_all(v->t, e);
	/* Collapsing may hide the selected node: keep its root. */
	while (n != (size_t)-1 && !e && v->t->n[n].parent != NONE32)
		n = v->t->n[n].parent;
	nv_keep(v, n);
	return REDRAW_BODY | REDRAW_STATUS;
}

static int
nv_sort(void *p, const struct tui_key *k, int rev)
{
	struct nv	*v = p;
	size_t		 n = nv_node(v);
	int		 key = v->t->sort, desc = v->t->desc;

	if (rev)
		desc = !desc;
	else {
		key = (key + 1) % NVTREE_SORT_COUNT_;
		/* Names and start times read best ascending. */
		desc = key != NVTREE_SORT_NAME && key != NVTREE_SORT_START;
	}
	nvtree_sort(v->t, key, desc);
	nvtree_flatten(v->t);
	nv_keep(v, n);
	snprintf(v->msg, sizeof v->msg, "sorted by %s, %s",
	    nvtree_sort_name(key), desc ? "descending" : "ascending");
	return REDRAW_ALL;
}

static int
nv_enter(void *p, const struct tui_key *k, int arg)
{
	struct nv		*v = p;
	size_t			 n = nv_node(v);
	const struct nvtree_node *nd;
	char			 lab[64];

	if (n == (size_t)-1)
		return 0;
	nd = &v->t->n[n];
	if (nd->parent == NONE32 || nd->ninst == 0)
		return nv_expand(v, k, 2);
	if (v->inst_node == n)
		v->inst_pos = (v->inst_pos + 1) % nd->ninst;
	else {
		v->inst_node = (uint32_t)n;
		v->inst_pos = 0;
	}
	v->sh->want = "timeline";
	memset(&v->sh->msg, 0, sizeof v->sh->msg);
	v->sh->msg.type = VMSG_SHOW_EVENT;
	v->sh->msg.gid = v->t->inst[nd->inst0 + v->inst_pos];
	safetext_utf8(nvtree_label(v->t, n, lab, sizeof lab), (size_t)-1,
	    v->san | ST_ELLIPSIS, 40, lab, sizeof lab);
	snprintf(v->sh->msg.note, sizeof v->sh->msg.note, "instance %zu/%zu "
	    "of %s (2 Enter: next)", v->inst_pos + 1, nd->ninst, lab);
	return REACT_SWITCH;
}

const struct view_key view_nvtx_keys[] = {
	{ { TK_UP, 'k', TK_WHEEL_UP }, "Up k wheel", "previous row", nv_move,
	    -1 },
	{ { TK_DOWN, 'j', TK_WHEEL_DOWN }, "Down j wheel", "next row", nv_move,
	    1 },
	{ { TK_PGUP }, "PgUp", "page up", nv_move, -1000 },
	{ { TK_PGDN }, "PgDn", "page down", nv_move, 1000 },
	{ { TK_HOME }, "Home", "first row", nv_move, -100000 },
	{ { TK_END }, "End", "last row", nv_move, 100000 },
	{ { TK_RIGHT, 'l' }, "Right l", "expand", nv_expand, 1 },
	{ { TK_LEFT, 'h' }, "Left h", "collapse, or go to the parent",
	    nv_expand, 0 },
	{ { ' ' }, "Space", "expand or collapse", nv_expand, 2 },
	{ { TK_ENTER }, "Enter", "next instance on the timeline", nv_enter,
	    0 },
	{ { 'e' }, "e", "expand everything", nv_expand_all, 1 },
	{ { 'E' }, "E", "collapse everything", nv_expand_all, 0 },
	{ { 's' }, "s", "sort by the next column", nv_sort, 0 },
	{ { 'S' }, "S", "reverse the sort order", nv_sort, 1 },
};
const size_t view_nvtx_nkeys = sizeof view_nvtx_keys /
    sizeof view_nvtx_keys[0];

static int
nv_key(void *p, const struct tui_key *k)
{
	struct nv		*v = p;
	const struct view_key	*b;
	int			 r = 0;

	if (v->msg[0] != '\0') {
		v->msg[0] = '\0';
		r |= REDRAW_STATUS;
	}
	if ((b = view_key_find(view_nvtx_keys, view_nvtx_nkeys, k->key)) ==
	    NULL)
		return r | REACT_PASS;
	return r | b->fn(v, k, b->arg);
}

static void
nv_draw_row(struct nv *v, struct cellgrid *g, int y, size_t ri)
{
	const struct nvtree_node *nd, *par;
	char			 buf[64], lab[512];
	size_t			 n;
	int			 indent;
	struct table_col	 c;

	cellgrid_fill(g, 0, y, v->w, 1, L' ', CG_NORMAL);
	if (ri >= v->t->nrows)
		return;
	n = v->t->rows[ri];
	nd = &v->t->n[n];
	/* The name column: indentation, the fold marker, the label. */
	c = v->col[NV_NAME];
	indent = nd->depth * 2;
	if (indent > c.w / 2)
		indent = c.w / 2;
	if (nd->nkids > 0)
		cellgrid_put(g, c.x + indent, y, nd->expanded ?
		    v->gl->expanded : v->gl->collapsed, nd->parent == NONE32 ?
		    CG_GROUP | CGA_BOLD : CG_NVTX);
	c.x += indent + 2;
	c.w -= indent + 2;
	if (c.w > 0)
		table_cell(g, y, &c, nvtree_label(v->t, n, lab, sizeof lab),
		    v->san, nd->parent == NONE32 ? CG_GROUP | CGA_BOLD :
		    CG_LABEL);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)nd->count);
	table_cell(g, y, &v->col[NV_COUNT], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &v->col[NV_CPU], fmt_time(buf, sizeof buf, nd->cpu),
	    ST_ASCII, CG_LABEL);
	if (nd->with_gpu > 0)
		table_cell(g, y, &v->col[NV_GPU], fmt_time(buf, sizeof buf,
		    nd->gpu), ST_ASCII, CG_KERNEL);
	else
		table_cell(g, y, &v->col[NV_GPU], "-", ST_ASCII, CG_DIM);
	if (nd->parent != NONE32) {
		par = &v->t->n[nd->parent];
		snprintf(buf, sizeof buf, "%.1f%%", par->cpu > 0 ? 100.0 *
		    (double)nd->cpu / (double)par->cpu : 0.0);
		table_cell(g, y, &v->col[NV_SHARE], buf, ST_ASCII, CG_LABEL);
	}
	if (ri == v->sel)
		cellgrid_attr(g, 0, y, v->w, CGA_REVERSE, 1);
}

/* The selected node's path, and what Enter does. */
static void
nv_draw_footer(struct nv *v, struct cellgrid *g, int y)
{
	char	path[1024], lab[256], tmp[1024];
	size_t	n = nv_node(v), i;

	cellgrid_fill(g, 0, y, v->w, 1, v->gl->hline, CG_BORDER);
	if (n == (size_t)-1)
		return;
	path[0] = '\0';
	for (i = n; i != NONE32 && v->t->n[i].parent != NONE32;
	    i = v->t->n[i].parent) {
		snprintf(tmp, sizeof tmp, "%s%s%s", nvtree_label(v->t, i, lab,
		    sizeof lab), path[0] != '\0' ? "/" : "", path);
		snprintf(path, sizeof path, "%s", tmp);
	}
	if (path[0] == '\0')
		snprintf(path, sizeof path, "%s", nvtree_label(v->t, n, lab,
		    sizeof lab));
	cellgrid_put(g, 1, y, L' ', CG_BORDER);
	i = (size_t)cellgrid_text(g, 2, y, v->w - 4, path, v->san |
	    ST_ELLIPSIS, CG_BORDER | CGA_BOLD);
	cellgrid_put(g, 2 + (int)i, y, L' ', CG_BORDER);
}

static void
nv_draw_status(struct nv *v, struct cellgrid *g)
{
	const struct nvtree_node *nd;
	char			 buf[160];
	size_t			 n = nv_node(v);
	int			 x, end, y = v->h - 1;

	x = status_begin(g, y, v->w, v->m, v->sh, v->sh->res, &end);
	if (v->msg[0] != '\0' || v->sh->note[0] != '\0') {
		cellgrid_text(g, x, y, end - x, v->msg[0] != '\0' ? v->msg :
		    v->sh->note, v->san | ST_ELLIPSIS, CG_STATUS | CGA_BOLD);
		return;
	}
	if (n == (size_t)-1) {
		cellgrid_text(g, x, y, end - x, "no NVTX ranges in this trace",
		    ST_ASCII, CG_STATUS);
		return;
	}
	nd = &v->t->n[n];
	if (nd->parent == NONE32)
		snprintf(buf, sizeof buf, "%llu ranges; Space folds",
		    (unsigned long long)nd->count);
	else
		snprintf(buf, sizeof buf, "%llu instance%s, %llu with GPU "
		    "work; Enter shows one", (unsigned long long)nd->count,
		    nd->count == 1 ? "" : "s",
		    (unsigned long long)nd->with_gpu);
	cellgrid_text(g, x, y, end - x, buf, ST_ASCII, CG_STATUS);
}

static void
nv_draw(void *p, struct cellgrid *g, int dirty)
{
	struct nv	*v = p;
	char		 buf[160];
	int		 i;

	if (dirty & (REDRAW_RULER | REDRAW_TIMELINE)) {
		cellgrid_fill(g, 0, 0, v->w, 1, L' ', CG_RULER);
		snprintf(buf, sizeof buf, " NVTX tree: %zu thread/domain "
		    "root%s, sorted by %s", v->t->nroots, v->t->nroots == 1 ?
		    "" : "s", nvtree_sort_name(v->t->sort));
		cellgrid_text(g, 0, 0, v->w, buf, ST_ASCII,
		    CG_RULER | CGA_BOLD);
		table_header(g, 1, v->w, v->col, NV_NCOLS,
		    nv_sortcol[v->t->sort], v->t->desc, v->gl);
	}
	if (dirty & (REDRAW_BODY | REDRAW_TIMELINE)) {
		for (i = 0; i < v->rows_h; i++)
			nv_draw_row(v, g, v->rows_y + i, v->top + (size_t)i);
		if (v->h >= 5)
			nv_draw_footer(v, g, v->h - 2);
	}
	if (dirty & REDRAW_STATUS)
		nv_draw_status(v, g);
}

static void
nv_resize(void *p, int w, int h)
{
	struct nv	*v = p;

	v->w = w < 1 ? 1 : w;
	v->h = h < 1 ? 1 : h;
	v->rows_y = 2;
	v->rows_h = v->h - 4;
	if (v->rows_h < 0)
		v->rows_h = 0;
	memcpy(v->col, nv_cols, sizeof v->col);
	table_layout(v->col, NV_NCOLS, v->w);
	table_scroll(&v->top, v->sel, v->t->nrows, v->rows_h);
}

static void *
nv_init(const struct model *m, const struct view_env *env)
{
	struct nv	*v;

	v = xcalloc(1, sizeof *v);
	v->m = m;
	v->gl = env->gl;
	v->sh = env->sh;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	v->t = nvtree_build(m);
	v->inst_node = NONE32;
	nv_resize(v, 80, 24);
	return v;
}

static void
nv_free(void *p)
{
	struct nv	*v = p;

	if (v == NULL)
		return;
	nvtree_free(v->t);
	free(v);
}

const struct view_ops view_nvtx_ops = {
	.name = "nvtx",
	.label = "NVTX tree",
	.init = nv_init,
	.free = nv_free,
	.resize = nv_resize,
	.draw = nv_draw,
	.key = nv_key,
	.command = NULL,
	.keys = view_nvtx_keys,
	.nkeys = sizeof view_nvtx_keys / sizeof view_nvtx_keys[0],
};
