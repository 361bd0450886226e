/*
 * view-timeline-mark: the marked range (its statistics overlay) and the
 * bookmarks (adding, the list overlay, jumping).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tui/bmstore.h"
#include "tui/bookmark.h"
#include "tui/fmt.h"
#include "tui/layout.h"
#include "tui/rangestat.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

int
tl_mark_range(void *p, const struct tui_key *k, int end)
{
	struct tl	*v = p;
	char		 a[48];
	int64_t		 t;

	v->mark[end] = v->tc;
	v->marked |= end ? 2 : 1;
	if (v->marked != 3) {
		snprintf(v->msg, sizeof v->msg, "range %s at %s; %s marks the "
		    "%s", end ? "end" : "start", fmt_when(a, sizeof a, v->tc,
		    v->m->origin_ns, v->sh->abs_time, v->sh->res), end ? "[" :
		    "]", end ? "start" : "end");
		return REDRAW_RULER | REDRAW_STATUS | REDRAW_DETAIL;
	}
	if (v->mark[1] < v->mark[0]) {
		t = v->mark[0];
		v->mark[0] = v->mark[1];
		v->mark[1] = t;
	}
	if (v->mark[1] == v->mark[0]) {
		/* One column's worth at least. */
		v->mark[1] = v->mark[0] + (v->sh->res > 0 ? v->sh->res : 1);
	}
	rangestat_compute(&v->rs, v->m, v->mark[0], v->mark[1]);
	v->overlay = TL_OV_RANGE;
	return REDRAW_ALL;
}

/* The bookmarks kept for the trace (bmstore.h), if any. */
void
tl_mark_load(struct tl *v)
{
	size_t	n;

	if (v->paths == NULL || v->npaths < 1)
		return;
	n = bmstore_load(&v->bm, v->paths, v->npaths,
	    (uint32_t)v->m->nevents);
	if (n > 0)
		snprintf(v->msg, sizeof v->msg, "%zu bookmark%s kept from "
		    "before (' lists them)", n, n == 1 ? "" : "s");
}

/* Keeps the bookmarks; a failure only says so on the status line. */
static void
tl_mark_save(struct tl *v)
{
	char	*cause = NULL;

	if (v->paths == NULL || v->npaths < 1)
		return;
	if (bmstore_save(&v->bm, v->paths, v->npaths, &cause) != 0) {
		snprintf(v->msg, sizeof v->msg, "bookmarks not saved: %s",
		    cause != NULL ? cause : "no cache directory");
		free(cause);
	}
}

int
tl_mark_bookmark(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	char		 a[48];
	int		 id;

	id = bookmarks_add(&v->bm, v->t0, v->span, v->tc, v->sel_gid);
	if (id < 0)
		snprintf(v->msg, sizeof v->msg, "too many bookmarks");
	else
		snprintf(v->msg, sizeof v->msg, "bookmark %d at %s (' lists "
		    "them)", id, fmt_when(a, sizeof a, v->tc, v->m->origin_ns,
		    v->sh->abs_time, v->sh->res));
	if (id >= 0)
		tl_mark_save(v);
	return REDRAW_STATUS;
}

int
tl_mark_list(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;

	v->overlay = TL_OV_BOOKMARKS;
	if (v->bm_sel >= v->bm.n)
		v->bm_sel = v->bm.n > 0 ? v->bm.n - 1 : 0;
	return REDRAW_ALL;
}

static void
tl_bmjump(struct tl *v, size_t i)
{
	const struct bookmark	*b = &v->bm.b[i];
	size_t			 a;

	tl_jump_push(v);
	v->t0 = b->t0;
	v->span = b->span;
	v->tc = b->cursor;
	tl_clamp(v);
	if (b->gid != NONE32 && (a = layout_find_all(v->lay, b->gid)) !=
	    (size_t)-1) {
		if (layout_reveal(v->lay, a) != (size_t)-1) {
			v->sel = layout_visible(v->lay, a);
			tl_scroll(v);
		}
		tl_select(v, b->gid, NULL, 0);
		tl_resync(v, (size_t)-1);
	}
	snprintf(v->msg, sizeof v->msg, "bookmark %d", b->id);
}

/* A key while the bookmark list is up. */
int
tl_mark_key(struct tl *v, const struct tui_key *k)
{
	size_t	i;

	switch (k->key) {
	case TK_UP:
	case 'k':
		if (v->bm_sel > 0)
			v->bm_sel--;
		return REDRAW_ALL;
	case TK_DOWN:
	case 'j':
		if (v->bm_sel + 1 < v->bm.n)
			v->bm_sel++;
		return REDRAW_ALL;
	case 'd':
		bookmarks_del(&v->bm, v->bm_sel);
		tl_mark_save(v);
		if (v->bm_sel >= v->bm.n && v->bm_sel > 0)
			v->bm_sel--;
		return REDRAW_ALL;
	case TK_ENTER:
		v->overlay = TL_OV_NONE;
		if (v->bm_sel < v->bm.n)
			tl_bmjump(v, v->bm_sel);
		return REDRAW_ALL;
	}
	if (k->key >= '1' && k->key <= '9') {
		i = (size_t)(k->key - '1');
		v->overlay = TL_OV_NONE;
		if (i < v->bm.n) {
			v->bm_sel = i;
			tl_bmjump(v, i);
		}
		return REDRAW_ALL;
	}
	v->overlay = TL_OV_NONE;
	return REDRAW_ALL;
}
