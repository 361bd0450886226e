/*
 * bookmark: the session's bookmarks. See bookmark.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/bookmark.h"
#include "tui/fmt.h"
#include "tui/overlay.h"
#include "tui/safetext.h"
#include "util/xmalloc.h"

void
bookmarks_init(struct bookmarks *bm)
{
	memset(bm, 0, sizeof *bm);
}

void
bookmarks_free(struct bookmarks *bm)
{
	free(bm->b);
	memset(bm, 0, sizeof *bm);
}

int
bookmarks_add(struct bookmarks *bm, int64_t t0, int64_t span,
    int64_t cursor, uint32_t gid)
{
	struct bookmark	*b;

	if (bm->n >= BOOKMARK_MAX)
		return -1;
	XGROW(bm->b, bm->cap, bm->n + 1);
	b = &bm->b[bm->n++];
	b->t0 = t0;
	b->span = span;
	b->cursor = cursor;
	b->gid = gid;
	b->id = ++bm->next_id;
	return b->id;
}

void
bookmarks_del(struct bookmarks *bm, size_t i)
{
	if (i >= bm->n)
		return;
	memmove(&bm->b[i], &bm->b[i + 1], (bm->n - i - 1) * sizeof *bm->b);
	bm->n--;
}

void
bookmarks_draw(struct cellgrid *g, const struct glyph *gl, int w, int h,
    const struct bookmarks *bm, size_t sel, const struct model *m, int abs,
    int sanflags)
{
	const struct bookmark	*b;
	char			 a[48], s[32], line[128];
	int			 bw, bh, x0, y0, y, rows, nw;
	size_t			 i, first = 0;

	bw = w - 4 < 90 ? w - 4 : 90;
	rows = (int)bm->n;
	if (rows > h - 6)
		rows = h - 6;
	if (rows < 1)
		rows = 1;
	bh = rows + 4;
	if (bw < 30 || bh > h)
		return;
	x0 = (w - bw) / 2;
	y0 = (h - 1 - bh) / 2;
	overlay_box(g, gl, x0, y0, bw, bh, " Bookmarks: Enter or 1-9 jumps, "
	    "d deletes, Esc closes ");
	if (bm->n == 0) {
		cellgrid_text(g, x0 + 2, y0 + 2, bw - 4, "No bookmarks: m sets "
		    "one at the cursor.", ST_ASCII, CG_HELP);
		return;
	}
	if (sel >= (size_t)rows)
		first = sel - (size_t)rows + 1;
	for (i = first, y = y0 + 2; i < bm->n && y < y0 + 2 + rows; i++, y++) {
		b = &bm->b[i];
		fmt_when(a, sizeof a, b->cursor, m->origin_ns, abs,
		    b->span / 1000 + 1);
		fmt_time(s, sizeof s, b->span);
		snprintf(line, sizeof line, "%2d  %-14s window %-9s ", b->id, a,
		    s);
		nw = cellgrid_text(g, x0 + 2, y, bw - 4, line, ST_ASCII,
		    CG_HELP);
		if (b->gid != NONE32 && b->gid < m->nevents)
			cellgrid_text(g, x0 + 2 + nw, y, bw - 4 - nw,
			    model_str(m, model_ev_name(m, b->gid)),
			    sanflags | ST_ELLIPSIS, CG_HELP);
		if (i == sel)
			cellgrid_attr(g, x0 + 1, y, bw - 2, CGA_REVERSE, 1);
	}
}
