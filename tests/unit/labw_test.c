/*
 * labw_test: the timeline's label column width (tui/labw.c): a sixth of a
 * wide screen within 20..40, a third of a narrow one, no wider than the
 * longest label needs (but 12), the user's adjustment and its bounds.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui/labw.h"

static void
test_screen(void **state)
{
	(void)state;
	/* Unknown need: a sixth of the screen, within 20 .. 40. */
	assert_int_equal(labw_width(60, 0, 0), 20);
	assert_int_equal(labw_width(80, 0, 0), 20);
	assert_int_equal(labw_width(126, 0, 0), 21);
	assert_int_equal(labw_width(120, 0, 0), 20);
	assert_int_equal(labw_width(200, 0, 0), 33);
	assert_int_equal(labw_width(300, 0, 0), 40);
	/* Narrow: a third. */
	assert_int_equal(labw_width(45, 0, 0), 15);
	assert_int_equal(labw_width(1, 0, 0), 1);
	assert_int_equal(labw_width(0, 0, 0), 1);
}

static void
test_need(void **state)
{
	(void)state;
	/* No wider than the longest label, but never under 12. */
	assert_int_equal(labw_width(200, 25, 0), 25);
	assert_int_equal(labw_width(80, 15, 0), 15);
	assert_int_equal(labw_width(200, 5, 0), 12);
	assert_int_equal(labw_width(200, 100, 0), 33);
	assert_int_equal(labw_width(300, 60, 0), 40);
	/* A narrow screen keeps its third whatever the labels. */
	assert_int_equal(labw_width(45, 5, 0), 15);
}

static void
test_adjust(void **state)
{
	(void)state;
	assert_int_equal(labw_width(200, 0, LABW_STEP), 33 + LABW_STEP);
	assert_int_equal(labw_width(200, 0, -LABW_STEP), 33 - LABW_STEP);
	/* The lanes keep LABW_LANES columns; the labels keep one. */
	assert_int_equal(labw_width(200, 0, 1000), 200 - LABW_LANES - 1);
	assert_int_equal(labw_width(200, 0, -1000), 1);
	assert_int_equal(labw_width(12, 0, 1000), 1);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_screen),
		cmocka_unit_test(test_need),
		cmocka_unit_test(test_adjust),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
