/*
 * jumps_test: the timeline's jump list (tui/jumps.c): back returns the
 * positions jumps left, newest first; forward comes back, up to the
 * position back started from; a jump after going back drops what lay
 * ahead; two jumps from one place leave one entry; a full list drops its
 * oldest position.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui/jumps.h"

#include "tsupport.h"

static struct jump
pos(int64_t t)
{
	struct jump	p;

	p.t0 = t;
	p.span = 10;
	p.cursor = t + 1;
	p.row = (size_t)t;
	p.gid = (uint32_t)t;
	return p;
}

static void
test_back_forward(void **state)
{
	struct jumps	js;
	struct jump	here, to;

	(void)state;
	jumps_init(&js);
	here = pos(5);
	assert_int_equal(jumps_back(&js, &here, &to), -1);
	assert_int_equal(jumps_forward(&js, &to), -1);
	/* Jumps from 1, then 2, then 3; now at 4. */
	here = pos(1);
	jumps_push(&js, &here);
	here = pos(2);
	jumps_push(&js, &here);
	jumps_push(&js, &here);		/* a second jump from 2: one entry */
	here = pos(3);
	jumps_push(&js, &here);
	assert_int_equal(js.n, 3);
	here = pos(4);
	assert_int_equal(jumps_back(&js, &here, &to), 0);
	assert_int_equal(to.t0, 3);
	assert_int_equal(to.cursor, 4);
	assert_int_equal(to.gid, 3);
	assert_int_equal(jumps_back(&js, &to, &to), 0);
	assert_int_equal(to.t0, 2);
	assert_int_equal(jumps_back(&js, &to, &to), 0);
	assert_int_equal(to.t0, 1);
	assert_int_equal(jumps_back(&js, &to, &to), -1);
	/* Forward again, up to 4, where back started. */
	assert_int_equal(jumps_forward(&js, &to), 0);
	assert_int_equal(to.t0, 2);
	assert_int_equal(jumps_forward(&js, &to), 0);
	assert_int_equal(to.t0, 3);
	assert_int_equal(jumps_forward(&js, &to), 0);
	assert_int_equal(to.t0, 4);
	assert_int_equal(to.row, 4);
	assert_int_equal(jumps_forward(&js, &to), -1);
	/* Back from 4 again, then a jump from 3: 4 is gone. */
	here = pos(4);
	assert_int_equal(jumps_back(&js, &here, &to), 0);
	assert_int_equal(to.t0, 3);
	jumps_push(&js, &to);
	assert_int_equal(jumps_forward(&js, &to), -1);
	here = pos(7);
	assert_int_equal(jumps_back(&js, &here, &to), 0);
	assert_int_equal(to.t0, 3);
	assert_int_equal(jumps_back(&js, &to, &to), 0);
	assert_int_equal(to.t0, 2);
	assert_int_equal(jumps_forward(&js, &to), 0);
	assert_int_equal(jumps_forward(&js, &to), 0);
	assert_int_equal(to.t0, 7);
}

static void
test_full(void **state)
{
	struct jumps	js;
	struct jump	here, to;
	int		i, n;

	(void)state;
	jumps_init(&js);
	for (i = 0; i < JUMPS_MAX + 10; i++) {
		here = pos(i);
		jumps_push(&js, &here);
	}
	assert_int_equal(js.n, JUMPS_MAX);
	here = pos(1000);
	for (n = 0; jumps_back(&js, &here, &to) == 0; n++)
		here = to;
	/* The newest position took a place too: the oldest 11 are gone. */
	assert_int_equal(n, JUMPS_MAX - 1);
	assert_int_equal(here.t0, 11);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_back_forward),
	cmocka_unit_test(test_full))
