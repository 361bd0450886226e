/*
 * app_test: the application over all views (tui/app.c) without a
 * terminal: switching views with 1 2 3, the help overlay listing every
 * action bound in the global key table and in the current view's (over as
 * many pages as it takes), named actions as a script runs them (the same
 * screens as their keys; an action of another view refused), the
 * load-warnings overlay (sanitised), the status note of a
 * trace with warnings, jumping from the NVTX tree and the kernel table to
 * the timeline (Enter, then Enter again for the next instance), the first
 * view chosen by name, and quitting.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui/action.h"
#include "tui/app.h"
#include "tui/keymap.h"
#include "model/builder.h"
#include "report/report.h"
#include "tsupport.h"
#include "tui/view-kernels.h"
#include "tui/view-nvtx.h"
#include "tui/view-timeline.h"

struct fx {
	struct model	*m;
	struct report	*rep;
	struct app	*a;
	struct cellgrid	 g;
};

static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 nv, api, gpu;

	(void)ts_train_nvtx(b, 1, 2, "H100", &gpu, &nv, &api);
	ts_add_corr(b, nv, "Step#1", EV_NVTX, 0, 1000, 0);
	ts_add_corr(b, nv, "Step#2", EV_NVTX, 1000, 2000, 0);
	ts_add_corr(b, api, "cudaLaunchKernel", EV_API, 100, 110, 1);
	ts_add_corr(b, api, "cudaLaunchKernel", EV_API, 1100, 1110, 2);
	ts_add_corr(b, gpu, "gemm", EV_KERNEL, 200, 600, 1);
	ts_add_corr(b, gpu, "gemm", EV_KERNEL, 1200, 1500, 2);
	builder_warn(b, "test warning \x1b[31mred\x1b[0m");
	return ts_finish(b);
}

/* Opens a session on m ("app.sqlite", 80x24) into f and draws it. */
static void
fx_open(struct fx *f, struct model *m)
{
	struct app_opts	 o;
	char		*cause = NULL;

	memset(f, 0, sizeof *f);
	f->m = m;
	memset(&o, 0, sizeof o);
	o.gl = glyph_get(0);
	o.title = "app.sqlite";
	f->a = app_new(f->m, &o, &cause);
	assert_non_null(f->a);
	cellgrid_init(&f->g);
	cellgrid_resize(&f->g, 80, 24);
	app_resize(f->a, 80, 24);
	app_draw(f->a, &f->g, REDRAW_ALL);
}

static int
setup(void **state)
{
	static struct fx	f;

	fx_open(&f, build());
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*f = *state;

	app_free(f->a);
	cellgrid_free(&f->g);
	model_free(f->m);
	return 0;
}

static int
key(struct fx *f, int k)
{
	struct tui_key	tk = ts_tkey(k);
	int		r;

	r = app_key(f->a, &tk);
	app_draw(f->a, &f->g, r & REDRAW_ALL);
	return r;
}

static const char *
current(struct fx *f)
{
	void	*v;

	return app_current(f->a, &v)->name;
}

static void
test_note_and_warnings(void **state)
{
	struct fx	*f = *state;

	/* A trace with warnings opens with a message line. */
	ts_row_has(&f->g, 23, "1 load warning (W lists them)");
	key(f, 'j');
	ts_row_lacks(&f->g, 23, "load warning");
	key(f, 'W');
	assert_true(ts_screen_find(&f->g, "Load warnings") >= 0);
	/* The escape sequence is shown, not sent. */
	assert_true(ts_screen_find(&f->g,
	    "test warning \\x1b[31mred\\x1b[0m") >= 0);
	key(f, 'x');
	assert_false(ts_screen_find(&f->g, "Load warnings") >= 0);
}

/*
 * Checks that every action bound in the key table called table, with the
 * labels of its keys, is on some page of the help.
 */
static void
check_help(struct fx *f, const char *table)
{
	struct keymap		*km;
	const struct keytable	*t;
	const struct keyhelp	*tab;
	size_t			 i, n;
	int			 page, y, found;
	char			 seen[64], *cause = NULL, *p;

	km = keymap_default(&cause);
	assert_non_null(km);
	t = keymap_table(km, table);
	assert_non_null(t);
	tab = t->help;
	n = t->nhelp;
	assert_true(n > 0);
	memset(seen, 0, sizeof seen);
	assert_true(n < sizeof seen);
	key(f, '?');
	for (page = 0; page < 8; page++) {
		if (ts_screen_find(&f->g, "Keys") < 0) {
			for (y = 0; y < 24; y++)
				print_message("%s\n", ts_row(&f->g, y));
			fail_msg("no help on page %d", page);
		}
		for (i = 0; i < n; i++)
			for (y = 0; y < 24 && !seen[i]; y++)
				if ((p = strstr(ts_row(&f->g, y),
				    tab[i].keys)) != NULL &&
				    strstr(p, tab[i].help) != NULL)
					seen[i] = 1;
		if (ts_screen_find(&f->g, "Space: next page") < 0)
			break;
		key(f, ' ');
	}
	for (i = 0; i < n; i++) {
		found = seen[i];
		if (!found)
			fail_msg("help lacks \"%s  %s\"", tab[i].keys,
			    tab[i].help);
	}
	keymap_free(km);
	key(f, 'x');
	assert_false(ts_screen_find(&f->g, "Keys") >= 0);
}

static void
test_help(void **state)
{
	struct fx	*f = *state;

	check_help(f, "timeline");
	check_help(f, "global");
	key(f, '2');
	check_help(f, "nvtx");
	check_help(f, "global");
	key(f, '3');
	check_help(f, "kernels");
	key(f, '4');
	check_help(f, "findings");
	/* '5' on a trace stays on a trace's views; the report view's keys
	 * are checked on a report session (test_help_report). */
	key(f, '5');
	assert_string_equal(current(f), "findings");
	key(f, '1');
	/* The lines are the keymap's: keys with their labels. */
	key(f, '?');
	assert_true(ts_screen_find(&f->g, "+ = wheel    zoom in at the "
	    "cursor") >= 0);
	key(f, 'x');
	/* A wide screen fits everything on one page. */
	cellgrid_resize(&f->g, 200, 50);
	app_resize(f->a, 200, 50);
	key(f, '1');
	key(f, '?');
	assert_true(ts_screen_find(&f->g, "Keys (any key closes)") >= 0);
	/* q in the help closes it and does not quit; then it quits. */
	assert_int_equal(key(f, 'q') & REACT_QUIT, 0);
	assert_true(ts_screen_find(&f->g, "Keys (any key closes)") < 0);
	assert_int_equal(key(f, 'q') & REACT_QUIT, REACT_QUIT);
}

/* The report view's help, in a session opened on a report. */
static void
test_help_report(void **state)
{
	struct fx		 r;
	struct report_launch	*l;
	struct app_opts		 o;
	char			*cause = NULL;

	(void)state;
	memset(&r, 0, sizeof r);
	r.rep = report_new(REPORT_NCU_REP);
	l = report_add_launch(r.rep);
	l->function = report_intern0(r.rep, "gemm");
	memset(&o, 0, sizeof o);
	o.gl = glyph_get(0);
	o.title = "app.ncu-rep";
	o.view = "report";
	o.view_arg = r.rep;
	r.a = app_new(NULL, &o, &cause);
	assert_non_null(r.a);
	cellgrid_init(&r.g);
	cellgrid_resize(&r.g, 80, 24);
	app_resize(r.a, 80, 24);
	app_draw(r.a, &r.g, REDRAW_ALL);
	assert_string_equal(current(&r), "report");
	check_help(&r, "report");
	check_help(&r, "global");
	app_free(r.a);
	cellgrid_free(&r.g);
	report_free(r.rep);
}

static void
test_views(void **state)
{
	struct fx			*f = *state;
	const struct view_shared	*sh = app_shared(f->a);
	uint32_t			 first;

	assert_string_equal(current(f), "timeline");
	key(f, '2');
	assert_string_equal(current(f), "nvtx");
	ts_row_has(&f->g, 0, "NVTX tree");
	assert_true(ts_screen_find(&f->g, "tid 2 main") >= 0);
	assert_true(ts_screen_find(&f->g, "Step#*") >= 0);
	/* The status line still shows the timeline's cursor and window. */
	ts_row_has(&f->g, 23, " cursor +");
	ts_row_has(&f->g, 23, "window 2.000us");
	key(f, 'j');
	key(f, TK_ENTER);
	assert_string_equal(current(f), "timeline");
	first = sh->sel;
	assert_int_equal(model_ev_start(f->m, first), 0);
	ts_row_has(&f->g, 23, "instance 1/2 of Step#*");
	key(f, '2');
	key(f, TK_ENTER);
	assert_int_equal(model_ev_start(f->m, sh->sel), 1000);
	ts_row_has(&f->g, 23, "instance 2/2 of Step#*");
	key(f, '3');
	assert_string_equal(current(f), "kernels");
	ts_row_has(&f->g, 0, "Kernels: 1 names, 2 launches");
	assert_true(ts_screen_find(&f->g, "gemm") >= 0);
	/* Enter: the kernel's next instance from the timeline's cursor (at
	 * the NVTX range's 1000), then the one after it, wrapping round. */
	key(f, TK_ENTER);
	assert_string_equal(current(f), "timeline");
	assert_int_equal(model_ev_start(f->m, sh->sel), 1200);
	assert_true(ts_screen_find(&f->g, "sel kernel gemm") >= 0 ||
	    ts_screen_find(&f->g, "instance 2/2 of gemm") >= 0);
	key(f, '3');
	key(f, TK_ENTER);
	assert_int_equal(model_ev_start(f->m, sh->sel), 200);
	key(f, '3');
	key(f, TK_ENTER);
	assert_int_equal(model_ev_start(f->m, sh->sel), 1200);
	/* Nothing of the table is left on the timeline's screen. */
	assert_false(ts_screen_find(&f->g, "Kernels:") >= 0);
	assert_int_equal(key(f, TK_CTRL_L) & REACT_REPAINT, REACT_REPAINT);
}

/* The kernel table's filter and sorting, and the NVTX tree's sorting,
 * through the application's keys. */
static void
test_table_keys(void **state)
{
	struct fx	*f = *state;

	key(f, '3');
	assert_int_equal(key(f, '/'), REDRAW_STATUS);
	ts_row_has(&f->g, 23, "filter names:");
	key(f, 'g');
	key(f, 'e');
	ts_row_has(&f->g, 23, "filter names: ge");
	assert_int_equal(key(f, TK_ENTER) & REDRAW_ALL, REDRAW_ALL);
	ts_row_has(&f->g, 0, "; filter \"ge\"");
	ts_row_has(&f->g, 23, "row 1 of 1");
	key(f, '/');
	key(f, 'z');
	key(f, TK_ENTER);
	ts_row_has(&f->g, 23, "no kernel name contains th");
	assert_false(ts_screen_find(&f->g, "gemm") >= 0);
	/* Esc clears the filter (the first key also clears the message). */
	key(f, TK_ESC);
	ts_row_lacks(&f->g, 0, "filter");
	assert_true(ts_screen_find(&f->g, "gemm") >= 0);
	assert_int_equal(key(f, TK_ESC), 0);
	/* Sorting cycles through the columns, each its own direction. */
	key(f, 's');
	ts_row_has(&f->g, 23, "sorted by count, descending");
	ts_row_has(&f->g, 0, "sorted by count");
	key(f, 'S');
	ts_row_has(&f->g, 23, "sorted by count, ascending");
	key(f, '2');
	key(f, 's');
	ts_row_has(&f->g, 23, "sorted by gpu, descending");
	key(f, 's');
	key(f, 's');
	ts_row_has(&f->g, 23, "sorted by name, ascending");
	key(f, 'j');
	ts_row_has(&f->g, 23, "instances");
}

/* Runs action act as a script does and redraws. */
static int
act(struct fx *f, int a)
{
	char	*cause = NULL;
	int	 r;

	r = app_action(f->a, a, &cause);
	assert_null(cause);
	assert_true(r >= 0);
	app_draw(f->a, &f->g, r & REDRAW_ALL);
	return r;
}

/* Named actions do what their keys do; one of another view is refused. */
static void
test_actions(void **state)
{
	static const struct {
		int	 key;
		int	 act;
	} steps[] = {
		{ 'j', ACT_ROW_DOWN }, { 'j', ACT_ROW_DOWN },
		{ TK_TAB, ACT_EVENT_NEXT }, { '+', ACT_ZOOM_IN },
		{ '+', ACT_ZOOM_IN }, { 'l', ACT_PAN_RIGHT },
		{ 'z', ACT_ZOOM_SELECTION }, { 'n', ACT_SEARCH_NEXT },
		{ '0', ACT_ZOOM_ALL }, { '2', ACT_VIEW_NVTX },
		{ 'j', ACT_ROW_DOWN }, { TK_RIGHT, ACT_EXPAND },
		{ 's', ACT_SORT_NEXT }, { TK_ENTER, ACT_NEXT_INSTANCE },
		{ '3', ACT_VIEW_KERNELS }, { TK_ENTER, ACT_NEXT_INSTANCE },
		{ '4', ACT_VIEW_FINDINGS }, { 'j', ACT_ROW_DOWN },
		{ '1', ACT_VIEW_TIMELINE }, { 'A', ACT_TOGGLE_API },
		{ '?', ACT_HELP }, { ' ', ACT_NONE }, { 'x', ACT_NONE },
	};
	struct fx	*f = *state, g;
	char		*cause = NULL, a[256], b[256];
	size_t		 i;
	int		 y, rk, ra;

	/* A second session on the same trace, driven by name. */
	fx_open(&g, f->m);
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		rk = key(f, steps[i].key);
		ra = steps[i].act != ACT_NONE ? act(&g, steps[i].act) :
		    key(&g, steps[i].key);
		assert_int_equal(rk, ra);
		for (y = 0; y < 24; y++) {
			cellgrid_row_text(&f->g, y, a, sizeof a);
			cellgrid_row_text(&g.g, y, b, sizeof b);
			if (strcmp(a, b) != 0)
				fail_msg("step %zu (%s), row %d:\n%s\n%s", i,
				    action_name(steps[i].act), y, a, b);
		}
	}
	assert_string_equal(current(&g), "timeline");
	/* An action of another view: refused, with its name and the view. */
	act(&g, ACT_VIEW_KERNELS);
	assert_int_equal(app_action(g.a, ACT_ZOOM_IN, &cause), -1);
	assert_non_null(cause);
	assert_string_equal(cause, "action zoom-in does not apply to the "
	    "kernels view");
	free(cause);
	cause = NULL;
	assert_int_equal(app_action(g.a, ACT_NONE, &cause), -1);
	free(cause);
	/* The kernel table's own actions run there: its filter prompt. */
	assert_int_equal(act(&g, ACT_FILTER) & REDRAW_STATUS, REDRAW_STATUS);
	ts_row_has(&g.g, 23, "filter names:");
	key(&g, TK_ESC);
	assert_int_equal(act(&g, ACT_QUIT) & REACT_QUIT, REACT_QUIT);
	app_free(g.a);
	cellgrid_free(&g.g);
}

static void
test_first_view(void **state)
{
	struct fx	*f = *state;
	struct app_opts	 o;
	struct app	*a;
	void		*v;
	char		*cause = NULL;

	memset(&o, 0, sizeof o);
	o.gl = glyph_get(1);
	o.view = "kernels";
	a = app_new(f->m, &o, &cause);
	assert_non_null(a);
	assert_string_equal(app_current(a, &v)->name, "kernels");
	app_free(a);
	o.view = "bogus";
	assert_null(app_new(f->m, &o, &cause));
	assert_non_null(strstr(cause, "unknown view 'bogus'"));
	free(cause);
}

/* An empty trace: every view draws and takes keys. */
static void
test_empty(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct app_opts	 o;
	struct app	*a;
	struct cellgrid	 g;
	struct tui_key	 k;
	char		*cause = NULL, line[256];
	const char	*ks = "jkl+-0zg1\r[]f\r/x\rnNcCAam'\x1b" "2jlhes\r3js/\r\r1";
	int		 r;

	m = ts_finish(b);
	memset(&o, 0, sizeof o);
	o.gl = glyph_get(1);
	a = app_new(m, &o, &cause);
	assert_non_null(a);
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 24);
	app_resize(a, 80, 24);
	app_draw(a, &g, REDRAW_ALL);
	memset(&k, 0, sizeof k);
	for (; *ks != '\0'; ks++) {
		k.key = *ks == '\r' ? TK_ENTER : *ks == 0x1b ? TK_ESC : *ks;
		r = app_key(a, &k);
		assert_int_equal(r & REACT_QUIT, 0);
		app_draw(a, &g, r & REDRAW_ALL);
	}
	/* Still drawing the timeline ('a' left the times absolute). */
	cellgrid_row_text(&g, 23, line, sizeof line);
	assert_non_null(strstr(line, " cursor @"));
	/* Tiny screens too. */
	cellgrid_resize(&g, 3, 2);
	app_resize(a, 3, 2);
	app_draw(a, &g, REDRAW_ALL);
	k.key = '2';
	app_draw(a, &g, app_key(a, &k) & REDRAW_ALL);
	k.key = '3';
	app_draw(a, &g, app_key(a, &k) & REDRAW_ALL);
	k.key = '?';
	app_draw(a, &g, app_key(a, &k) & REDRAW_ALL);
	cellgrid_free(&g);
	app_free(a);
	model_free(m);
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test_setup_teardown(test_note_and_warnings, setup,
	    teardown),
	cmocka_unit_test_setup_teardown(test_help, setup, teardown),
	cmocka_unit_test(test_help_report),
	cmocka_unit_test_setup_teardown(test_views, setup, teardown),
	cmocka_unit_test_setup_teardown(test_table_keys, setup, teardown),
	cmocka_unit_test_setup_teardown(test_actions, setup, teardown),
	cmocka_unit_test_setup_teardown(test_first_view, setup, teardown),
	cmocka_unit_test(test_empty))
