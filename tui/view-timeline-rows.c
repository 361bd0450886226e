/*
 * view-timeline-rows: which rows show: folding a group or all of them,
 * hiding the API rows, showing the GPU streams' sync and overlap rows.
 */
#include "config.h"

#include <stdio.h>

#include "tui/layout.h"
#include "tui/search.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

int
tl_rows_fold(void *p, const struct tui_key *k, int arg)
{
	struct tl		*v = p;
	const struct layout_row	*r = layout_row(v->lay, v->sel), *h;
	size_t			 i;

	if (r == NULL)
		return 0;
	if (r->kind == LROW_GROUP) {
		layout_toggle(v->lay, v->sel);
		tl_resync(v, (size_t)-1);
		return TL_ROWS;
	}
	if (r->group == NONE32)
		return 0;
	/* Collapse the row's group and select its header (above it). */
	for (i = v->sel; i > 0; i--) {
		h = layout_row(v->lay, i - 1);
		if (h->kind == LROW_GROUP && h->group == r->group)
			break;
	}
	if (i == 0)
		return 0;
	layout_set_collapsed(v->lay, r->group, 1);
	v->prev_sel = v->sel;
	v->sel = i - 1;
	tl_resync(v, (size_t)-1);
	return TL_ROWS;
}

int
tl_rows_foldall(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	size_t		 g, a = layout_all_index(v->lay, v->sel);
	int		 any = 0;

	for (g = 0; g < v->lay->ngroups; g++)
		if (!v->lay->groups[g].collapsed)
			any = 1;
	layout_collapse_all(v->lay, any);
	tl_resync(v, a);
	return TL_ROWS;
}

int
tl_rows_api(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	size_t		 a = layout_all_index(v->lay, v->sel);

	v->hidden ^= 1u << TRACK_API;
	layout_set_hidden(v->lay, v->hidden);
	tl_resync(v, a);
	if (v->srch.pat[0] != '\0')
		search_build(&v->srch, v->lay, v->srch.pat);
	snprintf(v->msg, sizeof v->msg, "API rows %s",
	    (v->hidden & (1u << TRACK_API)) ? "hidden" : "shown");
	return TL_ROWS;
}

/*
 * Per-stream sync rows and a stream's overlap rows (one per depth) cost a
 * row each and are rarely what one reads first: the timeline starts
 * without them (a stream's overlapping events share its row, the longer
 * one drawn over the shorter; sync waits stay in the GPU's header row).
 * This shows or hides them, together.
 */
int
tl_rows_sync(void *p, const struct tui_key *k, int arg)
{
	struct tl	*v = p;
	size_t		 a = layout_all_index(v->lay, v->sel);

	if ((v->hidden & LAYOUT_HIDE_DETAIL) != 0)
		v->hidden &= ~LAYOUT_HIDE_DETAIL;
	else
		v->hidden |= LAYOUT_HIDE_DETAIL;
	layout_set_hidden(v->lay, v->hidden);
	tl_resync(v, a);
	if (v->srch.pat[0] != '\0')
		search_build(&v->srch, v->lay, v->srch.pat);
	snprintf(v->msg, sizeof v->msg, "sync and overlap rows %s",
	    (v->hidden & LAYOUT_HIDE_DETAIL) ? "hidden" : "shown");
	return TL_ROWS;
}
