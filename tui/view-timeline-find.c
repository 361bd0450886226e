/*
 * view-timeline-find: the prompts (search event names, go to a time, the
 * minimum-duration filter) and stepping through the search's matches.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/fmt.h"
#include "tui/layout.h"
#include "tui/prompt.h"
#include "tui/search.h"
#include "util/units.h"
#include "tui/view-timeline.h"
#include "tui/view-timeline-int.h"

int
tl_find_prompt(void *p, const struct tui_key *k, int id)
{
	struct tl	*v = p;
	char		 buf[96], d[32];

	switch (id) {
	case TL_PR_SEARCH:
		prompt_open(&v->pr, id, "search: ", NULL);
		break;
	case TL_PR_GOTO:
		prompt_open(&v->pr, id, "go to (e.g. 1.5ms; @T absolute): ",
		    NULL);
		break;
	case TL_PR_MINDUR:
		/* The prompt starts empty; the filter in force is in its
		 * label. */
		if (v->min_dur > 0)
			snprintf(buf, sizeof buf, "min duration (now %s; "
			    "empty: all): ", fmt_time(d, sizeof d, v->min_dur));
		else
			snprintf(buf, sizeof buf, "min duration (e.g. 10us; "
			    "empty: all): ");
		prompt_open(&v->pr, id, buf, NULL);
		break;
	}
	return REDRAW_STATUS;
}

/* Selects event idx of all-row a's lane, revealing the row. */
static void
tl_select_at(struct tl *v, size_t a, size_t idx)
{
	const struct layout_row	*r = layout_all(v->lay, a);
	size_t			 row;

	row = layout_reveal(v->lay, a);
	if (row != (size_t)-1) {
		v->prev_sel = v->sel;
		v->sel = row;
		tl_scroll(v);
	}
	tl_select(v, layout_gid(v->lay, r, idx), r->lane, idx);
	tl_nav_goto(v, r->lane->start[idx]);
}

/* The next (dir 1) or previous (-1) match from the selection or cursor. */
static int
tl_find_step(struct tl *v, int dir)
{
	struct search_pos	 from, to;
	size_t			 a;

	if (v->srch.pat[0] == '\0') {
		snprintf(v->msg, sizeof v->msg, "no search yet: / searches "
		    "event names");
		return REDRAW_STATUS;
	}
	from.start = v->tc;
	from.row = (size_t)-1;
	from.idx = 0;
	a = layout_all_index(v->lay, v->sel);
	if (v->sel_gid != NONE32 && v->sel_lane != NULL && a != (size_t)-1 &&
	    layout_all(v->lay, a)->lane == v->sel_lane) {
		from.start = v->sel_lane->start[v->sel_idx];
		from.row = a;
		from.idx = v->sel_idx;
	}
	if (search_step(&v->srch, v->lay, &from, dir, &to) != 0) {
		snprintf(v->msg, sizeof v->msg, "no match for \"%.60s\"",
		    v->srch.pat);
		return REDRAW_STATUS;
	}
	tl_select_at(v, to.row, to.idx);
	snprintf(v->msg, sizeof v->msg, "match %llu of %llu",
	    (unsigned long long)search_rank(&v->srch, v->lay, &to),
	    (unsigned long long)v->srch.total);
	return TL_VIEW;
}

int
tl_find_match(void *p, const struct tui_key *k, int dir)
{
	struct tl	*v = p;

	(void)k;
	if (v->srch.pat[0] != '\0' && v->srch.total > 0)
		tl_jump_push(v);
	return tl_find_step(v, dir);
}

static void
tl_search(struct tl *v, const char *pat)
{
	uint64_t	n;

	n = search_build(&v->srch, v->lay, pat);
	if (pat[0] == '\0')
		return;
	if (n == 0) {
		snprintf(v->msg, sizeof v->msg, "no event name contains "
		    "\"%.60s\"", pat);
		return;
	}
	/* The first match at or after the cursor. */
	tl_jump_push(v);
	tl_select(v, NONE32, NULL, 0);
	tl_find_step(v, 1);
}

static void
tl_setfilter(struct tl *v, int64_t ns)
{
	size_t	a = layout_all_index(v->lay, v->sel);
	char	buf[32];

	v->min_dur = ns;
	v->nfiltered = layout_set_min_dur(v->lay, ns);
	tl_resync(v, a);
	if (v->srch.pat[0] != '\0')
		search_build(&v->srch, v->lay, v->srch.pat);
	if (ns == 0)
		snprintf(v->msg, sizeof v->msg, "filter off");
	else
		snprintf(v->msg, sizeof v->msg, "filter: %llu events of at "
		    "least %s", (unsigned long long)v->nfiltered,
		    fmt_time(buf, sizeof buf, ns));
}

int
tl_find_done(struct tl *v)
{
	int64_t	t;
	int	abs;

	switch (v->pr.id) {
	case TL_PR_SEARCH:
		tl_search(v, v->pr.buf);
		break;
	case TL_PR_GOTO:
		if (units_parse_time(v->pr.buf, &t, &abs) != 0) {
			snprintf(v->msg, sizeof v->msg, "not a time: \"%.40s\" "
			    "(e.g. 12ms, 1.5s, @T)", v->pr.buf);
			break;
		}
		if (!abs)
			t += v->m->origin_ns;
		tl_jump_push(v);
		if (t < v->m->origin_ns || t > v->m->end_ns)
			snprintf(v->msg, sizeof v->msg, "outside the trace: "
			    "moved to its %s", t < v->m->origin_ns ? "start" :
			    "end");
		tl_nav_goto(v, t);
		break;
	case TL_PR_MINDUR:
		if (v->pr.buf[strspn(v->pr.buf, " ")] == '\0')
			t = 0;
		else if (units_parse_dur(v->pr.buf, &t) != 0 || t < 0) {
			snprintf(v->msg, sizeof v->msg, "not a duration: "
			    "\"%.40s\" (e.g. 10us)", v->pr.buf);
			break;
		}
		tl_setfilter(v, t);
		break;
	}
	return REDRAW_ALL;
}
