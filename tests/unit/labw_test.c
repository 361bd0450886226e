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

#include "tsupport.h"

enum { SCREEN, NEED, ADJUST };	/* the test a case belongs to */

static const struct labw_case {
	int	test;
	int	cols, need, adjust;	/* labw_width()'s arguments */
	int	want;
} cases[] = {
	/* Unknown need: a sixth of the screen, within 20 .. 40. */
	{ SCREEN, 60, 0, 0, 20 },
	{ SCREEN, 80, 0, 0, 20 },
	{ SCREEN, 126, 0, 0, 21 },
	{ SCREEN, 120, 0, 0, 20 },
	{ SCREEN, 200, 0, 0, 33 },
	{ SCREEN, 300, 0, 0, 40 },
	/* Narrow: a third. */
	{ SCREEN, 45, 0, 0, 15 },
	{ SCREEN, 1, 0, 0, 1 },
	{ SCREEN, 0, 0, 0, 1 },
	/* No wider than the longest label, but never under 12. */
	{ NEED, 200, 25, 0, 25 },
	{ NEED, 80, 15, 0, 15 },
	{ NEED, 200, 5, 0, 12 },
	{ NEED, 200, 100, 0, 33 },
	{ NEED, 300, 60, 0, 40 },
	/* A narrow screen keeps its third whatever the labels. */
	{ NEED, 45, 5, 0, 15 },
	{ ADJUST, 200, 0, LABW_STEP, 33 + LABW_STEP },
	{ ADJUST, 200, 0, -LABW_STEP, 33 - LABW_STEP },
	/* The lanes keep LABW_LANES columns; the labels keep one. */
	{ ADJUST, 200, 0, 1000, 200 - LABW_LANES - 1 },
	{ ADJUST, 200, 0, -1000, 1 },
	{ ADJUST, 12, 0, 1000, 1 },
};

/* Checks the cases of one test. */
static void
check(int test)
{
	const struct labw_case	*c;
	size_t			 i;
	int			 got;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		c = &cases[i];
		if (c->test != test)
			continue;
		got = labw_width(c->cols, c->need, c->adjust);
		if (got != c->want)
			fail_msg("labw_width(%d, %d, %d) = %d, want %d",
			    c->cols, c->need, c->adjust, got, c->want);
	}
}

static void
test_screen(void **state)
{
	(void)state;
	check(SCREEN);
}

static void
test_need(void **state)
{
	(void)state;
	check(NEED);
}

static void
test_adjust(void **state)
{
	(void)state;
	check(ADJUST);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_screen),
	cmocka_unit_test(test_need),
	cmocka_unit_test(test_adjust))
