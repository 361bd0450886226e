/*
 * replaymark: graph replay boundaries on a stream row. See replaymark.h.
 */
#include "config.h"

#include <stdlib.h>

#include "model/lane.h"
#include "model/replay.h"
#include "tui/replaymark.h"

/* The graph launch that replayed event i of track t, or NONE32. */
static uint32_t
replaymark_call(const struct model *m, uint32_t t, size_t i)
{
	if (i >= m->tracks[t].lane.n)
		return NONE32;
	return replay_call(m, model_gid(m, t, (uint32_t)i));
}

static void
replaymark_put(struct cellgrid *g, int x, int y, int c, int ncols,
    wchar_t ch)
{
	if (c >= 0 && c < ncols)
		cellgrid_put(g, x + c, y, ch, CG_KERNEL | CGA_BOLD);
}

void
replaymark_draw(struct cellgrid *g, int x, int y, const struct model *m,
    uint32_t track, const struct lod_view *lv)
{
	const struct lane	*l;
	uint32_t		*idx = NULL, call, prev;
	size_t			 cap = 0, n, k, i, j;
	int64_t			 s, e;
	int			 c0, c1;

	if (track >= m->ntracks || m->tracks[track].type != TRACK_GPU ||
	    m->launch == NULL)
		return;
	l = &m->tracks[track].lane;
	if (lane_count(l, lv->t0, lv->t0 + lv->span) > REPLAYMARK_MAX)
		return;
	n = lane_overlap(l, lv->t0, lv->t0 + lv->span, &idx, &cap);
	for (k = 0; k < n; k++) {
		i = idx[k];
		if ((call = replaymark_call(m, track, i)) == NONE32)
			continue;
		prev = i > 0 ? replaymark_call(m, track, i - 1) : NONE32;
		if (prev == call)
			continue;	/* not the replay's first on the lane */
		/* The replay's run on this lane: i up to j - 1. */
		for (j = i + 1; j < l->n && replaymark_call(m, track, j) ==
		    call; j++)
			;
		s = l->start[i];
		e = l->end[j - 1];
		for (k = k + 1; k < n && idx[k] < j; k++)
			;
		k--;
		c0 = lod_col_of(lv, s);
		c1 = lod_col_of(lv, e > s ? e - 1 : s);
		if (c1 - c0 < 1)
			continue;
		replaymark_put(g, x, y, c0, lv->ncols, L'[');
		replaymark_put(g, x, y, c1, lv->ncols, L']');
	}
	free(idx);
}
