/*
 * ruler: tick placement and labels for the time axis. See ruler.h.
 */
#include "config.h"

#include <string.h>

#include "tui/ruler.h"
#include "tui/safetext.h"
#include "tui/fmt.h"

/* Floor division for possibly negative numerators. */
static int64_t
ruler_floordiv(int64_t a, int64_t b)
{
	int64_t	q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/* The smallest 1/2/5 x 10^k not below x. */
static int64_t
ruler_nice(double x)
{
	int64_t	p = 1;

	for (;;) {
		if ((double)p >= x)
			return p;
		if ((double)(2 * p) >= x)
			return 2 * p;
		if ((double)(5 * p) >= x)
			return 5 * p;
		if (p > INT64_MAX / 100)
			return p * 10;
		p *= 10;
	}
}

int64_t
ruler_step(const struct lod_view *v, int64_t origin)
{
	double	colw = (double)v->span / v->ncols;
	int64_t	step;
	char	a[32], b[32];
	size_t	len;
	int	i;

	step = ruler_nice(colw * 6);
	for (i = 0; i < 64; i++) {
		/* The longest label is at one of the window's ends. */
		fmt_time_res(a, sizeof a, v->t0 - origin, step);
		fmt_time_res(b, sizeof b, v->t0 + v->span - origin, step);
		len = strlen(a) > strlen(b) ? strlen(a) : strlen(b);
		if ((double)step / colw >= (double)len + 3)
			break;
		step = ruler_nice((double)step * 1.5);
	}
	return step;
}

void
ruler_draw(struct cellgrid *g, int x, int y, const struct lod_view *v,
    int64_t origin, int cursor, const struct glyph *gl)
{
	struct cell	*c0;
	int64_t		 step, k, t;
	int		 c;
	char		 lab[32];

	cellgrid_fill(g, x, y, v->ncols, 1, L' ', CG_RULER);
	step = ruler_step(v, origin);
	k = ruler_floordiv(v->t0 - origin, step);
	for (;; k++) {
		t = origin + k * step;
		if (t >= v->t0 + v->span)
			break;
		if (t < v->t0)
			continue;
		c = lod_col_of(v, t);
		if (c < 0 || c >= v->ncols)
			continue;
		cellgrid_put(g, x + c, y, gl->tick, CG_RULER);
		fmt_time_res(lab, sizeof lab, t - origin, step);
		/* A label cut by the right edge would read as another time. */
		if (c + 1 + (int)strlen(lab) <= v->ncols)
			cellgrid_text(g, x + c + 1, y, v->ncols - c - 1, lab,
			    ST_ASCII, CG_RULER);
	}
	if (cursor >= 0 && cursor < v->ncols) {
		c0 = cellgrid_at(g, x + cursor, y);
		if (c0 != NULL && c0->ch == L' ')
			cellgrid_put(g, x + cursor, y, gl->cursor_mark,
			    CG_RULER | CGA_BOLD);
		else
			cellgrid_attr(g, x + cursor, y, 1, CGA_CURSOR, 1);
	}
}
