/*
 * view-timeline-counter: the GPU metrics rows. A GPU's counter track (its
 * GPU metrics, sources/nsys-metrics.c) has a row under the GPU; the
 * timeline draws one counter of it, the chosen one, as a sparkline: per
 * column the largest sample of that counter in the column's time, as a
 * height from the ramp, scaled from min(0, smallest) to the largest
 * sample in the window. counter-next cycles the chosen counter through
 * the names the GPU counter tracks hold, in name order (the first is
 * chosen when the timeline opens); the row's label says which.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"
#include "util/xmalloc.h"

/* Whether row r is a GPU's counter row. */
int
tl_counter_row(const struct tl *v, const struct layout_row *r)
{
	const struct model	*m = v->m;

	return r != NULL && r->kind == LROW_LANE && r->track < m->ntracks &&
	    m->tracks[r->track].type == TRACK_COUNTER &&
	    m->tracks[r->track].device < m->ndevices;
}

/*
 * The counter after cur (0: the first) in name order among those of the
 * GPU counter tracks; 0 when there is none.
 */
static uint32_t
tl_counter_after(const struct tl *v, uint32_t cur)
{
	const struct model	*m = v->m;
	const char		*cs = cur != 0 ? model_str(m, cur) : NULL;
	const char		*best = NULL, *first = NULL, *s;
	uint32_t		 bid = 0, fid = 0, last = 0;
	size_t			 t, i;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;

		if (m->tracks[t].type != TRACK_COUNTER ||
		    m->tracks[t].device >= m->ndevices)
			continue;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_COUNTER || l->name[i] == last)
				continue;
			last = l->name[i];
			s = model_str(m, last);
			if (first == NULL || strcmp(s, first) < 0) {
				first = s;
				fid = last;
			}
			if (cs != NULL && strcmp(s, cs) > 0 &&
			    (best == NULL || strcmp(s, best) < 0)) {
				best = s;
				bid = last;
			}
		}
	}
	return best != NULL ? bid : fid;
}

void
tl_counter_init(struct tl *v)
{
	v->counter = tl_counter_after(v, 0);
}

int
tl_counter_next(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	(void)k;
	(void)arg;
	if (v->counter == 0 && (v->counter = tl_counter_after(v, 0)) == 0) {
		snprintf(v->msg, sizeof v->msg, "no GPU metrics in this trace");
		return REDRAW_STATUS;
	}
	v->counter = tl_counter_after(v, v->counter);
	snprintf(v->msg, sizeof v->msg, "GPU metrics row: %.120s",
	    model_str(v->m, v->counter));
	return TL_ROWS;
}

/* The label of a counter row: the chosen counter. */
const char *
tl_counter_label(const struct tl *v)
{
	return v->counter != 0 ? model_str(v->m, v->counter) : NULL;
}

/* Draws the chosen counter of row r's track as a sparkline at row y. */
void
tl_counter_draw(struct tl *v, struct cellgrid *g, int y,
    const struct layout_row *r, const struct lod_view *lv)
{
	const struct model	*m = v->m;
	const struct lane	*l = &m->tracks[r->track].lane;
	double			*col, lo = 0, hi = 0, x;
	int			 c, any = 0, h;
	size_t			 i;
	int64_t			 t1 = lv->t0 + lv->span;

	if (v->counter == 0 || lv->ncols <= 0)
		return;
	col = xcalloc((size_t)lv->ncols, sizeof *col);
	for (c = 0; c < lv->ncols; c++)
		col[c] = -1;
	/* Per column the largest sample; unset columns stay empty. */
	{
		uint8_t	*set = xcalloc((size_t)lv->ncols, 1);

		for (i = lane_lower(l, lv->t0); i < l->n && l->start[i] < t1;
		    i++) {
			if (l->kind[i] != EV_COUNTER ||
			    l->name[i] != v->counter ||
			    l->aux[i] >= m->ncounters)
				continue;
			c = lod_col_of(lv, l->start[i]);
			if (c < 0 || c >= lv->ncols)
				continue;
			x = m->counters[l->aux[i]];
			if (!set[c] || x > col[c])
				col[c] = x;
			set[c] = 1;
			if (!any || x < lo)
				lo = x;
			if (!any || x > hi)
				hi = x;
			any = 1;
		}
		for (c = 0; c < lv->ncols; c++) {
			if (!set[c])
				continue;
			if (lo > 0)
				lo = 0;
			h = hi > lo ? 1 + (int)((col[c] - lo) / (hi - lo) *
			    7.0 + 0.5) : 1;
			if (h > 8)
				h = 8;
			if (h < 1)
				h = 1;
			cellgrid_put(g, v->tx + c, y, v->gl->ramp[h],
			    CG_OTHER);
		}
		free(set);
	}
	free(col);
}
