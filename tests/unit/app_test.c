/*
 * app_test: the application over all views (tui/app.c) without a
 * terminal: switching views with 1 2 3, the help overlay listing every key
 * of the global table and of the current view (over as many pages as it
 * takes), the load-warnings overlay (sanitised), the status note of a
 * trace with warnings, jumping from the NVTX tree and the kernel table to
 * the timeline (Enter, then Enter again for the next instance), the first
 * view chosen by name, and quitting.
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

#include "tui/app.h"
#include "model/builder.h"
#include "tsupport.h"
#include "tui/view-kernels.h"
#include "tui/view-nvtx.h"
#include "tui/view-timeline.h"

struct fx {
	struct model	*m;
	struct app	*a;
	struct cellgrid	 g;
};

static void
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t s, int64_t e, uint32_t corr)
{
	struct lane_event	ev = ts_event(b, name, kind, s, e);

	ev.corr = corr;
	if (kind == EV_NVTX)
		ev.aux = ts_nvtx(b, track);	/* the NVTX track's domain, 0 */
	if (kind == EV_KERNEL)
		ev.aux = ts_kernel(b, name);
	builder_event(b, track, &ev);
}

static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, t, nv, api, gpu;

	memset(&dev, 0, sizeof dev);
	dev.name = builder_intern(b, "H100");
	p = builder_process(b, 1, 1, "train");
	t = builder_thread(b, 2, 2, p, "main");
	gpu = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev),
	    7, p));
	nv = builder_cpu_track(b, TRACK_NVTX, t, 0);
	api = builder_cpu_track(b, TRACK_API, t, 0);
	add(b, nv, "Step#1", EV_NVTX, 0, 1000, 0);
	add(b, nv, "Step#2", EV_NVTX, 1000, 2000, 0);
	add(b, api, "cudaLaunchKernel", EV_API, 100, 110, 1);
	add(b, api, "cudaLaunchKernel", EV_API, 1100, 1110, 2);
	add(b, gpu, "gemm", EV_KERNEL, 200, 600, 1);
	add(b, gpu, "gemm", EV_KERNEL, 1200, 1500, 2);
	builder_warn(b, "test warning \x1b[31mred\x1b[0m");
	return ts_finish(b);
}

static int
setup(void **state)
{
	static struct fx	f;
	struct app_opts		o;
	char			*cause = NULL;

	memset(&f, 0, sizeof f);
	f.m = build();
	memset(&o, 0, sizeof o);
	o.gl = glyph_get(0);
	o.title = "app.sqlite";
	f.a = app_new(f.m, &o, &cause);
	assert_non_null(f.a);
	cellgrid_init(&f.g);
	cellgrid_resize(&f.g, 80, 24);
	app_resize(f.a, 80, 24);
	app_draw(f.a, &f.g, REDRAW_ALL);
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
	struct tui_key	tk;
	int		r;

	memset(&tk, 0, sizeof tk);
	tk.key = k;
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
	assert_non_null(strstr(ts_row(&f->g, 23),
	    "1 load warning (W lists them)"));
	key(f, 'j');
	assert_null(strstr(ts_row(&f->g, 23), "load warning"));
	key(f, 'W');
	assert_true(ts_screen_find(&f->g, "Load warnings") >= 0);
	/* The escape sequence is shown, not sent. */
	assert_true(ts_screen_find(&f->g,
	    "test warning \\x1b[31mred\\x1b[0m") >= 0);
	key(f, 'x');
	assert_false(ts_screen_find(&f->g, "Load warnings") >= 0);
}

/* Checks that every key of tab is on some page of the help. */
static void
check_help(struct fx *f, const struct view_key *tab, size_t n)
{
	size_t	i;
	int	page, y, found;
	char	seen[64];

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
				if (strstr(ts_row(&f->g, y),
				    tab[i].help) != NULL)
					seen[i] = 1;
		if (ts_screen_find(&f->g, "Space: next page") < 0)
			break;
		key(f, ' ');
	}
	for (i = 0; i < n; i++) {
		found = seen[i];
		if (!found)
			fail_msg("help lacks \"%s\"", tab[i].help);
	}
	key(f, 'x');
	assert_false(ts_screen_find(&f->g, "Keys") >= 0);
}

static void
test_help(void **state)
{
	struct fx	*f = *state;

	check_help(f, view_timeline_keys, view_timeline_nkeys);
	check_help(f, app_keys, app_nkeys);
	key(f, '2');
	check_help(f, view_nvtx_keys, view_nvtx_nkeys);
	key(f, '3');
	check_help(f, view_kernels_keys, view_kernels_nkeys);
	/* A wide screen fits everything on one page. */
	cellgrid_resize(&f->g, 200, 50);
	app_resize(f->a, 200, 50);
	key(f, '1');
	key(f, '?');
	assert_true(ts_screen_find(&f->g, "Keys (any key closes)") >= 0);
	assert_int_equal(key(f, 'q') & REACT_QUIT, REACT_QUIT);
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
	assert_non_null(strstr(ts_row(&f->g, 0), "NVTX tree"));
	assert_true(ts_screen_find(&f->g, "tid 2 main") >= 0);
	assert_true(ts_screen_find(&f->g, "Step#*") >= 0);
	/* The status line still shows the timeline's cursor and window. */
	assert_non_null(strstr(ts_row(&f->g, 23), " cursor +"));
	assert_non_null(strstr(ts_row(&f->g, 23), "window 2.000us"));
	key(f, 'j');
	key(f, TK_ENTER);
	assert_string_equal(current(f), "timeline");
	first = sh->sel;
	assert_int_equal(model_ev_start(f->m, first), 0);
	assert_non_null(strstr(ts_row(&f->g, 23), "instance 1/2 of Step#*"));
	key(f, '2');
	key(f, TK_ENTER);
	assert_int_equal(model_ev_start(f->m, sh->sel), 1000);
	assert_non_null(strstr(ts_row(&f->g, 23), "instance 2/2 of Step#*"));
	key(f, '3');
	assert_string_equal(current(f), "kernels");
	assert_non_null(strstr(ts_row(&f->g, 0),
	    "Kernels: 1 names, 2 launches"));
	assert_true(ts_screen_find(&f->g, "gemm") >= 0);
	key(f, TK_ENTER);
	assert_string_equal(current(f), "timeline");
	assert_int_equal(model_ev_start(f->m, sh->sel), 200);
	assert_true(ts_screen_find(&f->g, "sel kernel gemm") >= 0 ||
	    ts_screen_find(&f->g, "instance 1/2 of gemm") >= 0);
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
	assert_non_null(strstr(ts_row(&f->g, 23), "filter names:"));
	key(f, 'g');
	key(f, 'e');
	assert_non_null(strstr(ts_row(&f->g, 23), "filter names: ge"));
	assert_int_equal(key(f, TK_ENTER) & REDRAW_ALL, REDRAW_ALL);
	assert_non_null(strstr(ts_row(&f->g, 0), "; filter \"ge\""));
	assert_non_null(strstr(ts_row(&f->g, 23), "row 1 of 1"));
	key(f, '/');
	key(f, 'z');
	key(f, TK_ENTER);
	assert_non_null(strstr(ts_row(&f->g, 23), "no kernel name contains th"));
	assert_false(ts_screen_find(&f->g, "gemm") >= 0);
	/* Esc clears the filter (the first key also clears the message). */
	key(f, TK_ESC);
	assert_null(strstr(ts_row(&f->g, 0), "filter"));
	assert_true(ts_screen_find(&f->g, "gemm") >= 0);
	assert_int_equal(key(f, TK_ESC), 0);
	/* Sorting cycles through the columns, each its own direction. */
	key(f, 's');
	assert_non_null(strstr(ts_row(&f->g, 23), "sorted by count, descending"));
	assert_non_null(strstr(ts_row(&f->g, 0), "sorted by count"));
	key(f, 'S');
	assert_non_null(strstr(ts_row(&f->g, 23), "sorted by count, ascending"));
	key(f, '2');
	key(f, 's');
	assert_non_null(strstr(ts_row(&f->g, 23), "sorted by gpu, descending"));
	key(f, 's');
	key(f, 's');
	assert_non_null(strstr(ts_row(&f->g, 23), "sorted by name, ascending"));
	key(f, 'j');
	assert_non_null(strstr(ts_row(&f->g, 23), "instances"));
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_note_and_warnings, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_help, setup, teardown),
		cmocka_unit_test_setup_teardown(test_views, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_keys, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_first_view, setup,
		    teardown),
		cmocka_unit_test(test_empty),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
