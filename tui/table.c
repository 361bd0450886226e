/*
 * table: columns for the table views. See table.h.
 */
#include "config.h"

#include <string.h>

#include "safetext.h"
#include "table.h"

void
table_layout(struct table_col *c, int n, int width)
{
	int	i, used, low, lowi, x;

	for (i = 0; i < n; i++)
		c[i].shown = 1;
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
