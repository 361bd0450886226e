/*
 * view_timeline_test: the timeline view driven through its callbacks with
 * no terminal: what the screen shows (ruler, rows, detail pane, status
 * line, help), and what keys do to the window, the cursor, the selection
 * and the collapsed groups.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "builder.h"
#include "view-timeline.h"

struct fx {
	struct model	*m;
	void		*v;
	struct cellgrid	 g;
	char		 line[512];
};

static void
event(struct builder *b, uint32_t track, int kind, int64_t s, int64_t e,
    const char *name, uint32_t corr)
{
	struct lane_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.start = s;
	ev.end = e;
	ev.kind = (uint8_t)kind;
	ev.name = builder_intern(b, name);
	ev.rowid = -1;
	ev.corr = corr;
	ev.aux = NONE32;
	builder_event(b, track, &ev);
}

/* GPU 0 / stream 7: alpha [0, 1000), beta [2000, 2500), gamma [5000,
 * 10000); thread 11 of pid 10 launches them. */
static int
setup(void **state)
{
	static struct fx	 f;
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct view_env		 env;
	uint32_t		 p, t, gpu, api;
	char			*cause = NULL;

	memset(&f, 0, sizeof f);
	memset(&dev, 0, sizeof dev);
	dev.name = builder_intern(b, "H100");
	p = builder_process(b, 10, 10, "train");
	t = builder_thread(b, 11, 11, p, "main");
	gpu = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev),
	    7, p));
	api = builder_cpu_track(b, TRACK_API, t, 0);
	event(b, gpu, EV_KERNEL, 0, 1000, "alpha", 1);
	event(b, gpu, EV_KERNEL, 2000, 2500, "beta", 2);
	event(b, gpu, EV_KERNEL, 5000, 10000, "gamma", 3);
	event(b, api, EV_API, 0, 0, "cudaLaunchKernel", 1);
	event(b, api, EV_API, 1500, 1800, "cudaLaunchKernel", 2);
	event(b, api, EV_API, 4000, 4100, "cudaLaunchKernel", 3);
	f.m = builder_finish(b, &cause);
	assert_non_null(f.m);
	env.gl = glyph_get(0);
	env.title = "test.sqlite";
	f.v = view_timeline_ops.init(f.m, &env);
	cellgrid_init(&f.g);
	cellgrid_resize(&f.g, 80, 24);
	view_timeline_ops.resize(f.v, 80, 24);
	view_timeline_ops.draw(f.v, &f.g, REDRAW_ALL);
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*f = *state;

	view_timeline_ops.free(f->v);
	cellgrid_free(&f->g);
	model_free(f->m);
	return 0;
}

static const char *
row(struct fx *f, int y)
{
	cellgrid_row_text(&f->g, y, f->line, sizeof f->line);
	return f->line;
}

/* Sends a key, redraws what it damaged, returns the reactions. */
static int
key(struct fx *f, int k)
{
	struct tui_key	tk;
	int		r;

	memset(&tk, 0, sizeof tk);
	tk.key = k;
	r = view_timeline_ops.key(f->v, &tk);
	view_timeline_ops.draw(f->v, &f->g, r & REDRAW_ALL);
	return r;
}

static void
test_screen(void **state)
{
	struct fx	*f = *state;

	assert_non_null(strstr(row(f, 0), "test.sqlite"));
	assert_non_null(strstr(row(f, 0), "|0us"));		/* ruler */
	assert_non_null(strstr(row(f, 0), "|8us"));
	assert_non_null(strstr(row(f, 1), "- GPU 0 H100"));
	assert_non_null(strstr(row(f, 2), "  Stream 7"));
	assert_non_null(strstr(row(f, 2), "[alp~]"));	/* a named box */
	assert_non_null(strstr(row(f, 2), " gamma "));
	assert_non_null(strstr(row(f, 3), "- pid 10 train"));
	assert_non_null(strstr(row(f, 4), "  - tid 11 main"));
	assert_non_null(strstr(row(f, 5), "CUDA API"));
	assert_non_null(strstr(row(f, 17), "- GPU 0 H100: 1 track -"));
	assert_non_null(strstr(row(f, 18), "No event selected"));
	assert_non_null(strstr(row(f, 23), " cursor +"));
	assert_non_null(strstr(row(f, 23), "window 10.00us"));
	assert_non_null(strstr(row(f, 23), "? help  q quit"));
}

static void
test_tab_selects(void **state)
{
	struct fx	*f = *state;
	size_t		 r;
	uint32_t	 gid;
	int64_t		 t0, span;
	int		 cur;

	/* No event row selected yet: the group header. */
	key(f, TK_TAB);
	assert_non_null(strstr(row(f, 23), "not an event row"));
	key(f, 'j');
	view_timeline_selection(f->v, &r, &gid);
	assert_int_equal(r, 1);
	assert_int_equal(gid, NONE32);
	/* The cursor sits mid-window (~4.9us): Tab finds gamma. */
	key(f, TK_TAB);
	view_timeline_selection(f->v, &r, &gid);
	assert_string_equal(model_str(f->m, model_ev_name(f->m, gid)),
	    "gamma");
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(cur, 29);	/* the column of 5000 ns */
	assert_non_null(strstr(row(f, 18), "kernel"));
	assert_non_null(strstr(row(f, 18), "gamma"));
	assert_non_null(strstr(row(f, 19), "start +5.000us"));
	assert_non_null(strstr(row(f, 19), "dur 5.000us"));
	assert_non_null(strstr(row(f, 23), "sel kernel gamma (5.000us)"));
	/* The launching call and its latency (5000 - 4100). */
	assert_non_null(strstr(row(f, 20), "launch cudaLaunchKernel"));
	assert_non_null(strstr(row(f, 20), "latency 900ns"));
	/* Back to beta, alpha, then nothing. */
	key(f, TK_BTAB);
	view_timeline_selection(f->v, &r, &gid);
	assert_string_equal(model_str(f->m, model_ev_name(f->m, gid)),
	    "beta");
	key(f, TK_BTAB);
	view_timeline_selection(f->v, &r, &gid);
	assert_string_equal(model_str(f->m, model_ev_name(f->m, gid)),
	    "alpha");
	key(f, TK_BTAB);
	assert_non_null(strstr(row(f, 23), "no previous event"));
	key(f, TK_ESC);
	view_timeline_selection(f->v, &r, &gid);
	assert_int_equal(gid, NONE32);
}

static void
test_zoom_and_pan(void **state)
{
	struct fx	*f = *state;
	int64_t		 t0, span, t0b, spanb;
	int		 cur;

	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0, 0);
	assert_int_equal(span, 10000);
	key(f, '+');
	view_timeline_window(f->v, &t0b, &spanb, &cur);
	assert_int_equal(spanb, 5000);
	/* Zoom keeps the time under the cursor column about where it was. */
	assert_true(t0b > 2000 && t0b < 2700);
	assert_non_null(strstr(row(f, 23), "window 5.000us"));
	key(f, 'L');				/* a whole window right */
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0, 5000);		/* clamped to the end */
	key(f, 'h');
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0, 5000 - 625);
	key(f, TK_HOME);
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0, 0);
	key(f, TK_END);
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0 + span, 10000);
	key(f, '-');
	key(f, '-');
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0, 0);
	assert_int_equal(span, 10000);		/* never past the trace */
	key(f, '+');
	key(f, '+');
	key(f, '0');
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(span, 10000);
}

static void
test_zoom_keeps_cursor(void **state)
{
	struct fx	*f = *state;
	int64_t		 t0, span;
	int		 cur, i;

	/*
	 * Select gamma (5000 ns): halving the span around the window's
	 * start would leave it outside; the cursor must stay on it.
	 */
	key(f, 'j');
	key(f, TK_TAB);
	for (i = 0; i < 12; i++) {
		key(f, '+');
		view_timeline_window(f->v, &t0, &span, &cur);
		assert_true(t0 <= 5000 && 5000 < t0 + span);
	}
	assert_int_equal(span, 59);		/* one ns per column */
	assert_non_null(strstr(row(f, 23), "cursor +5.000us"));
	/* Zoomed in, gamma's box shows its name. */
	assert_non_null(strstr(row(f, 2), "gamma"));
}

static void
test_collapse(void **state)
{
	struct fx	*f = *state;

	assert_non_null(strstr(row(f, 2), "Stream 7"));
	key(f, TK_ENTER);		/* row 0: the GPU 0 header */
	assert_non_null(strstr(row(f, 1), "+ GPU 0 H100"));
	assert_non_null(strstr(row(f, 2), "- pid 10 train"));
	key(f, TK_ENTER);
	assert_non_null(strstr(row(f, 2), "Stream 7"));
}

static void
test_help_and_quit(void **state)
{
	struct fx	*f = *state;
	size_t		 i;
	int		 y, found;

	key(f, '?');
	/* Every binding is listed. */
	for (i = 0; i < view_timeline_nkeys; i++) {
		found = 0;
		for (y = 0; y < 24 && !found; y++)
			found = strstr(row(f, y), view_timeline_keys[i].help) !=
			    NULL;
		if (!found)
			fail_msg("help lacks \"%s\"",
			    view_timeline_keys[i].help);
	}
	key(f, 'x');			/* any key closes it */
	for (y = 0; y < 24; y++)
		assert_null(strstr(row(f, y), "Keys (any key closes)"));
	assert_int_equal(key(f, 'q') & REACT_QUIT, REACT_QUIT);
}

static void
test_resize(void **state)
{
	struct fx	*f = *state;

	cellgrid_resize(&f->g, 200, 50);
	view_timeline_ops.resize(f->v, 200, 50);
	view_timeline_ops.draw(f->v, &f->g, REDRAW_ALL);
	assert_non_null(strstr(row(f, 49), " cursor +"));
	assert_non_null(strstr(row(f, 2), "Stream 7"));
	/* Tiny screens draw without the detail pane and do not crash. */
	cellgrid_resize(&f->g, 10, 3);
	view_timeline_ops.resize(f->v, 10, 3);
	view_timeline_ops.draw(f->v, &f->g, REDRAW_ALL);
	cellgrid_resize(&f->g, 1, 1);
	view_timeline_ops.resize(f->v, 1, 1);
	view_timeline_ops.draw(f->v, &f->g, REDRAW_ALL);
	key(f, '+');
	key(f, TK_TAB);
	key(f, '?');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_screen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tab_selects, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_zoom_and_pan, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_zoom_keeps_cursor, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_collapse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_and_quit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_resize, setup, teardown),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
