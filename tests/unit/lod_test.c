/*
 * lod_test: column aggregates and glyph choice (tui/lod.c) on tiny models
 * built with builder.h: boxes with names for wide events, eighth blocks
 * for thin ones, ramps for folded columns, colour classes by kind, and a
 * randomised check against brute force that a column is blank exactly
 * when no event touches it.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "analysis/busy.h"
#include "model/builder.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/lod.h"
#include "tsupport.h"

struct ev {
	int64_t		 start, end;
	const char	*name;
	int		 kind, flags;
};

/* A model with one GPU stream holding evs. */
static struct model *
one_stream(const struct ev *evs, size_t n)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 e;
	uint32_t		 d, s, t;
	size_t			 i;

	d = ts_device(b, 0);
	s = builder_stream(b, d, 7, NONE32);
	t = builder_gpu_track(b, s);
	for (i = 0; i < n; i++) {
		e = ts_event(b, evs[i].name, evs[i].kind, evs[i].start,
		    evs[i].end);
		e.flags = (uint8_t)evs[i].flags;
		builder_event(b, t, &e);
	}
	return ts_finish(b);
}

/* Draws the model's first lane over [t0, t0 + span) in ncols columns. */
static void
draw(struct cellgrid *g, const struct model *m, int64_t t0, int64_t span,
    int ncols, const struct glyph *gl)
{
	struct lod_view	 v = { t0, span, ncols };
	struct lod_col	*cols = calloc((size_t)ncols, sizeof *cols);

	assert_non_null(cols);
	cellgrid_init(g);
	cellgrid_resize(g, ncols, 1);
	lod_lane(&m->tracks[0].lane, &v, cols);
	lod_draw_lane(g, 0, 0, m, &m->tracks[0].lane, &v, cols, gl,
	    gl->utf8 ? 0 : 1);
	free(cols);
}

/* A test's lane: one GPU stream's model and the row it is drawn into. */
struct scene {
	struct model	*m;
	struct cellgrid	 g;
};

/* Draws one stream holding the n events evs over [0, span) in ncols
 * columns with gl into s (free it with scene_free()). */
static void
scene_draw(struct scene *s, const struct ev *evs, size_t n, int64_t span,
    int ncols, const struct glyph *gl)
{
	s->m = one_stream(evs, n);
	draw(&s->g, s->m, 0, span, ncols, gl);
}

static void
scene_free(struct scene *s)
{
	cellgrid_free(&s->g);
	model_free(s->m);
}

static wchar_t
ch(struct cellgrid *g, int x)
{
	return cellgrid_at(g, x, 0)->ch;
}

static int
cls(struct cellgrid *g, int x)
{
	return cellgrid_at(g, x, 0)->attr & CGA_CLASS;
}

static int
attr(struct cellgrid *g, int x, int flag)
{
	return (cellgrid_at(g, x, 0)->attr & flag) != 0;
}

static void
test_box_with_name(void **state)
{
	const struct glyph	*gl = glyph_get(1);
	struct ev		 evs[] = { { 100, 900, "gemm", EV_KERNEL, 0 } };
	struct scene		 s;
	int			 x;

	/* 100 columns of 10 ns: the kernel covers columns 10..89. */
	scene_draw(&s, evs, 1, 1000, 100, gl);
	assert_int_equal(ch(&s.g, 9), L' ');
	assert_false(attr(&s.g, 9, CGA_FILL));
	assert_int_equal(ch(&s.g, 10), gl->box_open);
	assert_int_equal(ch(&s.g, 11), L'g');
	assert_int_equal(ch(&s.g, 12), L'e');
	assert_int_equal(ch(&s.g, 13), L'm');
	assert_int_equal(ch(&s.g, 14), L'm');
	for (x = 10; x < 90; x++) {
		assert_int_equal(cls(&s.g, x), CG_KERNEL);
		assert_true(attr(&s.g, x, CGA_FILL));
	}
	assert_int_equal(ch(&s.g, 15), L' ');
	assert_int_equal(ch(&s.g, 89), L' ');
	assert_int_equal(ch(&s.g, 90), L' ');
	assert_false(attr(&s.g, 90, CGA_FILL));
	scene_free(&s);
}

/*
 * One kernel named "abcdefghij" over [20, end), drawn over [0, 100) in 10
 * columns: the row is want, and the box's second column is filled.
 */
static void
box_named(int64_t end, const char *want)
{
	const struct glyph	*gl = glyph_get(0);
	struct ev		 evs[] = { { 20, end, "abcdefghij", EV_KERNEL,
				    0 } };
	struct scene		 s;
	char			 row[64];

	scene_draw(&s, evs, 1, 100, 10, gl);
	cellgrid_row_text(&s.g, 0, row, sizeof row);
	assert_string_equal(row, want);
	assert_true(attr(&s.g, 3, CGA_FILL));
	scene_free(&s);
}

static void
test_box_name_truncated(void **state)
{
	/* 6 columns: "[" + 4 columns of name + "]". */
	box_named(80, "  [abc~]");
}

static void
test_box_too_narrow_for_name(void **state)
{
	/* 4 columns leave 2 for the name: too few, so no name at all. */
	box_named(60, "  [  ]");
}

static void
test_ramp_many_tiny(void **state)
{
	const struct glyph	*gl = glyph_get(1);
	struct ev		 evs[5];
	struct scene		 s;
	int			 i;

	/* Five 1 ns kernels in column 5 ([50, 60)): half of it busy. */
	for (i = 0; i < 5; i++) {
		evs[i].start = 50 + 2 * i;
		evs[i].end = 51 + 2 * i;
		evs[i].name = "k";
		evs[i].kind = EV_KERNEL;
		evs[i].flags = 0;
	}
	scene_draw(&s, evs, 5, 100, 10, gl);
	assert_int_equal(ch(&s.g, 5), gl->ramp[4]);
	assert_int_equal(ch(&s.g, 5), L'\u2584');
	assert_int_equal(cls(&s.g, 5), CG_KERNEL);
	assert_true(attr(&s.g, 5, CGA_FOLD));
	assert_int_equal(ch(&s.g, 4), L' ');
	assert_int_equal(ch(&s.g, 6), L' ');
	cellgrid_free(&s.g);

	/* The same in ASCII: a ramp character, not blank. */
	draw(&s.g, s.m, 0, 100, 10, glyph_get(0));
	assert_int_equal(ch(&s.g, 5), L':');
	scene_free(&s);
}

static void
test_eighth_block(void **state)
{
	const struct glyph	*gl = glyph_get(1);
	struct ev		 evs[] = {
		{ 30, 33, "thin", EV_MEMCPY, 0 },	/* 3/10 of col 3 */
		{ 50, 51, "hair", EV_MEMSET, 0 },	/* 1/10 of col 5 */
		{ 70, 79, "fat", EV_SYNC, 0 },		/* 9/10 of col 7 */
	};
	struct scene		 s;

	scene_draw(&s, evs, 3, 100, 10, gl);
	assert_int_equal(ch(&s.g, 3), L'\u258d');		/* 3/8 */
	assert_int_equal(cls(&s.g, 3), CG_MEMCPY);
	assert_false(attr(&s.g, 3, CGA_FOLD));
	assert_int_equal(ch(&s.g, 5), L'\u258f');		/* 1/8 */
	assert_int_equal(cls(&s.g, 5), CG_MEMSET);
	assert_int_equal(ch(&s.g, 7), L'\u2588');		/* 8/8 */
	assert_int_equal(cls(&s.g, 7), CG_SYNC);
	scene_free(&s);
}

static void
test_right_aligned_edge(void **state)
{
	const struct glyph	*gl = glyph_get(1);
	struct ev		 evs[] = { { 37, 60, "k", EV_KERNEL, 0 } };
	struct scene		 s;

	/* Starts late in column 3, then fills columns 4 and 5 as a box. */
	scene_draw(&s, evs, 1, 100, 10, gl);
	assert_int_equal(ch(&s.g, 3), gl->right_half);
	assert_false(attr(&s.g, 3, CGA_FILL));
	assert_true(attr(&s.g, 4, CGA_FILL));
	assert_true(attr(&s.g, 5, CGA_FILL));
	assert_int_equal(ch(&s.g, 6), L' ');
	scene_free(&s);
}

static void
test_zero_length_not_blank(void **state)
{
	const struct glyph	*gl = glyph_get(1);
	struct ev		 evs[] = { { 42, 42, "mark", EV_MARK, 0 },
				    { 0, 1, "first", EV_KERNEL, 0 } };
	struct scene		 s;

	scene_draw(&s, evs, 2, 100, 10, gl);
	assert_int_equal(ch(&s.g, 4), gl->left[1]);
	assert_int_equal(cls(&s.g, 4), CG_NVTX);
	scene_free(&s);
}

static void
test_classes(void **state)
{
	const struct glyph	*gl = glyph_get(1);
	struct ev		 evs[] = {
		{ 0, 10, "a", EV_KERNEL, EVF_COMM },
		{ 10, 20, "b", EV_MEMCPY, 0 },
		{ 20, 30, "c", EV_API, 0 },
		{ 30, 40, "d", EV_NVTX, 0 },
		{ 40, 50, "e", EV_OSRT, 0 },
		{ 50, 60, "f", EV_MEMSET, 0 },
		{ 60, 70, "g", EV_KERNEL, 0 },
		{ 70, 80, "h", EV_OVERHEAD, 0 },
	};
	static const int	 want[] = { CG_COMM, CG_MEMCPY, CG_API, CG_NVTX,
				    CG_OSRT, CG_MEMSET, CG_KERNEL, CG_OTHER };
	struct scene		 s;
	int			 i;

	scene_draw(&s, evs, 8, 100, 10, gl);
	for (i = 0; i < 8; i++) {
		assert_int_equal(cls(&s.g, i), want[i]);
		assert_int_equal(ch(&s.g, i), L'\u2588');
	}
	assert_int_equal(lod_class(EV_NVTX, EVF_COMM), CG_COMM);
	assert_int_equal(lod_class(EV_SYNC, 0), CG_SYNC);
	scene_free(&s);
}

static void
test_kernel_short_name(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct kernel_info	 k;
	struct lane_event	 e;
	struct model		*m;
	struct cellgrid		 g;
	char			 row[128];
	uint32_t		 t;

	memset(&dev, 0, sizeof dev);
	t = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev), 1,
	    NONE32));
	memset(&k, 0, sizeof k);
	k.short_name = builder_intern(b, "gemm");
	memset(&e, 0, sizeof e);
	e.start = 0;
	e.end = 100;
	e.kind = EV_KERNEL;
	e.name = builder_intern(b, "void gemm<float, 128>(float const*)");
	e.aux = builder_kernel(b, &k);
	builder_event(b, t, &e);
	m = ts_finish(b);
	draw(&g, m, 0, 100, 10, glyph_get(0));
	cellgrid_row_text(&g, 0, row, sizeof row);
	assert_string_equal(row, "[gemm    ]");
	cellgrid_free(&g);
	model_free(m);
}

static void
test_columns(void **state)
{
	struct lod_view	v = { -1000, 999, 7 };
	int64_t		t;
	int		c;

	assert_int_equal(lod_colt(&v, 0), -1000);
	assert_int_equal(lod_colt(&v, 7), -1);
	for (t = -1000; t < -1; t++) {
		c = lod_col_of(&v, t);
		assert_true(c >= 0 && c < 7);
		assert_true(lod_colt(&v, c) <= t && t < lod_colt(&v, c + 1));
	}
	assert_true(lod_col_of(&v, -1001) < 0);
	assert_true(lod_col_of(&v, -1) >= 7);
}

static void
test_group(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 e;
	struct model		*m;
	struct lod_col		 cols[4];
	struct lod_view		 v = { 0, 400, 4 };
	uint32_t		 tr[2];

	ts_gpu_streams(b, tr, 2);
	memset(&e, 0, sizeof e);
	e.kind = EV_KERNEL;
	e.start = 0;		/* track 1: [0, 50), [60, 70) */
	e.end = 50;
	builder_event(b, tr[0], &e);
	e.start = 60;
	e.end = 70;
	builder_event(b, tr[0], &e);
	e.kind = EV_MEMCPY;	/* track 2: [30, 100), [250, 260) */
	e.start = 30;
	e.end = 100;
	builder_event(b, tr[1], &e);
	e.start = 250;
	e.end = 260;
	builder_event(b, tr[1], &e);
	m = ts_finish(b);
	tr[0] = 0;
	tr[1] = 1;
	lod_group(m, tr, 2, NONE32, &v, cols);
	assert_int_equal(cols[0].count, 1);
	assert_int_equal(cols[0].busy, 70);	/* the busiest member */
	assert_int_equal(cols[0].cls, CG_MEMCPY);
	assert_int_equal(cols[1].count, 0);
	assert_int_equal(cols[2].count, 1);
	assert_int_equal(cols[2].busy, 10);
	assert_int_equal(cols[3].count, 0);
	/* With the device's busy time (the busy analysis, as summary and
	 * gaps read it): [0, 100) is all busy. */
	lod_group(m, tr, 2, 0, &v, cols);
	assert_int_equal(cols[0].busy, 100);
	assert_int_equal(cols[0].busy, busy_device(m, 0, 0, 100));
	assert_int_equal(cols[2].busy, busy_device(m, 0, 200, 300));
	model_free(m);
}

/* A host-side sync wait longer than the work it overlaps: the collapsed
 * GPU row takes the work's colour; the wait's only where there is no work. */
static void
test_group_sync(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct lane_event	 e;
	struct model		*m;
	struct lod_col		 cols[4];
	struct lod_view		 v = { 0, 400, 4 };
	uint32_t		 d, s, tr[2];

	memset(&dev, 0, sizeof dev);
	d = builder_device(b, &dev);
	s = builder_stream(b, d, 1, NONE32);
	tr[0] = builder_gpu_track(b, s);
	tr[1] = builder_sync_track(b, s);
	memset(&e, 0, sizeof e);
	e.kind = EV_KERNEL;	/* [10, 30) */
	e.start = 10;
	e.end = 30;
	builder_event(b, tr[0], &e);
	e.kind = EV_SYNC;	/* [0, 300): over the kernel and beyond */
	e.start = 0;
	e.end = 300;
	builder_event(b, tr[1], &e);
	m = ts_finish(b);
	assert_int_equal(m->ntracks, 2);
	/* The model's track order: look the two up by type. */
	tr[0] = m->tracks[0].type == TRACK_GPU ? 0 : 1;
	tr[1] = 1 - tr[0];
	assert_int_equal(m->tracks[tr[1]].type, TRACK_SYNC);
	lod_group(m, tr, 2, NONE32, &v, cols);
	assert_int_equal(cols[0].count, 1);
	assert_int_equal(cols[0].cls, CG_KERNEL);
	assert_int_equal(cols[0].busy, 20);
	assert_int_equal(cols[1].count, 1);
	assert_int_equal(cols[1].cls, CG_SYNC);
	assert_int_equal(cols[3].count, 0);
	model_free(m);
}

static unsigned int seed = 99;

static unsigned int
RND(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) & 0xffff;
}

/*
 * Random lanes and windows: a cell is blank exactly when brute force finds
 * no event overlapping its column (zero-length events count at their
 * start), whatever the glyph set.
 */
static void
test_never_blank_random(void **state)
{
	struct ev	 evs[300];
	struct model	*m;
	struct cellgrid	 g;
	int		 round, i, n, c, busy, ncols, utf8;
	int64_t		 t, t0, span, a, b, len;
	struct lod_view	 v;

	for (round = 0; round < 40; round++) {
		n = 1 + (int)(RND() % 300);
		t = 0;
		for (i = 0; i < n; i++) {
			t += RND() % 50;
			evs[i].start = t;
			len = RND() % 8 == 0 ? 2000 : 30;
			evs[i].end = t + (RND() % 4 == 0 ? 0 :
			    (int64_t)(RND() % len));
			t = evs[i].end;
			evs[i].name = "k";
			evs[i].kind = EV_KERNEL;
			evs[i].flags = 0;
		}
		m = one_stream(evs, (size_t)n);
		ncols = 10 + (int)(RND() % 150);
		t0 = (int64_t)(RND() % 2000) - 500;
		span = ncols + (int64_t)(RND() % 20000);
		utf8 = round & 1;
		draw(&g, m, t0, span, ncols, glyph_get(utf8));
		v.t0 = t0;
		v.span = span;
		v.ncols = ncols;
		for (c = 0; c < ncols; c++) {
			a = lod_colt(&v, c);
			b = lod_colt(&v, c + 1);
			busy = 0;
			for (i = 0; i < n && !busy; i++) {
				if (evs[i].start == evs[i].end)
					busy = evs[i].start >= a &&
					    evs[i].start < b;
				else
					busy = evs[i].start < b &&
					    evs[i].end > a;
			}
			if (busy != (ch(&g, c) != L' ' ||
			    attr(&g, c, CGA_FILL)))
				fail_msg("round %d column %d [%lld, %lld): "
				    "busy %d, glyph %lc", round, c,
				    (long long)a, (long long)b, busy,
				    (wint_t)ch(&g, c));
		}
		cellgrid_free(&g);
		model_free(m);
	}
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test(test_box_with_name),
	cmocka_unit_test(test_box_name_truncated),
	cmocka_unit_test(test_box_too_narrow_for_name),
	cmocka_unit_test(test_ramp_many_tiny),
	cmocka_unit_test(test_eighth_block),
	cmocka_unit_test(test_right_aligned_edge),
	cmocka_unit_test(test_zero_length_not_blank),
	cmocka_unit_test(test_classes),
	cmocka_unit_test(test_kernel_short_name),
	cmocka_unit_test(test_columns),
	cmocka_unit_test(test_group),
	cmocka_unit_test(test_group_sync),
	cmocka_unit_test(test_never_blank_random))
