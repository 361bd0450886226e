/*
 * view_report_test: the report view driven through its callbacks with no
 * terminal: the launch table, the metric and rule detail pane, the
 * status line, and what keys do to the selection, the mode and the
 * scroll; keys it does not bind go back to the application. The
 * application shows it for a report input only, and only it.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/report.h"
#include "model/model.h"
#include "tui/action.h"
#include "tsupport.h"
#include "tui/app.h"
#include "tui/view-report.h"

struct fx {
	struct report		*r;
	struct view_shared	 sh;
	void			*v;
	struct cellgrid	 g;
};

/* Two launches; the first has a section with two metrics, 30 metrics
 * without a section, and a long OPT rule message; the second nothing.
 * The tests run in the C locale. */
static int
setup(void **state)
{
	static struct fx	 f;
	struct report_launch	*l;
	struct report_rule	*u;
	struct view_env		 env;
	char			 name[32];
	uint32_t		 sec;
	int			 i;

	setlocale(LC_ALL, "C");
	memset(&f, 0, sizeof f);
	f.r = report_new(REPORT_NCU_REP);
	l = report_add_launch(f.r);
	l->function = report_intern0(f.r, "gemm");
	l->demangled = report_intern0(f.r, "void gemm<float>(float *)");
	l->grid[0] = 16;
	l->grid[1] = l->grid[2] = 1;
	l->block[0] = 256;
	l->block[1] = l->block[2] = 1;
	l = report_add_launch(f.r);
	l->function = report_intern0(f.r, "scan");
	ts_metric(f.r, 0, "gpu__time_duration.sum", 431840);
	ts_metric(f.r, 0, "sm__throughput.avg.pct_of_peak_sustained_elapsed",
	    64.86);
	ts_metric(f.r, 0, "launch__registers_per_thread", 51);
	for (i = 0; i < 30; i++) {
		snprintf(name, sizeof name, "zz__filler_%02d", i);
		ts_metric(f.r, 0, name, i);
	}
	sec = report_add_section(f.r, 0, report_intern0(f.r, "SpeedOfLight"),
	    report_intern0(f.r, "GPU Speed Of Light Throughput"), 10);
	report_add_secmetric(f.r, sec, report_intern0(f.r,
	    "gpu__time_duration.sum"), report_intern0(f.r, "Duration"));
	report_add_secmetric(f.r, sec, report_intern0(f.r,
	    "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
	    report_intern0(f.r, "Compute (SM) Throughput"));
	u = report_add_rule(f.r, 0);
	u->ident = report_intern0(f.r, "Occupancy");
	u->name = report_intern0(f.r, "Occupancy");
	u->section = report_intern0(f.r, "Occupancy");
	u->type = RR_OPT;
	u->speedup = 33.3;
	u->speedup_type = RS_LOCAL;
	u->message = report_intern0(f.r, "This kernel's theoretical "
	    "occupancy is limited by the number of required registers, and "
	    "the achieved occupancy is lower still because of the tail "
	    "effect of the last wave of blocks.");
	report_finish(f.r);
	ts_view_env(&env, &f.sh, "profile.ncu-rep", f.r);
	f.v = ts_view_open(&view_report_ops, NULL, &env, &f.g, 80, 24);
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*f = *state;

	view_report_ops.free(f->v);
	cellgrid_free(&f->g);
	report_free(f->r);
	return 0;
}

static int
key(struct fx *f, int k)
{
	int	r, y;

	r = ts_view_key(&view_report_ops, f->v, &f->g, k);
	if (getenv("VR_DUMP") != NULL)
		for (y = 0; y < f->g.h; y++)
			printf("%2d|%s\n", y, ts_row(&f->g, y));
	return r;
}

static void
test_screen(void **state)
{
	struct fx	*f = *state;
	int		 y;

	if (getenv("VR_DUMP") != NULL)
		for (y = 0; y < 24; y++)
			printf("%2d|%s\n", y, ts_row(&f->g, y));

	ts_row_has(&f->g, 0, "profile.ncu-rep");
	ts_row_has(&f->g, 0, "ncu-rep  2 launches");
	ts_row_has(&f->g, 1, "Duration");
	ts_row_has(&f->g, 1, "Kernel");
	ts_row_has(&f->g, 2, "431.8us");
	ts_row_has(&f->g, 2, "64.9");
	ts_row_has(&f->g, 2, "51");
	ts_row_has(&f->g, 2, "void gemm<float>(float *)");
	ts_row_has(&f->g, 3, "scan");
	ts_row_has(&f->g, 4, "Metrics of launch 0: gemm");
	/* The section first, with labels; then the other metrics. */
	ts_row_has(&f->g, 5, "GPU Speed Of Light Throughput");
	ts_row_has(&f->g, 6, "Compute (SM) Throughput");
	ts_row_has(&f->g, 6, "64.86");
	ts_row_has(&f->g, 7, "Duration");
	/* Scaled by its unit: 431840 ns. */
	ts_row_has(&f->g, 7, "431.84 ");
	ts_row_has(&f->g, 7, " us");
	ts_row_has(&f->g, 8, "Other metrics");
	ts_row_has(&f->g, 23, "launch 1/2  metrics 33  rules 1  [metrics]");
	ts_row_has(&f->g, 23, "? help  q quit");
	/* The selected launch row is reversed. */
	y = 2;
	assert_true(cellgrid_cat(&f->g, 0, y)->attr & CGA_REVERSE);
	assert_false(cellgrid_cat(&f->g, 0, 3)->attr & CGA_REVERSE);
}

static void
test_rules(void **state)
{
	struct fx	*f = *state;
	uint32_t	 launch;
	int		 mode, y;
	size_t		 scroll;

	assert_int_equal(key(f, TK_TAB) & REDRAW_DETAIL, REDRAW_DETAIL);
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(mode, VR_RULES);
	ts_row_has(&f->g, 4, "Rules of launch 0");
	ts_row_has(&f->g, 5, "[OPT] est. speedup 33.3% (local)");
	ts_row_has(&f->g, 5, "Occupancy");
	/* The message is wrapped over several lines. */
	ts_row_has(&f->g, 6, "This kernel's theoretical");
	y = ts_screen_find(&f->g, "effect of the last wave");
	assert_true(y > 6);
	ts_row_has(&f->g, 23, "[rules]");
	/* The second launch has no rule results. */
	key(f, 'j');
	ts_row_has(&f->g, 5, "No rule result for this launch.");
	key(f, 'k');
	/* Then the source pane: this report has no PC sampling. */
	key(f, 'r');
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(mode, VR_SOURCE);
	ts_row_has(&f->g, 5, "No PC sampling for this launch");
	key(f, 'r');
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(mode, VR_METRICS);
	assert_int_equal(launch, 0);
}

static void
test_navigation(void **state)
{
	struct fx	*f = *state;
	uint32_t	 launch;
	int		 mode;
	size_t		 scroll;

	assert_int_equal(key(f, TK_DOWN) & REDRAW_TIMELINE, REDRAW_TIMELINE);
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(launch, 1);
	assert_true(cellgrid_cat(&f->g, 0, 3)->attr & CGA_REVERSE);
	ts_row_has(&f->g, 5, "This launch has no metrics.");
	assert_int_equal(key(f, TK_DOWN), 0);	/* already the last */
	key(f, 'g');
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(launch, 0);
	/* Scrolling the detail pane: by line, by page, and not past the
	 * end (35 lines in a pane of 18: at most 17). */
	key(f, 'J');
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(scroll, 1);
	key(f, TK_PGDN);
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(scroll, 17);
	key(f, TK_PGDN);
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(scroll, 17);
	ts_row_has(&f->g, 22, "zz__filler_29");
	key(f, TK_PGUP);
	key(f, TK_PGUP);
	view_report_state(f->v, &launch, &mode, &scroll);
	assert_int_equal(scroll, 0);
	/* Help and quit belong to the application. */
	assert_int_equal(key(f, 'q'), REACT_PASS);
	assert_int_equal(key(f, '?'), REACT_PASS);
	assert_int_equal(key(f, '1'), REACT_PASS);
}

static void
test_resize(void **state)
{
	struct fx	*f = *state;

	/* The action table is the view's. */
	assert_ptr_equal(view_report_ops.actions, view_report_actions);
	assert_int_equal(view_report_ops.nactions, view_report_nactions);
	assert_int_equal(view_report_actions[4].act, ACT_DETAIL_MODE);
	/* A wide screen shows grid and block; a tiny one does not crash. */
	cellgrid_resize(&f->g, 120, 30);
	view_report_ops.resize(f->v, 120, 30);
	view_report_ops.draw(f->v, &f->g, REDRAW_ALL);
	ts_row_has(&f->g, 1, "Grid");
	ts_row_has(&f->g, 2, "16,1,1");
	ts_row_has(&f->g, 2, "256,1,1");
	cellgrid_resize(&f->g, 5, 3);
	view_report_ops.resize(f->v, 5, 3);
	view_report_ops.draw(f->v, &f->g, REDRAW_ALL);
	key(f, TK_TAB);
	key(f, TK_PGDN);
	cellgrid_resize(&f->g, 80, 24);
	view_report_ops.resize(f->v, 80, 24);
	view_report_ops.draw(f->v, &f->g, REDRAW_ALL);
	key(f, TK_TAB);
}

/* A report with no launch: the empty table, and its warning. */
static void
test_empty_report(void **state)
{
	struct report		*r = report_new(REPORT_NCU_CSV_RAW);
	struct view_shared	 sh;
	struct view_env		 env;
	struct cellgrid		 g;
	void			*v;
	char			 line[256];

	(void)state;
	report_warn(r, "x.csv: the export holds no profiled launch");
	report_finish(r);
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 24);
	memset(&sh, 0, sizeof sh);
	ts_view_env(&env, &sh, NULL, r);
	v = view_report_ops.init(NULL, &env);
	view_report_ops.resize(v, 80, 24);
	view_report_ops.draw(v, &g, REDRAW_ALL);
	cellgrid_row_text(&g, 23, line, sizeof line);
	assert_non_null(strstr(line, "1 warning: x.csv: the export holds"));
	cellgrid_row_text(&g, 4, line, sizeof line);
	assert_non_null(strstr(line, "The report holds no launch."));
	view_report_ops.free(v);
	cellgrid_free(&g);
	report_free(r);
}

/* The application picks its views by input: a report has the report view
 * and no timeline (no empty model), a model the others and no report view
 * (no empty report). */
static void
test_views_by_input(void **state)
{
	struct fx		*f = *state;
	struct model		*m = ts_model_sync_copy();
	struct app		*a;
	struct app_opts		 o;
	struct tui_key		 k;
	void			*v;
	char			*cause = NULL;

	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	o.gl = glyph_get(0);
	o.view = "report";
	o.view_arg = f->r;
	a = app_new(NULL, &o, &cause);
	assert_non_null(a);
	assert_ptr_equal(app_current(a, &v), &view_report_ops);
	k.key = '1';		/* the timeline: not for a report */
	app_key(a, &k);
	assert_ptr_equal(app_current(a, &v), &view_report_ops);
	app_free(a);
	o.view = NULL;
	assert_null(app_new(NULL, &o, &cause));
	assert_string_equal(cause, "no timeline view for this input");
	free(cause);
	cause = NULL;

	o.view = "report";
	o.view_arg = NULL;
	assert_null(app_new(m, &o, &cause));
	assert_string_equal(cause, "no report view for this input");
	free(cause);
	o.view = NULL;
	a = app_new(m, &o, &cause);
	assert_non_null(a);
	k.key = '5';		/* the report view: not for a model */
	app_key(a, &k);
	assert_string_equal(app_current(a, &v)->name, "timeline");
	app_free(a);
	model_free(m);
}

/* A report of launches of kernel "k", each with a duration, a register
 * count (the same everywhere) and, on the first launch, one metric more. */
static struct report *
base_report(const double *dur, int n)
{
	struct report		*r = report_new(REPORT_NCU_REP);
	struct report_launch	*l;
	int			 i;

	for (i = 0; i < n; i++) {
		l = report_add_launch(r);
		l->function = report_intern0(r, "k");
		l->demangled = report_intern0(r, "void k(float *)");
	}
	for (i = 0; i < n; i++) {
		ts_metric(r, (uint32_t)i, "gpu__time_duration.sum", dur[i]);
		ts_metric(r, (uint32_t)i, "launch__registers_per_thread", 32);
		if (i == 0)
			ts_metric(r, 0, "only__first", 1);
	}
	report_finish(r);
	return r;
}

static const char *
row_with(struct cellgrid *g, const char *what)
{
	int	y = ts_screen_find(g, what);

	return y < 0 ? "" : ts_row(g, y);
}

/*
 * The baseline column: B marks the selected launch as the baseline; the
 * next launch's metrics show the baseline's value and the change (rdiff's:
 * (b - a) / |a|, as `gpulens diff --launch A --launch B`), "=" where equal;
 * B on the baseline clears it. A baseline report pairs launches by kernel
 * name and order.
 */
static void
test_baseline(void **state)
{
	static const double	 da[] = { 400000, 500000 }, db[] = { 1000000 };
	struct report		*r = base_report(da, 2), *b = base_report(db, 1);
	struct view_shared	 sh;
	struct view_env		 env;
	struct cellgrid		 g;
	const struct view_ops	*ops = &view_report_ops;
	void			*v;

	(void)state;
	memset(&sh, 0, sizeof sh);
	ts_view_env(&env, &sh, NULL, r);
	v = ts_view_open(ops, NULL, &env, &g, 100, 24);
	ts_row_lacks(&g, 23, "vs ");
	assert_int_equal(ts_view_key(ops, v, &g, 'B') & REDRAW_DETAIL,
	    REDRAW_DETAIL);
	ts_row_has(&g, 2, "[baseline] void k");
	ts_row_lacks(&g, 3, "[baseline]");
	/* The baseline itself selected: nothing to compare. */
	assert_null(strstr(row_with(&g, "gpu__time_duration"), "%"));
	ts_view_key(ops, v, &g, 'j');
	assert_non_null(strstr(row_with(&g, "Metrics of launch"),
	    "Metrics of launch 1 vs launch 0: k"));
	ts_row_has(&g, 23, "vs launch 0");
	assert_non_null(strstr(row_with(&g, "gpu__time_duration"),
	    "500.00 "));
	assert_non_null(strstr(row_with(&g, "gpu__time_duration"),
	    "400.00 us"));
	assert_non_null(strstr(row_with(&g, "gpu__time_duration"),
	    "+25.0%"));
	assert_non_null(strstr(row_with(&g, "launch__registers"), " ="));
	/* B on another launch moves the baseline; on the baseline clears. */
	ts_view_key(ops, v, &g, 'B');
	ts_row_has(&g, 3, "[baseline]");
	ts_view_key(ops, v, &g, 'B');
	ts_row_lacks(&g, 3, "[baseline]");
	assert_null(strstr(row_with(&g, "gpu__time_duration"), "%"));
	ops->free(v);
	cellgrid_free(&g);

	/* A baseline report: launch k#0 with its k#0, k#1 with none. */
	env.baseline = b;
	env.baseline_title = "base.ncu-rep";
	v = ts_view_open(ops, NULL, &env, &g, 100, 24);
	ts_row_has(&g, 0, "vs base.ncu-rep");
	assert_non_null(strstr(row_with(&g, "Metrics of launch"),
	    "Metrics of launch 0 vs baseline 0: k"));
	assert_non_null(strstr(row_with(&g, "gpu__time_duration"),
	    "-60.0%"));
	assert_non_null(strstr(row_with(&g, "only__first"), "1 "));
	ts_view_key(ops, v, &g, 'j');
	ts_row_has(&g, 23, "no baseline launch");
	assert_null(strstr(row_with(&g, "gpu__time_duration"), "%"));
	ops->free(v);
	cellgrid_free(&g);
	report_free(r);
	report_free(b);
}

TS_MAIN(setup, teardown,
	cmocka_unit_test(test_screen),
	cmocka_unit_test(test_rules),
	cmocka_unit_test(test_navigation),
	cmocka_unit_test(test_resize),
	cmocka_unit_test(test_empty_report),
	cmocka_unit_test(test_views_by_input),
	cmocka_unit_test(test_baseline))
