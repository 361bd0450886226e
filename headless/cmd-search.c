/*
 * cmd-search: `gpulens search` lists the events the shared filters select
 * (window, --nvtx/--iter, device, stream, pid, tid, name glob or regex,
 * minimum duration, --type), one row per event with its row id and the
 * headline columns of evrow.h. The key is "ev|id=<gid>", the id that inspect
 * and correlate accept. Default order: start_ns ascending.
 *
 * Rows are cJSON objects, which cost about a kilobyte each; so when the
 * order is by a field the lanes hold (start_ns, end_ns, duration_ns, id)
 * and --limit is not 0, only the requested page is turned into rows: a
 * bounded heap keeps the first --offset + --limit events in the requested
 * order (ties by key, as out.c breaks them) while the number matched is
 * counted, and the envelope's total_matched still counts all.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evpage.h"
#include "headless/evrow.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "util/xmalloc.h"

#define SEARCH_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_TYPE)

const struct cmd_entry cmd_search_entry = {
	.name = "search",
	.usage = "gpulens search [OPTIONS] TRACE",
	.help =
	"Lists the events that the filters select, one row per event: its row\n"
	"id (key \"ev|id=<id>\", accepted by inspect and correlate), kind,\n"
	"name, start, duration, device, stream, pid and tid (for GPU work, the\n"
	"launching thread), grid and block of kernels, bytes and direction of\n"
	"copies. Sorted by start unless --sort says otherwise.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = SEARCH_OPTS,
	.model = cmd_search_run,
	.hints = {
	    { "gpulens inspect %s " OUT_ROWF("key"), 1 },
	    { "gpulens correlate %s " OUT_ROWF("key"), 1 } }
};

enum search_field {
	SF_NONE = 0, SF_START, SF_END, SF_DUR, SF_ID
};

/* The sort fields the lanes hold, in enum search_field's order from 1. */
static const char *const search_fields[] = {
	"start_ns", "end_ns", "duration_ns", "id", NULL
};

/* The cheap sort field named by spec ("field[:asc|desc]", desc by default
 * as out.c has it), or SF_NONE. */
static enum search_field
search_field(const char *spec, int *desc)
{
	return (enum search_field)(evpage_field(spec, search_fields, desc) +
	    1);
}

static int64_t
search_value(const struct lane *l, uint32_t i, uint32_t gid,
    enum search_field f)
{
	switch (f) {
	case SF_START:
		return l->start[i];
	case SF_END:
		return l->end[i];
	case SF_DUR:
		return l->end[i] - l->start[i];
	default:
		return gid;
	}
}

/* What the walk keeps: the page's heap, or every match (eager). */
struct search_acc {
	struct evpage		 hp;
	enum search_field	 f;
	uint32_t		*eager;
	size_t			 ne, ecap;
	size_t			 n;		/* matches counted */
};

/* Keeps selected event i of lane l (global id gid). */
static void
search_take(struct search_acc *a, const struct lane *l, uint32_t i,
    uint32_t gid)
{
	if (a->hp.h != NULL) {
		evpage_add(&a->hp, search_value(l, i, gid, a->f), gid);
		return;
	}
	XGROW(a->eager, a->ecap, a->ne + 1);
	a->eager[a->ne++] = gid;
}

/*
 * The events of track t when the selection looks at nothing of them but
 * their kind (sel_lane_plain()): counted without a test when any kind
 * goes, and kept. By start or id, the lane's own order, the walk for the
 * page's heap goes from the end the order starts at and stops at the first
 * event whose value the full heap refuses: the heap's last item can only
 * move towards the front, and every event after it has a value as far
 * back (an equal value still goes in, to be ranked by its key).
 */
static void
search_lane(struct search_acc *a, const struct sel *s, uint32_t t,
    uint32_t **idx, size_t *icap)
{
	const struct model	*m = s->m;
	const struct lane	*l = &m->tracks[t].lane;
	const uint32_t		*ix = NULL;
	struct evpage		*hp = &a->hp;
	size_t			 n, j, i;
	int			 mono, back;
	int64_t			 v;

	if (l->n == 0)
		return;
	if (s->t0 <= l->start[0] && s->t1 > l->start[l->n - 1])
		n = l->n;	/* every event starts inside */
	else {
		n = lane_overlap(l, s->t0, s->t1, idx, icap);
		ix = *idx;
	}
	if (s->kind == 0)
		a->n += n;
	else
		for (j = 0; j < n; j++)
			a->n += (size_t)sel_kind(s, l, ix != NULL ? ix[j] : j);
	mono = hp->h != NULL && (a->f == SF_START || a->f == SF_ID);
	back = mono && hp->desc;
	for (j = 0; j < n; j++) {
		i = back ? n - 1 - j : j;
		if (ix != NULL)
			i = ix[i];
		if (!sel_kind(s, l, i))
			continue;
		if (mono && hp->n == hp->k) {
			v = search_value(l, (uint32_t)i,
			    model_gid(m, t, (uint32_t)i), a->f);
			if (back ? v < hp->h[0].v : v > hp->h[0].v)
				break;
		}
		search_take(a, l, (uint32_t)i, model_gid(m, t, (uint32_t)i));
	}
}

int
cmd_search_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct sel		 s;
	struct search_acc	 a;
	struct evpage		*hp = &a.hp;
	uint32_t		*idx = NULL, t;
	size_t			 icap = 0, k, i;
	int			 desc;
	const char		*spec = o->sort != NULL ? o->sort : "start_ns:asc";

	out->default_sort = "start_ns:asc";
	if (sel_open(&s, m, o, out, code, cause) != 0)
		return -1;
	memset(&a, 0, sizeof a);
	a.f = search_field(spec, &desc);
	/* A page of at most a few million rows is kept in a heap (evpage.h);
	 * a larger (or overflowing) offset + limit means every match. */
	if (a.f != SF_NONE)
		evpage_init(hp, o->offset, o->limit, desc);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (!sel_track(&s, t))
			continue;
		if (sel_lane_plain(&s, t)) {
			search_lane(&a, &s, t, &idx, &icap);
			continue;
		}
		k = lane_overlap(l, s.t0, s.t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			if (!sel_event(&s, t, idx[i]))
				continue;
			a.n++;
			search_take(&a, l, idx[i], model_gid(m, t, idx[i]));
		}
	}
	if (hp->h == NULL) {
		for (i = 0; i < a.ne; i++)
			evrow_fill(out_row(out), m, a.eager[i], o->absolute);
	} else {
		evpage_sort(hp);
		for (i = 0; i < hp->n; i++)
			evrow_fill(out_row(out), m, hp->h[i].gid, o->absolute);
		out->total_matched = (long long)a.n;
	}
	out_int(out->aux, "total_matched", (int64_t)a.n);
	if (a.n == 0)
		out_warn(out, "no_match",
		    "no events match");
	sel_free(&s);
	evpage_free(hp);
	free(a.eager);
	free(idx);
	return 0;
}
