/*
 * samprow: CPU sample density rows and a range's top functions
 * (samprow.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/samples.h"
#include "model/callchain.h"
#include "tui/safetext.h"
#include "tui/samprow.h"

uint64_t
samprow_count(const struct model *m, uint32_t h, int64_t t0, int64_t t1)
{
	size_t	i0, i1;

	cpusamp_range(&m->cs, h, t0, t1, &i0, &i1);
	return i1 - i0;
}

void
samprow_draw(struct cellgrid *g, int x, int y, const struct model *m,
    uint32_t h, const struct lod_view *lv, const struct glyph *gl)
{
	uint64_t	n, most = 0;
	int		c, level;

	if (h >= m->cs.nth)
		return;
	for (c = 0; c < lv->ncols; c++) {
		n = samprow_count(m, h, lod_colt(lv, c), lod_colt(lv, c + 1));
		if (n > most)
			most = n;
	}
	if (most == 0)
		return;
	for (c = 0; c < lv->ncols; c++) {
		n = samprow_count(m, h, lod_colt(lv, c), lod_colt(lv, c + 1));
		if (n == 0)
			continue;
		/* 1..8: a column with a sample is never blank. */
		level = 1 + (int)((n * 7 + most / 2) / most);
		if (level > 8)
			level = 8;
		cellgrid_put(g, x + c, y, gl->ramp[level], CG_OSRT);
	}
}

void
samprow_top(struct cellgrid *g, int x, int y, int w, int h,
    const struct model *m, int64_t t0, int64_t t1, int sanflags)
{
	struct samples_query	 q;
	struct samples_result	 r;
	const struct samples_row *s;
	char			 line[160];
	int			 nw, k;

	if (w < 20 || h < 1)
		return;
	memset(&q, 0, sizeof q);
	q.t0 = t0;
	q.t1 = t1;
	q.group = SAMPLES_BY_FUNCTION;
	q.tid = -1;
	samples_build(m, &q, &r);
	snprintf(line, sizeof line, "CPU samples in the marked range: %llu "
	    "on %zu thread%s. Top functions by self samples:",
	    (unsigned long long)r.samples, r.threads,
	    r.threads == 1 ? "" : "s");
	cellgrid_text(g, x, y, w, line, ST_ASCII, CG_DETAIL | CGA_BOLD);
	for (k = 1; k < h && (size_t)(k - 1) < r.nrows; k++) {
		s = &r.rows[k - 1];
		snprintf(line, sizeof line, "%7llu %5.1f%% total %7llu  ",
		    (unsigned long long)s->self, r.samples > 0 ?
		    100.0 * (double)s->self / (double)r.samples : 0.0,
		    (unsigned long long)s->total);
		nw = cellgrid_text(g, x, y + k, w, line, ST_ASCII, CG_DETAIL);
		nw += cellgrid_text(g, x + nw, y + k, w - nw, model_str(m,
		    s->func), sanflags | ST_ELLIPSIS, CG_DETAIL | CGA_BOLD);
		if (nw + 4 < w) {
			nw += cellgrid_text(g, x + nw, y + k, w - nw, "  ",
			    ST_ASCII, CG_DETAIL);
			cellgrid_text(g, x + nw, y + k, w - nw, model_str(m,
			    s->module), sanflags | ST_ELLIPSIS, CG_DIM);
		}
	}
	if (r.nrows == 0 && h > 1)
		cellgrid_text(g, x, y + 1, w, "no sample with a call chain "
		    "in the range", ST_ASCII, CG_DIM);
	samples_free(&r);
}
