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

struct labw_case {
	int	cols, need, adjust;	/* labw_width()'s arguments */
	int	want;
};

static void
check(const struct labw_case *c, size_t n)
{
	size_t	i;
	int	got;

	for (i = 0; i < n; i++) {
		got = labw_width(c[i].cols, c[i].need, c[i].adjust);
		if (got != c[i].want)
			fail_msg("labw_width(%d, %d, %d) = %d, want %d",
			    c[i].cols, c[i].need, c[i].adjust, got, c[i].want);
	}
}

static void
test_screen(void **state)
{
	static const struct labw_case	cases[] = {
		/* Unknown need: a sixth of the screen, within 20 .. 40. */
		{ 60, 0, 0, 20 },
		{ 80, 0, 0, 20 },
		{ 126, 0, 0, 21 },
		{ 120, 0, 0, 20 },
		{ 200, 0, 0, 33 },
		{ 300, 0, 0, 40 },
		/* Narrow: a third. */
		{ 45, 0, 0, 15 },
		{ 1, 0, 0, 1 },
		{ 0, 0, 0, 1 },
	};

	(void)state;
	check(cases, sizeof cases / sizeof *cases);
}

static void
test_need(void **state)
{
	static const struct labw_case	cases[] = {
		/* No wider than the longest label, but never under 12. */
		{ 200, 25, 0, 25 },
		{ 80, 15, 0, 15 },
		{ 200, 5, 0, 12 },
		{ 200, 100, 0, 33 },
		{ 300, 60, 0, 40 },
		/* A narrow screen keeps its third whatever the labels. */
		{ 45, 5, 0, 15 },
	};

	(void)state;
	check(cases, sizeof cases / sizeof *cases);
}

static void
test_adjust(void **state)
{
	static const struct labw_case	cases[] = {
		{ 200, 0, LABW_STEP, 33 + LABW_STEP },
		{ 200, 0, -LABW_STEP, 33 - LABW_STEP },
		/* The lanes keep LABW_LANES columns; the labels keep one. */
		{ 200, 0, 1000, 200 - LABW_LANES - 1 },
		{ 200, 0, -1000, 1 },
		{ 12, 0, 1000, 1 },
	};

	(void)state;
	check(cases, sizeof cases / sizeof *cases);
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
