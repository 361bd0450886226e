/*
 * kname_test: the kernel table's name forms (tui/kname.c): eliding the
 * outermost template argument lists, leaving unbalanced names alone,
 * cutting at a character boundary, and which form each mode shows.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/kname.h"

#include "tsupport.h"

static void
test_elide(void **state)
{
	char	buf[128];

	(void)state;
	assert_string_equal(kname_elide("void foo<float, 4>(float*, int)",
	    buf, sizeof buf), "void foo<...>(float*, int)");
	/* Nested lists: the outermost one only. */
	assert_string_equal(kname_elide("a::b<c<d, e>, f<g>>::run(x<y>)",
	    buf, sizeof buf), "a::b<...>::run(x<...>)");
	/* The anonymous namespace is not a template argument list. */
	assert_string_equal(kname_elide("void at::<unnamed>::k<int>(T1)", buf,
	    sizeof buf), "void at::<unnamed>::k<...>(T1)");
	assert_string_equal(kname_elide("a<<unnamed>::T>", buf, sizeof buf),
	    "a<...>");
	assert_string_equal(kname_elide("plain_kernel", buf, sizeof buf),
	    "plain_kernel");
	/* Unbalanced: operator< and friends stay as they are. */
	assert_string_equal(kname_elide("bool operator<(A, B)", buf,
	    sizeof buf), "bool operator<(A, B)");
	assert_string_equal(kname_elide("x>y<", buf, sizeof buf), "x>y<");
	/* Cut to the buffer, never inside "<...>" or a UTF-8 sequence. */
	assert_string_equal(kname_elide("abc<int>", buf, 6), "abc");
	assert_string_equal(kname_elide("ab\xc3\xa9z", buf, 4), "ab");
	assert_string_equal(kname_elide("abc", buf, 1), "");
}

static void
test_show(void **state)
{
	const char	*full = "void foo<float, 4>(float*, int)";
	char		 buf[128];

	(void)state;
	/* Elided: the whole name when it fits, else templates elided. */
	assert_string_equal(kname_show(full, "foo", KNAME_ELIDED, 200, 0,
	    buf, sizeof buf), full);
	assert_string_equal(kname_show(full, "foo", KNAME_ELIDED,
	    (int)strlen(full), 0, buf, sizeof buf), full);
	assert_string_equal(kname_show(full, "foo", KNAME_ELIDED,
	    (int)strlen(full) - 1, 0, buf, sizeof buf),
	    "void foo<...>(float*, int)");
	/* Not even elided: the short name, or elided without one. */
	assert_string_equal(kname_show(full, "foo", KNAME_ELIDED, 20, 0,
	    buf, sizeof buf), "foo");
	assert_string_equal(kname_show(full, NULL, KNAME_ELIDED, 20, 0,
	    buf, sizeof buf), "void foo<...>(float*, int)");
	assert_string_equal(kname_show(full, "foo", KNAME_FULL, 10, 0, buf,
	    sizeof buf), full);
	assert_string_equal(kname_show(full, "foo", KNAME_SHORT, 10, 0, buf,
	    sizeof buf), "foo");
	/* No short name: the full one; no full name: the short one. */
	assert_string_equal(kname_show(full, NULL, KNAME_SHORT, 10, 0, buf,
	    sizeof buf), full);
	assert_string_equal(kname_show("", "foo", KNAME_FULL, 10, 0, buf,
	    sizeof buf), "foo");
}

static void
test_cycle(void **state)
{
	(void)state;
	assert_int_equal(kname_next(KNAME_ELIDED), KNAME_FULL);
	assert_int_equal(kname_next(KNAME_FULL), KNAME_SHORT);
	assert_int_equal(kname_next(KNAME_SHORT), KNAME_ELIDED);
	assert_string_equal(kname_form_name(KNAME_ELIDED), "elided");
	assert_string_equal(kname_form_name(KNAME_FULL), "full");
	assert_string_equal(kname_form_name(KNAME_SHORT), "short");
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_elide),
	cmocka_unit_test(test_show),
	cmocka_unit_test(test_cycle))
