/*
 * figure: a window of the timeline as an SVG picture or a self-contained
 * HTML page (`gpulens export --to svg|html`).
 *
 * The rows are the timeline view's (tui/layout.c): the compact view the
 * terminal UI opens with (GPU streams as one row each, no per-stream sync
 * rows), or every row with detail; the labels, indentation and colours are
 * the view's (tui/palette.c). Every event of a lane row that overlaps the
 * window and that the request keeps is one <rect class="ev"> with a
 * <title> (name, duration, id), clipped to the window and at least
 * FIG_MINW pixels wide so that a zero-length event stays visible. Its name
 * is written inside when at least three characters fit. Group rows are
 * headers. A window holding more than max_shapes events is drawn per pixel
 * column instead: one <rect class="bin"> per column that holds work,
 * its opacity the share of the column the row's work covers.
 *
 * Profile text is sanitised (no control characters, valid UTF-8) and then
 * escaped for XML, so a kernel name cannot inject markup or script.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/figreq.h"
#include "model/lane.h"
#include "tui/cellgrid.h"
#include "tui/figure.h"
#include "tui/fmt.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/palette.h"
#include "tui/ruler.h"
#include "util/sanitize.h"
#include "util/xmalloc.h"

#define FIG_LABW	240	/* label column, px */
#define FIG_ROWH	16	/* row height, px */
#define FIG_BARH	12	/* bar height inside a row */
#define FIG_HEAD	64	/* title, legend and ruler */
#define FIG_CHW		7	/* width of a character of the 12px font */
#define FIG_MINW	0.5	/* narrowest event, px */
#define FIG_BG		0x1c1c1c
#define FIG_FG		0xd0d0d0

struct fig {
	const struct model	*m;
	struct figreq		*rq;
	struct layout		*lay;
	FILE			*fp;
	int64_t			 span;		/* t1 - t0 (> 0) */
	int			 binned;
	double			*bins;		/* width: covered ns */
};

/* Writes s (untrusted) sanitised, XML-escaped, at most max characters
 * (0: all; an ellipsis marks a cut). */
static void
fig_text(FILE *fp, const char *s, size_t max)
{
	static const char	 special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;",
	    "&quot;", "&#39;" };
	char			*c = sanitize_dup(s != NULL ? s : "", 0);
	const char		*p, *e;
	size_t			 n = 0, total = 0;

	for (p = c; *p != '\0'; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			total++;
	for (p = c; *p != '\0'; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80) {
			if (max != 0 && total > max && n + 1 >= max) {
				fputs("\xe2\x80\xa6", fp);
				break;
			}
			n++;
		}
		if ((e = strchr(special, *p)) != NULL)	/* *p is not NUL */
			fputs(entity[e - special], fp);
		else
			fputc(*p, fp);
	}
	free(c);
}

static uint32_t
fig_fg(int cls)
{
	const struct palette_entry	*pe = palette_get(cls);

	return palette_rgb(pe != NULL ? pe->fg256 : -1, FIG_FG);
}

static double
fig_x(const struct fig *f, int64_t t)
{
	if (t < f->rq->t0)
		t = f->rq->t0;
	if (t > f->rq->t1)
		t = f->rq->t1;
	return FIG_LABW + (double)(t - f->rq->t0) * f->rq->width /
	    (double)f->span;
}

/* The first event of l that can overlap the window. */
static size_t
fig_first(const struct fig *f, const struct lane *l)
{
	int64_t	from = f->rq->t0;

	if (l->maxdur > 0 && from > INT64_MIN + l->maxdur)
		from -= l->maxdur;
	else if (l->maxdur > 0)
		from = INT64_MIN;
	return from == INT64_MIN ? 0 : lane_lower(l, from);
}

static int
fig_overlaps(const struct fig *f, int64_t s, int64_t e)
{
	if (s == e)
		return s >= f->rq->t0 && s < f->rq->t1;
	return s < f->rq->t1 && e > f->rq->t0;
}

/* One event as a rectangle, with a tooltip and its name when it fits. */
static void
fig_event(struct fig *f, const struct layout_row *r, size_t idx, int y)
{
	const struct lane	*l = r->lane;
	char			 d[32];
	double			 x0, x1, w;
	uint32_t		 gid = layout_gid(f->lay, r, idx);
	const char		*name = lod_event_name(f->m, l, idx);
	int			 cls = lod_class(l->kind[idx], l->flags[idx]);
	size_t			 fit;

	x0 = fig_x(f, l->start[idx]);
	x1 = fig_x(f, l->end[idx]);
	w = x1 - x0 < FIG_MINW ? FIG_MINW : x1 - x0;
	fprintf(f->fp, "<rect class=\"ev\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
	    "height=\"%d\" fill=\"#%06x\" data-id=\"%u\"><title>", x0,
	    y + (FIG_ROWH - FIG_BARH) / 2, w, FIG_BARH, fig_fg(cls), gid);
	fig_text(f->fp, name, 0);
	fprintf(f->fp, " (%s, id %u)</title></rect>\n",
	    fmt_time(d, sizeof d, l->end[idx] - l->start[idx]), gid);
	fit = w > 4 ? (size_t)((w - 4) / FIG_CHW) : 0;
	if (fit >= 3) {
		fprintf(f->fp, "<text class=\"in\" x=\"%.2f\" y=\"%d\">",
		    x0 + 2, y + FIG_ROWH - 5);
		fig_text(f->fp, name, fit);
		fputs("</text>\n", f->fp);
	}
	f->rq->nshapes++;
}

/* Row r's kept events in the window, per event or per pixel column. */
static void
fig_lane(struct fig *f, const struct layout_row *r, int y)
{
	const struct lane	*l = r->lane;
	size_t			 i, end;
	int64_t			 s, e, a, b;
	double			 colns = (double)f->span / f->rq->width;
	int			 c, c0, c1, cls = -1;

	if (l == NULL || l->n == 0)
		return;
	end = lane_lower(l, f->rq->t1);
	if (f->binned)
		memset(f->bins, 0, sizeof *f->bins * (size_t)f->rq->width);
	for (i = fig_first(f, l); i < end; i++) {
		s = l->start[i];
		e = l->end[i];
		if (!fig_overlaps(f, s, e))
			continue;
		if (f->rq->keep != NULL &&
		    !f->rq->keep(f->rq->arg, layout_gid(f->lay, r, i)))
			continue;
		if (!f->binned) {
			fig_event(f, r, i, y);
			continue;
		}
		if (cls < 0)
			cls = lod_class(l->kind[i], l->flags[i]);
		a = s < f->rq->t0 ? f->rq->t0 : s;
		b = e > f->rq->t1 ? f->rq->t1 : e;
		c0 = (int)((double)(a - f->rq->t0) / colns);
		c1 = (int)((double)(b - f->rq->t0) / colns);
		if (c1 >= f->rq->width)
			c1 = f->rq->width - 1;
		for (c = c0; c <= c1 && c < f->rq->width; c++) {
			double	ca = f->rq->t0 + c * colns, cb = ca + colns;
			double	lo = (double)a > ca ? (double)a : ca;
			double	hi = (double)b < cb ? (double)b : cb;

			/* A zero-length event still marks its column. */
			f->bins[c] += hi > lo ? hi - lo : colns / 8;
		}
	}
	if (!f->binned || cls < 0)
		return;
	f->rq->nbinned++;
	for (c = 0; c < f->rq->width; c++) {
		double	sh = f->bins[c] / colns;

		if (f->bins[c] <= 0)
			continue;
		fprintf(f->fp, "<rect class=\"bin\" x=\"%d\" y=\"%d\" "
		    "width=\"1\" height=\"%d\" fill=\"#%06x\" "
		    "fill-opacity=\"%.2f\"/>\n", FIG_LABW + c,
		    y + (FIG_ROWH - FIG_BARH) / 2, FIG_BARH, fig_fg(cls),
		    sh > 1 ? 1.0 : sh < 0.15 ? 0.15 : sh);
	}
}

static void
fig_ruler(struct fig *f, int y)
{
	struct lod_view	 v;
	int64_t		 step, k, t;
	char		 lab[32];
	double		 x;

	v.t0 = f->rq->t0;
	v.span = f->span;
	v.ncols = f->rq->width / FIG_CHW;
	if (v.ncols < 1)
		v.ncols = 1;
	if (v.span < v.ncols)
		v.span = v.ncols;
	step = ruler_step(&v, f->rq->origin);
	fprintf(f->fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#%06x\"/>\n", FIG_LABW, y, f->rq->width, FIG_ROWH,
	    palette_rgb(palette_get(CG_RULER)->bg256, FIG_BG));
	k = (f->rq->t0 - f->rq->origin) / step;
	for (t = f->rq->origin + k * step; t < f->rq->t1; t += step) {
		if (t < f->rq->t0)
			continue;
		x = fig_x(f, t);
		fprintf(f->fp, "<line class=\"tick\" x1=\"%.2f\" y1=\"%d\" "
		    "x2=\"%.2f\" y2=\"%d\"/>\n<text class=\"ruler\" x=\"%.2f\" "
		    "y=\"%d\">%s</text>\n", x, y, x, y + FIG_ROWH, x + 2,
		    y + FIG_ROWH - 4, fmt_time_res(lab, sizeof lab,
		    t - f->rq->origin, step));
		if (step > INT64_MAX - t)
			break;
	}
}

static const struct {
	int		 cls;
	const char	*name;
} fig_legend[] = {
	{ CG_KERNEL, "kernel" }, { CG_COMM, "communication" },
	{ CG_MEMCPY, "memcpy" }, { CG_MEMSET, "memset" },
	{ CG_SYNC, "sync" }, { CG_API, "API call" }, { CG_NVTX, "NVTX" },
	{ CG_OSRT, "OS runtime" }, { CG_OTHER, "other" },
};

static void
fig_head(struct fig *f, int h)
{
	char	a[32], b[32];
	size_t	i;
	int	x = 4;

	fprintf(f->fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"monospace\" font-size=\"12\">\n<style>"
	    "text{fill:#%06x;white-space:pre}text.grp{fill:#%06x;"
	    "font-weight:bold}text.in{fill:#000000;pointer-events:none}"
	    "text.ruler{fill:#%06x}line.tick{stroke:#%06x;stroke-width:1}"
	    "line.grid{stroke:#303030;stroke-width:1}</style>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#%06x\"/>\n",
	    FIG_LABW + f->rq->width + 8, h, FIG_LABW + f->rq->width + 8, h,
	    palette_rgb(palette_get(CG_LABEL)->fg256, FIG_FG),
	    palette_rgb(palette_get(CG_GROUP)->fg256, FIG_FG),
	    palette_rgb(palette_get(CG_RULER)->fg256, FIG_FG),
	    palette_rgb(palette_get(CG_RULER)->fg256, FIG_FG), FIG_BG);
	fputs("<text class=\"grp\" x=\"4\" y=\"14\">gpulens: ", f->fp);
	fig_text(f->fp, f->rq->title, 0);
	fprintf(f->fp, "  [%s, %s)</text>\n", fmt_time(a, sizeof a,
	    f->rq->t0 - f->rq->origin), fmt_time(b, sizeof b,
	    f->rq->t1 - f->rq->origin));
	for (i = 0; i < sizeof fig_legend / sizeof fig_legend[0]; i++) {
		fprintf(f->fp, "<rect class=\"key\" x=\"%d\" y=\"22\" "
		    "width=\"10\" height=\"10\" fill=\"#%06x\"/><text x=\"%d\" "
		    "y=\"31\">%s</text>\n", x, fig_fg(fig_legend[i].cls),
		    x + 14, fig_legend[i].name);
		x += 14 + (int)strlen(fig_legend[i].name) * FIG_CHW + 12;
	}
}

/* Label of row r, indented by its level and cut to the label column. */
static void
fig_label(struct fig *f, const struct layout_row *r, int y)
{
	int	indent = r->level * 2;
	size_t	fit = (size_t)(FIG_LABW / FIG_CHW - indent - 1);

	if (r->kind == LROW_GROUP)
		fprintf(f->fp, "<rect class=\"grp\" x=\"0\" y=\"%d\" "
		    "width=\"%d\" height=\"%d\" fill=\"#262626\"/>\n", y,
		    FIG_LABW + f->rq->width, FIG_ROWH);
	fprintf(f->fp, "<text%s x=\"%d\" y=\"%d\">",
	    r->kind == LROW_GROUP ? " class=\"grp\"" : "",
	    4 + indent * FIG_CHW, y + FIG_ROWH - 4);
	fig_text(f->fp, r->label, fit);
	fputs("</text>\n", f->fp);
}

static void
fig_html_head(struct fig *f)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
	    "charset=\"utf-8\">\n<title>gpulens: ", f->fp);
	fig_text(f->fp, f->rq->title, 0);
	fprintf(f->fp, "</title>\n<style>body{margin:0;background:#%06x;"
	    "color:#%06x;font-family:monospace}div.fig{overflow-x:auto}"
	    "rect.ev:hover{stroke:#ffffff;stroke-width:1}</style>\n"
	    "</head>\n<body>\n<div class=\"fig\">\n", FIG_BG, FIG_FG);
}

int
figure_write(const struct model *m, struct figreq *rq, FILE *fp,
    char **cause)
{
	struct fig		 f;
	const struct layout_row	*r;
	uint64_t		 total = 0;
	size_t			 i, n, nfig;
	int			 y, h;

	if (rq->width < 16 || rq->width > 100000) {
		*cause = xasprintf("figure width %d out of range (16 to "
		    "100000 pixels)", rq->width);
		return -1;
	}
	if (rq->t1 <= rq->t0) {
		*cause = xasprintf("the window is empty");
		return -1;
	}
	memset(&f, 0, sizeof f);
	f.m = m;
	f.rq = rq;
	f.fp = fp;
	f.span = rq->t1 - rq->t0;
	f.lay = layout_new(m);
	layout_set_hidden(f.lay, rq->detail ? 0 : LAYOUT_HIDE_DETAIL);
	rq->nshapes = rq->nrows = rq->nbinned = 0;
	n = layout_nrows(f.lay);
	/* The figure leaves out the CPU sample rows (terminal only). */
	for (i = nfig = 0; i < n; i++) {
		r = layout_row(f.lay, i);
		if (r->kind == LROW_LANE && r->lane != NULL)
			total += lane_count(r->lane, rq->t0, rq->t1);
		if (r->kind != LROW_SAMPLES)
			nfig++;
	}
	if (rq->max_shapes > 0 && total > rq->max_shapes) {
		f.binned = 1;
		f.bins = xcalloc((size_t)rq->width, sizeof *f.bins);
	}
	h = FIG_HEAD + (int)nfig * FIG_ROWH + 4;
	if (rq->html)
		fig_html_head(&f);
	fig_head(&f, h);
	fig_ruler(&f, FIG_HEAD - FIG_ROWH - 4);
	for (i = 0, y = FIG_HEAD; i < n; i++) {
		r = layout_row(f.lay, i);
		if (r->kind == LROW_SAMPLES)
			continue;
		fig_label(&f, r, y);
		if (r->kind == LROW_LANE)
			fig_lane(&f, r, y);
		rq->nrows++;
		y += FIG_ROWH;
	}
	fputs("</svg>\n", fp);
	if (rq->html)
		fputs("</div>\n</body>\n</html>\n", fp);
	free(f.bins);
	layout_free(f.lay);
	return 0;
}
