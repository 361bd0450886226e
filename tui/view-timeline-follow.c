/*
 * view-timeline-follow: following a launch (correlate.h), and the flow
 * mark.
 *
 * follow-launch goes from GPU work (a kernel, copy, memset, sync wait or
 * graph launch) to the API call that launched it, from an API call to the
 * GPU work it launched (back to the event it was reached from, when it
 * launched several), and from an NVTX range to the GPU work launched
 * inside it on its thread: its first operation is selected and the window
 * shows the range's GPU projection (nvtx.h). It acts on the selected event,
 * or else on the event under the cursor on the selected row.
 *
 * The flow mark: while GPU work is selected, its launching call is marked
 * on its CPU row (a terminal cannot draw an arrow between rows): the call's
 * columns are underlined and the row's label ends in a mark.
 */
#include "config.h"

#include <stdio.h>

#include "model/correlate.h"
#include "model/event.h"
#include "model/nvtx.h"
#include "tui/layout.h"
#include "tui/lod.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

uint32_t
tl_under(const struct tl *v)
{
	const struct layout_row	*r;
	struct lod_view		 lv = tl_lodview(v);
	int64_t			 d;

	if (v->sel_gid != NONE32)
		return v->sel_gid;
	if ((r = layout_row(v->lay, v->sel)) == NULL || r->kind != LROW_LANE)
		return NONE32;
	d = lane_dominant(r->lane, lod_colt(&lv, v->cur),
	    lod_colt(&lv, v->cur + 1));
	return d < 0 ? NONE32 : layout_gid(v->lay, r, (size_t)d);
}

/*
 * The first API call on thread th that starts in [s, e) and launched GPU
 * work, or NONE32.
 */
static uint32_t
tl_follow_first_call(const struct model *m, uint32_t th, int64_t s,
    int64_t e)
{
	const struct track	*t;
	const uint32_t		*out;
	uint32_t		 ti, gid, best = NONE32;
	int64_t			 bs = 0;
	size_t			 i;

	for (ti = 0; ti < m->ntracks; ti++) {
		t = &m->tracks[ti];
		if (t->type != TRACK_API || t->thread != th)
			continue;
		for (i = lane_lower(&t->lane, s); i < t->lane.n &&
		    t->lane.start[i] < e; i++) {
			if (best != NONE32 && t->lane.start[i] >= bs)
				break;
			gid = model_gid(m, ti, (uint32_t)i);
			if (correlate_gpu(m, gid, &out) > 0) {
				best = gid;
				bs = t->lane.start[i];
				break;
			}
		}
	}
	return best;
}

int
tl_follow(void *p, const struct tui_key *k, int arg)
{
	struct tl		*v = p;
	const struct model	*m = v->m;
	const struct track	*t;
	const uint32_t		*out;
	struct nvtx_proj	 pj;
	uint32_t		 gid = tl_under(v), to = NONE32, call;
	size_t			 n, i;

	(void)k;
	(void)arg;
	if (gid == NONE32) {
		snprintf(v->msg, sizeof v->msg, "no event to follow: select "
		    "a kernel, copy, API call or NVTX range");
		return REDRAW_STATUS;
	}
	t = event_track(m, gid);
	switch (t->type) {
	case TRACK_GPU:
	case TRACK_SYNC:
		if ((to = correlate_launch(m, gid)) == NONE32) {
			snprintf(v->msg, sizeof v->msg, "no launching call "
			    "is known for it");
			return REDRAW_STATUS;
		}
		tl_jump_push(v);
		v->follow_from = gid;
		tl_show_event(v, to);
		break;
	case TRACK_API:
		if ((n = correlate_gpu(m, gid, &out)) == 0) {
			snprintf(v->msg, sizeof v->msg, "this call launched no "
			    "GPU work");
			return REDRAW_STATUS;
		}
		to = out[0];
		for (i = 0; i < n; i++)
			if (out[i] == v->follow_from)
				to = out[i];
		tl_jump_push(v);
		tl_show_event(v, to);
		if (n > 1 && v->msg[0] == '\0')
			snprintf(v->msg, sizeof v->msg, "the call launched %zu "
			    "GPU operations", n);
		break;
	case TRACK_NVTX:
		call = tl_follow_first_call(m, t->thread, model_ev_start(m,
		    gid), model_ev_end(m, gid));
		if (call == NONE32 || correlate_gpu(m, call, &out) == 0) {
			snprintf(v->msg, sizeof v->msg, "no GPU work was "
			    "launched inside this range");
			return REDRAW_STATUS;
		}
		nvtx_project(m, gid, &pj);
		tl_jump_push(v);
		tl_show_event(v, out[0]);
		if (pj.nops > 0) {
			tl_nav_show(v, pj.start, pj.end);
			v->tc = model_ev_start(m, out[0]);
			tl_clamp(v);
			if (v->msg[0] == '\0')
				snprintf(v->msg, sizeof v->msg, "the range's "
				    "GPU work: %u operation%s", pj.nops,
				    pj.nops == 1 ? "" : "s");
		}
		break;
	default:
		snprintf(v->msg, sizeof v->msg, "only GPU work, API calls and "
		    "NVTX ranges have launches to follow");
		return REDRAW_STATUS;
	}
	return REDRAW_ALL;
}

/*
 * The visible row of the call that launched the selected GPU work, and its
 * columns clipped to the lanes; -1 when there is none to mark.
 */
int
tl_flow_row(const struct tl *v, const struct lod_view *lv, int *c0, int *c1)
{
	const struct track	*t;
	uint32_t		 call;
	size_t			 row;
	int64_t			 s, e;

	if (v->sel_gid == NONE32)
		return -1;
	t = event_track(v->m, v->sel_gid);
	if (t->type != TRACK_GPU && t->type != TRACK_SYNC)
		return -1;
	if ((call = correlate_launch(v->m, v->sel_gid)) == NONE32)
		return -1;
	row = layout_find(v->lay, call);
	if (row == (size_t)-1 || row < v->top ||
	    row >= v->top + (size_t)v->rows_h)
		return -1;
	s = model_ev_start(v->m, call);
	e = model_ev_end(v->m, call);
	*c0 = *c1 = -1;
	if (e >= lv->t0 && s < lv->t0 + lv->span) {
		*c0 = lod_col_of(lv, s);
		*c1 = e > s ? lod_col_of(lv, e - 1) : *c0;
		if (*c0 < 0)
			*c0 = 0;
		if (*c1 >= v->tw)
			*c1 = v->tw - 1;
	}
	return (int)(row - v->top);
}
