/*
 * rangestat_test: statistics of a marked range (tui/rangestat.c over
 * analysis/winstat.c): busy time per stream clipped to the range, kernels
 * by clipped time with counts in the overlay's order, the stream order
 * (device, then stream), and the drawn box.
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
#include "tui/rangestat.h"
#include "tsupport.h"

/* GPU 1 stream 9: a [8,40]; GPU 0 stream 3: a [0,10] b [12,20] copy
 * [20,30]. Declared in that order so that sorting matters. */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 d0, d1, s0, s1;

	memset(&dev, 0, sizeof dev);
	dev.source_id = 1;
	d1 = builder_device(b, &dev);
	dev.source_id = 0;
	d0 = builder_device(b, &dev);
	s1 = builder_gpu_track(b, builder_stream(b, d1, 9, NONE32));
	s0 = builder_gpu_track(b, builder_stream(b, d0, 3, NONE32));
	ts_add(b, s1, "a", EV_KERNEL, 8, 40);
	ts_add(b, s0, "a", EV_KERNEL, 0, 10);
	ts_add(b, s0, "b", EV_KERNEL, 12, 20);
	ts_add(b, s0, "copy", EV_MEMCPY, 20, 30);
	return ts_finish(b);
}

static void
test_compute(void **state)
{
	struct model			*m = build();
	struct rangestat		 r;
	const struct winstat_stream	*s;

	rangestat_init(&r);
	rangestat_compute(&r, m, 5, 25);
	assert_int_equal(r.w->ns, 2);
	/* GPU 0 first: [5,10) + [12,20) + [20,25) = 18 of 20 ns. */
	s = r.w->s;
	assert_int_equal(m->streams[m->tracks[s[0].track].stream].source_id,
	    3);
	assert_int_equal(s[0].busy, 18);
	assert_int_equal(s[0].events, 3);
	assert_int_equal(s[1].busy, 17);
	assert_int_equal(r.w->k->nevents, 3);
	assert_int_equal(r.w->k->grand, 30);
	assert_int_equal(r.nk, 2);
	/* By time inside the range: a (5 + 17 ns), then b (8 ns). */
	assert_string_equal(model_str(m, rangestat_kernel(&r, 0)->name), "a");
	assert_int_equal(rangestat_kernel(&r, 0)->dur.count, 2);
	assert_int_equal(rangestat_kernel(&r, 0)->dur.total, 5 + 17);
	assert_int_equal(rangestat_kernel(&r, 1)->dur.total, 8);
	/* A range with nothing in it. */
	rangestat_compute(&r, m, 100, 200);
	assert_int_equal(r.nk, 0);
	assert_int_equal(r.w->s[0].busy, 0);
	rangestat_free(&r);
	model_free(m);
}

static void
test_draw(void **state)
{
	struct model		*m = build();
	struct rangestat	 r;
	struct cellgrid		 g;
	char			 line[512], all[8192];
	int			 y;

	rangestat_init(&r);
	rangestat_compute(&r, m, 5, 25);
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 24);
	rangestat_draw(&g, glyph_get(0), 80, 24, &r, m, 0, 1);
	all[0] = '\0';
	for (y = 0; y < 24; y++) {
		cellgrid_row_text(&g, y, line, sizeof line);
		strncat(all, line, sizeof all - strlen(all) - 2);
		strcat(all, "\n");
	}
	assert_non_null(strstr(all, "Range +5ns .. +25ns (20ns)"));
	assert_non_null(strstr(all, "GPU 0 stream 3          90.0%"));
	assert_non_null(strstr(all, "GPU 1 stream 9          85.0%"));
	assert_non_null(strstr(all, "(3 kernels, 30ns)"));
	assert_non_null(strstr(all, "    22ns  73.3%       2  a"));
	cellgrid_free(&g);
	rangestat_free(&r);
	model_free(m);
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test(test_compute),
	cmocka_unit_test(test_draw))
