/*
 * script_test: parsing of TUI key scripts (tui/script.c): single keys,
 * key names, pointer keys, the ":" commands, named actions (":action
 * NAME"), comments, and errors with their line numbers.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tui/action.h"
#include "tui/script.h"

#include "tsupport.h"

static int
parse(const char *line, struct script_step *st)
{
	char	*cause = NULL;
	int	 r;

	r = script_parse_line(line, st, &cause);
	if (r < 0) {
		assert_non_null(cause);
		free(cause);
	} else
		assert_null(cause);
	return r;
}

static int
keyof(const char *line)
{
	struct script_step	st;

	assert_int_equal(parse(line, &st), 1);
	assert_int_equal(st.op, SCRIPT_KEY);
	return st.key.key;
}

static void
test_keys(void **state)
{
	static const struct ts_str_int keys[] = {
		{ "l", 'l' },
		{ "+\n", '+' },
		{ "?", '?' },
		{ "#", '#' },
		{ "\xc3\xa9", 0xe9 },
		{ "KEY_RIGHT", TK_RIGHT },
		{ "right\r\n", TK_RIGHT },
		{ "  KEY_LEFT  ", TK_LEFT },
		{ "KEY_NPAGE", TK_PGDN },
		{ "PGUP", TK_PGUP },
		{ "TAB", TK_TAB },
		{ "KEY_BTAB", TK_BTAB },
		{ "ENTER", TK_ENTER },
		{ "ESC", TK_ESC },
		{ "SPACE", ' ' },
		{ "HOME", TK_HOME },
		{ "KEY_END", TK_END },
	};
	TS_STR_INTS(keyof, keys);
}

static void
test_pointer(void **state)
{
	struct script_step	st;

	assert_int_equal(parse("CLICK 30 5", &st), 1);
	assert_int_equal(st.key.key, TK_CLICK);
	assert_int_equal(st.key.x, 30);
	assert_int_equal(st.key.y, 5);
	assert_int_equal(parse("WHEEL_UP 40 2", &st), 1);
	assert_int_equal(st.key.key, TK_WHEEL_UP);
	assert_int_equal(st.key.x, 40);
	assert_int_equal(parse("CLICK 30", &st), -1);
}

static void
test_commands(void **state)
{
	struct script_step	st;

	assert_int_equal(parse(":dump /tmp/out file.txt", &st), 1);
	assert_int_equal(st.op, SCRIPT_DUMP);
	assert_string_equal(st.path, "/tmp/out file.txt");
	free(st.path);
	assert_int_equal(parse(":sleep 25", &st), 1);
	assert_int_equal(st.op, SCRIPT_SLEEP);
	assert_int_equal(st.a, 25);
	assert_int_equal(parse(":resize 100x30", &st), 1);
	assert_int_equal(st.op, SCRIPT_RESIZE);
	assert_int_equal(st.a, 100);
	assert_int_equal(st.b, 30);
	assert_int_equal(parse(":quit", &st), 1);
	assert_int_equal(st.op, SCRIPT_QUIT);
}

static void
test_actions(void **state)
{
	struct script_step	st;

	assert_int_equal(parse(":action zoom-in", &st), 1);
	assert_int_equal(st.op, SCRIPT_ACTION);
	assert_int_equal(st.a, ACT_ZOOM_IN);
	assert_int_equal(parse("  :action   search-next  \n", &st), 1);
	assert_int_equal(st.a, ACT_SEARCH_NEXT);
	assert_int_equal(parse(":action view-nvtx", &st), 1);
	assert_int_equal(st.a, ACT_VIEW_NVTX);
	assert_int_equal(parse(":action quit", &st), 1);
	assert_int_equal(st.a, ACT_QUIT);
	/* Names are exact: no key, no other case, no prefix. */
	assert_int_equal(parse(":action", &st), -1);
	assert_int_equal(parse(":action zoom", &st), -1);
	assert_int_equal(parse(":action Zoom-In", &st), -1);
	assert_int_equal(parse(":action +", &st), -1);
	assert_int_equal(parse(":action none", &st), -1);
	/* The key steps are untouched. */
	assert_int_equal(keyof("z"), 'z');
}

static void
test_nothing_and_errors(void **state)
{
	struct script_step	st;

	assert_int_equal(parse("", &st), 0);
	assert_int_equal(parse("\n", &st), 0);
	assert_int_equal(parse("# a comment", &st), 0);
	assert_int_equal(parse("   ", &st), 0);
	assert_int_equal(parse("BOGUS", &st), -1);
	assert_int_equal(parse("ab", &st), -1);
	assert_int_equal(parse(":dump", &st), -1);
	assert_int_equal(parse(":sleep soon", &st), -1);
	assert_int_equal(parse(":sleep -1", &st), -1);
	assert_int_equal(parse(":resize 100", &st), -1);
	assert_int_equal(parse(":explode", &st), -1);
}

/* Writes text to path and loads it as a script into sc: script_load()'s
 * result. */
static int
load_text(struct script *sc, const char *path, const char *text,
    char **cause)
{
	ts_write_str(path, text);
	return script_load(sc, path, cause);
}

static void
test_load(void **state)
{
	struct script	 sc;
	char		 path[] = "/tmp/script_test.XXXXXX", *cause = NULL;
	int		 fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(load_text(&sc, path, "# zoom in twice\n+\n+\n\nTAB\n"
	    ":dump /tmp/x\n", &cause), 0);
	assert_int_equal(sc.n, 4);
	assert_int_equal(sc.steps[0].key.key, '+');
	assert_int_equal(sc.steps[0].line, 2);
	assert_int_equal(sc.steps[2].key.key, TK_TAB);
	assert_int_equal(sc.steps[2].line, 5);
	assert_int_equal(sc.steps[3].op, SCRIPT_DUMP);
	script_free(&sc);

	assert_int_equal(load_text(&sc, path, "l\nh\nNOPE\n", &cause), -1);
	assert_non_null(strstr(cause, ":3: unknown key name: NOPE"));
	free(cause);
	cause = NULL;

	/* Actions by name among keys; an unknown one with its line. */
	assert_int_equal(load_text(&sc, path, "j\n:action zoom-in\n\n"
	    ":action view-kernels\n", &cause), 0);
	assert_int_equal(sc.n, 3);
	assert_int_equal(sc.steps[1].op, SCRIPT_ACTION);
	assert_int_equal(sc.steps[1].a, ACT_ZOOM_IN);
	assert_int_equal(sc.steps[1].line, 2);
	assert_int_equal(sc.steps[2].a, ACT_VIEW_KERNELS);
	assert_int_equal(sc.steps[2].line, 4);
	script_free(&sc);
	assert_int_equal(load_text(&sc, path, "j\n# comment\n:action zoom-in\n"
	    ":action zoom-inn\n", &cause), -1);
	assert_non_null(strstr(cause, ":4: unknown action: zoom-inn"));
	free(cause);
	unlink(path);

	cause = NULL;
	assert_int_equal(script_load(&sc, "/nonexistent/script", &cause), -1);
	assert_non_null(strstr(cause, "/nonexistent/script"));
	free(cause);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_keys),
	cmocka_unit_test(test_pointer),
	cmocka_unit_test(test_commands),
	cmocka_unit_test(test_actions),
	cmocka_unit_test(test_nothing_and_errors),
	cmocka_unit_test(test_load))
