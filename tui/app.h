/*
 * app: the views of one TUI session and what is common to them, without
 * any terminal: the table of views (timeline, NVTX tree, kernel table),
 * switching between them (keys 1, 2, 3 and views asking for one another),
 * the key tables (the default keymap, keymap.h) and the dispatch of keys
 * to actions, the global actions, the help overlay (the help lines of the
 * current view's key table and of the global one) and the load-warnings
 * overlay.
 *
 * tui.c owns the terminal and feeds app_key() / app_draw(); tests drive
 * an app directly and read the cellgrid.
 *
 * Adding a view: one line in app_views[] (app.c), a switching action
 * (action.h) in app_actions[] and a key for it in the default keymap
 * (keymap.c), and the view's own key table there. tui_opts.view (app_opts.view) names the view shown
 * first, and app_opts.view_arg reaches every view's init through
 * view_env.arg (data a view needs besides the model).
 *
 * The views are picked by the input: a model has the timeline, NVTX,
 * kernel and findings views; without a model (an Nsight Compute report,
 * app_opts.view_arg) there is only the report view; a large job
 * (app_opts.job, no model) has the job overview (view-job.h), whose Enter
 * (REACT_OPEN) loads the selected rank's trace on a thread (rankload.h;
 * a box over the overview shows how far it is, Esc or Ctrl-C cancels) and
 * shows it in an app of its own (the usual views) that takes every key
 * until it quits (q): then its model is freed and the overview is back.
 * Q (quit-all) quits from there too.
 *
 * Ownership: app_new() allocates; app_free() frees the app and its views.
 * The model (or the report) must outlive the app.
 */
#ifndef GPULENS_APP_H
#define GPULENS_APP_H

#include <stddef.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"
#include "tui/view.h"

struct jobrank;
struct load_opts;

struct app;

struct app_opts {
	const struct glyph	*gl;
	const char		*title;		/* may be NULL */
	const char		*view;		/* first view's name, or NULL
						   for the timeline */
	const void		*view_arg;	/* view_env.arg */
	const void		*baseline;	/* view_env.baseline */
	const char		*baseline_title;
	const char *const	*paths;		/* view_env.paths */
	int			 npaths;
	/* A job overview (m NULL): the job, and how its ranks' traces
	 * load when one is opened (may be NULL). */
	const struct jobrank	*job;
	const struct load_opts	*load;
	const char		*note;		/* first status note, or NULL */
};

/* The global actions the application runs. */
extern const struct view_action	app_actions[];
extern const size_t		app_nactions;

/* m is NULL for a report. Returns NULL with *cause (caller frees) for an
 * unknown view name or a view the input has not. */
struct app	*app_new(const struct model *, const struct app_opts *,
		    char **cause);
void		 app_free(struct app *);
void		 app_resize(struct app *, int w, int h);
/* Returns damage (REDRAW_*) plus REACT_QUIT or REACT_REPAINT. */
int		 app_key(struct app *, const struct tui_key *);
/*
 * Runs action act (enum action) as the first key bound to it in the
 * current view's table (or the global one) would: the same reactions as
 * app_key(). Returns -1 with *cause if the action applies neither to the
 * current view nor to every view.
 */
int		 app_action(struct app *, int act, char **cause);
/*
 * Once a loop turn: a rank loading (job overview) is shown as it goes and
 * opened once loaded. Returns damage.
 */
int		 app_tick(struct app *);
/* Whether a rank is loading (a script waits for it; not while a test
 * holds it, rankload.h). */
int		 app_busy(const struct app *);
/* Ctrl-C: cancels a rank's load; 0 when none loads (then it quits). */
int		 app_interrupt(struct app *);
/* Repaints the panes named in dirty into g (already w x h). */
void		 app_draw(struct app *, struct cellgrid *, int dirty);
/* The current view: its ops and state (for tests). */
const struct view_ops *app_current(const struct app *, void **view);
/* The state shared by the views (for tests). */
const struct view_shared *app_shared(const struct app *);

#endif
