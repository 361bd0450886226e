/*
 * view-report: the launch table and metric/rule detail pane of an Nsight
 * Compute report (see view-report.h).
 *
 * State is the selected launch, the first launch row shown, the detail
 * mode (metrics or rules) and the detail pane's scroll. The detail pane
 * is a list of lines (section headings and metrics, or rule headings and
 * the wrapped lines of their messages) rebuilt only when the selection,
 * the mode or the width changes; a frame formats into fixed buffers and
 * allocates nothing. Keys go through one table, which the application
 * also shows as help.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/action.h"
#include "tui/fmt.h"
#include "report/markup.h"
#include "report/rdiff.h"
#include "report/report.h"
#include "tui/safetext.h"
#include "tui/view-report.h"
#include "tui/view-report-src.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xmalloc.h"

enum vr_line_kind {
	VL_SECTION,	/* item: section index or REPORT_NONE */
	VL_METRIC,	/* item: metric index */
	VL_RULE,	/* item: rule index (its heading) */
	VL_TEXT,	/* item: rule index; off, len: part of its message
			   as rendered (markup.h) into vr.text */
	VL_NOTE,	/* off: index into vr_notes */
	VL_SRC,		/* item: row of the source pane (vr.src) */
};

static const char *const vr_notes[] = {
	"This launch has no metrics.",
	"No rule result for this launch.",
	"The report holds no launch.",
	"No PC sampling for this launch (ncu --set full).",
};

struct vr_line {
	uint8_t		 kind;
	uint32_t	 item;
	uint32_t	 off, len;
};

struct vr {
	const struct report	*r;
	struct view_shared	*sh;
	const struct glyph	*gl;
	const char		*title;
	int			 san;

	/* The baseline: a launch of this report (base_sel, set with
	 * set-baseline) or else the partner of the selected launch in the
	 * baseline report (base_r, opened before the report; rdiff.h). */
	const struct report	*base_r;
	const char		*base_title;
	uint32_t		 base_sel;	/* REPORT_NONE: none */

	int			 w, h;
	int			 table_y, table_h;	/* launch rows */
	int			 sep_y;
	int			 det_y, det_h;
	int			 status_y;

	size_t			 top;		/* first launch row shown */
	uint32_t		 sel;		/* selected launch */
	int			 mode;		/* enum view_report_mode */
	size_t			 scroll;	/* first detail line shown */

	struct vr_line		*lines;
	size_t			 nlines, linescap;
	uint32_t		*order;
	size_t			 ordercap;
	char			*text;		/* rule messages, rendered */
	size_t			 textlen, textcap;
	int			 built_w;	/* width of the built lines */
	struct vrsrc		 src;		/* the source pane */
	char			 msg[160];
};

/* Detail lines. */

static void
vr_add(struct vr *v, int kind, uint32_t item, uint32_t off, uint32_t len)
{
	struct vr_line	l = { (uint8_t)kind, item, off, len };

	XPUSH(v->lines, v->linescap, v->nlines, l);
}

/* Metrics by their section's order (sectionless last), then label. */
static int
vr_metric_cmp(const void *a, const void *b, void *ctx)
{
	const struct report		*r = ctx;
	const struct report_metric	*x = &r->metrics[*(const uint32_t *)a];
	const struct report_metric	*y = &r->metrics[*(const uint32_t *)b];
	int32_t				 ox, oy;
	const char			*lx, *ly;
	int				 c;

	ox = x->section < r->nsections ? r->sections[x->section].order :
	    INT32_MAX;
	oy = y->section < r->nsections ? r->sections[y->section].order :
	    INT32_MAX;
	if ((c = sort_lex2(ox, oy, x->section, y->section)) != 0)
		return c;
	lx = report_str(r, x->label != 0 ? x->label : x->name);
	ly = report_str(r, y->label != 0 ? y->label : y->name);
	if ((c = strcmp(lx, ly)) != 0)
		return c;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void
vr_build_metrics(struct vr *v, const struct report_launch *l)
{
	const struct report	*r = v->r;
	uint32_t		 k, sec = REPORT_NONE - 1;

	if (l->nmetrics == 0) {
		vr_add(v, VL_NOTE, 0, 0, 0);
		return;
	}
	XGROW(v->order, v->ordercap, l->nmetrics);
	for (k = 0; k < l->nmetrics; k++)
		v->order[k] = l->metric + k;
	sort_stable(v->order, l->nmetrics, sizeof *v->order, vr_metric_cmp,
	    (void *)r);
	for (k = 0; k < l->nmetrics; k++) {
		const struct report_metric *m = &r->metrics[v->order[k]];
		if (m->section != sec) {
			sec = m->section;
			vr_add(v, VL_SECTION, sec, 0, 0);
		}
		vr_add(v, VL_METRIC, v->order[k], 0, 0);
	}
}

/* Wraps rule messages at the pane's width (bytes; messages are text). */
static void
vr_build_rules(struct vr *v, const struct report_launch *l)
{
	const struct report	*r = v->r;
	const char		*s;
	char			*t;
	size_t			 len, off, n, cut, k, shown = 0, base;
	size_t			 width = v->w > 8 ? (size_t)v->w - 6 : 2;

	v->textlen = 0;
	for (k = 0; k < l->nrules; k++) {
		const struct report_rule *u = &r->rules[l->rule + k];
		if (u->message == 0)
			continue;
		shown++;
		vr_add(v, VL_RULE, l->rule + (uint32_t)k, 0, 0);
		/* Links and section references as their text (markup.h). */
		t = markup_render(report_str(r, u->message), 0);
		len = strlen(t);
		base = v->textlen;
		XGROW(v->text, v->textcap, base + len + 1);
		memcpy(v->text + base, t, len + 1);
		v->textlen = base + len + 1;
		free(t);
		s = v->text + base;
		for (off = 0; off < len; off += n) {
			while (off < len && s[off] == ' ')
				off++;
			if (off >= len)
				break;
			n = len - off;
			if (n > width) {
				for (cut = width; cut > 0 && s[off + cut] !=
				    ' '; cut--)
					;
				n = cut > 0 ? cut : width;
			}
			if (memchr(s + off, '\n', n) != NULL)
				n = (size_t)((const char *)memchr(s + off,
				    '\n', n) - (s + off)) + 1;
			vr_add(v, VL_TEXT, l->rule + (uint32_t)k,
			    (uint32_t)(base + off), (uint32_t)n);
		}
	}
	if (shown == 0)
		vr_add(v, VL_NOTE, 0, 1, 0);
}

static void
vr_build(struct vr *v)
{
	v->nlines = 0;
	v->built_w = v->w;
	if (v->r->nlaunches == 0) {
		vr_add(v, VL_NOTE, 0, 2, 0);
		return;
	}
	if (v->mode == VR_METRICS)
		vr_build_metrics(v, &v->r->launches[v->sel]);
	else if (v->mode == VR_RULES)
		vr_build_rules(v, &v->r->launches[v->sel]);
	else {
		size_t i;
		vrsrc_build(&v->src, v->r, v->sel);
		for (i = 0; i < v->src.n; i++)
			vr_add(v, VL_SRC, (uint32_t)i, 0, 0);
		if (v->src.n == 0)
			vr_add(v, VL_NOTE, 0, 3, 0);
	}
}

static void
vr_clamp(struct vr *v)
{
	size_t	maxs;

	if (v->r->nlaunches > 0 && v->sel >= v->r->nlaunches)
		v->sel = (uint32_t)(v->r->nlaunches - 1);
	if (v->table_h > 0) {
		if (v->sel < v->top)
			v->top = v->sel;
		if (v->sel >= v->top + (size_t)v->table_h)
			v->top = v->sel - (size_t)v->table_h + 1;
	}
	maxs = v->nlines > (size_t)v->det_h ? v->nlines - (size_t)v->det_h :
	    0;
	if (v->scroll > maxs)
		v->scroll = maxs;
}

/*
 * The launch the selected one is compared with: sets *br, *bl and returns
 * 1, or returns 0 when there is none (no baseline, the baseline itself is
 * selected, or the baseline report has no launch of this kernel and order).
 */
static int
vr_baseline(const struct vr *v, const struct report **br, uint32_t *bl)
{
	if (v->r->nlaunches == 0)
		return 0;
	if (v->base_sel != REPORT_NONE) {
		*br = v->r;
		*bl = v->base_sel;
		return v->base_sel != v->sel;
	}
	if (v->base_r == NULL)
		return 0;
	*br = v->base_r;
	*bl = rdiff_partner(v->r, v->sel, v->base_r);
	return *bl != REPORT_NONE;
}

/* Keys. */

static int
vr_move(void *p, const struct tui_key *k, int delta)
{
	struct vr	*v = p;
	int64_t		 s = (int64_t)v->sel + delta;

	(void)k;
	if (v->r->nlaunches == 0)
		return 0;
	if (s < 0)
		s = 0;
	if (s >= (int64_t)v->r->nlaunches)
		s = (int64_t)v->r->nlaunches - 1;
	if ((uint32_t)s == v->sel)
		return 0;
	v->sel = (uint32_t)s;
	v->scroll = 0;
	vr_build(v);
	vr_clamp(v);
	return REDRAW_TIMELINE | REDRAW_DETAIL | REDRAW_STATUS;
}

static int
vr_ends(void *p, const struct tui_key *k, int end)
{
	struct vr	*v = p;

	return vr_move(p, k, end ? (int)v->r->nlaunches : -(int)v->sel);
}

static int
vr_scroll(void *p, const struct tui_key *k, int delta)
{
	struct vr	*v = p;
	int64_t		 s;
	size_t		 old = v->scroll;

	(void)k;
	/* delta: lines; +-1000 means a page. */
	if (delta == 1000 || delta == -1000)
		delta = (delta > 0 ? 1 : -1) * (v->det_h > 1 ? v->det_h - 1 :
		    1);
	s = (int64_t)v->scroll + delta;
	v->scroll = s < 0 ? 0 : (size_t)s;
	vr_clamp(v);
	return v->scroll != old ? REDRAW_DETAIL : 0;
}

static int
vr_mode(void *p, const struct tui_key *k, int arg)
{
	struct vr	*v = p;

	(void)k;
	(void)arg;
	/* Metrics, rules, source (PC sampling), and round again. */
	v->mode = v->mode == VR_METRICS ? VR_RULES : v->mode == VR_RULES ?
	    VR_SOURCE : VR_METRICS;
	v->scroll = 0;
	vr_build(v);
	vr_clamp(v);
	return REDRAW_DETAIL | REDRAW_STATUS;
}

static int
vr_set_baseline(void *p, const struct tui_key *k, int arg)
{
	struct vr	*v = p;

	(void)k;
	(void)arg;
	if (v->r->nlaunches == 0)
		return 0;
	if (v->base_sel == v->sel) {
		v->base_sel = REPORT_NONE;
		snprintf(v->msg, sizeof v->msg, v->base_r != NULL ?
		    "baseline: the baseline report" : "no baseline");
	} else {
		v->base_sel = v->sel;
		snprintf(v->msg, sizeof v->msg, "baseline: launch %u "
		    "(select another launch to compare)",
		    v->r->launches[v->sel].id);
	}
	return REDRAW_TIMELINE | REDRAW_DETAIL | REDRAW_STATUS;
}

const struct view_action view_report_actions[] = {
	{ ACT_ROW_UP, vr_move, -1 },
	{ ACT_ROW_DOWN, vr_move, 1 },
	{ ACT_ROW_FIRST, vr_ends, 0 },
	{ ACT_ROW_LAST, vr_ends, 1 },
	{ ACT_DETAIL_MODE, vr_mode, 0 },
	{ ACT_DETAIL_DOWN, vr_scroll, 1 },
	{ ACT_DETAIL_UP, vr_scroll, -1 },
	{ ACT_DETAIL_PAGE_DOWN, vr_scroll, 1000 },
	{ ACT_DETAIL_PAGE_UP, vr_scroll, -1000 },
	{ ACT_SET_BASELINE, vr_set_baseline, 0 },
};
const size_t view_report_nactions =
    sizeof view_report_actions / sizeof view_report_actions[0];

static int
vr_key(void *p, const struct tui_key *k, int act)
{
	struct vr	*v = p;
	int		 r = view_clear_msg(v->msg);

	return r | view_action_run(view_report_actions, view_report_nactions,
	    v, k, act);
}

/* Drawing. */

static void
vr_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", v);
}

static void
vr_xyz(char *buf, size_t len, const uint64_t xyz[3])
{
	snprintf(buf, len, "%llu,%llu,%llu", (unsigned long long)xyz[0],
	    (unsigned long long)xyz[1], (unsigned long long)xyz[2]);
}

/* Columns of the launch table: id, duration, SM%, Mem%, Occ%, regs,
 * grid, block; the kernel name takes the rest. */
static const struct {
	const char	*head;
	int		 w;
	int		 wide;		/* only on screens >= 100 columns */
} vr_cols[] = {
	{ "ID", 4, 0 }, { "Duration", 10, 0 }, { "SM%", 6, 0 },
	{ "Mem%", 6, 0 }, { "Occ%", 6, 0 }, { "Regs", 5, 0 },
	{ "Grid", 15, 1 }, { "Block", 12, 1 },
};
#define VR_NCOLS	(sizeof vr_cols / sizeof vr_cols[0])

static int
vr_cell(struct cellgrid *g, int x, int y, int w, const char *s, int right,
    uint16_t attr)
{
	int	n = (int)strlen(s);

	if (n > w - 1)
		n = w - 1;
	cellgrid_text(g, right ? x + w - 1 - n : x, y, w - 1, s, ST_ASCII,
	    attr);
	return x + w;
}

static void
vr_draw_table(struct vr *v, struct cellgrid *g)
{
	const struct report	*r = v->r;
	struct report_headline	 h;
	char			 buf[64];
	size_t			 i, c;
	int			 y, x, wide = v->w >= 100;
	uint16_t		 attr;

	cellgrid_fill(g, 0, v->table_y - 1, v->w, 1, L' ', CG_LABEL);
	x = 0;
	for (c = 0; c < VR_NCOLS; c++) {
		if (vr_cols[c].wide && !wide)
			continue;
		x = vr_cell(g, x, v->table_y - 1, vr_cols[c].w,
		    vr_cols[c].head, c > 0 && c < 6, CG_LABEL | CGA_BOLD);
	}
	cellgrid_text(g, x, v->table_y - 1, v->w - x, "Kernel", ST_ASCII,
	    CG_LABEL | CGA_BOLD);
	for (y = 0; y < v->table_h; y++) {
		i = v->top + (size_t)y;
		cellgrid_fill(g, 0, v->table_y + y, v->w, 1, L' ', CG_NORMAL);
		if (i >= r->nlaunches)
			continue;
		report_headline(r, (uint32_t)i, &h);
		attr = CG_KERNEL;
		x = 0;
		snprintf(buf, sizeof buf, "%u", r->launches[i].id);
		x = vr_cell(g, x, v->table_y + y, vr_cols[0].w, buf, 0,
		    CG_NORMAL);
		if (isnan(h.duration_ns))
			snprintf(buf, sizeof buf, "-");
		else
			fmt_time(buf, sizeof buf, (int64_t)llround(
			    h.duration_ns));
		x = vr_cell(g, x, v->table_y + y, vr_cols[1].w, buf, 1,
		    CG_NORMAL);
		vr_pct(buf, sizeof buf, h.sm_pct);
		x = vr_cell(g, x, v->table_y + y, vr_cols[2].w, buf, 1,
		    CG_NORMAL);
		vr_pct(buf, sizeof buf, h.mem_pct);
		x = vr_cell(g, x, v->table_y + y, vr_cols[3].w, buf, 1,
		    CG_NORMAL);
		vr_pct(buf, sizeof buf, h.occupancy_pct);
		x = vr_cell(g, x, v->table_y + y, vr_cols[4].w, buf, 1,
		    CG_NORMAL);
		if (isnan(h.registers))
			snprintf(buf, sizeof buf, "-");
		else
			snprintf(buf, sizeof buf, "%.0f", h.registers);
		x = vr_cell(g, x, v->table_y + y, vr_cols[5].w, buf, 1,
		    CG_NORMAL);
		if (wide) {
			vr_xyz(buf, sizeof buf, r->launches[i].grid);
			x = vr_cell(g, x, v->table_y + y, vr_cols[6].w, buf, 0,
			    CG_NORMAL);
			vr_xyz(buf, sizeof buf, r->launches[i].block);
			x = vr_cell(g, x, v->table_y + y, vr_cols[7].w, buf, 0,
			    CG_NORMAL);
		}
		if (i == v->base_sel)
			x += cellgrid_text(g, x, v->table_y + y, v->w - x,
			    "[baseline] ", ST_ASCII, CG_SYNC | CGA_BOLD);
		cellgrid_text(g, x, v->table_y + y, v->w - x,
		    report_launch_name(r, (uint32_t)i), v->san | ST_ELLIPSIS,
		    attr);
		if (i == v->sel)
			cellgrid_attr(g, 0, v->table_y + y, v->w,
			    CGA_REVERSE, 1);
	}
}

static void
vr_value(const struct report *r, const struct report_value *val, char *buf,
    size_t len)
{
	switch (val->type) {
	case RV_DOUBLE:
		if (fabs(val->v.d) >= 1e15 || (val->v.d != 0 &&
		    fabs(val->v.d) < 1e-3))
			snprintf(buf, len, "%.4g", val->v.d);
		else if (val->v.d == floor(val->v.d))
			snprintf(buf, len, "%.0f", val->v.d);
		else
			snprintf(buf, len, "%.2f", val->v.d);
		break;
	case RV_UINT:
	case RV_STRING:
		report_value_fmt(r, val, buf, len);
		break;
	default:
		snprintf(buf, len, "-");
		break;
	}
}

/*
 * A metric's value as the pane shows it: scaled to a unit (6.23 GHz,
 * 431.84 us) where it has one, its count of instance values when it holds
 * only those. Returns the unit to show (ubuf or the metric's own).
 */
static const char *
vr_metric_text(const struct report *r, const struct report_metric *m,
    char *val, size_t vlen, char *ubuf, size_t ulen)
{
	const char	*unit = report_str(r, m->unit);

	if (m->value.type == RV_NONE && m->ninst > 0)
		snprintf(val, vlen, "[%u values]", m->ninst);
	else if ((m->value.type == RV_DOUBLE &&
	    units_metric(m->value.v.d, unit, val, vlen, ubuf, ulen)) ||
	    (m->value.type == RV_UINT && units_metric((double)m->value.v.u,
	    unit, val, vlen, ubuf, ulen)))
		unit = ubuf;
	else
		vr_value(r, &m->value, val, vlen);
	return unit;
}

/*
 * The baseline's value of metric m (same name, launch bl of br) and the
 * relative change to m's, rdiff's: into base ("-" when the baseline has
 * no such metric) and pct ("=" unchanged, "-" not comparable). Returns
 * the colour of the change.
 */
static uint16_t
vr_metric_base(const struct vr *v, const struct report_metric *m,
    const struct report *br, uint32_t bl, char *base, size_t blen,
    char *pct, size_t plen)
{
	const struct report_metric	*mb;
	struct rdiff_cmp		 c;
	char				 val[64], ubuf[16];
	const char			*unit;

	mb = report_metric(br, bl, report_str(v->r, m->name));
	if (mb == NULL) {
		snprintf(base, blen, "-");
		snprintf(pct, plen, "-");
		return CG_DIM;
	}
	unit = vr_metric_text(br, mb, val, sizeof val, ubuf, sizeof ubuf);
	snprintf(base, blen, "%s%s%s", val, *unit != '\0' ? " " : "", unit);
	if (!rdiff_compare(mb, m, &c) || (c.a != c.b && isnan(c.change_pct))) {
		snprintf(pct, plen, "-");
		return CG_DIM;
	}
	if (c.a == c.b) {
		snprintf(pct, plen, "=");
		return CG_DIM;
	}
	snprintf(pct, plen, "%+.1f%%", c.change_pct);
	return CG_SYNC | CGA_BOLD;
}

/*
 * ncu's "breakdown:METRIC" entries: their value is the list of metrics
 * that make up METRIC, not a number. Shown as "LABEL breakdown" (METRIC's
 * label) with the list dimmed across the value and unit columns. Returns 1
 * if m is one.
 */
static int
vr_breakdown(struct vr *v, struct cellgrid *g, int y,
    const struct report_metric *m, int labw)
{
	const struct report		*r = v->r;
	const struct report_metric	*of;
	const char			*nm = report_str(r, m->name);
	char				 buf[160], val[256];

	if (m->label != 0 || strncmp(nm, "breakdown:", 10) != 0)
		return 0;
	of = r->nlaunches > 0 ? report_metric(r, v->sel, nm + 10) : NULL;
	snprintf(buf, sizeof buf, "%s breakdown", of != NULL &&
	    of->label != 0 ? report_str(r, of->label) : nm + 10);
	cellgrid_text(g, 3, y, labw - 4, buf, v->san | ST_ELLIPSIS, CG_KEY);
	vr_value(r, &m->value, val, sizeof val);
	cellgrid_text(g, labw + 1, y, v->w - labw - 2, val,
	    v->san | ST_ELLIPSIS, CG_DIM);
	return 1;
}

static void
vr_draw_line(struct vr *v, struct cellgrid *g, int y, const struct vr_line *l)
{
	const struct report		*r = v->r;
	const struct report_metric	*m;
	const struct report_rule	*u;
	const struct report		*br = NULL;
	char				 buf[160], val[64], ubuf[16];
	const char			*unit;
	uint32_t			 bl = REPORT_NONE;
	int				 x, labw, valw = 16, unitw = 10;
	int				 based, basew = 16, pctw = 9;

	cellgrid_fill(g, 0, y, v->w, 1, L' ', CG_DETAIL);
	switch (l->kind) {
	case VL_SECTION:
		cellgrid_text(g, 1, y, v->w - 2, l->item < r->nsections ?
		    report_str(r, r->sections[l->item].name) :
		    "Other metrics", v->san | ST_ELLIPSIS, CG_GROUP);
		break;
	case VL_METRIC:
		m = &r->metrics[l->item];
		based = vr_baseline(v, &br, &bl);
		if (based) {
			valw = 12;
			unitw = 7;
		}
		labw = v->w - valw - unitw - 4 - (based ? basew + pctw : 0);
		if (labw < 10)
			labw = 10;
		if (vr_breakdown(v, g, y, m, labw))
			break;
		/* Label and name end two columns before the value, cut with
		 * an ellipsis: a long name never runs into its value. */
		x = 3 + cellgrid_text(g, 3, y, labw - 4, report_str(r,
		    m->label != 0 ? m->label : m->name), v->san | ST_ELLIPSIS,
		    CG_KEY);
		if (m->label != 0 && m->label != m->name && x + 4 < labw - 1) {
			cellgrid_text(g, x + 2, y, labw - 1 - (x + 2),
			    report_str(r, m->name), v->san | ST_ELLIPSIS,
			    CG_DIM);
		}
		unit = vr_metric_text(r, m, val, sizeof val, ubuf,
		    sizeof ubuf);
		x = labw + 1;
		cellgrid_text(g, x, y, valw, val, v->san | ST_ELLIPSIS,
		    CG_DETAIL | CGA_BOLD);
		cellgrid_text(g, x + valw + 1, y, unitw, unit,
		    v->san | ST_ELLIPSIS, CG_DIM);
		if (based) {
			char base[80], pct[24];
			uint16_t a = vr_metric_base(v, m, br, bl, base,
			    sizeof base, pct, sizeof pct);
			x += valw + 1 + unitw + 1;
			cellgrid_text(g, x, y, basew - 1, base,
			    v->san | ST_ELLIPSIS, CG_DETAIL);
			x += basew;
			vr_cell(g, x, y, pctw, pct, 1, a);
		}
		break;
	case VL_RULE:
		u = &r->rules[l->item];
		if (!isnan(u->speedup))
			snprintf(buf, sizeof buf, "[%s] est. speedup %.1f%% "
			    "(%s)  ", report_rule_type_name(u->type),
			    u->speedup, report_speedup_type_name(
			    u->speedup_type) != NULL ?
			    report_speedup_type_name(u->speedup_type) : "");
		else
			snprintf(buf, sizeof buf, "[%s]  ",
			    *report_rule_type_name(u->type) != '\0' ?
			    report_rule_type_name(u->type) : "--");
		x = 1 + cellgrid_text(g, 1, y, v->w - 2, buf, ST_ASCII,
		    (u->type == RR_OPT || u->type == RR_WARNING ?
		    CG_SYNC : CG_NVTX) | CGA_BOLD);
		x += cellgrid_text(g, x, y, v->w - x - 1, report_str(r,
		    u->name != 0 ? u->name : u->ident), v->san | ST_ELLIPSIS,
		    CG_GROUP);
		if (u->section != 0 && x + 4 < v->w) {
			snprintf(buf, sizeof buf, "  (%s)",
			    report_str(r, u->section));
			cellgrid_text(g, x, y, v->w - x - 1, buf,
			    v->san | ST_ELLIPSIS, CG_DIM);
		}
		break;
	case VL_TEXT:
		u = &r->rules[l->item];
		{
			const char *s = v->text + l->off;
			char line[512];
			size_t n = l->len < sizeof line - 1 ? l->len :
			    sizeof line - 1;
			memcpy(line, s, n);
			line[n] = '\0';
			if (n > 0 && line[n - 1] == '\n')
				line[n - 1] = '\0';
			cellgrid_text(g, 3, y, v->w - 4, line,
			    v->san | ST_ELLIPSIS, CG_DETAIL);
		}
		break;
	case VL_NOTE:
		cellgrid_text(g, 1, y, v->w - 2, vr_notes[l->off], ST_ASCII,
		    CG_DIM);
		break;
	case VL_SRC:
		vrsrc_draw(&v->src, r, g, v->gl, v->san, y, v->w, l->item);
		break;
	}
}

static void
vr_draw_detail(struct vr *v, struct cellgrid *g)
{
	const struct report	*r = v->r;
	char			 buf[64];
	size_t			 i;
	int			 x, y;

	if (v->built_w != v->w)
		vr_build(v);
	cellgrid_fill(g, 0, v->sep_y, v->w, 1, v->gl->hline, CG_BORDER);
	if (r->nlaunches > 0) {
		const struct report *br;
		uint32_t bl;
		char vs[48] = "";
		if (v->mode == VR_METRICS && vr_baseline(v, &br, &bl))
			snprintf(vs, sizeof vs, " vs %s %u", br == r ?
			    "launch" : "baseline", br->launches[bl].id);
		snprintf(buf, sizeof buf, " %s of launch %u%s: ",
		    v->mode == VR_METRICS ? "Metrics" : v->mode == VR_RULES ?
		    "Rules" : v->src.by_line ? "Stalls by source line" :
		    "Stalls by instruction",
		    r->launches[v->sel].id, vs);
		x = 1 + cellgrid_text(g, 1, v->sep_y, v->w - 2, buf, ST_ASCII,
		    CG_BORDER | CGA_BOLD);
		x += cellgrid_text(g, x, v->sep_y, v->w - x - 2,
		    report_str(r, r->launches[v->sel].function != 0 ?
		    r->launches[v->sel].function :
		    r->launches[v->sel].demangled), v->san | ST_ELLIPSIS,
		    CG_BORDER | CGA_BOLD);
		cellgrid_put(g, x, v->sep_y, L' ', CG_BORDER);
	}
	for (y = 0; y < v->det_h; y++) {
		i = v->scroll + (size_t)y;
		if (i >= v->nlines) {
			cellgrid_fill(g, 0, v->det_y + y, v->w, 1, L' ',
			    CG_DETAIL);
			continue;
		}
		vr_draw_line(v, g, v->det_y + y, &v->lines[i]);
	}
}

static void
vr_draw_title(struct vr *v, struct cellgrid *g)
{
	const struct report	*r = v->r;
	char			 buf[128];
	int			 x;

	cellgrid_fill(g, 0, 0, v->w, 1, L' ', CG_RULER);
	x = 1;
	if (v->title != NULL)
		x += cellgrid_text(g, x, 0, v->w / 2, v->title,
		    v->san | ST_ELLIPSIS, CG_RULER | CGA_BOLD);
	snprintf(buf, sizeof buf, "  %s  %zu launch%s", report_format_name(
	    r->format), r->nlaunches, r->nlaunches == 1 ? "" : "es");
	x += cellgrid_text(g, x, 0, v->w - x, buf, ST_ASCII, CG_RULER);
	if (v->base_r != NULL && x + 6 < v->w) {
		x += cellgrid_text(g, x, 0, v->w - x, "  vs ", ST_ASCII,
		    CG_RULER);
		x += cellgrid_text(g, x, 0, v->w / 2, v->base_title != NULL ?
		    v->base_title : "baseline", v->san | ST_ELLIPSIS,
		    CG_RULER | CGA_BOLD);
	}
	if (r->ndevices > 0 && r->devices[0].name != 0) {
		x += cellgrid_text(g, x, 0, v->w - x, "  ", ST_ASCII, CG_RULER);
		cellgrid_text(g, x, 0, v->w - x, report_str(r,
		    r->devices[0].name), v->san | ST_ELLIPSIS, CG_RULER);
	}
}

static const char *
vr_mode_name(const struct vr *v)
{
	return v->mode == VR_METRICS ? "[metrics]" : v->mode == VR_RULES ?
	    "[rules]" : "[source]";
}

static void
vr_draw_status(struct vr *v, struct cellgrid *g)
{
	const struct report	*r = v->r;
	const char		*right = " Tab switch  ? help  q quit ";
	char			 buf[160];
	int			 n, end;

	cellgrid_fill(g, 0, v->status_y, v->w, 1, L' ', CG_STATUS);
	n = (int)strlen(right);
	end = v->w;
	if (v->w >= 70) {
		cellgrid_text(g, v->w - n, v->status_y, n, right, ST_ASCII,
		    CG_STATUS | CGA_BOLD);
		end = v->w - n - 1;
	}
	if (v->msg[0] != '\0' || (v->sh != NULL && v->sh->note[0] != '\0')) {
		cellgrid_text(g, 1, v->status_y, end - 1, v->msg[0] != '\0' ?
		    v->msg : v->sh->note, v->san | ST_ELLIPSIS,
		    CG_STATUS | CGA_BOLD);
		return;
	}
	if (r->nlaunches == 0) {
		cellgrid_text(g, 0, v->status_y, end, " no launches", ST_ASCII,
		    CG_STATUS);
		return;
	}
	{
		const struct report *br;
		uint32_t bl;
		char base[48] = "";
		/* What the numbers are compared with before the counts,
		 * which a narrow screen cuts. */
		if (vr_baseline(v, &br, &bl))
			snprintf(base, sizeof base, "  vs %s %u", br == r ?
			    "launch" : "baseline", br->launches[bl].id);
		else if (v->base_r != NULL && v->base_sel == REPORT_NONE)
			snprintf(base, sizeof base, "  no baseline launch");
		if (base[0] != '\0')
			snprintf(buf, sizeof buf, " launch %u/%zu  %s%s  "
			    "metrics %u  rules %u ", v->sel + 1, r->nlaunches,
			    vr_mode_name(v), base,
			    r->launches[v->sel].nmetrics,
			    r->launches[v->sel].nrules);
		else
			snprintf(buf, sizeof buf, " launch %u/%zu  metrics %u  "
			    "rules %u  %s ", v->sel + 1, r->nlaunches,
			    r->launches[v->sel].nmetrics,
			    r->launches[v->sel].nrules, vr_mode_name(v));
	}
	cellgrid_text(g, 0, v->status_y, end, buf, ST_ASCII, CG_STATUS);
}

static void
vr_draw(void *p, struct cellgrid *g, int dirty)
{
	struct vr	*v = p;

	if (dirty & REDRAW_RULER)
		vr_draw_title(v, g);
	if (dirty & (REDRAW_TIMELINE | REDRAW_LABELS))
		vr_draw_table(v, g);
	if (dirty & REDRAW_DETAIL)
		vr_draw_detail(v, g);
	if (dirty & REDRAW_STATUS)
		vr_draw_status(v, g);
}

static void
vr_resize(void *p, int w, int h)
{
	struct vr	*v = p;
	int		 avail, want;

	v->w = w < 1 ? 1 : w;
	v->h = h < 1 ? 1 : h;
	v->status_y = v->h - 1;
	v->table_y = 2;
	/* The table gets up to two fifths of the rows in between. */
	avail = v->status_y - v->table_y - 1;
	want = (int)v->r->nlaunches;
	if (want > avail * 2 / 5)
		want = avail * 2 / 5;
	if (want < 1)
		want = avail > 0 ? 1 : 0;
	v->table_h = want;
	v->sep_y = v->table_y + v->table_h;
	v->det_y = v->sep_y + 1;
	v->det_h = v->status_y - v->det_y;
	if (v->det_h < 0)
		v->det_h = 0;
	vr_build(v);
	vr_clamp(v);
}

static void *
vr_init(const struct model *m, const struct view_env *env)
{
	struct vr	*v;

	(void)m;
	v = xcalloc(1, sizeof *v);
	v->r = env->arg;
	v->sh = env->sh;
	v->gl = env->gl;
	v->title = env->title;
	v->base_r = env->baseline;
	v->base_title = env->baseline_title;
	v->base_sel = REPORT_NONE;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	if (v->sh != NULL && v->sh->note[0] == '\0' && v->r->nwarnings > 0)
		snprintf(v->sh->note, sizeof v->sh->note, "%zu warning%s: %s",
		    v->r->nwarnings, v->r->nwarnings == 1 ? "" : "s",
		    v->r->warnings[0]);
	vr_resize(v, 80, 24);
	return v;
}

static void
vr_free(void *p)
{
	struct vr	*v = p;

	if (v == NULL)
		return;
	free(v->lines);
	free(v->order);
	free(v->text);
	vrsrc_free(&v->src);
	free(v);
}

void
view_report_state(void *p, uint32_t *launch, int *mode, size_t *scroll)
{
	struct vr	*v = p;

	*launch = v->sel;
	*mode = v->mode;
	*scroll = v->scroll;
}

const struct view_ops view_report_ops = {
	.name = "report",
	.label = "Nsight Compute report",
	.init = vr_init,
	.free = vr_free,
	.resize = vr_resize,
	.draw = vr_draw,
	.key = vr_key,
	.command = NULL,
	.actions = view_report_actions,
	.nactions = sizeof view_report_actions /
	    sizeof view_report_actions[0],
};
