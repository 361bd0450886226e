/*
 * overlay_test: the help and list boxes (tui/overlay.c): how many columns
 * and pages the help takes at 80x24 and 200x50, that a page shows its
 * share of the keys, tiny screens, and text lists cut with "... N more"
 * and sanitised.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tui/overlay.h"

#include "tsupport.h"

static void
test_layout(void **state)
{
	struct overlay_layout	o;

	overlay_help_layout(80, 24, 45, &o);
	assert_int_equal(o.ncol, 1);		/* 78 wide: one 40+ column */
	assert_int_equal(o.per, 19);
	assert_int_equal(o.pages, 3);
	overlay_help_layout(200, 50, 45, &o);
	assert_int_equal(o.ncol, 1);		/* 45 fit in one column */
	assert_int_equal(o.pages, 1);
	assert_int_equal(o.per, 45);
	assert_int_equal(o.h, 49);
	overlay_help_layout(200, 30, 60, &o);
	assert_int_equal(o.ncol, 3);
	assert_int_equal(o.pages, 1);
	assert_int_equal(o.per, 20);
	assert_true(o.x >= 0 && o.x + o.w <= 200);
	overlay_help_layout(20, 5, 10, &o);
	assert_int_equal(o.pages, 0);
}

static void
test_help_pages(void **state)
{
	struct keyhelp		 items[30];
	struct overlay_keys	 t;
	struct cellgrid		 g;
	char			 help[30][16], line[256];
	int			 i, y, pages, seen;

	for (i = 0; i < 30; i++) {
		memset(&items[i], 0, sizeof items[i]);
		snprintf(items[i].keys, sizeof items[i].keys, "k");
		snprintf(help[i], sizeof help[i], "does-%02d", i);
		items[i].help = help[i];
	}
	t.heading = "Test";
	t.items = items;
	t.n = 30;
	t.attr = NULL;
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 24);
	pages = overlay_help(&g, glyph_get(0), 80, 24, &t, 1, 1);
	assert_int_equal(pages, 2);
	seen = 0;
	for (y = 0; y < 24; y++) {
		cellgrid_row_text(&g, y, line, sizeof line);
		if (strstr(line, "Keys 2/2 (any key closes)") != NULL)
			seen |= 1;
		if (strstr(line, "does-29") != NULL)
			seen |= 2;
		if (strstr(line, "does-00") != NULL)
			seen |= 4;
	}
	assert_int_equal(seen, 3);	/* page 2: the last, not the first */
	cellgrid_free(&g);
}

static void
test_lines(void **state)
{
	const char	*lines[30];
	struct cellgrid	 g;
	char		 buf[30][32], line[256];
	int		 i, y, more = 0, esc = 0;
	size_t		 shown;

	for (i = 0; i < 30; i++) {
		snprintf(buf[i], sizeof buf[i], "line %d", i);
		lines[i] = buf[i];
	}
	lines[0] = "bell\a here";
	cellgrid_init(&g);
	cellgrid_resize(&g, 60, 20);
	shown = overlay_lines(&g, glyph_get(1), 60, 20, " T ", lines, 30, 0,
	    0);
	assert_int_equal(shown, 14);
	for (y = 0; y < 20; y++) {
		cellgrid_row_text(&g, y, line, sizeof line);
		if (strstr(line, "... 16 more") != NULL)
			more = 1;
		if (strstr(line, "bell\\x07 here") != NULL)
			esc = 1;
	}
	assert_true(more);
	assert_true(esc);
	cellgrid_free(&g);
}

/* The colour legend: one swatch per colour class, drawn in that class's
 * colour as a background next to what it means. */
static void
test_legend(void **state)
{
	struct overlay_keys	 t;
	struct cellgrid		 g;
	const struct cell	*c;
	char			 line[256];
	size_t			 i, j;
	int			 y, x, found = 0;

	(void)state;
	t.heading = "Colours";
	t.n = overlay_legend(&t.items, &t.attr);
	assert_int_equal(t.n, 9);
	for (i = 0; i < t.n; i++) {
		assert_true(t.attr[i] & CGA_FILL);
		for (j = 0; j < i; j++)
			assert_int_not_equal(t.attr[i] & CGA_CLASS,
			    t.attr[j] & CGA_CLASS);
	}
	assert_int_equal(t.attr[0] & CGA_CLASS, CG_KERNEL);
	assert_string_equal(t.items[0].help, "kernel");
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 24);
	assert_int_equal(overlay_help(&g, glyph_get(0), 80, 24, &t, 1, 0), 1);
	for (y = 0; y < 24; y++) {
		cellgrid_row_text(&g, y, line, sizeof line);
		if (strstr(line, "memcpy") == NULL)
			continue;
		x = (int)(strstr(line, "memcpy") - line);
		/* The swatch is left of the text, in the memcpy colour. */
		for (i = 1; i < 20 && (int)i <= x && !found; i++) {
			c = cellgrid_at(&g, x - (int)i, y);
			if (c != NULL && (c->attr & CGA_CLASS) == CG_MEMCPY &&
			    (c->attr & CGA_FILL))
				found = 1;
		}
	}
	assert_true(found);
	cellgrid_free(&g);
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test(test_legend),
	cmocka_unit_test(test_layout),
	cmocka_unit_test(test_help_pages),
	cmocka_unit_test(test_lines))
