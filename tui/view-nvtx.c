/*
 * view-nvtx: the NVTX tree view. See view-nvtx.h.
 *
 * Screen: a title line (what is shown and the sort key), the column
 * header, the rows, a footer with the selected node's path and instance
 * count, and the status line. The tree is built when the view is first
 * shown (nvtree_build: one pass over the ranges and one over the API
 * calls); keys only re-sort or re-flatten it. The table component
 * (table.h) does the layout, the keys it shares with the other tables and
 * the drawing; this file has the tree: folding, the name column, the path.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/fmt.h"
#include "tui/nvtree.h"
#include "tui/safetext.h"
#include "tui/table.h"
#include "tui/view-nvtx.h"
#include "util/xmalloc.h"

enum { NV_NAME, NV_COUNT, NV_CPU, NV_GPU, NV_SHARE, NV_NCOLS };

/* Which column shows which sort key. */
static const int nv_sortcol[NVTREE_SORT_COUNT_] = {
	NV_CPU, NV_GPU, NV_COUNT, NV_NAME, -1
};

struct nv {
	struct table		 tb;		/* first: see table.h */
	struct nvtree		*t;
	uint32_t		 inst_node;	/* last node Enter was used on */
	size_t			 inst_pos;
};
_Static_assert(offsetof(struct nv, tb) == 0, "the table comes first");

static const struct table_col nv_cols[NV_NCOLS] = {
	[NV_NAME] = { "Range", 0, 0, 0, 1, 0, 0, 0 },
	[NV_COUNT] = { "Count", 8, 5, 1, 0, 0, 0, 0 },
	[NV_CPU] = { "CPU time", 10, 6, 1, 0, 0, 0, 0 },
	[NV_GPU] = { "GPU proj", 10, 4, 1, 0, 0, 0, 0 },
	[NV_SHARE] = { "Parent%", 7, 3, 1, 0, 0, 0, 0 },
};
_Static_assert(NV_NCOLS <= TABLE_MAXCOLS, "too many columns");

static size_t
nv_node(const struct nv *v)
{
	return v->tb.sel < v->t->nrows ? v->t->rows[v->tb.sel] : (size_t)-1;
}

/* Keeps the selection on node n after the rows changed; returns what to
 * redraw. */
static int
nv_keep(struct nv *v, size_t n)
{
	table_keep(&v->tb, v->t->rows, v->t->nrows, (uint32_t)n);
	return REDRAW_BODY | REDRAW_STATUS;
}

/* The sort key or direction changed. */
static void
nv_refresh(void *p)
{
	struct nv	*v = p;
	size_t		 n = nv_node(v);

	nvtree_sort(v->t, v->tb.sort, v->tb.desc);
	nvtree_flatten(v->t);
	(void)nv_keep(v, n);
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
		if (nd->parent == NONE32)
			return REDRAW_BODY | REDRAW_STATUS;
		return nv_keep(v, nd->parent);
	}
	nd->expanded = (uint8_t)(e != 0);
	nvtree_flatten(v->t);
	return nv_keep(v, n);
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
	return nv_keep(v, n);
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
	return table_show_instance(&v->tb, v->t->inst[nd->inst0 +
	    v->inst_pos], v->inst_pos, nd->ninst, nvtree_label(v->t, n, lab,
	    sizeof lab), '2');
}

const struct view_action view_nvtx_actions[] = {
	TABLE_ACTIONS_MOVE,
	{ ACT_EXPAND, nv_expand, 1 },
	{ ACT_COLLAPSE, nv_expand, 0 },
	{ ACT_EXPAND_TOGGLE, nv_expand, 2 },
	{ ACT_NEXT_INSTANCE, nv_enter, 0 },
	{ ACT_EXPAND_ALL, nv_expand_all, 1 },
	{ ACT_COLLAPSE_ALL, nv_expand_all, 0 },
	TABLE_ACTIONS_SORT,
};
const size_t view_nvtx_nactions = sizeof view_nvtx_actions /
    sizeof view_nvtx_actions[0];

static void
nv_row(void *p, struct cellgrid *g, int y, size_t ri)
{
	struct nv		*v = p;
	const struct table_col	*col = v->tb.col;
	const struct nvtree_node *nd, *par;
	char			 buf[64], lab[512];
	size_t			 n = v->t->rows[ri];
	int			 indent;
	struct table_col	 c;

	nd = &v->t->n[n];
	/* The name column: indentation, the fold marker, the label. */
	c = col[NV_NAME];
	indent = nd->depth * 2;
	if (indent > c.w / 2)
		indent = c.w / 2;
	if (nd->nkids > 0)
		cellgrid_put(g, c.x + indent, y, nd->expanded ?
		    v->tb.gl->expanded : v->tb.gl->collapsed, nd->parent ==
		    NONE32 ? CG_GROUP | CGA_BOLD : CG_NVTX);
	c.x += indent + 2;
	c.w -= indent + 2;
	if (c.w > 0)
		table_cell(g, y, &c, nvtree_label(v->t, n, lab, sizeof lab),
		    v->tb.san, nd->parent == NONE32 ? CG_GROUP | CGA_BOLD :
		    CG_LABEL);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)nd->count);
	table_cell(g, y, &col[NV_COUNT], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &col[NV_CPU], fmt_time(buf, sizeof buf, nd->cpu),
	    ST_ASCII, CG_LABEL);
	if (nd->with_gpu > 0)
		table_cell(g, y, &col[NV_GPU], fmt_time(buf, sizeof buf,
		    nd->gpu), ST_ASCII, CG_KERNEL);
	else
		table_cell(g, y, &col[NV_GPU], "-", ST_ASCII, CG_DIM);
	if (nd->parent != NONE32) {
		par = &v->t->n[nd->parent];
		snprintf(buf, sizeof buf, "%.1f%%", par->cpu > 0 ? 100.0 *
		    (double)nd->cpu / (double)par->cpu : 0.0);
		table_cell(g, y, &col[NV_SHARE], buf, ST_ASCII, CG_LABEL);
	}
}

static const char *
nv_title(void *p, char *buf, size_t len)
{
	struct nv	*v = p;

	snprintf(buf, len, " NVTX tree: %zu thread/domain root%s, sorted by "
	    "%s", v->t->nroots, v->t->nroots == 1 ? "" : "s",
	    nvtree_sort_name(v->t->sort));
	return buf;
}

/* The selected node's path. */
static const char *
nv_footer(void *p, char *path, size_t len)
{
	struct nv	*v = p;
	char		 lab[256], tmp[1024];
	size_t		 n = nv_node(v), i;

	if (n == (size_t)-1)
		return NULL;
	path[0] = '\0';
	for (i = n; i != NONE32 && v->t->n[i].parent != NONE32;
	    i = v->t->n[i].parent) {
		snprintf(tmp, sizeof tmp, "%s%s%s", nvtree_label(v->t, i, lab,
		    sizeof lab), path[0] != '\0' ? "/" : "", path);
		snprintf(path, len, "%s", tmp);
	}
	if (path[0] == '\0')
		snprintf(path, len, "%s", nvtree_label(v->t, n, lab,
		    sizeof lab));
	return path;
}

/* The selected node's instance count, and what Enter does. */
static const char *
nv_status(void *p, char *buf, size_t len)
{
	struct nv		*v = p;
	const struct nvtree_node *nd;
	size_t			 n = nv_node(v);

	if (n == (size_t)-1)
		return "no NVTX ranges in this trace";
	nd = &v->t->n[n];
	if (nd->parent == NONE32)
		snprintf(buf, len, "%llu ranges; Space folds",
		    (unsigned long long)nd->count);
	else
		snprintf(buf, len, "%llu instance%s, %llu with GPU work; Enter "
		    "shows one", (unsigned long long)nd->count,
		    nd->count == 1 ? "" : "s",
		    (unsigned long long)nd->with_gpu);
	return buf;
}

static const struct table_spec nv_spec = {
	.cols = nv_cols,
	.ncols = NV_NCOLS,
	.nsort = NVTREE_SORT_COUNT_,
	.sortcol = nv_sortcol,
	/* Names and start times read best ascending. */
	.sort_asc = 1U << NVTREE_SORT_NAME | 1U << NVTREE_SORT_START,
	.sort_name = nvtree_sort_name,
	.move_damage = REDRAW_BODY | REDRAW_STATUS,
	.actions = view_nvtx_actions,
	.nactions = sizeof view_nvtx_actions / sizeof view_nvtx_actions[0],
	.refresh = nv_refresh,
	.row = nv_row,
	.title = nv_title,
	.status = nv_status,
	.footer = nv_footer,
};

static void *
nv_init(const struct model *m, const struct view_env *env)
{
	struct nv	*v;

	v = xcalloc(1, sizeof *v);
	v->t = nvtree_open(m);
	table_open(&v->tb, &nv_spec, m, env, v->t->sort, v->t->desc,
	    v->t->nrows);
	v->inst_node = NONE32;
	table_resize(v, 80, 24);
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
	.resize = table_resize,
	.draw = table_draw,
	.key = table_key,
	.command = NULL,
	.actions = view_nvtx_actions,
	.nactions = sizeof view_nvtx_actions / sizeof view_nvtx_actions[0],
};
