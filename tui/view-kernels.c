/*
 * view-kernels: the kernel table view. See view-kernels.h.
 *
 * Screen: a title line (kernel and launch counts, the filter), the column
 * header, the rows (the demangled name, its template arguments elided when
 * it does not fit, or the short or the whole name: name-form cycles; the
 * selected row's full name is in the footer), and the status line. The table is computed when the view is
 * first shown; sorting and filtering work on the per-name rows only. The
 * table component (table.h) does the layout, the keys it shares with the
 * other tables and the drawing; this file has the columns and the cells.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/fmt.h"
#include "tui/kname.h"
#include "tui/ktable.h"
#include "tui/safetext.h"
#include "tui/table.h"
#include "tui/view-kernels.h"
#include "util/xmalloc.h"

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
_Static_assert(KV_NCOLS <= TABLE_MAXCOLS, "too many columns");

struct kv {
	struct table		 tb;		/* first: see table.h */
	struct ktable		*kt;
	uint32_t		 inst_name;	/* instances cached for */
	uint32_t		*inst;
	size_t			 ninst, instcap, inst_pos;
	enum kname_form		 form;		/* of the Name column */
};
_Static_assert(offsetof(struct kv, tb) == 0, "the table comes first");

/* The selected row, or NULL. */
static const struct gstats_group *
kv_selected(const struct kv *v)
{
	if (v->tb.sel >= v->kt->nvis)
		return NULL;
	return &v->kt->gs->g[v->kt->vis[v->tb.sel]];
}

/* Re-sorts or re-filters, keeping the selected name when still shown. */
static void
kv_refresh(void *p)
{
	struct kv	*v = p;
	uint32_t	 keep;

	keep = v->tb.sel < v->kt->nvis ? v->kt->vis[v->tb.sel] : NONE32;
	ktable_view(v->kt, v->tb.filter, v->tb.sort, v->tb.desc);
	v->tb.sel = 0;
	table_keep(&v->tb, v->kt->vis, v->kt->nvis, keep);
}

static int
kv_enter(void *p, const struct tui_key *k, int arg)
{
	struct kv			*v = p;
	const struct gstats_group	*r;

	if ((r = kv_selected(v)) == NULL)
		return 0;
	if (v->inst_name != r->name || v->ninst == 0) {
		v->ninst = ktable_instances(v->tb.m, r->name, &v->inst,
		    &v->instcap);
		v->inst_name = r->name;
		v->inst_pos = v->ninst;
	}
	if (v->ninst == 0)
		return 0;
	/*
	 * The instance after the one shown last, while the timeline still
	 * has it selected; else the first at or after the timeline's cursor
	 * (the next one from where the user is), wrapping to the first.
	 */
	if (v->inst_pos < v->ninst && v->tb.sh->sel == v->inst[v->inst_pos])
		v->inst_pos = (v->inst_pos + 1) % v->ninst;
	else {
		for (v->inst_pos = 0; v->inst_pos < v->ninst; v->inst_pos++)
			if (model_ev_start(v->tb.m, v->inst[v->inst_pos]) >=
			    v->tb.sh->cursor)
				break;
		if (v->inst_pos == v->ninst)
			v->inst_pos = 0;
	}
	return table_show_instance(&v->tb, v->inst[v->inst_pos], v->inst_pos,
	    v->ninst, model_str(v->tb.m, r->short_name != 0 ? r->short_name :
	    r->name), '3');
}

/* name-form: the Name column's next form (elided, full, short). */
static int
kv_form(void *p, const struct tui_key *k, int arg)
{
	struct kv	*v = p;

	(void)k;
	(void)arg;
	v->form = kname_next(v->form);
	snprintf(v->tb.msg, sizeof v->tb.msg, "%s names",
	    kname_form_name(v->form));
	return REDRAW_BODY | REDRAW_STATUS;
}

const struct view_action view_kernels_actions[] = {
	TABLE_ACTIONS_MOVE,
	{ ACT_NEXT_INSTANCE, kv_enter, 0 },
	TABLE_ACTIONS_SORT,
	{ ACT_FILTER, table_key_filter, 0 },
	{ ACT_FILTER_CLEAR, table_key_clear, 0 },
	{ ACT_NAME_FORM, kv_form, 0 },
};
const size_t view_kernels_nactions = sizeof view_kernels_actions /
    sizeof view_kernels_actions[0];

static void
kv_row(void *p, struct cellgrid *g, int y, size_t ri)
{
	struct kv			*v = p;
	const struct table_col		*c = v->tb.col;
	const struct gstats_group	*r = &v->kt->gs->g[v->kt->vis[ri]];
	const struct stats		*st = &r->dur;
	int64_t				 grand = v->kt->gs->grand;
	char				 buf[64], name[1024];

	snprintf(buf, sizeof buf, "%.1f", grand > 0 ? 100.0 *
	    (double)st->total / (double)grand : 0.0);
	table_cell(g, y, &c[KV_SHARE], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_TOTAL], fmt_time(buf, sizeof buf, st->total),
	    ST_ASCII, CG_LABEL);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)st->count);
	table_cell(g, y, &c[KV_COUNT], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_MEAN], fmt_time(buf, sizeof buf,
	    (int64_t)(st->mean + 0.5)), ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_MEDIAN], fmt_time(buf, sizeof buf,
	    (int64_t)(st->median + 0.5)), ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_MIN], fmt_time(buf, sizeof buf, st->min),
	    ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_MAX], fmt_time(buf, sizeof buf, st->max),
	    ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_STDDEV], fmt_time(buf, sizeof buf,
	    (int64_t)(st->stddev + 0.5)), ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[KV_NAME], kname_show(model_str(v->tb.m, r->name),
	    r->short_name != 0 ? model_str(v->tb.m, r->short_name) : NULL,
	    v->form, c[KV_NAME].w, v->tb.san, name, sizeof name), v->tb.san,
	    CG_KERNEL);
}

static const char *
kv_title(void *p, char *buf, size_t len)
{
	struct kv	*v = p;
	char		 a[32], f[64];

	f[0] = '\0';
	if (v->kt->filter[0] != '\0')
		safetext_utf8(v->kt->filter, (size_t)-1, v->tb.san |
		    ST_ELLIPSIS, 24, f, sizeof f);
	snprintf(buf, len, " Kernels: %zu names, %llu launches, %s; sorted "
	    "by %s%s%s%s", v->kt->gs->ng, (unsigned long long)
	    v->kt->gs->nevents, fmt_time(a, sizeof a, v->kt->gs->grand),
	    ktable_sort_name(v->kt->sort),
	    f[0] != '\0' ? "; filter \"" : "", f, f[0] != '\0' ? "\"" : "");
	return buf;
}

/* The selected kernel's full name. */
static const char *
kv_footer(void *p, char *buf, size_t len)
{
	struct kv			*v = p;
	const struct gstats_group	*r = kv_selected(v);

	return r != NULL ? model_str(v->tb.m, r->name) : NULL;
}

static const char *
kv_status(void *p, char *buf, size_t len)
{
	struct kv	*v = p;

	if (v->tb.sel < v->kt->nvis) {
		snprintf(buf, len, "row %zu of %zu; Enter shows an instance",
		    v->tb.sel + 1, v->kt->nvis);
		return buf;
	}
	return v->kt->gs->ng == 0 ? "no kernels in this trace" :
	    "no kernel matches the filter";
}

static const struct table_spec kv_spec = {
	.cols = kv_cols,
	.ncols = KV_NCOLS,
	.nsort = KT_SORT_COUNT_,
	.sortcol = kv_sortcol,
	.sort_asc = 1U << KT_SORT_NAME,
	.sort_name = ktable_sort_name,
	.filter_label = "filter names: ",
	.filter_none = "no kernel name contains that (Esc: all)",
	.move_damage = REDRAW_BODY | REDRAW_STATUS,
	.title_user = 1,
	.actions = view_kernels_actions,
	.nactions = sizeof view_kernels_actions /
	    sizeof view_kernels_actions[0],
	.refresh = kv_refresh,
	.row = kv_row,
	.title = kv_title,
	.status = kv_status,
	.footer = kv_footer,
};

static void *
kv_init(const struct model *m, const struct view_env *env)
{
	struct kv	*v;

	v = xcalloc(1, sizeof *v);
	v->kt = ktable_build(m);
	table_open(&v->tb, &kv_spec, m, env, v->kt->sort, v->kt->desc,
	    v->kt->nvis);
	v->inst_name = NONE32;
	table_resize(v, 80, 24);
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
	.resize = table_resize,
	.draw = table_draw,
	.key = table_key,
	.command = NULL,
	.actions = view_kernels_actions,
	.nactions = sizeof view_kernels_actions /
	    sizeof view_kernels_actions[0],
};
