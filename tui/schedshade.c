/*
 * schedshade: CPU thread rows shaded by scheduling state (schedshade.h).
 */
#include "config.h"

#include <stdlib.h>

#include "analysis/threads.h"
#include "tui/schedshade.h"
#include "util/xmalloc.h"

uint32_t *
schedshade_map(const struct model *m)
{
	uint32_t	*map;
	size_t		 i;

	if (!threads_have(m) || m->nthreads == 0)
		return NULL;
	map = xreallocarray(NULL, m->nthreads, sizeof *map);
	for (i = 0; i < m->nthreads; i++)
		map[i] = threads_find(m, m->threads[i].source_id);
	return map;
}

void
schedshade_draw(struct cellgrid *g, int x, int y, const struct model *m,
    uint32_t st, const struct lod_view *lv, const struct glyph *gl)
{
	const struct sched_thread	*th;
	const struct sched_run		*r;
	struct cell			*c;
	size_t				 k, lo, hi, mid, end;
	int64_t				 t0, t1;
	int				 col;

	if (st >= m->nsched_threads)
		return;
	th = &m->sched_threads[st];
	r = m->sched_runs + th->run0;
	end = th->nrun;
	/* The first run that ends after the window starts. */
	lo = 0;
	hi = end;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r[mid].end <= lv->t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = lo;
	for (col = 0; col < lv->ncols; col++) {
		t0 = lod_colt(lv, col);
		t1 = lod_colt(lv, col + 1);
		while (k < end && r[k].end <= t0)
			k++;
		if (k < end && r[k].start < t1)
			continue;		/* it ran in this column */
		c = cellgrid_at(g, x + col, y);
		if (c != NULL && c->ch == L' ')
			cellgrid_put(g, x + col, y, gl->wait, CG_DIM);
	}
}
