/*
 * view-timeline-jump: the timeline's jump list (jumps.h). Every jump
 * records the position it leaves: a search and its next or previous match,
 * go-to, Home and End, following a launch, a bookmark, and every event or
 * range another view shows here (the NVTX tree, the kernel table, a
 * finding); jump-back and jump-forward walk the list.
 */
#include "config.h"

#include <stdio.h>

#include "tui/jumps.h"
#include "tui/layout.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

static void
tl_jump_here(const struct tl *v, struct jump *j)
{
	j->t0 = v->t0;
	j->span = v->span;
	j->cursor = v->tc;
	j->row = layout_all_index(v->lay, v->sel);
	j->gid = v->sel_gid;
}

void
tl_jump_push(struct tl *v)
{
	struct jump	j;

	tl_jump_here(v, &j);
	jumps_push(&v->jl, &j);
}

/* Puts the view back where j says: window, cursor, row and event. */
static void
tl_jump_go(struct tl *v, const struct jump *j)
{
	size_t	a, row = (size_t)-1;

	tl_select(v, NONE32, NULL, 0);
	if (j->gid != NONE32 && j->gid < v->m->nevents &&
	    (a = layout_find_all(v->lay, j->gid)) != (size_t)-1)
		row = layout_reveal(v->lay, a);
	if (row == (size_t)-1 && j->row != (size_t)-1)
		row = layout_visible(v->lay, j->row);
	if (row != (size_t)-1)
		v->sel = row;
	tl_scroll(v);
	if (j->gid != NONE32 && j->gid < v->m->nevents) {
		tl_select(v, j->gid, NULL, 0);
		tl_resync(v, (size_t)-1);
	}
	v->t0 = j->t0;
	v->span = j->span;
	v->tc = j->cursor;
	tl_clamp(v);
}

/* jump-back (-1), jump-forward (1). */
int
tl_jump(void *p, const struct tui_key *k, int dir)
{
	struct tl	*v = p;
	struct jump	 here, to;
	int		 r;

	(void)k;
	tl_jump_here(v, &here);
	r = dir < 0 ? jumps_back(&v->jl, &here, &to) :
	    jumps_forward(&v->jl, &to);
	if (r != 0) {
		snprintf(v->msg, sizeof v->msg, "no %s jump (u: back, U: "
		    "forward)", dir < 0 ? "earlier" : "later");
		return REDRAW_STATUS;
	}
	tl_jump_go(v, &to);
	snprintf(v->msg, sizeof v->msg, "jump %zu of %zu", v->jl.cur + 1,
	    v->jl.n);
	return REDRAW_ALL;
}
