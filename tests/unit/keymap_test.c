/*
 * keymap_test: key tables (tui/keymap.c): the default keymap binds every
 * key the key tables bound before actions had names, each to the action
 * that does what the key did, and nothing else; key names parse and print
 * back; bindings are checked (table, key, action, view) and replace what a
 * key did; the help lines group the keys of an action; --list-keys's
 * listing.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui/action.h"
#include "tui/keymap.h"
#include "tui/view.h"

#include "tsupport.h"

/*
 * The bindings of the key tables as they were (tui/app.c and
 * tui/view-*.c before the keymap), key by key, with what each key does
 * now. A key left out, added or moved to another action fails here.
 */
static const struct {
	const char	*table;
	int		 key;
	int		 act;
} today[] = {
	{ "global", '1', ACT_VIEW_TIMELINE },
	{ "global", '2', ACT_VIEW_NVTX },
	{ "global", '3', ACT_VIEW_KERNELS },
	{ "global", '4', ACT_VIEW_FINDINGS },
	{ "global", '5', ACT_VIEW_REPORT },
	{ "global", '?', ACT_HELP },
	{ "global", 'W', ACT_WARNINGS },
	{ "global", TK_CTRL_L, ACT_REPAINT },
	{ "global", 'q', ACT_QUIT },
	{ "global", 'Q', ACT_QUIT_ALL },

	{ "timeline", TK_LEFT, ACT_PAN_LEFT },
	{ "timeline", 'h', ACT_PAN_LEFT },
	{ "timeline", TK_RIGHT, ACT_PAN_RIGHT },
	{ "timeline", 'l', ACT_PAN_RIGHT },
	{ "timeline", TK_PGUP, ACT_PAN_PAGE_LEFT },
	{ "timeline", 'H', ACT_PAN_PAGE_LEFT },
	{ "timeline", TK_PGDN, ACT_PAN_PAGE_RIGHT },
	{ "timeline", 'L', ACT_PAN_PAGE_RIGHT },
	{ "timeline", TK_HOME, ACT_GO_START },
	{ "timeline", TK_END, ACT_GO_END },
	{ "timeline", '+', ACT_ZOOM_IN },
	{ "timeline", '=', ACT_ZOOM_IN },
	{ "timeline", TK_WHEEL_UP, ACT_ZOOM_IN },
	{ "timeline", '-', ACT_ZOOM_OUT },
	{ "timeline", TK_WHEEL_DOWN, ACT_ZOOM_OUT },
	{ "timeline", '0', ACT_ZOOM_ALL },
	{ "timeline", 'z', ACT_ZOOM_SELECTION },
	{ "timeline", ',', ACT_CURSOR_LEFT },
	{ "timeline", '<', ACT_CURSOR_LEFT },
	{ "timeline", '.', ACT_CURSOR_RIGHT },
	{ "timeline", '>', ACT_CURSOR_RIGHT },
	{ "timeline", 'g', ACT_GOTO_TIME },
	{ "timeline", TK_UP, ACT_ROW_UP },
	{ "timeline", 'k', ACT_ROW_UP },
	{ "timeline", TK_DOWN, ACT_ROW_DOWN },
	{ "timeline", 'j', ACT_ROW_DOWN },
	{ "timeline", TK_TAB, ACT_EVENT_NEXT },
	{ "timeline", TK_BTAB, ACT_EVENT_PREV },
	{ "timeline", TK_ENTER, ACT_PICK },
	{ "timeline", ' ', ACT_PICK },
	{ "timeline", TK_CLICK, ACT_CLICK },
	{ "timeline", '/', ACT_SEARCH },
	{ "timeline", 'n', ACT_SEARCH_NEXT },
	{ "timeline", 'N', ACT_SEARCH_PREV },
	{ "timeline", '[', ACT_MARK_START },
	{ "timeline", ']', ACT_MARK_END },
	{ "timeline", 'f', ACT_FILTER_DURATION },
	{ "timeline", 'c', ACT_FOLD },
	{ "timeline", 'C', ACT_FOLD_ALL },
	{ "timeline", 'A', ACT_TOGGLE_API },
	{ "timeline", 'S', ACT_TOGGLE_SYNC },
	{ "timeline", 'M', ACT_COUNTER_NEXT },
	{ "timeline", 'a', ACT_TOGGLE_TIME },
	{ "timeline", 'm', ACT_BOOKMARK },
	{ "timeline", '\'', ACT_BOOKMARKS },
	{ "timeline", TK_ESC, ACT_CLEAR_SELECTION },
	{ "timeline", '{', ACT_LABEL_NARROWER },
	{ "timeline", '}', ACT_LABEL_WIDER },
	{ "timeline", 'o', ACT_FOLLOW_LAUNCH },
	{ "timeline", '%', ACT_FOLLOW_LAUNCH },
	{ "timeline", 'u', ACT_JUMP_BACK },
	{ "timeline", TK_CTRL('o'), ACT_JUMP_BACK },
	{ "timeline", 'U', ACT_JUMP_FORWARD },
	{ "timeline", TK_CTRL('r'), ACT_JUMP_FORWARD },

#define MOVES(t)							\
	{ t, TK_UP, ACT_ROW_UP }, { t, 'k', ACT_ROW_UP },		\
	{ t, TK_WHEEL_UP, ACT_ROW_UP }, { t, TK_DOWN, ACT_ROW_DOWN },	\
	{ t, 'j', ACT_ROW_DOWN }, { t, TK_WHEEL_DOWN, ACT_ROW_DOWN },	\
	{ t, TK_PGUP, ACT_PAGE_UP }, { t, TK_PGDN, ACT_PAGE_DOWN },	\
	{ t, TK_HOME, ACT_ROW_FIRST }, { t, TK_END, ACT_ROW_LAST },	\
	{ t, TK_CLICK, ACT_ROW_CLICK }
	MOVES("nvtx"),
	{ "nvtx", TK_RIGHT, ACT_EXPAND },
	{ "nvtx", 'l', ACT_EXPAND },
	{ "nvtx", TK_LEFT, ACT_COLLAPSE },
	{ "nvtx", 'h', ACT_COLLAPSE },
	{ "nvtx", ' ', ACT_EXPAND_TOGGLE },
	{ "nvtx", TK_ENTER, ACT_NEXT_INSTANCE },
	{ "nvtx", 'e', ACT_EXPAND_ALL },
	{ "nvtx", 'E', ACT_COLLAPSE_ALL },
	{ "nvtx", 's', ACT_SORT_NEXT },
	{ "nvtx", 'S', ACT_SORT_REVERSE },

	MOVES("kernels"),
	{ "kernels", TK_ENTER, ACT_NEXT_INSTANCE },
	{ "kernels", 's', ACT_SORT_NEXT },
	{ "kernels", 'S', ACT_SORT_REVERSE },
	{ "kernels", '/', ACT_FILTER },
	{ "kernels", TK_ESC, ACT_FILTER_CLEAR },
	{ "kernels", 'n', ACT_NAME_FORM },

	MOVES("findings"),
	{ "findings", TK_ENTER, ACT_SHOW_EVIDENCE },
	{ "findings", ' ', ACT_SHOW_EVIDENCE },

	MOVES("job"),
	{ "job", TK_ENTER, ACT_OPEN_RANK },
	{ "job", 's', ACT_SORT_NEXT },
	{ "job", 'S', ACT_SORT_REVERSE },
	{ "job", '/', ACT_FILTER },
	{ "job", TK_ESC, ACT_FILTER_CLEAR },
#undef MOVES

	{ "report", TK_UP, ACT_ROW_UP },
	{ "report", 'k', ACT_ROW_UP },
	{ "report", TK_DOWN, ACT_ROW_DOWN },
	{ "report", 'j', ACT_ROW_DOWN },
	{ "report", TK_HOME, ACT_ROW_FIRST },
	{ "report", 'g', ACT_ROW_FIRST },
	{ "report", TK_END, ACT_ROW_LAST },
	{ "report", 'G', ACT_ROW_LAST },
	{ "report", TK_TAB, ACT_DETAIL_MODE },
	{ "report", TK_BTAB, ACT_DETAIL_MODE },
	{ "report", 'r', ACT_DETAIL_MODE },
	{ "report", 'J', ACT_DETAIL_DOWN },
	{ "report", TK_WHEEL_DOWN, ACT_DETAIL_DOWN },
	{ "report", 'K', ACT_DETAIL_UP },
	{ "report", TK_WHEEL_UP, ACT_DETAIL_UP },
	{ "report", TK_PGDN, ACT_DETAIL_PAGE_DOWN },
	{ "report", ' ', ACT_DETAIL_PAGE_DOWN },
	{ "report", TK_PGUP, ACT_DETAIL_PAGE_UP },
	{ "report", 'b', ACT_DETAIL_PAGE_UP },
	{ "report", 'B', ACT_SET_BASELINE },
	/* Every box over a view: these close it and never quit. */
	{ "overlay", 'q', ACT_OVERLAY_CLOSE },
	{ "overlay", 'Q', ACT_OVERLAY_CLOSE },
	{ "overlay", TK_ESC, ACT_OVERLAY_CLOSE },
};
#define NTODAY	(sizeof today / sizeof today[0])

static const char *const tables[] = {
	"global", "timeline", "nvtx", "kernels", "findings", "report", "job",
	"overlay"
};
#define NTABLES	(sizeof tables / sizeof tables[0])

static struct keymap *
defaults(void)
{
	struct keymap	*km;
	char		*cause = NULL;

	km = keymap_default(&cause);
	if (km == NULL)
		fail_msg("%s", cause);
	return km;
}

static void
test_today(void **state)
{
	struct keymap		*km = defaults();
	const struct keytable	*t;
	size_t			 i, j, n;
	char			 name[32];

	for (i = 0; i < NTODAY; i++) {
		t = keymap_table(km, today[i].table);
		assert_non_null(t);
		if (keytable_action(t, today[i].key) != today[i].act)
			fail_msg("%s: key %s runs %s, not %s", today[i].table,
			    keymap_key_name(today[i].key, name, sizeof name),
			    action_name(keytable_action(t, today[i].key)),
			    action_name(today[i].act));
	}
	/* Nothing else is bound. */
	for (j = 0; j < NTABLES; j++) {
		t = keymap_table(km, tables[j]);
		assert_non_null(t);
		assert_string_equal(t->name, tables[j]);
		for (n = 0, i = 0; i < NTODAY; i++)
			if (strcmp(today[i].table, tables[j]) == 0)
				n++;
		assert_int_equal(t->n, n);
	}
	/* Keys bound in a view are the view's; the others are global. */
	t = keymap_table(km, "timeline");
	assert_int_equal(keytable_action(t, 'q'), ACT_NONE);
	assert_int_equal(keytable_action(t, TK_NONE), ACT_NONE);
	assert_int_equal(keytable_action(keymap_table(km, "report"), 'g'),
	    ACT_ROW_FIRST);
	assert_int_equal(keytable_action(t, 'g'), ACT_GOTO_TIME);
	/* The first key of an action. */
	assert_int_equal(keytable_key(t, ACT_ZOOM_IN), '+');
	assert_int_equal(keytable_key(t, ACT_ROW_UP), TK_UP);
	assert_int_equal(keytable_key(t, ACT_QUIT), TK_NONE);
	assert_int_equal(keytable_key(keymap_table(km, "global"), ACT_QUIT),
	    'q');
	assert_null(keymap_table(km, "bogus"));
	assert_int_equal(keytable_action(NULL, 'q'), ACT_NONE);
	assert_int_equal(keytable_key(NULL, ACT_QUIT), TK_NONE);
	keymap_free(km);
}

static int
parse(const char *name)
{
	return keymap_key_parse(name);
}

static void
test_key_names(void **state)
{
	static const struct ts_str_int names[] = {
		{ "h", 'h' },
		{ "?", '?' },
		{ "'", '\'' },
		{ "Left", TK_LEFT },
		{ "left", TK_LEFT },
		{ "PgDn", TK_PGDN },
		{ "S-Tab", TK_BTAB },
		{ "Space", ' ' },
		{ "Esc", TK_ESC },
		{ "C-l", TK_CTRL_L },
		{ "C-u", TK_CTRL('u') },
		{ "WheelUp", TK_WHEEL_UP },
		{ "WheelDown", TK_WHEEL_DOWN },
		{ "Click", TK_CLICK },
		{ "\xc3\xa9", 0xe9 },
		{ "", -1 },
		{ " ", -1 },
		{ "ab", -1 },
		{ "Bogus", -1 },
		{ "C-", -1 },
		{ "\x7f", -1 },
		{ "\xc3", -1 },
		{ NULL, -1 },
	};
	struct keymap		*km = defaults();
	const struct keytable	*t;
	char			 buf[32];
	size_t			 i, j;

	/* Every bound key's name parses back to it. */
	for (i = 0; i < NTABLES; i++) {
		t = keymap_table(km, tables[i]);
		for (j = 0; j < t->n; j++)
			assert_int_equal(parse(keymap_key_name(t->b[j].key,
			    buf, sizeof buf)), t->b[j].key);
	}
	keymap_free(km);
	TS_STR_INTS(parse, names);
	assert_string_equal(keymap_key_name(TK_WHEEL_UP, buf, sizeof buf),
	    "WheelUp");
	assert_string_equal(keymap_key_label(TK_WHEEL_UP, buf, sizeof buf),
	    "wheel");
	assert_string_equal(keymap_key_label(TK_CLICK, buf, sizeof buf),
	    "click");
	assert_string_equal(keymap_key_name(' ', buf, sizeof buf), "Space");
	assert_string_equal(keymap_key_name(TK_CTRL('u'), buf, sizeof buf),
	    "C-u");
	assert_string_equal(keymap_key_name(0xe9, buf, sizeof buf),
	    "\xc3\xa9");
	assert_string_equal(keymap_key_name(0x20ac, buf, sizeof buf),
	    "\xe2\x82\xac");
}

static void
test_bind(void **state)
{
	struct keymap		*km = keymap_new();
	const struct keytable	*t;
	char			*cause = NULL;

	t = keymap_table(km, "timeline");
	assert_int_equal(t->n, 0);
	assert_int_equal(keymap_bind(km, "timeline", "h", "pan-left", &cause),
	    0);
	assert_int_equal(keymap_bind(km, "timeline", "Left", "pan-left",
	    &cause), 0);
	assert_int_equal(keymap_bind(km, "timeline", "+", "zoom-in", &cause),
	    0);
	assert_int_equal(keymap_bind(km, "timeline", "WheelUp", "zoom-in",
	    &cause), 0);
	assert_int_equal(t->nhelp, 2);
	assert_string_equal(t->help[0].keys, "h Left");
	assert_string_equal(t->help[0].help, "pan left 1/8 window");
	assert_string_equal(t->help[1].keys, "+ wheel");
	/* A key bound again does the new action only. */
	assert_int_equal(keymap_bind(km, "timeline", "h", "zoom-in", &cause),
	    0);
	assert_int_equal(t->n, 4);
	assert_int_equal(keytable_action(t, 'h'), ACT_ZOOM_IN);
	assert_string_equal(t->help[0].keys, "h + wheel");
	assert_int_equal(t->help[0].act, ACT_ZOOM_IN);
	assert_string_equal(t->help[1].keys, "Left");
	assert_int_equal(t->help[1].act, ACT_PAN_LEFT);
	assert_null(cause);

	assert_int_equal(keymap_bind(km, "bogus", "h", "quit", &cause), -1);
	assert_string_equal(cause, "unknown key table: bogus");
	free(cause);
	assert_int_equal(keymap_bind(km, "global", "Hyper", "quit", &cause),
	    -1);
	assert_string_equal(cause, "unknown key name: Hyper");
	free(cause);
	assert_int_equal(keymap_bind(km, "global", "x", "explode", &cause),
	    -1);
	assert_string_equal(cause, "unknown action: explode");
	free(cause);
	/* An action only in the tables of the views it applies to. */
	assert_int_equal(keymap_bind(km, "nvtx", "+", "zoom-in", &cause), -1);
	assert_string_equal(cause, "action zoom-in does not apply to the nvtx "
	    "table");
	free(cause);
	assert_int_equal(keymap_bind(km, "timeline", "x", "quit", &cause), -1);
	free(cause);
	assert_int_equal(keymap_bind(km, "global", "x", "row-up", &cause), -1);
	free(cause);
	keymap_free(km);
	keymap_free(NULL);
}

static void
test_help_lines(void **state)
{
	struct keymap		*km = defaults();
	const struct keytable	*t;

	/* As the help overlay showed them. */
	t = keymap_table(km, "timeline");
	assert_string_equal(t->help[0].keys, "Left h");
	assert_string_equal(t->help[0].help, "pan left 1/8 window");
	assert_string_equal(t->help[6].keys, "+ = wheel");
	assert_int_equal(t->help[6].act, ACT_ZOOM_IN);
	assert_string_equal(t->help[7].keys, "- wheel");
	assert_int_equal(t->nhelp, 39);
	t = keymap_table(km, "nvtx");
	assert_string_equal(t->help[0].keys, "Up k wheel");
	assert_string_equal(t->help[0].help, "previous row");
	t = keymap_table(km, "global");
	assert_int_equal(t->nhelp, 10);
	assert_string_equal(t->help[8].keys, "q");
	assert_string_equal(t->help[8].help,
	    "quit (in a job's rank: back to the job)");
	assert_string_equal(t->help[9].keys, "Q");
	assert_int_equal(t->help[9].act, ACT_QUIT_ALL);
	t = keymap_table(km, "report");
	assert_string_equal(t->help[4].keys, "Tab S-Tab r");
	keymap_free(km);
}

static void
test_list(void **state)
{
	struct keymap	*km = defaults();
	char		*buf = NULL, *line, *p, *f[5];
	size_t		 len = 0, n = 0, i, t = 0;
	FILE		*fp;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	keymap_list(km, fp);
	fclose(fp);
	assert_non_null(strstr(buf, "global\t1\tview-timeline\ttimeline "
	    "view\n"));
	assert_non_null(strstr(buf, "timeline\t+\tzoom-in\tzoom in at the "
	    "cursor\n"));
	assert_non_null(strstr(buf, "timeline\tWheelUp\tzoom-in\t"));
	assert_non_null(strstr(buf, "nvtx\tS\tsort-reverse\t"));
	assert_non_null(strstr(buf, "report\tb\tdetail-page-up\tdetail pane "
	    "up a page\n"));
	/* One line per binding, four fields, the tables in order. */
	for (p = buf; (line = strsep(&p, "\n")) != NULL; ) {
		if (*line == '\0')
			continue;
		for (i = 0; i < 5; i++)
			f[i] = strsep(&line, "\t");
		assert_non_null(f[3]);
		assert_null(f[4]);
		assert_int_not_equal(action_find(f[2]), ACT_NONE);
		assert_int_equal(keytable_action(keymap_table(km, f[0]),
		    keymap_key_parse(f[1])), action_find(f[2]));
		assert_string_equal(f[3], action_get(action_find(f[2]))->help);
		while (t < NTABLES && strcmp(tables[t], f[0]) != 0)
			t++;
		assert_true(t < NTABLES);
		n++;
	}
	assert_int_equal(n, NTODAY);
	free(buf);
	keymap_free(km);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_today),
	cmocka_unit_test(test_key_names),
	cmocka_unit_test(test_bind),
	cmocka_unit_test(test_help_lines),
	cmocka_unit_test(test_list))
