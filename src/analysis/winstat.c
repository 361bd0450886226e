/*
 * winstat: busy streams and kernel time by name in a window. See
 * winstat.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "analysis/gstats.h"
#include "analysis/winstat.h"
#include "model/lane.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* Streams by device source id, then stream source id. */
static int
winstat_stream_cmp(const void *a, const void *b, void *ctx)
{
	const struct model		*m = ctx;
	const struct winstat_stream	*x = a, *y = b;
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

struct winstat *
winstat_compute(const struct model *m, int64_t t0, int64_t t1)
{
	struct winstat		*w;
	struct gstats_sel	 sel;
	const struct lane	*l;
	size_t			 scap = 0;
	uint32_t		 t;
	int			 axis = GS_NAME;

	w = xcalloc(1, sizeof *w);
	w->t0 = t0;
	w->t1 = t1;
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		l = &m->tracks[t].lane;
		XGROW(w->s, scap, w->ns + 1);
		w->s[w->ns].track = t;
		w->s[w->ns].busy = lane_busy(l, t0, t1);
		w->s[w->ns].events = lane_count(l, t0, t1);
		w->ns++;
	}
	sort_stable(w->s, w->ns, sizeof *w->s, winstat_stream_cmp,
	    (void *)m);
	gstats_sel_all(&sel);
	sel.t0 = t0;
	sel.t1 = t1;
	sel.kind = EV_KERNEL;
	w->k = gstats_compute(m, &sel, &axis, 1, GS_SUMS | GS_CLIP);
	return w;
}

void
winstat_free(struct winstat *w)
{
	if (w == NULL)
		return;
	free(w->s);
	gstats_free(w->k);
	free(w);
}
