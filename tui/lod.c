/*
 * lod: column aggregates and glyph choice for timeline rows. See lod.h.
 *
 * The only loops are over columns (and, for groups, member tracks); the
 * events themselves are reached through lane queries, never iterated.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "analysis/busy.h"
#include "tui/lod.h"
#include "tui/safetext.h"

int64_t
lod_colt(const struct lod_view *v, int c)
{
	if (c <= 0)
		return v->t0;
	if (c >= v->ncols)
		return v->t0 + v->span;
	if (v->span <= INT64_MAX / v->ncols)
		return v->t0 + v->span * c / v->ncols;
	return v->t0 + (int64_t)((double)v->span * c / v->ncols);
}

int
lod_col_of(const struct lod_view *v, int64_t t)
{
	double	f;
	int	c;

	f = ((double)t - (double)v->t0) * v->ncols / (double)v->span;
	if (f < -1e6)
		return -1000000;
	if (f > 1e6)
		return 1000000;
	c = (int)f;
	if (f < 0 && (double)c != f)
		c--;
	/* Fix rounding so that lod_colt(c) <= t < lod_colt(c + 1). */
	if (c >= 0 && c < v->ncols) {
		while (c > 0 && t < lod_colt(v, c))
			c--;
		while (c < v->ncols - 1 && t >= lod_colt(v, c + 1))
			c++;
	}
	return c;
}

int
lod_class(int kind, int flags)
{
	switch (kind) {
	case EV_KERNEL:
	case EV_GRAPH:
		return (flags & EVF_COMM) ? CG_COMM : CG_KERNEL;
	case EV_MEMCPY:
		return CG_MEMCPY;
	case EV_MEMSET:
		return CG_MEMSET;
	case EV_SYNC:
		return CG_SYNC;
	case EV_API:
		return CG_API;
	case EV_NVTX:
	case EV_MARK:
		return (flags & EVF_COMM) ? CG_COMM : CG_NVTX;
	case EV_OSRT:
		return CG_OSRT;
	default:
		return CG_OTHER;
	}
}

const char *
lod_event_name(const struct model *m, const struct lane *l, size_t idx)
{
	uint32_t	aux;

	if (l->kind[idx] == EV_KERNEL && l->aux != NULL) {
		aux = l->aux[idx];
		if (aux != NONE32 && aux < m->nkernels &&
		    m->kernels[aux].short_name != 0)
			return model_str(m, m->kernels[aux].short_name);
	}
	return model_str(m, l->name[idx]);
}

void
lod_lane(const struct lane *l, const struct lod_view *v, struct lod_col *out)
{
	int64_t	a, b, d, ba, bb;
	int	c;

	/*
	 * busy over [a, b) is B(b) - B(a), B the lane's busy-before prefix
	 * function: one query per column boundary instead of two per column.
	 */
	b = lod_colt(v, 0);
	bb = busy_lane_before(l, b);
	for (c = 0; c < v->ncols; c++) {
		a = b;
		ba = bb;
		b = lod_colt(v, c + 1);
		bb = busy_lane_before(l, b);
		out[c].count = b > a ? (uint32_t)lane_count(l, a, b) : 0;
		out[c].busy = 0;
		out[c].dom = -1;
		out[c].cls = CG_NORMAL;
		if (out[c].count == 0)
			continue;
		out[c].busy = bb - ba;
		d = lane_dominant(l, a, b);
		out[c].dom = d;
		if (d >= 0)
			out[c].cls = (uint16_t)lod_class(l->kind[d],
			    l->flags[d]);
	}
}

void
lod_group(const struct model *m, const uint32_t *tracks, size_t n,
    uint32_t device, const struct lod_view *v,
    struct lod_col *out)
{
	const struct lane	*l;
	int64_t			 a, b, ba, bb, d;
	size_t			 i;
	int			 c, pass;

	for (c = 0; c < v->ncols; c++) {
		out[c].count = 0;
		out[c].busy = 0;
		out[c].dom = -1;	/* for now: the busiest member */
		out[c].cls = CG_NORMAL;
	}
	/*
	 * Member by member, column by column: one prefix query each. Work
	 * first, then the sync tracks, which only fill columns with no work:
	 * a host waiting on a stream while it computes is not what the
	 * stream shows.
	 */
	for (pass = 0; pass < 2; pass++)
	for (i = 0; i < n; i++) {
		l = &m->tracks[tracks[i]].lane;
		if (l->n == 0 || (m->tracks[tracks[i]].type == TRACK_SYNC) !=
		    pass)
			continue;
		b = lod_colt(v, 0);
		bb = busy_lane_before(l, b);
		for (c = 0; c < v->ncols; c++) {
			ba = bb;
			bb = busy_lane_before(l, lod_colt(v, c + 1));
			if (pass == 1 && out[c].dom >= 0 &&
			    m->tracks[tracks[out[c].dom]].type != TRACK_SYNC)
				continue;
			if (bb - ba > out[c].busy) {
				out[c].busy = bb - ba;
				out[c].dom = (int64_t)i;
			}
		}
	}
	for (c = 0; c < v->ncols; c++) {
		a = lod_colt(v, c);
		b = lod_colt(v, c + 1);
		if (out[c].dom < 0) {
			/* No busy time: only zero-length events can be here. */
			for (i = 0; i < n && out[c].dom < 0; i++)
				if (lane_count(&m->tracks[tracks[i]].lane, a,
				    b) > 0)
					out[c].dom = (int64_t)i;
			if (out[c].dom < 0)
				continue;
		}
		out[c].count = 1;
		l = &m->tracks[tracks[out[c].dom]].lane;
		d = lane_dominant(l, a, b);
		if (d >= 0)
			out[c].cls = (uint16_t)lod_class(l->kind[d],
			    l->flags[d]);
		if (device != NONE32)
			out[c].busy = busy_device(m, device, a, b);
		out[c].dom = -1;
	}
}

/* Eighths of column width [a, b) that busy covers, 1..8. */
static int
lod_eighths(int64_t busy, int64_t a, int64_t b)
{
	int64_t	w = b - a;
	int	e;

	if (w <= 0 || busy <= 0)
		return 1;
	if (busy >= w)
		return 8;
	e = (int)((busy * 8 + w - 1) / w);
	return e < 1 ? 1 : e > 8 ? 8 : e;
}

/* The part of event [s, e) inside [a, b). */
static int64_t
lod_cover(int64_t s, int64_t e, int64_t a, int64_t b)
{
	int64_t	lo = s > a ? s : a, hi = e < b ? e : b;

	return hi > lo ? hi - lo : 0;
}

/* Is column c part of a box of its dominant event? */
static int
lod_boxcol(const struct lane *l, const struct lod_view *v,
    const struct lod_col *cols, int c)
{
	int64_t	a, b, d = cols[c].dom;

	if (cols[c].count == 0 || d < 0)
		return 0;
	a = lod_colt(v, c);
	b = lod_colt(v, c + 1);
	if (l->end[d] - l->start[d] < 2 * (b - a))
		return 0;
	return lod_cover(l->start[d], l->end[d], a, b) * 2 >= b - a;
}

static void
lod_box(struct cellgrid *g, int x, int y, const struct model *m,
    const struct lane *l, const struct lod_view *v, int c0, int k,
    int64_t d, const struct glyph *gl, int sanflags)
{
	uint16_t	attr;
	int		opened, closed, avail;
	wchar_t		name[256];

	attr = (uint16_t)(lod_class(l->kind[d], l->flags[d]) | CGA_FILL);
	if (k < 2) {
		cellgrid_put(g, x + c0, y, gl->left[8],
		    (uint16_t)(attr & ~CGA_FILL));
		return;
	}
	cellgrid_fill(g, x + c0, y, k, 1, L' ', attr);
	opened = l->start[d] >= lod_colt(v, c0);
	closed = l->end[d] <= lod_colt(v, c0 + k);
	if (opened)
		cellgrid_put(g, x + c0, y, gl->box_open, attr);
	if (closed && gl->box_close != 0)
		cellgrid_put(g, x + c0 + k - 1, y, gl->box_close, attr);
	avail = k - 2;
	if (avail < 1)
		return;
	safetext_wcs(lod_event_name(m, l, (size_t)d), (size_t)-1,
	    sanflags | ST_ELLIPSIS, avail, name, sizeof name / sizeof name[0]);
	/* A name cut to less than three columns says nothing; leave it. */
	if (avail < 3 && safetext_width(lod_event_name(m, l, (size_t)d),
	    (size_t)-1, sanflags) > avail)
		return;
	cellgrid_puts(g, x + c0 + 1, y, avail, name, attr);
}

void
lod_draw_lane(struct cellgrid *g, int x, int y, const struct model *m,
    const struct lane *l, const struct lod_view *v,
    const struct lod_col *cols, const struct glyph *gl, int sanflags)
{
	int64_t		a, b, d, s, e;
	int		c, k, n8;
	wchar_t		ch;
	uint16_t	attr;

	c = 0;
	while (c < v->ncols) {
		if (cols[c].count == 0) {
			c++;
			continue;
		}
		d = cols[c].dom;
		if (lod_boxcol(l, v, cols, c)) {
			for (k = c + 1; k < v->ncols && cols[k].dom == d &&
			    lod_boxcol(l, v, cols, k); k++)
				;
			lod_box(g, x, y, m, l, v, c, k - c, d, gl, sanflags);
			c = k;
			continue;
		}
		a = lod_colt(v, c);
		b = lod_colt(v, c + 1);
		n8 = lod_eighths(cols[c].busy, a, b);
		attr = cols[c].cls;
		if (cols[c].count > 1 || d < 0) {
			ch = gl->ramp[n8];
			attr |= CGA_FOLD;
		} else {
			s = l->start[d];
			e = l->end[d];
			if (s > a && e >= b && n8 < 8)
				ch = n8 >= 3 ? gl->right_half :
				    gl->right_eighth;
			else
				ch = gl->left[n8];
		}
		cellgrid_put(g, x + c, y, ch, attr);
		c++;
	}
}

void
lod_draw_group(struct cellgrid *g, int x, int y, const struct lod_view *v,
    const struct lod_col *cols, const struct glyph *gl)
{
	int	c;

	for (c = 0; c < v->ncols; c++) {
		if (cols[c].count == 0)
			continue;
		cellgrid_put(g, x + c, y,
		    gl->ramp[lod_eighths(cols[c].busy, lod_colt(v, c),
		    lod_colt(v, c + 1))], (uint16_t)(cols[c].cls | CGA_DIM));
	}
}
