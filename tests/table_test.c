/*
 * table_test: column layout of the table views (tui/table.c): which
 * columns survive at 80 and 200 columns, their positions, the flexible
 * name column, right alignment, the sort mark, and scrolling.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "table.h"

/* The kernel table's columns. */
static const struct table_col cols[] = {
	{ "Time%", 6, 7, 1, 0, 0, 0, 0 },
	{ "Total", 9, 8, 1, 0, 0, 0, 0 },
	{ "Count", 8, 6, 1, 0, 0, 0, 0 },
	{ "Mean", 9, 5, 1, 0, 0, 0, 0 },
	{ "Median", 9, 4, 1, 0, 0, 0, 0 },
	{ "Min", 9, 2, 1, 0, 0, 0, 0 },
	{ "Max", 9, 3, 1, 0, 0, 0, 0 },
	{ "StdDev", 9, 1, 1, 0, 0, 0, 0 },
	{ "Name", 0, 0, 0, 1, 0, 0, 0 },
};
#define NC	(int)(sizeof cols / sizeof cols[0])

static void
test_layout(void **state)
{
	struct table_col	c[NC];

	memcpy(c, cols, sizeof c);
	table_layout(c, NC, 200);
	assert_true(c[7].shown && c[5].shown);
	assert_int_equal(c[0].x, 0);
	assert_int_equal(c[1].x, 7);
	assert_int_equal(c[8].x, 7 + 10 + 9 + 10 * 5);
	assert_int_equal(c[8].w, 200 - c[8].x);
	memcpy(c, cols, sizeof c);
	table_layout(c, NC, 80);
	/* StdDev, then Min, go first. */
	assert_false(c[7].shown);
	assert_false(c[5].shown);
	assert_true(c[6].shown);
	assert_true(c[8].w >= TABLE_MIN_FLEX);
	assert_int_equal(c[8].x + c[8].w, 80);
	memcpy(c, cols, sizeof c);
	table_layout(c, NC, 30);
	assert_true(c[1].shown);		/* the total stays longest */
	assert_false(c[2].shown);
	table_layout(c, NC, 1);
	assert_true(c[8].shown);
	assert_true(c[8].w >= 1);
}

static void
test_cells(void **state)
{
	struct table_col	 c[NC];
	struct cellgrid		 g;
	char			 line[256];

	memcpy(c, cols, sizeof c);
	table_layout(c, NC, 80);
	cellgrid_init(&g);
	cellgrid_resize(&g, 80, 2);
	table_header(&g, 0, 80, c, NC, 1, 1, glyph_get(0));
	cellgrid_row_text(&g, 0, line, sizeof line);
	assert_int_equal(strncmp(line, " Time%    vTotal", 16), 0);
	table_cell(&g, 1, &c[1], "1.5ms", 1, CG_LABEL);
	table_cell(&g, 1, &c[8], "a_very_long_kernel_name_that_does_not_fit",
	    1, CG_LABEL);
	cellgrid_row_text(&g, 1, line, sizeof line);
	assert_int_equal(strncmp(line + 7, "    1.5ms", 9), 0);
	assert_non_null(strstr(line, "~"));		/* cut */
	cellgrid_free(&g);
}

static void
test_scroll(void **state)
{
	size_t	top = 0;

	table_scroll(&top, 5, 100, 10);
	assert_int_equal(top, 0);
	table_scroll(&top, 15, 100, 10);
	assert_int_equal(top, 6);
	table_scroll(&top, 3, 100, 10);
	assert_int_equal(top, 3);
	table_scroll(&top, 99, 100, 10);
	assert_int_equal(top, 90);
	top = 50;
	table_scroll(&top, 5, 8, 10);		/* fewer rows than lines */
	assert_int_equal(top, 0);
	table_scroll(&top, 0, 0, 10);
	assert_int_equal(top, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_scroll),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
