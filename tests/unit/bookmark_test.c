/*
 * bookmark_test: the session's bookmarks (tui/bookmark.c): ids never
 * reused, deletion, the limit, and the drawn list with the chosen entry
 * highlighted and event names sanitised.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/bookmark.h"
#include "model/builder.h"
#include "tsupport.h"

static void
test_list(void **state)
{
	struct bookmarks	bm;
	int			i;

	bookmarks_init(&bm);
	assert_int_equal(bookmarks_add(&bm, 0, 100, 50, NONE32), 1);
	assert_int_equal(bookmarks_add(&bm, 10, 100, 60, NONE32), 2);
	assert_int_equal(bookmarks_add(&bm, 20, 100, 70, NONE32), 3);
	bookmarks_del(&bm, 1);
	assert_int_equal(bm.n, 2);
	assert_int_equal(bm.b[1].id, 3);
	assert_int_equal(bm.b[1].cursor, 70);
	assert_int_equal(bookmarks_add(&bm, 0, 1, 0, NONE32), 4);
	bookmarks_del(&bm, 99);			/* out of range: nothing */
	assert_int_equal(bm.n, 3);
	for (i = 0; i < 200; i++)
		bookmarks_add(&bm, 0, 1, 0, NONE32);
	assert_int_equal(bm.n, BOOKMARK_MAX);
	assert_int_equal(bookmarks_add(&bm, 0, 1, 0, NONE32), -1);
	bookmarks_free(&bm);
	assert_int_equal(bm.n, 0);
}

static void
test_draw(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct model		*m;
	struct bookmarks	 bm;
	struct cellgrid		 g;
	char			 line[256];
	uint32_t		 t;
	int			 y, found = 0, rev = 0;

	memset(&dev, 0, sizeof dev);
	t = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev),
	    1, NONE32));
	ts_add(b, t, "k\x1b]0;title\a", EV_KERNEL, 0, 1000);
	m = ts_finish(b);
	bookmarks_init(&bm);
	bookmarks_add(&bm, 0, 1000, 500, NONE32);
	bookmarks_add(&bm, 0, 1000, 250, model_gid(m, 0, 0));
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 24);
	bookmarks_draw(&g, glyph_get(0), 80, 24, &bm, 1, m, 0, 1);
	for (y = 0; y < 24; y++) {
		cellgrid_row_text(&g, y, line, sizeof line);
		if (strstr(line, " 2  +250ns") != NULL &&
		    strstr(line, "k\\x1b]0;title\\x07") != NULL) {
			found = 1;
			rev = (cellgrid_cat(&g, 10, y)->attr & CGA_REVERSE) != 0;
		}
	}
	assert_true(found);
	assert_true(rev);
	cellgrid_free(&g);
	bookmarks_free(&bm);
	model_free(m);
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test(test_list),
	cmocka_unit_test(test_draw))
