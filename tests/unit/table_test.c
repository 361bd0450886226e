/*
 * table_test: the table component of the table views (tui/table.c):
 * column layout (which columns survive at 80 and 200 columns, their
 * positions, the flexible name column, a column off, right alignment, the
 * sort mark),
 * scrolling, and, through a small view made of a table, the selection
 * moves, keeping the selected row, sort-key cycling, the filter prompt,
 * the drawing of title, header, rows, footer and status line, damage, and
 * the switch request to the timeline.
 */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/builder.h"
#include "tui/safetext.h"
#include "tui/table.h"
#include "tsupport.h"

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
	/* A column off (TABLE_OFF) takes no room, whatever the width. */
	memcpy(c, cols, sizeof c);
	c[1].prio = TABLE_OFF;
	table_layout(c, NC, 200);
	assert_false(c[1].shown);
	assert_int_equal(c[2].x, 7);
	assert_int_equal(c[8].x, 7 + 9 + 10 * 5);
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

/*
 * A view made of a table: rows are the numbers 0..nall-1 whose decimal
 * text contains the filter, sorted by value (key 0) or by their text
 * (key 1, ascending first).
 */
struct fake {
	struct table	 tb;		/* first */
	uint32_t	 ids[64];
	size_t		 nall;
	int		 nrefresh;
};

static const struct table_col fake_cols[] = {
	{ "Value", 6, 1, 1, 0, 0, 0, 0 },
	{ "Text", 0, 0, 0, 1, 0, 0, 0 },
};
static const int fake_sortcol[] = { 0, 1 };
static const char *const fake_sort_names[] = { "value", "text" };

static const char *
fake_sort_name(int k)
{
	return fake_sort_names[k];
}

static int	fake_sort_key, fake_sort_desc;

static int
fake_cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	char		sx[16], sy[16];
	int		c;

	if (fake_sort_key == 1) {
		snprintf(sx, sizeof sx, "%u", x);
		snprintf(sy, sizeof sy, "%u", y);
		c = strcmp(sx, sy);
	} else
		c = x < y ? -1 : x > y;
	return fake_sort_desc ? -c : c;
}

static void
fake_refresh(void *p)
{
	struct fake	*f = p;
	uint32_t	 keep, i;
	size_t		 n = 0;
	char		 s[16];

	keep = f->tb.sel < f->tb.n ? f->ids[f->tb.sel] : NONE32;
	for (i = 0; i < f->nall; i++) {
		snprintf(s, sizeof s, "%u", i);
		if (strstr(s, f->tb.filter) != NULL)
			f->ids[n++] = i;
	}
	fake_sort_key = f->tb.sort;
	fake_sort_desc = f->tb.desc;
	qsort(f->ids, n, sizeof f->ids[0], fake_cmp);
	f->nrefresh++;
	table_keep(&f->tb, f->ids, n, keep);
}

static void
fake_row(void *p, struct cellgrid *g, int y, size_t i)
{
	struct fake	*f = p;
	char		 s[16];

	snprintf(s, sizeof s, "%u", f->ids[i]);
	table_cell(g, y, &f->tb.col[0], s, ST_ASCII, CG_LABEL);
	snprintf(s, sizeof s, "row%u", f->ids[i]);
	table_cell(g, y, &f->tb.col[1], s, ST_ASCII, CG_LABEL);
}

static const char *
fake_title(void *p, char *buf, size_t len)
{
	struct fake	*f = p;

	snprintf(buf, len, " Fake: %zu rows, filter \"%s\"", f->tb.n,
	    f->tb.filter);
	return buf;
}

static const char *
fake_status(void *p, char *buf, size_t len)
{
	struct fake	*f = p;

	if (f->tb.n == 0)
		return "none";
	snprintf(buf, len, "row %zu of %zu", f->tb.sel + 1, f->tb.n);
	return buf;
}

static const char *
fake_footer(void *p, char *buf, size_t len)
{
	struct fake	*f = p;

	if (f->tb.sel >= f->tb.n)
		return NULL;
	snprintf(buf, len, "full name of row%u", f->ids[f->tb.sel]);
	return buf;
}

static const struct view_action fake_actions[] = {
	TABLE_ACTIONS_MOVE,
	TABLE_ACTIONS_SORT,
	{ ACT_FILTER, table_key_filter, 0 },
	{ ACT_FILTER_CLEAR, table_key_clear, 0 },
};

static const struct table_spec fake_spec = {
	.cols = fake_cols,
	.ncols = 2,
	.nsort = 2,
	.sortcol = fake_sortcol,
	.sort_asc = 1U << 1,
	.sort_name = fake_sort_name,
	.filter_label = "filter: ",
	.filter_none = "nothing matches",
	.move_damage = REDRAW_BODY | REDRAW_STATUS,
	.actions = fake_actions,
	.nactions = sizeof fake_actions / sizeof fake_actions[0],
	.refresh = fake_refresh,
	.row = fake_row,
	.title = fake_title,
	.status = fake_status,
	.footer = fake_footer,
};

struct fx {
	struct model		*m;
	struct view_shared	 sh;
	struct view_env		 env;
	struct fake		 f;
	struct cellgrid		 g;
	char			 line[256];
};

/* 30 rows by value descending, on a 56 x 12 screen (8 rows shown). */
static int
setup(void **state)
{
	static struct fx	 x;
	struct builder		*b;
	char			*cause = NULL;

	memset(&x, 0, sizeof x);
	b = builder_new(SOURCE_NSYS);
	x.m = builder_finish(b, &cause);
	assert_non_null(x.m);
	x.env.gl = glyph_get(0);
	x.env.sh = &x.sh;
	table_init(&x.f.tb, &fake_spec, x.m, &x.env);
	x.f.nall = 30;
	fake_refresh(&x.f);
	cellgrid_init(&x.g);
	cellgrid_resize(&x.g, 56, 12);
	table_resize(&x.f, 56, 12);
	*state = &x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*x = *state;

	cellgrid_free(&x->g);
	model_free(x->m);
	return 0;
}

static int
key(struct fx *x, int k)
{
	struct tui_key	tk = ts_tkey(k);
	int		r;

	/* The kernel table's keys: the same moves, sorting and filter. */
	r = table_key(&x->f, &tk, ts_key_action("kernels", k));
	table_draw(&x->f, &x->g, r & REDRAW_ALL);
	return r;
}

/* Sends key k to x and checks the selection and the top row after it. */
static void
key_moves(struct fx *x, int k, size_t sel, size_t top)
{
	key(x, k);
	assert_int_equal(x->f.tb.sel, sel);
	assert_int_equal(x->f.tb.top, top);
}

static const char *
row(struct fx *x, int y)
{
	cellgrid_row_text(&x->g, y, x->line, sizeof x->line);
	return x->line;
}

static void
test_geometry(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;

	assert_int_equal(t->rows_y, 2);
	assert_int_equal(t->rows_h, 8);
	assert_int_equal(t->n, 30);
	assert_int_equal(t->sort, 0);
	assert_int_equal(t->desc, 1);
	assert_int_equal(x->f.ids[0], 29);
	assert_int_equal(t->col[1].x, 7);
	assert_int_equal(t->col[1].w, 49);
	table_resize(&x->f, 56, 3);		/* no room for rows */
	assert_int_equal(t->rows_h, 0);
	assert_int_equal(t->top, 0);
	table_resize(&x->f, 0, 0);
	assert_int_equal(t->w, 1);
	assert_int_equal(t->h, 1);
}

static void
test_move(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;

	assert_int_equal(key(x, 'j'), REDRAW_BODY | REDRAW_STATUS);
	assert_int_equal(t->sel, 1);
	key_moves(x, TK_PGDN, 8, 1);		/* a page is rows - 1 */
	key_moves(x, TK_END, 29, 22);
	/* At the end nothing moves and nothing is redrawn. */
	assert_int_equal(key(x, TK_DOWN), 0);
	assert_int_equal(key(x, TK_WHEEL_DOWN), 0);
	key_moves(x, TK_PGUP, 22, 22);
	key_moves(x, 'k', 21, 21);
	key_moves(x, TK_HOME, 0, 0);
	assert_int_equal(key(x, TK_PGUP), 0);
	/* Keys it does not know go back to the application. */
	assert_int_equal(key(x, 'x'), REACT_PASS);
	/* Direct moves by any number of rows, clamped. */
	assert_int_equal(table_move(t, 5), 1);
	assert_int_equal(t->sel, 5);
	assert_int_equal(table_move(t, -50), 1);
	assert_int_equal(t->sel, 0);
	assert_int_equal(table_move(t, -1), 0);
}

/* A click at line y: selects the row there; on the selected row, Enter's
 * action (the fake table has none: nothing happens). */
static int
click(struct fx *x, int y)
{
	struct tui_key	tk = ts_tkey(TK_CLICK);

	tk.x = 3;
	tk.y = y;
	return table_key(&x->f, &tk, ts_key_action("kernels", TK_CLICK));
}

static void
test_click(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;

	assert_int_equal(table_row_at(t, t->rows_y - 1), (size_t)-1);
	assert_int_equal(table_row_at(t, t->rows_y), 0);
	assert_int_equal(table_row_at(t, t->rows_y + t->rows_h), (size_t)-1);
	assert_int_equal(click(x, t->rows_y + 3), REDRAW_BODY | REDRAW_STATUS);
	assert_int_equal(t->sel, 3);
	assert_int_equal(click(x, t->rows_y + 3), 0);
	assert_int_equal(t->sel, 3);
	/* Scrolled: the line shows row top + offset. */
	key(x, TK_END);
	assert_int_equal(table_row_at(t, t->rows_y), t->top);
	assert_int_equal(click(x, t->rows_y + 1), REDRAW_BODY | REDRAW_STATUS);
	assert_int_equal(t->sel, t->top + 1);
	/* Off the rows (the header, the status line): nothing. */
	assert_int_equal(click(x, 0), 0);
	assert_int_equal(click(x, t->rows_y + t->rows_h), 0);
	assert_int_equal(t->sel, t->top + 1);
	/* Below the last row of a short table: nothing. */
	table_rows(t, 2);
	assert_int_equal(table_row_at(t, t->rows_y + 2), (size_t)-1);
}

static void
test_rows_keep(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;
	uint32_t	 ids[3] = { 7, 8, 9 };

	key(x, TK_END);
	table_rows(t, 10);			/* fewer rows: clamped */
	assert_int_equal(t->sel, 9);
	assert_int_equal(t->top, 2);
	table_keep(t, ids, 3, 8);		/* found: selected */
	assert_int_equal(t->sel, 1);
	assert_int_equal(t->n, 3);
	assert_int_equal(t->top, 0);
	table_keep(t, ids, 2, 42);		/* not found: stays */
	assert_int_equal(t->sel, 1);
	table_keep(t, ids, 1, 42);		/* clamped */
	assert_int_equal(t->sel, 0);
	table_rows(t, 0);
	assert_int_equal(t->sel, 0);
	assert_int_equal(t->top, 0);
	assert_int_equal(table_move(t, 1), 0);
}

/* More room after a resize shows the rows above again. */
static void
test_place(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;

	table_rows(t, 9);
	table_place(t, 56, 12, 1, 5);
	key(x, TK_END);
	assert_int_equal(t->top, 4);
	table_place(t, 56, 12, 1, 9);
	assert_int_equal(t->top, 0);
	assert_int_equal(t->sel, 8);
	assert_int_equal(t->rows_y, 1);
	table_place(t, 56, 12, 1, -3);
	assert_int_equal(t->rows_h, 0);
}

static void
test_sort(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;
	int		 r;

	key(x, 'j');
	key(x, 'j');				/* on 27 */
	assert_int_equal(x->f.ids[t->sel], 27);
	r = key(x, 's');
	assert_int_equal(r, REDRAW_ALL);
	assert_int_equal(t->sort, 1);
	assert_int_equal(t->desc, 0);		/* text starts ascending */
	assert_int_equal(x->f.ids[0], 0);
	assert_int_equal(x->f.ids[1], 1);
	assert_int_equal(x->f.ids[2], 10);
	assert_int_equal(x->f.ids[t->sel], 27);	/* still on 27 */
	assert_string_equal(t->msg, "sorted by text, ascending");
	assert_non_null(strstr(row(x, 11), "sorted by text, ascending"));
	/* The arrow moved to the sorted column. */
	assert_non_null(strstr(row(x, 1), " Value Text^"));
	r = key(x, 'S');
	assert_int_equal(t->desc, 1);
	assert_string_equal(t->msg, "sorted by text, descending");
	assert_non_null(strstr(row(x, 1), " Value Textv"));
	assert_int_equal(x->f.ids[0], 9);
	/* Back to the value, descending; the next key clears the message. */
	key(x, 's');
	assert_int_equal(t->sort, 0);
	assert_int_equal(t->desc, 1);
	assert_int_equal(x->f.nrefresh, 4);
	assert_int_equal(key(x, TK_HOME) & REDRAW_STATUS, REDRAW_STATUS);
	assert_string_equal(t->msg, "");
	assert_non_null(strstr(row(x, 11), "row 1 of 30"));
}

static void
test_filter(void **state)
{
	struct fx	*x = *state;
	struct table	*t = &x->f.tb;

	assert_int_equal(key(x, '/'), REDRAW_STATUS);
	assert_true(t->pr.active);
	assert_non_null(strstr(row(x, 11), "filter:"));
	assert_int_equal(key(x, '2'), REDRAW_STATUS);
	assert_non_null(strstr(row(x, 11), "filter: 2"));
	assert_int_equal(key(x, TK_ENTER), REDRAW_ALL);
	assert_false(t->pr.active);
	assert_string_equal(t->filter, "2");
	/* 2, 12, 20..29: 12 rows, descending. */
	assert_int_equal(t->n, 12);
	assert_int_equal(x->f.ids[0], 29);
	assert_int_equal(x->f.ids[11], 2);
	assert_non_null(strstr(row(x, 0), "Fake: 12 rows, filter \"2\""));
	assert_string_equal(t->msg, "");
	/* Nothing matches: a message, no rows, no footer text. */
	key(x, '/');
	key(x, 'x');
	key(x, TK_ENTER);
	assert_int_equal(t->n, 0);
	assert_string_equal(t->filter, "2x");
	assert_non_null(strstr(row(x, 11), "nothing matches"));
	assert_string_equal(row(x, 2), "");
	assert_null(strstr(row(x, 10), "full name"));
	/* A cancelled prompt changes nothing. */
	key(x, '/');
	key(x, '9');
	assert_int_equal(key(x, TK_ESC), REDRAW_STATUS);
	assert_false(t->pr.active);
	assert_string_equal(t->filter, "2x");
	/* Esc clears the filter, then has nothing to do. */
	assert_int_equal(key(x, TK_ESC), REDRAW_ALL);
	assert_string_equal(t->filter, "");
	assert_int_equal(t->n, 30);
	assert_int_equal(key(x, TK_ESC), 0);
}

static void
test_draw(void **state)
{
	struct fx		*x = *state;
	const struct cell	*c;

	table_draw(&x->f, &x->g, REDRAW_ALL);
	assert_string_equal(row(x, 0), " Fake: 30 rows, filter \"\"");
	assert_string_equal(row(x, 1), "vValue Text");
	assert_string_equal(row(x, 2), "    29 row29");
	assert_string_equal(row(x, 9), "    22 row22");
	/* The selected row is reversed, the others not. */
	c = cellgrid_cat(&x->g, 55, 2);
	assert_true(c->attr & CGA_REVERSE);
	c = cellgrid_cat(&x->g, 55, 3);
	assert_false(c->attr & CGA_REVERSE);
	/* The footer: a rule with the full name. */
	assert_non_null(strstr(row(x, 10), "- full name of row29 -"));
	assert_non_null(strstr(row(x, 11), "row 1 of 30"));
	/* Only what dirty names is drawn. */
	cellgrid_fill(&x->g, 0, 2, 56, 1, L'X', CG_NORMAL);
	key(x, 'x');				/* passes: no damage */
	assert_int_equal(strspn(row(x, 2), "X"), 56);
	table_draw(&x->f, &x->g, REDRAW_STATUS);
	assert_int_equal(row(x, 2)[0], 'X');
	key(x, 'j');
	assert_string_equal(row(x, 2), "    29 row29");
	c = cellgrid_cat(&x->g, 0, 3);
	assert_true(c->attr & CGA_REVERSE);
	assert_non_null(strstr(row(x, 11), "row 2 of 30"));
	/* A note from another view wins over the status text. */
	snprintf(x->sh.note, sizeof x->sh.note, "a note");
	table_draw(&x->f, &x->g, REDRAW_STATUS);
	assert_non_null(strstr(row(x, 11), "a note"));
	assert_null(strstr(row(x, 11), "row 2"));
	/* Below 5 lines there is no footer. */
	x->sh.note[0] = '\0';
	cellgrid_resize(&x->g, 56, 4);
	table_resize(&x->f, 56, 4);
	table_draw(&x->f, &x->g, REDRAW_ALL);
	assert_non_null(strstr(row(x, 3), "row 2 of 30"));
	assert_null(strstr(row(x, 2), "full name"));
}

/* A spec without columns, footer or sorting (the findings' kind). */
static void
test_plain(void **state)
{
	struct fx		*x = *state;
	struct table_spec	 s = fake_spec;
	struct fake		 f;

	s.cols = NULL;
	s.ncols = 0;
	s.nsort = 0;
	s.footer = NULL;
	s.empty = "Nothing here.";
	s.move_damage = REDRAW_BODY | REDRAW_DETAIL;
	memset(&f, 0, sizeof f);
	table_init(&f.tb, &s, x->m, &x->env);
	table_place(&f.tb, 56, 12, 1, 4);
	table_draw(&f, &x->g, REDRAW_ALL);
	assert_string_equal(row(x, 0), " Fake: 0 rows, filter \"\"");
	assert_string_equal(row(x, 1), " Nothing here.");
	assert_string_equal(row(x, 10), "");	/* no footer */
	assert_non_null(strstr(row(x, 11), "none"));
	f.nall = 3;
	fake_refresh(&f);
	table_draw(&f, &x->g, REDRAW_ALL);
	assert_true(cellgrid_cat(&x->g, 0, 1)->attr & CGA_REVERSE);
	assert_false(cellgrid_cat(&x->g, 0, 2)->attr & CGA_REVERSE);
	assert_non_null(strstr(row(x, 11), "row 1 of 3"));
	assert_int_equal(table_key_move(&f, NULL, 1),
	    REDRAW_BODY | REDRAW_DETAIL);
	assert_int_equal(table_key_sort(&f, NULL, 0), 0);
}

static void
test_switch(void **state)
{
	struct fx	*x = *state;
	struct view_msg	*msg;

	assert_int_equal(table_show_instance(&x->f.tb, 42, 1, 5, "gemm\x1b",
	    '3'), REACT_SWITCH);
	assert_string_equal(x->sh.want, "timeline");
	assert_int_equal(x->sh.msg.type, VMSG_SHOW_EVENT);
	assert_int_equal(x->sh.msg.gid, 42);
	assert_string_equal(x->sh.msg.note,
	    "instance 2/5 of gemm\\x1b (3 Enter: next)");
	msg = table_to_timeline(&x->f.tb, VMSG_SHOW_RANGE, NONE32);
	assert_ptr_equal(msg, &x->sh.msg);
	assert_int_equal(msg->type, VMSG_SHOW_RANGE);
	assert_int_equal(msg->gid, NONE32);
	assert_string_equal(msg->note, "");
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test(test_layout),
	cmocka_unit_test(test_cells),
	cmocka_unit_test(test_scroll),
	cmocka_unit_test_setup_teardown(test_geometry, setup, teardown),
	cmocka_unit_test_setup_teardown(test_move, setup, teardown),
	cmocka_unit_test_setup_teardown(test_click, setup, teardown),
	cmocka_unit_test_setup_teardown(test_rows_keep, setup, teardown),
	cmocka_unit_test_setup_teardown(test_place, setup, teardown),
	cmocka_unit_test_setup_teardown(test_sort, setup, teardown),
	cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
	cmocka_unit_test_setup_teardown(test_draw, setup, teardown),
	cmocka_unit_test_setup_teardown(test_plain, setup, teardown),
	cmocka_unit_test_setup_teardown(test_switch, setup, teardown))
