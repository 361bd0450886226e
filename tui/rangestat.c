/*
 * rangestat: the overlay of a marked range's statistics. See rangestat.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/fmt.h"
#include "tui/overlay.h"
#include "tui/rangestat.h"
#include "tui/safetext.h"
#include "util/sort.h"
#include "util/xmalloc.h"

void
rangestat_init(struct rangestat *r)
{
	memset(r, 0, sizeof *r);
}

void
rangestat_free(struct rangestat *r)
{
	winstat_free(r->w);
	free(r->order);
	memset(r, 0, sizeof *r);
}

/* Kernels by time in the range, descending, then count, then name. */
static int
rangestat_kernel_cmp(const void *a, const void *b, void *ctx)
{
	const struct gstats		*k = ctx;
	const struct gstats_group	*x = &k->g[*(const uint32_t *)a];
	const struct gstats_group	*y = &k->g[*(const uint32_t *)b];

	return sort_lex3(y->dur.total, x->dur.total, (int64_t)y->dur.count,
	    (int64_t)x->dur.count, x->name, y->name);
}

void
rangestat_compute(struct rangestat *r, const struct model *m, int64_t t0,
    int64_t t1)
{
	size_t	i;

	rangestat_free(r);
	r->t0 = t0;
	r->t1 = t1;
	r->w = winstat_compute(m, t0, t1);
	r->nk = r->w->k->ng;
	r->order = xcalloc(r->nk + 1, sizeof *r->order);
	for (i = 0; i < r->nk; i++)
		r->order[i] = (uint32_t)i;
	sort_stable(r->order, r->nk, sizeof *r->order, rangestat_kernel_cmp,
	    r->w->k);
}

const struct gstats_group *
rangestat_kernel(const struct rangestat *r, size_t i)
{
	return &r->w->k->g[r->order[i]];
}

static void
rangestat_stream_label(const struct model *m, uint32_t t, char *buf,
    size_t len)
{
	const struct track	*tr = &m->tracks[t];
	char			 dev[16] = "?", str[24] = "?";

	if (tr->device < m->ndevices)
		snprintf(dev, sizeof dev, "%u", m->devices[tr->device].source_id);
	if (tr->stream < m->nstreams)
		snprintf(str, sizeof str, "%llu", (unsigned long long)
		    m->streams[tr->stream].source_id);
	snprintf(buf, len, "GPU %s stream %s", dev, str);
}

void
rangestat_draw(struct cellgrid *g, const struct glyph *gl, int w, int h,
    const struct rangestat *r, const struct model *m, int abs, int sanflags)
{
	const struct winstat		*ws = r->w;
	const struct gstats_group	*kg;
	char				 a[48], b[48], c[32], title[160];
	char				 line[160];
	int				 bw, bh, x0, y0, y, ymax, i, barw;
	int				 fill, nw;
	size_t				 k;
	double				 f;
	int64_t				 span = r->t1 - r->t0, ktime;

	bw = w - 4 < 100 ? w - 4 : 100;
	bh = h - 3;
	if (ws == NULL || bw < 30 || bh < 6)
		return;
	ktime = ws->k->grand;
	x0 = (w - bw) / 2;
	y0 = 1;
	fmt_when(a, sizeof a, r->t0, m->origin_ns, abs, span / 1000 + 1);
	fmt_when(b, sizeof b, r->t1, m->origin_ns, abs, span / 1000 + 1);
	fmt_time(c, sizeof c, span);
	snprintf(title, sizeof title, " Range %s .. %s (%s) - any key "
	    "closes ", a, b, c);
	overlay_box(g, gl, x0, y0, bw, bh, title);
	y = y0 + 1;
	ymax = y0 + bh - 1;
	cellgrid_text(g, x0 + 2, y++, bw - 4, "Busy per GPU stream", ST_ASCII,
	    CG_HELP | CGA_BOLD | CGA_UNDERLINE);
	barw = bw - 4 - 36;
	if (barw > 30)
		barw = 30;
	for (k = 0; k < ws->ns && y < ymax - 3; k++) {
		if (k + 1 < ws->ns && y == ymax - 4) {
			snprintf(line, sizeof line, "... %zu more streams",
			    ws->ns - k);
			cellgrid_text(g, x0 + 2, y++, bw - 4, line, ST_ASCII,
			    CG_HELP);
			break;
		}
		rangestat_stream_label(m, ws->s[k].track, a, sizeof a);
		f = span > 0 ? (double)ws->s[k].busy / (double)span : 0;
		snprintf(line, sizeof line, "%-22.22s %5.1f%% ", a, 100 * f);
		nw = cellgrid_text(g, x0 + 2, y, bw - 4, line, ST_ASCII,
		    CG_HELP);
		if (barw > 0) {
			fill = (int)(f * barw + 0.5);
			for (i = 0; i < barw; i++)
				cellgrid_put(g, x0 + 2 + nw + i, y, i < fill ?
				    gl->ramp[8] : gl->ramp[1], i < fill ?
				    CG_KERNEL : CG_DIM);
		}
		y++;
	}
	y++;
	if (y >= ymax)
		return;
	fmt_time(c, sizeof c, ktime);
	snprintf(line, sizeof line, "Top kernels by time in range (%llu "
	    "kernels, %s)", (unsigned long long)ws->k->nevents, c);
	cellgrid_text(g, x0 + 2, y++, bw - 4, line, ST_ASCII,
	    CG_HELP | CGA_BOLD | CGA_UNDERLINE);
	if (y < ymax) {
		cellgrid_text(g, x0 + 2, y++, bw - 4, "    time  share   count  "
		    "name", ST_ASCII, CG_HELP | CGA_BOLD);
	}
	for (k = 0; k < r->nk && y < ymax; k++, y++) {
		kg = rangestat_kernel(r, k);
		fmt_time(c, sizeof c, kg->dur.total);
		snprintf(line, sizeof line, "%8s %5.1f%% %7llu  ", c,
		    ktime > 0 ? 100.0 * (double)kg->dur.total /
		    (double)ktime : 0.0, (unsigned long long)kg->dur.count);
		nw = cellgrid_text(g, x0 + 2, y, bw - 4, line, ST_ASCII,
		    CG_HELP);
		cellgrid_text(g, x0 + 2 + nw, y, bw - 4 - nw,
		    model_str(m, kg->short_name != 0 ? kg->short_name :
		    kg->name), sanflags | ST_ELLIPSIS,
		    CG_HELP);
	}
	if (r->nk == 0 && y < ymax)
		cellgrid_text(g, x0 + 2, y, bw - 4, "no kernel in the range",
		    ST_ASCII, CG_HELP);
}
