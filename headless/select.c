/*
 * select: event selection shared by the headless verbs.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "model/event.h"
#include "model/lane.h"
#include "model/nvtxfam.h"
#include "headless/select.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "analysis/steady.h"
#include "analysis/tracksel.h"
#include "util/xmalloc.h"

static int
sel_win_cmp(const void *a, const void *b)
{
	const struct sel_window	*x = a, *y = b;

	return sort_lex3(x->process, y->process, x->start, y->start, 0, 0);
}

/*
 * Finds the instances of --nvtx RANGE[@DOMAIN] (and --iter N): the ranges
 * named RANGE or of the family RANGE (nvtxfam.h), the answer per name
 * cached by string id.
 */
static int
sel_nvtx(struct sel *s, const struct opts *o, char **cause)
{
	const struct model	*m = s->m;
	char			*name = xstrdup(o->nvtx), *at;
	const char		*dom = NULL;
	size_t			 t, i, cap = 0, k, first, nstr;
	long long		 nth;
	uint8_t			*hit;		/* sid: 0 unknown, 1 yes, 2 no */
	uint32_t		 sid;

	if ((at = strrchr(name, '@')) != NULL) {
		*at = '\0';
		dom = at + 1;
	}
	nstr = strpool_count(m->strs);
	hit = xcalloc(nstr + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type != TRACK_NVTX)
			continue;
		if (dom != NULL && strcmp(model_str(m,
		    m->domains[tr->domain].name), dom) != 0)
			continue;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_NVTX)
				continue;
			sid = l->name[i];
			if (sid >= nstr) {
				if (!nvtx_family_match(model_str(m, sid),
				    name))
					continue;
			} else {
				if (hit[sid] == 0)
					hit[sid] = nvtx_family_match(
					    model_str(m, sid), name) ? 1 : 2;
				if (hit[sid] != 1)
					continue;
			}
			XGROW(s->win, cap, s->nwin + 1);
			s->win[s->nwin].process = tr->process;
			s->win[s->nwin].start = l->start[i];
			s->win[s->nwin].end = l->end[i];
			s->nwin++;
		}
	}
	free(hit);
	if (s->nwin == 0) {
		*cause = xasprintf("no NVTX range named '%s'%s%s", name,
		    dom != NULL ? " in domain " : "", dom != NULL ? dom : "");
		free(name);
		return -1;
	}
	free(name);
	qsort(s->win, s->nwin, sizeof *s->win, sel_win_cmp);
	if (o->iter >= 0) {
		/* Keep the Nth instance of each process. */
		k = 0;
		for (i = 0; i < s->nwin; i = first) {
			first = i;
			nth = 0;
			while (first < s->nwin &&
			    s->win[first].process == s->win[i].process) {
				if (nth++ == o->iter)
					s->win[k++] = s->win[first];
				first++;
			}
		}
		if (k == 0) {
			*cause = xasprintf("NVTX range '%s' has no instance "
			    "%lld", o->nvtx, o->iter);
			return -1;
		}
		s->nwin = k;
	}
	s->has_nvtx = 1;
	return 0;
}

int
sel_index(const struct model *m, enum sel_of of, long long id,
    uint32_t *idx, char **cause)
{
	size_t		i, n;
	uint32_t	v;

	n = of == SEL_OF_DEVICE ? m->ndevices : m->nprocesses;
	for (i = 0; i < n; i++) {
		v = of == SEL_OF_DEVICE ? m->devices[i].source_id :
		    m->processes[i].pid;
		if (v == (uint32_t)id) {
			*idx = (uint32_t)i;
			return 0;
		}
	}
	*cause = xasprintf("no %s %lld in this trace",
	    of == SEL_OF_DEVICE ? "device" : "process", id);
	return -1;
}

int
sel_init(struct sel *s, const struct model *m, const struct opts *o,
    char **cause)
{
	int	rc;
	char	err[256];

	memset(s, 0, sizeof *s);
	s->m = m;
	s->t0 = m->origin_ns;
	s->t1 = m->end_ns + 1;
	if (o->from != OPT_TIME_UNSET)
		s->t0 = o->from_abs ? o->from : m->origin_ns + o->from;
	if (o->to != OPT_TIME_UNSET)
		s->t1 = o->to_abs ? o->to : m->origin_ns + o->to;
	if (o->window != NULL) {
		int64_t a, b;
		if (steady_bounds(m, &a, &b, cause) != 0)
			return -1;
		if (a > s->t0)
			s->t0 = a;
		if (b < s->t1)
			s->t1 = b;
	}
	if (s->t1 < s->t0) {
		*cause = xasprintf("the window ends before it starts");
		return -1;
	}
	s->kind = o->type;
	s->device = NONE32;
	if (o->device >= 0) {
		if (sel_index(m, SEL_OF_DEVICE, o->device, &s->device,
		    cause) != 0)
			return -1;
		s->has_device = 1;
	}
	s->stream = o->stream;
	s->pid = o->pid;
	s->tid = o->tid;
	s->glob = o->name_glob;
	if (o->name_regex != NULL) {
		if ((rc = regcomp(&s->re, o->name_regex,
		    REG_EXTENDED | REG_NOSUB)) != 0) {
			regerror(rc, &s->re, err, sizeof err);
			*cause = xasprintf("bad --name-regex: %s", err);
			return -1;
		}
		s->has_re = 1;
	}
	if (s->glob != NULL || s->has_re)
		s->name_cache = xcalloc(strpool_count(m->strs) + 1, 1);
	s->min_dur = o->min_dur;
	if (o->nvtx != NULL && sel_nvtx(s, o, cause) != 0) {
		sel_free(s);
		return -1;
	}
	return 0;
}

int
sel_open(struct sel *s, const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	if (sel_init(s, m, o, cause) != 0) {
		*code = "usage";
		return -1;
	}
	if (sel_window_empty(s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	return 0;
}

void
sel_free(struct sel *s)
{
	if (s->has_re)
		regfree(&s->re);
	s->has_re = 0;
	free(s->name_cache);
	free(s->win);
	s->name_cache = NULL;
	s->win = NULL;
}

int
sel_window_empty(const struct sel *s)
{
	return s->t1 <= s->m->origin_ns || s->t0 > s->m->end_ns;
}

void
sel_window_aux(struct out *out, const struct model *m, const struct opts *o,
    int64_t t0, int64_t t1)
{
	out_int(out->aux, "window_start_ns", event_time(m, t0, o->absolute));
	out_int(out->aux, "window_end_ns", event_time(m, t1 > t0 ? t1 : t0,
	    o->absolute));
}

int
sel_span(const struct model *m, const struct opts *o, struct out *out,
    int64_t *t0, int64_t *t1, char **cause)
{
	struct sel	s;

	if (o->nvtx != NULL) {
		*cause = xasprintf("--nvtx is not supported here; use --from "
		    "and --to");
		return -1;
	}
	if (sel_init(&s, m, o, cause) != 0)
		return -1;
	*t0 = s.t0;
	*t1 = o->to == OPT_TIME_UNSET && s.t1 > m->end_ns ? m->end_ns : s.t1;
	sel_free(&s);
	if (*t1 > *t0)
		return 1;
	if (m->nevents != 0)
		out_warn(out, "window_empty", "the window is empty");
	return 0;
}

static int
sel_match1(struct sel *s, uint32_t sid)
{
	const char	*name;
	int		 ok = 1;

	if (s->name_cache[sid] != 0)
		return s->name_cache[sid] == 1;
	name = model_str(s->m, sid);
	if (s->glob != NULL && fnmatch(s->glob, name, 0) != 0)
		ok = 0;
	if (ok && s->has_re && regexec(&s->re, name, 0, NULL, 0) != 0)
		ok = 0;
	s->name_cache[sid] = ok ? 1 : 2;
	return ok;
}

int
sel_name(struct sel *s, uint32_t sid, uint32_t short_sid)
{
	if (s->name_cache == NULL)
		return 1;
	return sel_match1(s, sid) || (short_sid != 0 && short_sid != sid &&
	    sel_match1(s, short_sid));
}

int
sel_track(const struct sel *s, uint32_t t)
{
	struct tracksel	ts;

	ts.has_device = s->has_device;
	ts.device = s->device;
	ts.stream = s->stream;
	ts.pid = s->pid;
	ts.tid = s->tid;
	ts.kind = s->kind;
	return tracksel_match(s->m, &ts, t);
}

struct sel_below {
	const struct sel	*s;
	uint32_t		 process;
};

static int
sel_win_below(const void *ctx, size_t i)
{
	const struct sel_below	*b = ctx;

	return b->s->win[i].process < b->process;
}

static int
sel_in_windows(const struct sel *s, uint32_t process, int64_t st, int64_t en)
{
	struct sel_below	b = { s, process };
	size_t			i;

	/* Windows are sorted by (process, start); find the process's run. */
	i = lbound_if(0, s->nwin, sel_win_below, &b);
	for (; i < s->nwin && s->win[i].process == process; i++) {
		if (s->win[i].start >= en && en > st)
			break;
		if (st < s->win[i].end && en > s->win[i].start)
			return 1;
		if (st == en && st >= s->win[i].start && st < s->win[i].end)
			return 1;
	}
	return 0;
}

int
sel_plain(const struct sel *s)
{
	return s->name_cache == NULL && s->min_dur <= 0 && !s->has_nvtx &&
	    s->tid < 0;
}

int
sel_lane_plain(const struct sel *s, uint32_t t)
{
	return s->name_cache == NULL && s->min_dur <= 0 && !s->has_nvtx &&
	    (s->tid < 0 || s->m->tracks[t].type != TRACK_GPU);
}

int
sel_event(struct sel *s, uint32_t t, uint32_t idx)
{
	const struct model	*m = s->m;
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	uint32_t		 short_sid = 0, api;
	int			 k = l->kind[idx];

	if (!sel_kind(s, l, idx))
		return 0;
	if (l->end[idx] - l->start[idx] < s->min_dur)
		return 0;
	if (l->start[idx] >= s->t1 || (l->end[idx] <= s->t0 &&
	    !(l->end[idx] == l->start[idx] && l->start[idx] >= s->t0)))
		return 0;
	if (s->name_cache != NULL) {
		if (k == EV_KERNEL && l->aux[idx] != NONE32 &&
		    l->aux[idx] < m->nkernels)
			short_sid = m->kernels[l->aux[idx]].short_name;
		if (!sel_name(s, l->name[idx], short_sid))
			return 0;
	}
	if (s->tid >= 0 && tr->type == TRACK_GPU) {
		if (m->launch == NULL ||
		    (api = m->launch[model_gid(m, t, idx)]) == NONE32)
			return 0;
		{
			struct evref r = model_ev(m, api);
			uint32_t th = m->tracks[r.track].thread;
			if (th == NONE32 ||
			    m->threads[th].tid != (uint64_t)s->tid)
				return 0;
		}
	}
	if (s->has_nvtx && !sel_in_windows(s, tr->process, l->start[idx],
	    l->end[idx]))
		return 0;
	return 1;
}
