/*
 * crumb_test: laying out the NVTX breadcrumb (tui/crumb.c): the names
 * joined when they fit; the outermost dropped first, behind one ellipsis,
 * when they do not; the innermost cut last; never wider than asked; ASCII
 * mode; escapes in names made visible.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/crumb.h"
#include "tui/safetext.h"

#include "tsupport.h"

static const char *const names[] = { "ProfilerStep#7", "forward",
    "attention" };

static void
test_fit(void **state)
{
	char	buf[256];
	int	w;

	(void)state;
	w = crumb_fit(names, 3, " > ", ST_ASCII, 80, buf, sizeof buf);
	assert_string_equal(buf, "ProfilerStep#7 > forward > attention");
	assert_int_equal(w, 36);
	/* 35 columns: the outermost goes. */
	w = crumb_fit(names, 3, " > ", ST_ASCII, 35, buf, sizeof buf);
	assert_string_equal(buf, "~ > forward > attention");
	assert_int_equal(w, 23);
	w = crumb_fit(names, 3, " > ", ST_ASCII, 22, buf, sizeof buf);
	assert_string_equal(buf, "~ > attention");
	/* The innermost alone, cut. */
	w = crumb_fit(names, 3, " > ", ST_ASCII, 6, buf, sizeof buf);
	assert_int_equal(w, 6);
	assert_string_equal(buf, "atten~");
	w = crumb_fit(names, 0, " > ", ST_ASCII, 40, buf, sizeof buf);
	assert_int_equal(w, 0);
	assert_string_equal(buf, "");
	w = crumb_fit(names, 3, " > ", ST_ASCII, 0, buf, sizeof buf);
	assert_int_equal(w, 0);
}

static void
test_utf8_and_escapes(void **state)
{
	const char *const evil[] = { "outer", "in\x1b[2Jner" };
	char	buf[256];
	int	w, mw;

	(void)state;
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL &&
	    setlocale(LC_CTYPE, "en_US.UTF-8") == NULL)
		skip();
	w = crumb_fit(names, 3, " \xe2\x80\xba ", 0, 80, buf, sizeof buf);
	assert_string_equal(buf,
	    "ProfilerStep#7 \xe2\x80\xba forward \xe2\x80\xba attention");
	assert_int_equal(w, 36);
	w = crumb_fit(names, 3, " \xe2\x80\xba ", 0, 30, buf, sizeof buf);
	assert_string_equal(buf,
	    "\xe2\x80\xa6 \xe2\x80\xba forward \xe2\x80\xba attention");
	assert_int_equal(w, 23);
	/* No escape byte reaches the text, whatever the width. */
	for (mw = 1; mw < 40; mw++) {
		w = crumb_fit(evil, 2, " > ", 0, mw, buf, sizeof buf);
		assert_true(w <= mw);
		assert_null(strchr(buf, '\x1b'));
	}
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_fit),
	cmocka_unit_test(test_utf8_and_escapes))
