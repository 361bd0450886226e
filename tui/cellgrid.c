/*
 * cellgrid: the terminal-independent screen buffer. See cellgrid.h.
 *
 * Wide characters take two cells: the character in the first and CG_CONT
 * in the second. cellgrid_set() keeps that invariant on every write by
 * blanking the orphaned half of any wide character it overwrites.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/cellgrid.h"
#include "tui/safetext.h"
#include "util/xmalloc.h"

void
cellgrid_init(struct cellgrid *g)
{
	memset(g, 0, sizeof *g);
}

void
cellgrid_free(struct cellgrid *g)
{
	free(g->cells);
	free(g->dirty);
	memset(g, 0, sizeof *g);
}

void
cellgrid_resize(struct cellgrid *g, int w, int h)
{
	size_t	i, n;

	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	n = (size_t)w * (size_t)h;
	XGROW(g->cells, g->cap, n);
	XGROW(g->dirty, g->dcap, (size_t)h);
	g->w = w;
	g->h = h;
	for (i = 0; i < n; i++) {
		g->cells[i].ch = L' ';
		g->cells[i].attr = CG_NORMAL;
	}
	memset(g->dirty, 1, (size_t)h);
}

struct cell *
cellgrid_at(struct cellgrid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

const struct cell *
cellgrid_cat(const struct cellgrid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

/* Writes one cell, repairing any wide character it cuts in half. */
static void
cellgrid_set(struct cellgrid *g, int x, int y, wchar_t ch, uint16_t attr)
{
	struct cell	*c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];

	if (ch != CG_CONT && c->ch == CG_CONT && x > 0)
		c[-1].ch = L' ';
	if (c->ch != CG_CONT && x + 1 < g->w && c[1].ch == CG_CONT)
		c[1].ch = L' ';
	c->ch = ch;
	c->attr = attr;
	g->dirty[y] = 1;
}

void
cellgrid_fill(struct cellgrid *g, int x, int y, int w, int h, wchar_t ch,
    uint16_t attr)
{
	int	i, j;

	if (x < 0) {
		w += x;
		x = 0;
	}
	if (y < 0) {
		h += y;
		y = 0;
	}
	if (x + w > g->w)
		w = g->w - x;
	if (y + h > g->h)
		h = g->h - y;
	for (j = y; j < y + h; j++)
		for (i = x; i < x + w; i++)
			cellgrid_set(g, i, j, ch, attr);
}

static int
cellgrid_wcwidth(wchar_t ch)
{
	int	w;

	if (ch < 0x80)
		return 1;
	w = wcwidth(ch);
	return w == 2 ? 2 : 1;
}

void
cellgrid_put(struct cellgrid *g, int x, int y, wchar_t ch, uint16_t attr)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return;
	if (cellgrid_wcwidth(ch) == 2) {
		if (x + 1 >= g->w) {
			cellgrid_set(g, x, y, L' ', attr);
			return;
		}
		cellgrid_set(g, x, y, ch, attr);
		cellgrid_set(g, x + 1, y, CG_CONT, attr);
		return;
	}
	cellgrid_set(g, x, y, ch, attr);
}

int
cellgrid_puts(struct cellgrid *g, int x, int y, int maxw, const wchar_t *s,
    uint16_t attr)
{
	int	used = 0, cw;

	if (y < 0 || y >= g->h)
		return 0;
	if (x + maxw > g->w)
		maxw = g->w - x;
	for (; *s != L'\0'; s++) {
		cw = cellgrid_wcwidth(*s);
		if (used + cw > maxw)
			break;
		cellgrid_put(g, x + used, y, *s, attr);
		used += cw;
	}
	return used;
}

int
cellgrid_text(struct cellgrid *g, int x, int y, int maxw, const char *s,
    int sanflags, uint16_t attr)
{
	wchar_t	buf[512];

	if (maxw <= 0)
		return 0;
	safetext_wcs(s, (size_t)-1, sanflags, maxw, buf,
	    sizeof buf / sizeof buf[0]);
	return cellgrid_puts(g, x, y, maxw, buf, attr);
}

void
cellgrid_attr(struct cellgrid *g, int x, int y, int w, uint16_t flags,
    int set)
{
	struct cell	*c;
	int		 i;

	if (y < 0 || y >= g->h)
		return;
	for (i = x < 0 ? 0 : x; i < x + w && i < g->w; i++) {
		c = &g->cells[(size_t)y * (size_t)g->w + (size_t)i];
		if (set)
			c->attr |= flags;
		else
			c->attr &= (uint16_t)~flags;
	}
	g->dirty[y] = 1;
}

void
cellgrid_clean(struct cellgrid *g)
{
	if (g->h > 0)
		memset(g->dirty, 0, (size_t)g->h);
}

size_t
cellgrid_row_text(const struct cellgrid *g, int y, char *buf, size_t len)
{
	const struct cell	*c;
	mbstate_t		 mbs;
	char			 mb[8];
	size_t			 o = 0, keep = 0, n;
	int			 x;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (y < 0 || y >= g->h)
		return 0;
	memset(&mbs, 0, sizeof mbs);
	for (x = 0; x < g->w; x++) {
		c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
		if (c->ch == CG_CONT)
			continue;
		n = wcrtomb(mb, c->ch, &mbs);
		if (n == (size_t)-1) {
			mb[0] = '?';
			n = 1;
			memset(&mbs, 0, sizeof mbs);
		}
		if (o + n + 1 > len)
			break;
		memcpy(buf + o, mb, n);
		o += n;
		if (c->ch != L' ')
			keep = o;
	}
	buf[keep] = '\0';
	return keep;
}

int
cellgrid_dump(const struct cellgrid *g, FILE *f)
{
	char	*line;
	size_t	 len = (size_t)g->w * 4 + 1;
	int	 y;

	line = xmalloc(len);
	for (y = 0; y < g->h; y++) {
		cellgrid_row_text(g, y, line, len);
		if (fprintf(f, "%s\n", line) < 0) {
			free(line);
			return -1;
		}
	}
	free(line);
	return 0;
}
