/*
 * overlay: boxes over a view. See overlay.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/overlay.h"
#include "tui/safetext.h"
#include "util/xmalloc.h"

#define OV_NAMEW	13	/* key names column */
#define OV_MINCOL	40	/* narrowest column: name + help */
#define OV_MAXCOL	60

void
overlay_help_layout(int w, int h, size_t nitems, struct overlay_layout *o)
{
	size_t	perpage;

	memset(o, 0, sizeof *o);
	/* The box leaves the status line and one column each side. */
	o->w = w - 2;
	o->h = h - 1;
	if (o->w < 24 || o->h < 5)
		return;
	o->namew = OV_NAMEW;
	o->ncol = (o->w - 2) / OV_MINCOL;
	if (o->ncol < 1)
		o->ncol = 1;
	if (o->ncol > 3)
		o->ncol = 3;
	o->per = o->h - 4;
	/* No more columns than the entries need. */
	while (o->ncol > 1 && (size_t)(o->ncol - 1) * (size_t)o->per >=
	    nitems)
		o->ncol--;
	o->colw = (o->w - 2) / o->ncol;
	if (o->colw > OV_MAXCOL)
		o->colw = OV_MAXCOL;
	if (o->colw < OV_NAMEW + 6)
		o->namew = o->colw / 3;
	o->w = o->colw * o->ncol + 2;
	perpage = (size_t)o->ncol * (size_t)o->per;
	o->pages = nitems == 0 ? 1 : (int)((nitems + perpage - 1) / perpage);
	/* Short lists get a short box. */
	if (o->pages == 1) {
		o->per = (int)((nitems + (size_t)o->ncol - 1) /
		    (size_t)o->ncol);
		if (o->per < 1)
			o->per = 1;
		o->h = o->per + 4;
	}
	o->x = (w - o->w) / 2;
	o->y = (h - 1 - o->h) / 2;
	if (o->y < 0)
		o->y = 0;
}

void
overlay_box(struct cellgrid *g, const struct glyph *gl, int x, int y, int w,
    int h, const char *title)
{
	if (w < 2 || h < 2)
		return;
	cellgrid_fill(g, x, y, w, h, L' ', CG_HELP);
	cellgrid_fill(g, x + 1, y, w - 2, 1, gl->hline, CG_HELP);
	cellgrid_fill(g, x + 1, y + h - 1, w - 2, 1, gl->hline, CG_HELP);
	cellgrid_fill(g, x, y + 1, 1, h - 2, gl->vline, CG_HELP);
	cellgrid_fill(g, x + w - 1, y + 1, 1, h - 2, gl->vline, CG_HELP);
	cellgrid_put(g, x, y, gl->corner[0], CG_HELP);
	cellgrid_put(g, x + w - 1, y, gl->corner[1], CG_HELP);
	cellgrid_put(g, x, y + h - 1, gl->corner[2], CG_HELP);
	cellgrid_put(g, x + w - 1, y + h - 1, gl->corner[3], CG_HELP);
	if (title != NULL)
		cellgrid_text(g, x + 2, y, w - 4, title, ST_ASCII | ST_ELLIPSIS,
		    CG_HELP | CGA_BOLD);
}

int
overlay_help(struct cellgrid *g, const struct glyph *gl, int w, int h,
    const struct overlay_keys *t, size_t nt, int page)
{
	struct overlay_layout	 o;
	size_t			 nitems = 0, i, j, item, first, perpage;
	char			 title[96];
	int			 x, y, slot;

	for (i = 0; i < nt; i++)
		nitems += 1 + t[i].n;
	overlay_help_layout(w, h, nitems, &o);
	if (o.pages == 0)
		return 1;
	if (page >= o.pages)
		page = o.pages - 1;
	if (page < 0)
		page = 0;
	if (page + 1 < o.pages)
		snprintf(title, sizeof title, " Keys %d/%d (Space: next page; "
		    "any key closes) ", page + 1, o.pages);
	else if (o.pages > 1)
		snprintf(title, sizeof title, " Keys %d/%d (any key closes) ",
		    page + 1, o.pages);
	else
		snprintf(title, sizeof title, " Keys (any key closes) ");
	overlay_box(g, gl, o.x, o.y, o.w, o.h, title);
	perpage = (size_t)o.ncol * (size_t)o.per;
	first = (size_t)page * perpage;
	item = 0;
	for (i = 0; i < nt; i++) {
		for (j = 0; j <= t[i].n; j++, item++) {
			if (item < first || item >= first + perpage)
				continue;
			slot = (int)(item - first);
			x = o.x + 2 + (slot / o.per) * o.colw;
			y = o.y + 2 + slot % o.per;
			if (j == 0) {
				cellgrid_text(g, x, y, o.colw - 1,
				    t[i].heading, ST_ASCII | ST_ELLIPSIS,
				    CG_HELP | CGA_BOLD | CGA_UNDERLINE);
				continue;
			}
			cellgrid_text(g, x, y, o.namew, t[i].items[j - 1].keys,
			    ST_ASCII, t[i].attr != NULL ? t[i].attr[j - 1] :
			    CG_HELP | CGA_BOLD);
			cellgrid_text(g, x + o.namew, y, o.colw - o.namew - 1,
			    t[i].items[j - 1].help, ST_ASCII | ST_ELLIPSIS,
			    CG_HELP);
		}
	}
	return o.pages;
}

static const struct keyhelp overlay_legend_items[] = {
	{ 0, "  ", "kernel" },
	{ 0, "  ", "communication kernel (NCCL, RCCL)" },
	{ 0, "  ", "memcpy" },
	{ 0, "  ", "memset" },
	{ 0, "  ", "sync wait (in a stream row: shaded)" },
	{ 0, "  ", "CUDA / HIP API call" },
	{ 0, "  ", "NVTX range" },
	{ 0, "  ", "OS runtime call" },
	{ 0, "  ", "other" },
};
static const uint16_t overlay_legend_attr[] = {
	CG_KERNEL | CGA_FILL, CG_COMM | CGA_FILL, CG_MEMCPY | CGA_FILL,
	CG_MEMSET | CGA_FILL, CG_SYNC | CGA_FILL, CG_API | CGA_FILL,
	CG_NVTX | CGA_FILL, CG_OSRT | CGA_FILL, CG_OTHER | CGA_FILL,
};
_Static_assert(sizeof overlay_legend_items / sizeof overlay_legend_items[0] ==
    sizeof overlay_legend_attr / sizeof overlay_legend_attr[0],
    "one attribute per legend item");

size_t
overlay_legend(const struct keyhelp **items, const uint16_t **attr)
{
	*items = overlay_legend_items;
	*attr = overlay_legend_attr;
	return sizeof overlay_legend_items / sizeof overlay_legend_items[0];
}

size_t
overlay_lines(struct cellgrid *g, const struct glyph *gl, int w, int h,
    const char *title, const char *const *lines, size_t n, size_t first,
    int sanflags)
{
	char	more[64];
	int	bw, bh, x0, y0, rows, i, maxw = 0, lw;
	size_t	shown = 0, k;

	if (first > n)
		first = n;
	for (k = first; k < n && k < first + 200; k++) {
		lw = safetext_width(lines[k], (size_t)-1, sanflags);
		if (lw > maxw)
			maxw = lw;
	}
	if ((lw = (int)strlen(title) + 6) > maxw)
		maxw = lw;
	bw = maxw + 4;
	if (bw > w - 2)
		bw = w - 2;
	rows = (int)(n - first);
	if (rows > h - 5)
		rows = h - 5;
	if (rows < 0)
		rows = 0;
	bh = rows + 4;
	if (bw < 8 || bh < 4)
		return 0;
	x0 = (w - bw) / 2;
	y0 = (h - 1 - bh) / 2;
	if (y0 < 0)
		y0 = 0;
	overlay_box(g, gl, x0, y0, bw, bh, title);
	for (i = 0; i < rows; i++) {
		k = first + (size_t)i;
		if (i == rows - 1 && k + 1 < n) {
			snprintf(more, sizeof more, "... %zu more", n - k);
			cellgrid_text(g, x0 + 2, y0 + 2 + i, bw - 4, more,
			    ST_ASCII, CG_HELP | CGA_BOLD);
			break;
		}
		cellgrid_text(g, x0 + 2, y0 + 2 + i, bw - 4, lines[k],
		    sanflags | ST_ELLIPSIS, CG_HELP);
		shown++;
	}
	return shown;
}

/* The bytes of s that fit w columns, cut after a space when there is one
 * (never inside a UTF-8 sequence); at least one character. */
static size_t
overlay_fit(const char *s, int w, int sanflags)
{
	size_t	len = strlen(s), n = 0, next, sp = 0;

	if (safetext_width(s, len, sanflags) <= w)
		return len;
	while (n < len) {
		next = n + 1;
		while (next < len && ((unsigned char)s[next] & 0xc0) == 0x80)
			next++;
		if (safetext_width(s, next, sanflags) > w)
			break;
		n = next;
		if (s[n - 1] == ' ')
			sp = n;
	}
	if (sp > 0)
		return sp;
	if (n == 0) {
		n = 1;
		while (n < len && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
	}
	return n;
}

char **
overlay_wrap(const char *const *lines, size_t n, int width, int sanflags,
    size_t *nout)
{
	char		**out = NULL;
	const char	 *p;
	size_t		  cap = 0, k, cut;
	int		  w;

	*nout = 0;
	if (width < 8)
		width = 8;
	for (k = 0; k < n; k++) {
		p = lines[k];
		w = width;
		do {
			cut = overlay_fit(p, w, sanflags);
			XGROW(out, cap, *nout + 1);
			out[(*nout)++] = xasprintf("%s%.*s", w < width ? "  " :
			    "", (int)cut, p);
			p += cut;
			while (*p == ' ')
				p++;
			w = width - 2;
		} while (*p != '\0');
	}
	return out;
}

void
overlay_wrap_free(char **v, size_t n)
{
	xfree_strv(v, n);
}
