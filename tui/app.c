/*
 * app: the views of a session, view switching, global keys and the
 * overlays common to every view. See app.h.
 *
 * Keys: a key is looked up in the current view's key table and in the
 * global one (keymap.h); the view gets the key with its action there and
 * returns REACT_PASS when it has nothing to do with it; the global action
 * then runs (app_actions). A script's named action takes the same path
 * with the first key bound to it (app_action).
 *
 * Views are initialised when first shown (the NVTX tree and the kernel
 * table aggregate the whole trace, which is not worth doing for a session
 * that never opens them) and live until the end, so switching back keeps
 * their state. The help and warnings overlays are drawn over the current
 * view after it has drawn; while one is up the view repaints everything
 * under it, and closing it repaints everything once more.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/action.h"
#include "tui/app.h"
#include "tui/keymap.h"
#include "tui/overlay.h"
#include "tui/rankload.h"
#include "tui/safetext.h"
#include "tui/view-findings.h"
#include "tui/view-job.h"
#include "tui/view-kernels.h"
#include "tui/view-nvtx.h"
#include "tui/view-report.h"
#include "tui/view-timeline.h"
#include "sources/source.h"
#include "util/xmalloc.h"

enum {
	APP_OV_NONE,
	APP_OV_HELP,
	APP_OV_WARN
};

/* The views, in the order of their switching keys (1, 2, 3, ...). */
static const struct view_ops *const app_views[] = {
	&view_timeline_ops,
	&view_nvtx_ops,
	&view_kernels_ops,
	&view_findings_ops,
	&view_report_ops,
	&view_job_ops,
};
#define APP_NVIEWS	(sizeof app_views / sizeof app_views[0])

struct app {
	const struct model	*m;
	struct view_env		 env;
	struct view_shared	 sh;
	void			*view[APP_NVIEWS];
	size_t			 cur;
	int			 w, h;
	int			 overlay;
	int			 help_page, help_pages;
	size_t			 warn_first;
	char			**warn;		/* the warnings, wrapped */
	size_t			 nwarn;
	int			 warn_w;	/* ... at this screen width */
	int			 clear;		/* blank the grid first */
	struct keymap		*km;
	const struct keytable	*kt_global;
	const struct keytable	*kt_overlay;
	const struct keytable	*kt[APP_NVIEWS];	/* each view's */
	/* A job overview: the job, how to load a rank, and the rank open
	 * in views of its own (its app and model), or NULL. */
	const struct jobrank	*job;
	struct load_opts	 load;
	struct app		*sub;
	struct model		*sub_m;
	char			*sub_title;
	int			 sub_rank;
	/* The rank loading (rankload.h), and loads given up that still
	 * run. */
	struct rankload		*loading;
	char *const		*load_paths;	/* the job's */
	size_t			 load_n;
	int			 load_rank;
	struct rankload		**stale;
	size_t			 nstale;
	int			 quit_all;	/* Q: every app quits */
};

static void	 app_close_rank(struct app *);

static void *
app_view(struct app *a, size_t i)
{
	/* A job has its overview, a report session the report view, a
	 * model's the others. */
	if ((app_views[i] == &view_job_ops) != (a->job != NULL))
		return NULL;
	if (a->job == NULL &&
	    (app_views[i] == &view_report_ops) != (a->m == NULL))
		return NULL;
	if (a->view[i] == NULL) {
		a->view[i] = app_views[i]->init(a->m, &a->env);
		app_views[i]->resize(a->view[i], a->w, a->h);
	}
	return a->view[i];
}

/* Global actions. */

static int
app_switch(void *p, const struct tui_key *k, int i)
{
	struct app	*a = p;

	if ((size_t)i >= APP_NVIEWS)
		return 0;
	if (app_view(a, (size_t)i) == NULL) {
		/* A view the input has not: say why, and how to get it. */
		if (a->job != NULL)
			snprintf(a->sh.note, sizeof a->sh.note, "a job "
			    "overview: Enter opens the rank's trace");
		else if (a->m == NULL)
			snprintf(a->sh.note, sizeof a->sh.note, "a report "
			    "has no timeline: launches are above");
		else
			snprintf(a->sh.note, sizeof a->sh.note, "no ncu "
			    "report (open X.ncu-rep)");
		return REDRAW_STATUS;
	}
	if (a->cur != (size_t)i)
		a->clear = 1;
	a->cur = (size_t)i;
	app_view(a, a->cur);
	return REDRAW_ALL;
}

static int
app_help(void *p, const struct tui_key *k, int arg)
{
	struct app	*a = p;

	a->overlay = APP_OV_HELP;
	a->help_page = 0;
	return REDRAW_ALL;
}

static int
app_warnings(void *p, const struct tui_key *k, int arg)
{
	struct app	*a = p;

	if (a->m == NULL || a->m->nwarnings == 0) {
		snprintf(a->sh.note, sizeof a->sh.note,
		    "the trace loaded without warnings");
		return REDRAW_STATUS;
	}
	a->overlay = APP_OV_WARN;
	a->warn_first = 0;
	return REDRAW_ALL;
}

static int
app_repaint(void *p, const struct tui_key *k, int arg)
{
	return REDRAW_ALL | REACT_REPAINT;
}

static int
app_quit(void *p, const struct tui_key *k, int arg)
{
	struct app	*a = p;

	if (arg)
		a->quit_all = 1;
	return REACT_QUIT;
}

/* The switching actions, in the order of app_views[]. */
const struct view_action app_actions[] = {
	{ ACT_VIEW_TIMELINE, app_switch, 0 },
	{ ACT_VIEW_NVTX, app_switch, 1 },
	{ ACT_VIEW_KERNELS, app_switch, 2 },
	{ ACT_VIEW_FINDINGS, app_switch, 3 },
	{ ACT_VIEW_REPORT, app_switch, 4 },
	{ ACT_HELP, app_help, 0 },
	{ ACT_WARNINGS, app_warnings, 0 },
	{ ACT_REPAINT, app_repaint, 0 },
	{ ACT_QUIT, app_quit, 0 },
	{ ACT_QUIT_ALL, app_quit, 1 },
};
const size_t app_nactions = sizeof app_actions / sizeof app_actions[0];

/* Leaves the rank open in a job overview: its views and model freed. */
static void
app_close_rank(struct app *a)
{
	if (a->sub == NULL)
		return;
	app_free(a->sub);
	model_free(a->sub_m);
	free(a->sub_title);
	a->sub = NULL;
	a->sub_m = NULL;
	a->sub_title = NULL;
	a->clear = 1;
}

/*
 * REACT_OPEN from the job overview: starts loading the rank's trace
 * (through its cache) on a thread of its own (rankload.h); app_tick()
 * shows how far it is and opens the rank once loaded.
 */
static int
app_open_rank(struct app *a)
{
	struct timespec	 ts = { 0, 5000000 };
	char		*cause = NULL;
	char *const	*paths = a->sh.open;
	size_t		 n = a->sh.nopen;
	int		 i;

	a->sh.open = NULL;
	a->sh.nopen = 0;
	if (a->job == NULL || paths == NULL || n == 0 || a->sub != NULL ||
	    a->loading != NULL)
		return 0;
	/* One read at a time: a load given up ends first (it stops at its
	 * next progress report: given a moment). */
	for (i = 0; i < 40; i++) {
		app_tick(a);
		if (a->nstale == 0)
			break;
		nanosleep(&ts, NULL);
	}
	if (a->nstale > 0) {
		snprintf(a->sh.note, sizeof a->sh.note, "rank %d: the load "
		    "given up is still ending; Enter again in a moment",
		    a->sh.open_rank);
		return REDRAW_STATUS;
	}
	if ((a->loading = rankload_start(paths, n, &a->load, &cause)) ==
	    NULL) {
		snprintf(a->sh.note, sizeof a->sh.note, "rank %d: %s",
		    a->sh.open_rank, cause);
		free(cause);
		return REDRAW_STATUS;
	}
	a->load_paths = paths;
	a->load_n = n;
	a->load_rank = a->sh.open_rank;
	return REDRAW_ALL;
}

/* The rank loaded: shown in views of its own until they quit. */
static int
app_loaded(struct app *a)
{
	struct app_opts	 o;
	char		*cause = NULL, note[160];
	const char	*path = a->load_paths[0];

	a->sub_m = rankload_take(a->loading, &cause);
	rankload_free(a->loading);
	a->loading = NULL;
	if (a->sub_m == NULL) {
		snprintf(a->sh.note, sizeof a->sh.note, "rank %d: %s",
		    a->load_rank, cause != NULL ? cause : "cannot load");
		free(cause);
		return REDRAW_ALL;
	}
	memset(&o, 0, sizeof o);
	o.gl = a->env.gl;
	if (a->load_n > 1)
		a->sub_title = xasprintf("%s and %zu more (rank %d)", path,
		    a->load_n - 1, a->load_rank);
	else
		a->sub_title = xasprintf("%s (rank %d)", path, a->load_rank);
	o.title = a->sub_title;
	o.paths = (const char *const *)a->load_paths;
	o.npaths = (int)a->load_n;
	/* Load warnings first; else what q does here. */
	snprintf(note, sizeof note, "q: back to the job");
	if (a->sub_m->nwarnings == 0)
		o.note = note;
	a->sub_rank = a->load_rank;
	if ((a->sub = app_new(a->sub_m, &o, &cause)) == NULL) {
		snprintf(a->sh.note, sizeof a->sh.note, "rank %d: %s",
		    a->load_rank, cause != NULL ? cause : "cannot open");
		free(cause);
		model_free(a->sub_m);
		a->sub_m = NULL;
		free(a->sub_title);
		a->sub_title = NULL;
		return REDRAW_ALL;
	}
	a->sub->sh.in_job = 1;
	app_resize(a->sub, a->w, a->h);
	a->clear = 1;
	return REDRAW_ALL;
}

/* Gives the rank's load up: back to the overview at once. */
static int
app_cancel_load(struct app *a, const char *how)
{
	if (a->loading == NULL)
		return 0;
	rankload_cancel(a->loading);
	a->stale = xreallocarray(a->stale, a->nstale + 1, sizeof *a->stale);
	a->stale[a->nstale++] = a->loading;
	a->loading = NULL;
	snprintf(a->sh.note, sizeof a->sh.note, "rank %d: loading cancelled "
	    "(%s)", a->load_rank, how);
	a->clear = 1;
	return REDRAW_ALL;
}

int
app_tick(struct app *a)
{
	size_t	i, n = 0;

	for (i = 0; i < a->nstale; i++) {
		if (rankload_done(a->stale[i]))
			rankload_free(a->stale[i]);
		else
			a->stale[n++] = a->stale[i];
	}
	a->nstale = n;
	if (a->sub != NULL)
		return app_tick(a->sub);
	if (a->loading == NULL)
		return 0;
	if (rankload_done(a->loading))
		return app_loaded(a);
	return REDRAW_ALL;
}

int
app_busy(const struct app *a)
{
	struct rankload_state	st;

	if (a->sub != NULL)
		return app_busy(a->sub);
	if (a->loading == NULL)
		return 0;
	rankload_peek(a->loading, &st);
	return !st.held;
}

int
app_interrupt(struct app *a)
{
	if (a->sub != NULL || a->loading == NULL)
		return 0;
	return app_cancel_load(a, "Ctrl-C") != 0;
}

/* A key while a rank loads: Esc, Ctrl-C or q (quit) cancel, Q quits. */
static int
app_loading_key(struct app *a, const struct tui_key *k, int gact)
{
	if (gact == ACT_QUIT_ALL) {
		app_cancel_load(a, "quit");
		return REACT_QUIT;
	}
	if (k->key == TK_ESC || k->key == 3)
		return app_cancel_load(a, k->key == 3 ? "Ctrl-C" : "Esc");
	if (gact == ACT_QUIT)
		return app_cancel_load(a, "q");
	return 0;
}

/* A count in a few characters: 123, 45.6k, 157.8M, 1.2G. */
static const char *
app_count(char *buf, size_t len, uint64_t v)
{
	if (v < 10000)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v < 1000000)
		snprintf(buf, len, "%.1fk", (double)v / 1e3);
	else if (v < 1000000000)
		snprintf(buf, len, "%.1fM", (double)v / 1e6);
	else
		snprintf(buf, len, "%.1fG", (double)v / 1e9);
	return buf;
}

/* The loading box over the overview. */
static void
app_draw_loading(struct app *a, struct cellgrid *g)
{
	struct rankload_state	 st;
	char			 l[4][160], t[64], a1[32], a2[32], ph[96];
	const char		*lines[4];
	size_t			 i;

	rankload_peek(a->loading, &st);
	/* A rank of several files: the one read, and which of them. */
	snprintf(l[0], sizeof l[0], "%s", a->load_paths[st.file < a->load_n ?
	    st.file : 0]);
	if (a->load_n > 1)
		snprintf(ph, sizeof ph, "file %zu of %zu, %s", st.file + 1,
		    a->load_n, st.phase);
	else
		snprintf(ph, sizeof ph, "%s", st.phase);
	/* Rows or bytes, as the reader counts: a fraction, not a unit. */
	if (st.total > 0)
		snprintf(l[1], sizeof l[1], "%s: %u%% (%s of %s)", ph,
		    (unsigned)(st.rows >= st.total ? 100 : st.rows * 100 /
		    st.total), app_count(a1, sizeof a1, st.rows),
		    app_count(a2, sizeof a2, st.total));
	else if (st.rows > 0)
		snprintf(l[1], sizeof l[1], "%s: %s", ph,
		    app_count(a1, sizeof a1, st.rows));
	else
		snprintf(l[1], sizeof l[1], "%s", ph);
	if (st.held)
		l[2][0] = '\0';
	else
		snprintf(l[2], sizeof l[2], "%.0f s", st.secs);
	snprintf(l[3], sizeof l[3], "Esc or Ctrl-C cancels, Q quits");
	for (i = 0; i < 4; i++)
		lines[i] = l[i];
	snprintf(t, sizeof t, " Loading rank %d ", a->load_rank);
	/* The path is untrusted: sanitised. */
	overlay_lines(g, a->env.gl, a->w, a->h, t, lines, 4, 0,
	    a->env.gl->utf8 ? 0 : ST_ASCII);
}

/* The reactions of the rank open in a job: quitting it comes back. */
static int
app_sub_react(struct app *a, int r)
{
	if (r < 0 || !(r & REACT_QUIT))
		return r;
	if (a->sub->quit_all) {
		a->quit_all = 1;
		return r;
	}
	snprintf(a->sh.note, sizeof a->sh.note, "back from rank %d",
	    a->sub_rank);
	app_close_rank(a);
	return (r & ~REACT_QUIT) | REDRAW_ALL;
}

struct app *
app_new(const struct model *m, const struct app_opts *o, char **cause)
{
	struct app	*a;
	struct keymap	*km;
	size_t		 i, j;

	for (i = 0; i < APP_NVIEWS; i++)
		if (o->view == NULL || strcmp(o->view, app_views[i]->name) == 0)
			break;
	if (i == APP_NVIEWS) {
		*cause = xasprintf("unknown view '%s'", o->view);
		return NULL;
	}
	if ((km = keymap_default(cause)) == NULL)
		return NULL;
	a = xcalloc(1, sizeof *a);
	a->km = km;
	a->kt_global = keymap_table(km, "global");
	a->kt_overlay = keymap_table(km, "overlay");
	for (j = 0; j < APP_NVIEWS; j++)
		a->kt[j] = keymap_table(km, app_views[j]->name);
	a->m = m;
	a->job = o->job;
	if (o->load != NULL)
		a->load = *o->load;
	/* A rank's load must not write over the screen. */
	a->load.progress = 0;
	a->env.gl = o->gl;
	a->env.title = o->title;
	a->env.sh = &a->sh;
	a->env.arg = o->job != NULL ? (const void *)o->job : o->view_arg;
	a->env.baseline = o->baseline;
	a->env.baseline_title = o->baseline_title;
	a->env.paths = o->paths;
	a->env.npaths = o->npaths;
	a->sh.t0 = a->sh.cursor = m != NULL ? m->origin_ns : 0;
	a->sh.span = m != NULL ? m->end_ns - m->origin_ns : 0;
	a->sh.sel = NONE32;
	a->sh.res = 1;
	a->w = 80;
	a->h = 24;
	if (m != NULL && m->nwarnings > 0)
		snprintf(a->sh.note, sizeof a->sh.note, "%zu load warning%s "
		    "(W lists them): %s", m->nwarnings, m->nwarnings == 1 ?
		    "" : "s", m->warnings[0]);
	if (o->note != NULL)
		snprintf(a->sh.note, sizeof a->sh.note, "%s", o->note);
	/* A model's timeline always exists: it owns the window the others
	 * show. */
	app_view(a, 0);
	a->cur = i;
	if (app_view(a, a->cur) == NULL) {
		*cause = xasprintf("no %s view for this input",
		    app_views[i]->name);
		app_free(a);
		return NULL;
	}
	return a;
}

void
app_free(struct app *a)
{
	size_t	i;

	if (a == NULL)
		return;
	app_close_rank(a);
	rankload_free(a->loading);
	for (i = 0; i < a->nstale; i++)
		rankload_free(a->stale[i]);
	free(a->stale);
	for (i = 0; i < APP_NVIEWS; i++)
		if (a->view[i] != NULL)
			app_views[i]->free(a->view[i]);
	keymap_free(a->km);
	overlay_wrap_free(a->warn, a->nwarn);
	free(a);
}

void
app_resize(struct app *a, int w, int h)
{
	size_t	i;

	a->w = w < 1 ? 1 : w;
	a->h = h < 1 ? 1 : h;
	if (a->sub != NULL)
		app_resize(a->sub, w, h);
	for (i = 0; i < APP_NVIEWS; i++)
		if (a->view[i] != NULL)
			app_views[i]->resize(a->view[i], a->w, a->h);
}

/* A key while the help or the warnings are up; oact is its action in the
 * overlay table. */
static int
app_overlay_key(struct app *a, const struct tui_key *k, int oact)
{
	if (oact == ACT_OVERLAY_CLOSE) {
		a->overlay = APP_OV_NONE;
		return REDRAW_ALL;
	}
	if (a->overlay == APP_OV_HELP) {
		if ((k->key == ' ' || k->key == TK_PGDN || k->key == 'j' ||
		    k->key == TK_DOWN) && a->help_page + 1 < a->help_pages) {
			a->help_page++;
			return REDRAW_ALL;
		}
		if ((k->key == TK_PGUP || k->key == 'k' || k->key == TK_UP) &&
		    a->help_page > 0) {
			a->help_page--;
			return REDRAW_ALL;
		}
	}
	/* The list scrolls while lines are left below the box. */
	if (a->overlay == APP_OV_WARN && (k->key == ' ' || k->key == 'j' ||
	    k->key == TK_DOWN || k->key == TK_PGDN) &&
	    a->nwarn - a->warn_first > (size_t)(a->h > 6 ? a->h - 6 :
	    1)) {
		a->warn_first += k->key == TK_PGDN || k->key == ' ' ?
		    (size_t)(a->h > 8 ? a->h - 8 : 1) : 1;
		if (a->warn_first >= a->nwarn)
			a->warn_first = a->nwarn - 1;
		return REDRAW_ALL;
	}
	if (a->overlay == APP_OV_WARN && (k->key == 'k' || k->key == TK_UP ||
	    k->key == TK_PGUP) && a->warn_first > 0) {
		a->warn_first--;
		return REDRAW_ALL;
	}
	a->overlay = APP_OV_NONE;
	return REDRAW_ALL;
}

/*
 * Key k, bound to vact in the current view's table and to gact in the
 * global one (oact in the overlay table): the view's action first, the
 * global one if the view passes.
 */
static int
app_dispatch(struct app *a, const struct tui_key *k, int vact, int gact,
    int oact)
{
	const struct view_ops		*ops = app_views[a->cur];
	const struct view_action	*b;
	size_t				 i;
	int				 r = view_clear_msg(a->sh.note);

	/*
	 * One rule for every box over a view: the overlay table first; its
	 * overlay-close closes the box, and nothing a box does not use
	 * reaches the global keys (q in a box closes it, never quits).
	 */
	if (a->overlay != APP_OV_NONE)
		return r | app_overlay_key(a, k, oact);
	a->sh.want = NULL;
	if (a->sh.overlay) {
		r |= ops->key(app_view(a, a->cur), k,
		    oact == ACT_OVERLAY_CLOSE ? oact : vact);
		return r & ~(REACT_PASS | REACT_QUIT | REACT_SWITCH);
	}
	r |= ops->key(app_view(a, a->cur), k, vact);
	if (r & REACT_OPEN) {
		r &= ~REACT_OPEN;
		r |= app_open_rank(a);
	}
	if (r & REACT_PASS) {
		r &= ~REACT_PASS;
		if ((b = view_action_find(app_actions, app_nactions, gact)) !=
		    NULL)
			r |= b->fn(a, k, b->arg);
	}
	if ((r & REACT_SWITCH) && a->sh.want != NULL) {
		r &= ~REACT_SWITCH;
		for (i = 0; i < APP_NVIEWS; i++)
			if (strcmp(app_views[i]->name, a->sh.want) == 0)
				break;
		if (i < APP_NVIEWS && app_view(a, i) != NULL) {
			if (a->cur != i)
				a->clear = 1;
			a->cur = i;
			ops = app_views[i];
			if (ops->command != NULL && a->sh.msg.type != VMSG_NONE)
				r |= ops->command(app_view(a, i), &a->sh.msg);
			r |= REDRAW_ALL;
		}
		memset(&a->sh.msg, 0, sizeof a->sh.msg);
		a->sh.want = NULL;
	}
	return r & ~REACT_SWITCH;
}

int
app_key(struct app *a, const struct tui_key *k)
{
	if (a->sub != NULL)
		return app_sub_react(a, app_key(a->sub, k));
	if (a->loading != NULL)
		return app_loading_key(a, k, keytable_action(a->kt_global,
		    k->key));
	return app_dispatch(a, k, keytable_action(a->kt[a->cur], k->key),
	    keytable_action(a->kt_global, k->key),
	    keytable_action(a->kt_overlay, k->key));
}

int
app_action(struct app *a, int act, char **cause)
{
	const struct action_info	*ai = action_get(act);
	const struct view_ops		*ops = app_views[a->cur];
	struct tui_key			 k;

	if (a->sub != NULL)
		return app_sub_react(a, app_action(a->sub, act, cause));
	memset(&k, 0, sizeof k);
	if (a->loading != NULL) {
		k.key = keytable_key(a->kt_global, act);
		return app_loading_key(a, &k, act);
	}
	if (ai == NULL) {
		*cause = xasprintf("unknown action");
		return -1;
	}
	if (ai->views & action_view_bit(ops->name)) {
		k.key = keytable_key(a->kt[a->cur], act);
		return app_dispatch(a, &k, act, keytable_action(a->kt_global,
		    k.key), keytable_action(a->kt_overlay, k.key));
	}
	if (ai->views & AV_OVERLAY) {
		k.key = keytable_key(a->kt_overlay, act);
		return app_dispatch(a, &k, ACT_NONE, ACT_NONE, act);
	}
	if (ai->views & AV_GLOBAL) {
		k.key = keytable_key(a->kt_global, act);
		return app_dispatch(a, &k, ACT_NONE, act,
		    keytable_action(a->kt_overlay, k.key));
	}
	*cause = xasprintf("action %s does not apply to the %s view",
	    ai->name, ops->name);
	return -1;
}

void
app_draw(struct app *a, struct cellgrid *g, int dirty)
{
	const struct view_ops	*ops = app_views[a->cur];
	struct overlay_keys	 t[4];
	size_t			 nt;

	if (a->sub != NULL && !a->clear) {
		app_draw(a->sub, g, dirty);
		return;
	}
	if (a->overlay != APP_OV_NONE)
		dirty = REDRAW_ALL;
	/* A new view must not show what the previous one left. */
	if (a->clear) {
		cellgrid_fill(g, 0, 0, g->w, g->h, L' ', CG_NORMAL);
		dirty = REDRAW_ALL;
		a->clear = 0;
		if (a->sub != NULL) {
			app_draw(a->sub, g, REDRAW_ALL);
			return;
		}
	}
	ops->draw(app_view(a, a->cur), g, dirty & REDRAW_ALL);
	if (a->loading != NULL) {
		app_draw_loading(a, g);
		return;
	}
	switch (a->overlay) {
	case APP_OV_HELP:
		t[0].heading = ops->label;
		t[0].items = a->kt[a->cur] != NULL ? a->kt[a->cur]->help : NULL;
		t[0].n = a->kt[a->cur] != NULL ? a->kt[a->cur]->nhelp : 0;
		t[1].heading = "Every view";
		t[1].items = a->kt_global->help;
		t[1].n = a->kt_global->nhelp;
		t[2].heading = "In a box";
		t[2].items = a->kt_overlay->help;
		t[2].n = a->kt_overlay->nhelp;
		t[0].attr = t[1].attr = t[2].attr = NULL;
		nt = 3;
		/* The timeline's help ends in its colour legend. */
		if (strcmp(ops->name, "timeline") == 0) {
			t[3].heading = "Colours";
			t[3].n = overlay_legend(&t[3].items, &t[3].attr);
			nt = 4;
		}
		a->help_pages = overlay_help(g, a->env.gl, a->w, a->h, t, nt,
		    a->help_page);
		break;
	case APP_OV_WARN:
		/* Wrapped to the box (the screen less its frame and margins),
		 * not cut at its edge. */
		if (a->warn == NULL || a->warn_w != a->w) {
			overlay_wrap_free(a->warn, a->nwarn);
			a->warn = overlay_wrap((const char *const *)
			    a->m->warnings, a->m->nwarnings, a->w - 6,
			    a->env.gl->utf8 ? 0 : ST_ASCII, &a->nwarn);
			a->warn_w = a->w;
			if (a->warn_first >= a->nwarn)
				a->warn_first = 0;
		}
		overlay_lines(g, a->env.gl, a->w, a->h, " Load warnings (any "
		    "key closes) ", (const char *const *)a->warn, a->nwarn,
		    a->warn_first, a->env.gl->utf8 ? 0 : ST_ASCII);
		break;
	}
}

const struct view_ops *
app_current(const struct app *a, void **view)
{
	if (a->sub != NULL)
		return app_current(a->sub, view);
	*view = a->view[a->cur];
	return app_views[a->cur];
}

const struct view_shared *
app_shared(const struct app *a)
{
	if (a->sub != NULL)
		return app_shared(a->sub);
	return &a->sh;
}
