/*
 * view_timeline_test: the timeline view driven through its callbacks with
 * no terminal: what the screen shows (ruler, rows, detail pane, status
 * line), and what keys do to the window, the cursor, the selection, the
 * collapsed groups, the search (/ n N), go-to (g), the marked range and
 * its statistics ([ ] z), the minimum-duration filter (f), hidden API
 * rows (A), absolute times (a), bookmarks (m '), and what a message from
 * another view (show an event) does.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/builder.h"
#include "tsupport.h"
#include "tui/view-timeline.h"

struct fx {
	struct model		*m;
	void			*v;
	struct cellgrid		 g;
	struct view_shared	 sh;
};

static void
event(struct builder *b, uint32_t track, int kind, int64_t s, int64_t e,
    const char *name, uint32_t corr)
{
	struct lane_event	ev = ts_event(b, name, kind, s, e);

	ev.corr = corr;
	builder_event(b, track, &ev);
}

/* GPU 0 / stream 7: alpha [0, 1000), beta [2000, 2500), gamma [5000,
 * 10000); thread 11 of pid 10 launches them. */
static int
setup(void **state)
{
	static struct fx	 f;
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct view_env		 env;
	uint32_t		 t, gpu, api;

	memset(&f, 0, sizeof f);
	t = ts_train(b, 10, 11, "H100", &gpu);
	api = builder_cpu_track(b, TRACK_API, t, 0);
	event(b, gpu, EV_KERNEL, 0, 1000, "alpha", 1);
	event(b, gpu, EV_KERNEL, 2000, 2500, "beta", 2);
	event(b, gpu, EV_KERNEL, 5000, 10000, "gamma", 3);
	event(b, api, EV_API, 0, 0, "cudaLaunchKernel", 1);
	event(b, api, EV_API, 1500, 1800, "cudaLaunchKernel", 2);
	event(b, api, EV_API, 4000, 4100, "cudaLaunchKernel", 3);
	f.m = ts_finish(b);
	ts_view_env(&env, &f.sh, "test.sqlite", NULL);
	f.sh.sel = NONE32;
	f.v = ts_view_open(&view_timeline_ops, f.m, &env, &f.g, 80, 24);
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

/* Sends a key, redraws what it damaged, returns the reactions. */
static int
key(struct fx *f, int k)
{
	return ts_view_key(&view_timeline_ops, f->v, &f->g, k);
}

static void
test_screen(void **state)
{
	struct fx	*f = *state;

	ts_row_has(&f->g, 0, "test.sqlite");
	ts_row_has(&f->g, 0, "|0us");	/* ruler */
	ts_row_has(&f->g, 0, "|8us");
	ts_row_has(&f->g, 1, "- GPU 0 H100");
	ts_row_has(&f->g, 2, "  Stream 7");
	/* A named box. */
	ts_row_has(&f->g, 2, "[alp~");
	ts_row_has(&f->g, 2, " gamma ");
	ts_row_has(&f->g, 3, "- pid 10 train");
	/* A thread of one track (its API calls) opens folded. */
	ts_row_has(&f->g, 4, "  + tid 11 main");
	ts_row_lacks(&f->g, 5, "CUDA API");
	ts_row_has(&f->g, 17, "- GPU 0 H100: 1 track -");
	ts_row_has(&f->g, 18, "No event selected");
	ts_row_has(&f->g, 23, " cursor +");
	ts_row_has(&f->g, 23, "window 10.00us");
	ts_row_has(&f->g, 23, "? help  q quit");
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
	ts_row_has(&f->g, 23, "not an event row");
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
	/* The label column is as wide as the longest label needs (16), so
	 * the lanes have 63 columns. */
	assert_int_equal(cur, 31);	/* the column of 5000 ns */
	ts_row_has(&f->g, 18, "kernel");
	ts_row_has(&f->g, 18, "gamma");
	ts_row_has(&f->g, 19, "start +5.000us");
	ts_row_has(&f->g, 19, "dur 5.000us");
	ts_row_has(&f->g, 23, "sel kernel gamma (5.000us)");
	/* The launching call and its latency (5000 - 4100). */
	ts_row_has(&f->g, 20, "launch cudaLaunchKernel");
	ts_row_has(&f->g, 20, "latency 900ns");
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
	ts_row_has(&f->g, 23, "no previous event");
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
	ts_row_has(&f->g, 23, "window 5.000us");
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
	assert_int_equal(span, 63);		/* one ns per column */
	ts_row_has(&f->g, 23, "cursor +5.000us");
	/* Zoomed in, gamma's box shows its name. */
	ts_row_has(&f->g, 2, "gamma");
}

static void
test_collapse(void **state)
{
	struct fx	*f = *state;

	ts_row_has(&f->g, 2, "Stream 7");
	key(f, TK_ENTER);		/* row 0: the GPU 0 header */
	ts_row_has(&f->g, 1, "+ GPU 0 H100");
	ts_row_has(&f->g, 2, "- pid 10 train");
	key(f, TK_ENTER);
	ts_row_has(&f->g, 2, "Stream 7");
}

static void
test_resize(void **state)
{
	struct fx	*f = *state;

	cellgrid_resize(&f->g, 200, 50);
	view_timeline_ops.resize(f->v, 200, 50);
	view_timeline_ops.draw(f->v, &f->g, REDRAW_ALL);
	ts_row_has(&f->g, 49, " cursor +");
	ts_row_has(&f->g, 2, "Stream 7");
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
	key(f, '/');
	key(f, 'a');
	key(f, TK_ENTER);
	key(f, ']');
}

/* Types text into the prompt and presses Enter. */
static void
type(struct fx *f, const char *s)
{
	for (; *s != '\0'; s++)
		key(f, (unsigned char)*s);
	key(f, TK_ENTER);
}

static const char *
selname(struct fx *f)
{
	size_t		r;
	uint32_t	gid;

	view_timeline_selection(f->v, &r, &gid);
	if (gid == NONE32)
		return "(none)";
	return model_str(f->m, model_ev_name(f->m, gid));
}

static void
test_unknown_keys_pass(void **state)
{
	struct fx	*f = *state;

	/* Global keys are the application's: the view passes them on. */
	assert_int_equal(key(f, '?') & REACT_PASS, REACT_PASS);
	assert_int_equal(key(f, 'q') & REACT_PASS, REACT_PASS);
	assert_int_equal(key(f, '2') & REACT_PASS, REACT_PASS);
	assert_int_equal(key(f, 'j') & REACT_PASS, 0);
}

static void
test_search(void **state)
{
	struct fx	*f = *state;
	uint64_t	 filt, n;

	key(f, 'n');
	ts_row_has(&f->g, 23, "no search yet");
	key(f, '/');
	ts_row_has(&f->g, 23, "search:");
	type(f, "A");			/* case-insensitive */
	view_timeline_counts(f->v, &filt, &n);
	assert_int_equal(n, 6);		/* 3 kernels, 3 launches */
	/* The first match at or after the cursor (~4.9us): gamma. */
	assert_string_equal(selname(f), "gamma");
	ts_row_has(&f->g, 23, "match 6 of 6");
	/* Then around: alpha and the launch at 0 (GPU row first). */
	key(f, 'n');
	assert_string_equal(selname(f), "alpha");
	ts_row_has(&f->g, 23, "match 1 of 6");
	key(f, 'n');
	assert_string_equal(selname(f), "cudaLaunchKernel");
	key(f, 'n');
	key(f, 'n');
	assert_string_equal(selname(f), "beta");
	key(f, 'N');
	key(f, 'N');
	assert_string_equal(selname(f), "cudaLaunchKernel");
	key(f, 'N');
	key(f, 'N');		/* wraps to the last */
	assert_string_equal(selname(f), "gamma");
	/* The pattern is in the detail rule's tags. */
	ts_row_has(&f->g, 17, "[/A: 6]");
	key(f, '/');
	type(f, "zzz");
	ts_row_has(&f->g, 23, "no event name contains");
	key(f, '/');
	key(f, 'x');
	key(f, TK_ESC);		/* cancelled: nothing searched */
	ts_row_lacks(&f->g, 23, "search:");
}

static void
test_goto(void **state)
{
	struct fx	*f = *state;
	int64_t		 t0, span;
	int		 cur;

	key(f, '+');
	key(f, '+');			/* a 2.5us window */
	key(f, 'g');
	type(f, "8us");
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_true(t0 <= 8000 && 8000 < t0 + span);
	ts_row_has(&f->g, 23, "cursor +8.0");
	key(f, 'g');
	type(f, "@ 1500 ");		/* absolute, blanks ignored */
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_true(t0 <= 1500 && 1500 < t0 + span);
	ts_row_has(&f->g, 23, "cursor +1.50");
	key(f, 'g');
	type(f, "soon");
	ts_row_has(&f->g, 23, "not a time");
	key(f, 'g');
	type(f, "1s");
	ts_row_has(&f->g, 23, "outside the trace");
}

static void
test_range(void **state)
{
	struct fx	*f = *state;
	int64_t		 t0, span;
	int		 cur;

	key(f, 'g');
	type(f, "1us");
	key(f, '[');
	ts_row_has(&f->g, 23, "range start at +1.0");
	key(f, 'g');
	type(f, "6us");
	key(f, ']');
	/* Stream 7 in [1000, 6000): beta 500 + gamma's first 1000. */
	assert_true(ts_screen_find(&f->g, "Range +1.0") >= 0);
	assert_true(ts_screen_find(&f->g, "GPU 0 stream 7") >= 0);
	assert_true(ts_screen_find(&f->g, " 30.0%") >= 0);
	assert_true(ts_screen_find(&f->g, "2 kernels, 1.500us") >= 0);
	assert_true(ts_screen_find(&f->g,
	    "1.000us  66.7%       1  gamma") >= 0);
	assert_true(ts_screen_find(&f->g, "  500ns  33.3%       1  beta") >= 0);
	key(f, 'x');			/* any key closes */
	assert_false(ts_screen_find(&f->g, "Range +1.0") >= 0);
	assert_true(ts_screen_find(&f->g, "[range 5.000us]") >= 0);
	key(f, 'z');
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_int_equal(t0, 1000);
	assert_int_equal(span, 5000);
	/* Marking backwards gives the same range. */
	key(f, TK_ESC);
	key(f, 'g');
	type(f, "6us");
	key(f, ']');
	key(f, 'g');
	type(f, "1us");
	key(f, '[');
	assert_true(ts_screen_find(&f->g, "GPU 0 stream 7") >= 0);
}

static void
test_zoom_to_event(void **state)
{
	struct fx	*f = *state;
	int64_t		 t0, span;
	int		 cur;

	key(f, 'z');
	ts_row_has(&f->g, 23, "nothing to zoom to");
	key(f, 'j');
	key(f, TK_TAB);			/* gamma [5000, 10000) */
	key(f, 'z');
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_true(t0 <= 5000);
	assert_true(t0 + span >= 10000);
	assert_int_equal(span, 6250);	/* a quarter more than gamma */
}

static void
test_filter(void **state)
{
	struct fx	*f = *state;
	uint64_t	 filt, n;

	key(f, 'f');
	type(f, "600");
	view_timeline_counts(f->v, &filt, &n);
	assert_int_equal(filt, 2);		/* alpha, gamma */
	ts_row_has(&f->g, 23, "filter: 2 events");
	ts_row_has(&f->g, 17, "[>=600ns]");
	/* Tab skips beta now. */
	key(f, 'j');
	key(f, 'g');
	type(f, "0");
	key(f, TK_TAB);
	assert_string_equal(selname(f), "alpha");
	key(f, TK_TAB);
	assert_string_equal(selname(f), "gamma");
	/* The filtered row still draws gamma's box. */
	ts_row_has(&f->g, 2, " gamma ");
	key(f, 'f');
	type(f, "1 hour");
	ts_row_has(&f->g, 23, "not a duration");
	key(f, 'f');
	/* The prompt starts with the current value; clear it. */
	key(f, TK_CTRL('U'));
	key(f, TK_ENTER);
	view_timeline_counts(f->v, &filt, &n);
	assert_int_equal(filt, 6);
	ts_row_has(&f->g, 23, "filter off");
	/* The selection survived both changes. */
	assert_string_equal(selname(f), "gamma");
}

static void
test_fold_keys(void **state)
{
	struct fx	*f = *state;
	size_t		 r;
	uint32_t	 gid;

	key(f, 'j');				/* Stream 7 */
	key(f, 'c');
	view_timeline_selection(f->v, &r, &gid);
	assert_int_equal(r, 0);			/* its header */
	ts_row_has(&f->g, 1, "+ GPU 0 H100");
	key(f, 'c');
	ts_row_has(&f->g, 2, "Stream 7");
	key(f, 'C');				/* all folded */
	ts_row_has(&f->g, 1, "+ GPU 0 H100");
	ts_row_has(&f->g, 2, "+ pid 10 train");
	ts_row_lacks(&f->g, 3, "tid");
	key(f, 'C');				/* all open */
	ts_row_has(&f->g, 5, "CUDA API");
}

static void
test_api_rows(void **state)
{
	struct fx	*f = *state;

	ts_row_has(&f->g, 4, "+ tid 11 main");
	key(f, 'A');
	ts_row_lacks(&f->g, 4, "tid 11");
	/* The process and thread hold nothing else: gone too. */
	ts_row_lacks(&f->g, 3, "pid 10");
	ts_row_has(&f->g, 17, "[API hidden]");
	key(f, 'A');
	ts_row_has(&f->g, 4, "+ tid 11 main");
	key(f, 'j');
	key(f, 'j');
	key(f, 'j');
	key(f, TK_ENTER);			/* unfolds the thread */
	ts_row_has(&f->g, 5, "CUDA API");
}

static void
test_abs_time(void **state)
{
	struct fx	*f = *state;

	ts_row_has(&f->g, 23, "cursor +");
	key(f, 'a');
	ts_row_has(&f->g, 23, "absolute");
	key(f, 'x');
	ts_row_has(&f->g, 23, "cursor @");
	key(f, 'j');
	key(f, TK_TAB);
	ts_row_has(&f->g, 19, "start @5.000us");
	key(f, 'a');
	ts_row_has(&f->g, 19, "start +5.000us");
}

static void
test_bookmarks(void **state)
{
	struct fx	*f = *state;
	int64_t		 t0, span, t0b, spanb;
	int		 cur;

	key(f, '+');
	key(f, '+');
	view_timeline_window(f->v, &t0, &span, &cur);
	key(f, 'm');
	ts_row_has(&f->g, 23, "bookmark 1 at");
	key(f, '0');
	key(f, 'm');
	key(f, '\'');
	assert_true(ts_screen_find(&f->g, "Bookmarks") >= 0);
	assert_true(ts_screen_find(&f->g, " 1  +") >= 0);
	assert_true(ts_screen_find(&f->g, " 2  +") >= 0);
	key(f, '1');			/* jump to the first */
	assert_false(ts_screen_find(&f->g, "Bookmarks") >= 0);
	view_timeline_window(f->v, &t0b, &spanb, &cur);
	assert_int_equal(t0b, t0);
	assert_int_equal(spanb, span);
	key(f, '\'');
	key(f, 'j');
	key(f, 'd');			/* deletes the second */
	key(f, TK_ESC);
	key(f, '\'');
	assert_false(ts_screen_find(&f->g, " 2  +") >= 0);
	key(f, TK_ENTER);
	view_timeline_window(f->v, &t0b, &spanb, &cur);
	assert_int_equal(spanb, span);
}

static void
test_show_event(void **state)
{
	struct fx	*f = *state;
	struct view_msg	 msg;
	size_t		 r;
	uint32_t	 gid;
	int64_t		 t0, span;
	int		 cur;

	key(f, TK_ENTER);		/* fold GPU 0: reveal must open it */
	memset(&msg, 0, sizeof msg);
	msg.type = VMSG_SHOW_EVENT;
	msg.gid = model_gid(f->m, 0, 1);	/* beta */
	snprintf(msg.note, sizeof msg.note, "from the test");
	view_timeline_ops.command(f->v, &msg);
	view_timeline_ops.draw(f->v, &f->g, REDRAW_ALL);
	view_timeline_selection(f->v, &r, &gid);
	assert_int_equal(gid, msg.gid);
	assert_int_equal(r, 1);			/* Stream 7, visible again */
	assert_string_equal(f->sh.note, "from the test");
	view_timeline_window(f->v, &t0, &span, &cur);
	assert_true(t0 <= 2000 && 2500 <= t0 + span);
	assert_int_equal(f->sh.cursor, 2000);
	/* Tab goes on from it on its row. */
	f->sh.note[0] = '\0';
	key(f, TK_TAB);
	assert_string_equal(selname(f), "gamma");
}

/*
 * The timeline opens without sync rows; showing a sync wait from another
 * view brings them back so the wait is selected on its own row.
 */
static void
test_show_sync(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct view_env		 env;
	struct view_shared	 sh;
	struct cellgrid		 g;
	struct view_msg		 msg;
	struct model		*m;
	void			*v;
	uint32_t		 st, gpu, sy, gid;
	size_t			 r;

	memset(&dev, 0, sizeof dev);
	memset(&g, 0, sizeof g);
	memset(&sh, 0, sizeof sh);
	st = builder_stream(b, builder_device(b, &dev), 7, NONE32);
	gpu = builder_gpu_track(b, st);
	sy = builder_sync_track(b, st);
	event(b, gpu, EV_KERNEL, 0, 1000, "alpha", 0);
	event(b, sy, EV_SYNC, 500, 1500, "wait", 0);
	m = ts_finish(b);
	ts_view_env(&env, &sh, "test.sqlite", NULL);
	sh.sel = NONE32;
	v = ts_view_open(&view_timeline_ops, m, &env, &g, 80, 24);
	ts_row_lacks(&g, 3, "Stream 7 sync");
	memset(&msg, 0, sizeof msg);
	msg.type = VMSG_SHOW_EVENT;
	msg.gid = model_gid(m, sy, 0);
	view_timeline_ops.command(v, &msg);
	view_timeline_ops.draw(v, &g, REDRAW_ALL);
	view_timeline_selection(v, &r, &gid);
	assert_int_equal(gid, msg.gid);
	assert_int_equal(r, 2);			/* Stream 7 sync */
	ts_row_has(&g, 3, "Stream 7 sync");
	view_timeline_ops.free(v);
	cellgrid_free(&g);
	model_free(m);
}

static void
test_shared_state(void **state)
{
	struct fx	*f = *state;

	key(f, '+');
	assert_int_equal(f->sh.span, 5000);
	key(f, 'j');
	key(f, TK_TAB);
	assert_int_equal(f->sh.sel, model_gid(f->m, 0, 2));
	assert_int_equal(f->sh.cursor, 5000);
	assert_true(f->sh.res >= 1);
}

/* Moving between rows repaints two labels, not the lanes. */
static void
test_label_damage(void **state)
{
	struct fx	*f = *state;
	struct tui_key	 tk;
	int		 r, y;

	tk = ts_tkey('j');
	r = view_timeline_ops.key(f->v, &tk, ts_key_action("timeline", 'j'));
	assert_int_equal(r & REDRAW_TIMELINE, 0);
	assert_int_equal(r & REDRAW_LABELS, REDRAW_LABELS);
	cellgrid_clean(&f->g);
	view_timeline_ops.draw(f->v, &f->g, r & REDRAW_ALL);
	for (y = 0; y < 24; y++) {
		if (y == 1 || y == 2 || y >= 17)
			continue;
		if (f->g.dirty[y])
			fail_msg("row %d repainted", y);
	}
	assert_true(f->g.dirty[1] && f->g.dirty[2]);
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test_setup_teardown(test_screen, setup, teardown),
	cmocka_unit_test_setup_teardown(test_tab_selects, setup, teardown),
	cmocka_unit_test_setup_teardown(test_zoom_and_pan, setup, teardown),
	cmocka_unit_test_setup_teardown(test_zoom_keeps_cursor, setup,
	    teardown),
	cmocka_unit_test_setup_teardown(test_collapse, setup, teardown),
	cmocka_unit_test_setup_teardown(test_unknown_keys_pass, setup,
	    teardown),
	cmocka_unit_test_setup_teardown(test_search, setup, teardown),
	cmocka_unit_test_setup_teardown(test_goto, setup, teardown),
	cmocka_unit_test_setup_teardown(test_range, setup, teardown),
	cmocka_unit_test_setup_teardown(test_zoom_to_event, setup, teardown),
	cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
	cmocka_unit_test_setup_teardown(test_fold_keys, setup, teardown),
	cmocka_unit_test_setup_teardown(test_api_rows, setup, teardown),
	cmocka_unit_test_setup_teardown(test_abs_time, setup, teardown),
	cmocka_unit_test_setup_teardown(test_bookmarks, setup, teardown),
	cmocka_unit_test_setup_teardown(test_show_event, setup, teardown),
	cmocka_unit_test(test_show_sync),
	cmocka_unit_test_setup_teardown(test_shared_state, setup, teardown),
	cmocka_unit_test_setup_teardown(test_label_damage, setup, teardown),
	cmocka_unit_test_setup_teardown(test_resize, setup, teardown))
