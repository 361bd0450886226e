/*
 * search_test: `/` search over the timeline's rows (tui/search.c): the
 * case-insensitive match, the order of matches (start, row, index), n / N
 * stepping with wrap-around from an event or from a point in time, ranks,
 * and what the minimum-duration filter and hidden rows leave out.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/builder.h"
#include "tui/layout.h"
#include "tui/search.h"
#include "tsupport.h"

/* Stream 1: alpha [0,10] beta [20,30] ALPHABET [40,50];
 * stream 2: alpha [20,25] gamma [40,45]. */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 s[2];

	ts_gpu_streams(b, s, 2);
	ts_add(b, s[0], "alpha", EV_KERNEL, 0, 10);
	ts_add(b, s[0], "beta", EV_KERNEL, 20, 30);
	ts_add(b, s[0], "ALPHABET", EV_KERNEL, 40, 50);
	ts_add(b, s[1], "alpha", EV_KERNEL, 20, 25);
	ts_add(b, s[1], "gamma", EV_KERNEL, 40, 45);
	return ts_finish(b);
}

static void
test_match(void **state)
{
	assert_true(search_match("ncclAllReduce", "allred"));
	assert_true(search_match("x", ""));
	assert_false(search_match("abc", "abd"));
	assert_false(search_match("", "a"));
	assert_true(search_match("caf\xc3\xa9 au lait", "\xc3\xa9 AU"));
	assert_false(search_match("ab", "abc"));
}

/* Steps from p and checks where it lands. */
static void
step(const struct search *s, const struct layout *l, struct search_pos *p,
    int dir, int64_t want_start, size_t want_row)
{
	struct search_pos	q;

	assert_int_equal(search_step(s, l, p, dir, &q), 0);
	assert_int_equal(q.start, want_start);
	assert_int_equal(q.row, want_row);
	*p = q;
}

static void
test_steps(void **state)
{
	struct model		*m = build();
	struct layout		*l = layout_new(m);
	struct search		 s;
	struct search_pos	 p;

	/* All rows: 0 the GPU header, 1 stream 1, 2 stream 2. */
	search_init(&s);
	assert_int_equal(search_build(&s, l, "Alpha"), 3);
	p.start = 15;
	p.row = (size_t)-1;
	p.idx = 0;
	step(&s, l, &p, 1, 20, 2);
	assert_int_equal(search_rank(&s, l, &p), 2);
	step(&s, l, &p, 1, 40, 1);
	assert_int_equal(search_rank(&s, l, &p), 3);
	step(&s, l, &p, 1, 0, 1);		/* wraps */
	step(&s, l, &p, -1, 40, 1);		/* wraps back */
	step(&s, l, &p, -1, 20, 2);
	p.start = 15;
	p.row = (size_t)-1;
	step(&s, l, &p, -1, 0, 1);
	/* A point at a match's start finds it going forward. */
	p.start = 40;
	p.row = (size_t)-1;
	step(&s, l, &p, 1, 40, 1);
	assert_int_equal(search_build(&s, l, "delta"), 0);
	assert_int_equal(search_step(&s, l, &p, 1, &p), -1);
	/* Filtered: stream 2's alpha is 5 ns long. */
	layout_set_min_dur(l, 10);
	assert_int_equal(search_build(&s, l, "alpha"), 2);
	layout_set_min_dur(l, 0);
	layout_set_hidden(l, 1u << TRACK_GPU);
	assert_int_equal(search_build(&s, l, "alpha"), 0);
	/* Rebuilding from its own pattern works. */
	layout_set_hidden(l, 0);
	search_build(&s, l, "alpha");
	assert_int_equal(search_build(&s, l, s.pat), 3);
	assert_string_equal(s.pat, "alpha");
	search_free(&s);
	layout_free(l);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_match),
	cmocka_unit_test(test_steps))
