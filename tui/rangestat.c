/*
 * rangestat: busy streams and top kernels in a time range. See
 * rangestat.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/fmt.h"
#include "util/hmap.h"
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
	free(r->s);
	free(r->k);
	memset(r, 0, sizeof *r);
}

/* Streams by device source id, then stream source id. */
static int
rangestat_stream_cmp(const void *a, const void *b, void *ctx)
{
	const struct model		*m = ctx;
	const struct rangestat_stream	*x = a, *y = b;
	const struct track		*tx = &m->tracks[x->track];
	const struct track		*ty = &m->tracks[y->track];
	uint64_t			 dx, dy, sx, sy;

	dx = tx->device < m->ndevices ? m->devices[tx->device].source_id :
	    UINT64_MAX;
	dy = ty->device < m->ndevices ? m->devices[ty->device].source_id :
	    UINT64_MAX;
	if (dx != dy)
		return dx < dy ? -1 : 1;
	sx = tx->stream < m->nstreams ? m->streams[tx->stream].source_id : 0;
	sy = ty->stream < m->nstreams ? m->streams[ty->stream].source_id : 0;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

static int
rangestat_kernel_cmp(const void *a, const void *b)
{
	const struct rangestat_kernel	*x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* Adds kernel i of l to the per-name table. */
static void
rangestat_add(struct rangestat *r, const struct model *m, struct hmap *by,
    size_t *cap, const struct lane *l, size_t i)
{
	struct rangestat_kernel	*k;
	uint32_t		*slot;
	int64_t			 s, e;
	int			 isnew;

	if (l->kind[i] != EV_KERNEL)
		return;
	s = l->start[i] > r->t0 ? l->start[i] : r->t0;
	e = l->end[i] < r->t1 ? l->end[i] : r->t1;
	slot = hmap_upsert(by, l->name[i], (uint32_t)r->nk, &isnew);
	if (isnew) {
		XGROW(r->k, *cap, r->nk + 1);
		k = &r->k[r->nk++];
		memset(k, 0, sizeof *k);
		k->name = l->name[i];
		if (l->aux[i] != NONE32 && l->aux[i] < m->nkernels)
			k->short_name = m->kernels[l->aux[i]].short_name;
	}
	k = &r->k[*slot];
	k->count++;
	k->time += e > s ? e - s : 0;
	r->nkernels++;
	r->ktime += e > s ? e - s : 0;
}

void
rangestat_compute(struct rangestat *r, const struct model *m, int64_t t0,
    int64_t t1)
{
	const struct lane	*l;
	struct hmap		 by;
	uint32_t		*buf = NULL;
	size_t			 t, i, n, cap = 0, kcap = 0, scap = 0;

	rangestat_free(r);
	r->t0 = t0;
	r->t1 = t1;
	hmap_init(&by);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		l = &m->tracks[t].lane;
		XGROW(r->s, scap, r->ns + 1);
		r->s[r->ns].track = (uint32_t)t;
		r->s[r->ns].busy = lane_busy(l, t0, t1);
		r->s[r->ns].events = lane_count(l, t0, t1);
		r->ns++;
		if (!l->overlaps) {
			/* Contiguous: from the first live event on. */
			i = lane_lower(l, t0);
			while (i > 0 && l->end[i - 1] > t0)
				i--;
			for (; i < l->n && l->start[i] < t1; i++)
				if (l->end[i] > t0 || (l->start[i] >= t0 &&
				    l->end[i] == l->start[i]))
					rangestat_add(r, m, &by, &kcap, l,
					    i);
			continue;
		}
		n = lane_overlap(l, t0, t1, &buf, &cap);
		for (i = 0; i < n; i++)
			rangestat_add(r, m, &by, &kcap, l, buf[i]);
	}
	free(buf);
	hmap_free(&by);
	sort_stable(r->s, r->ns, sizeof *r->s, rangestat_stream_cmp,
	    (void *)m);
	if (r->nk > 1)
		qsort(r->k, r->nk, sizeof *r->k, rangestat_kernel_cmp);
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
	char		 a[48], b[48], c[32], title[160], line[160];
	int		 bw, bh, x0, y0, y, ymax, i, barw, fill, nw;
	size_t		 k;
	double		 f;
	int64_t		 span = r->t1 - r->t0;

	bw = w - 4 < 100 ? w - 4 : 100;
	bh = h - 3;
	if (bw < 30 || bh < 6)
		return;
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
	for (k = 0; k < r->ns && y < ymax - 3; k++) {
		if (k + 1 < r->ns && y == ymax - 4) {
			snprintf(line, sizeof line, "... %zu more streams",
			    r->ns - k);
			cellgrid_text(g, x0 + 2, y++, bw - 4, line, ST_ASCII,
			    CG_HELP);
			break;
		}
		rangestat_stream_label(m, r->s[k].track, a, sizeof a);
		f = span > 0 ? (double)r->s[k].busy / (double)span : 0;
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
	fmt_time(c, sizeof c, r->ktime);
	snprintf(line, sizeof line, "Top kernels by time in range (%llu "
	    "kernels, %s)", (unsigned long long)r->nkernels, c);
	cellgrid_text(g, x0 + 2, y++, bw - 4, line, ST_ASCII,
	    CG_HELP | CGA_BOLD | CGA_UNDERLINE);
	if (y < ymax) {
		cellgrid_text(g, x0 + 2, y++, bw - 4, "    time  share   count  "
		    "name", ST_ASCII, CG_HELP | CGA_BOLD);
	}
	for (k = 0; k < r->nk && y < ymax; k++, y++) {
		fmt_time(c, sizeof c, r->k[k].time);
		snprintf(line, sizeof line, "%8s %5.1f%% %7llu  ", c,
		    r->ktime > 0 ? 100.0 * (double)r->k[k].time /
		    (double)r->ktime : 0.0, (unsigned long long)r->k[k].count);
		nw = cellgrid_text(g, x0 + 2, y, bw - 4, line, ST_ASCII,
		    CG_HELP);
		cellgrid_text(g, x0 + 2 + nw, y, bw - 4 - nw,
		    model_str(m, r->k[k].short_name != 0 ?
		    r->k[k].short_name : r->k[k].name), sanflags | ST_ELLIPSIS,
		    CG_HELP);
	}
	if (r->nk == 0 && y < ymax)
		cellgrid_text(g, x0 + 2, y, bw - 4, "no kernel in the range",
		    ST_ASCII, CG_HELP);
}
