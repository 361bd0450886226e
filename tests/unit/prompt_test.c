/*
 * prompt_test: the status-line editor (tui/prompt.c): typing ASCII and
 * UTF-8, Backspace removing whole characters, ^U and ^W, Enter and Esc,
 * control characters ignored, the length bound, and drawing with the end
 * of a long text kept in view and escapes made visible.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/prompt.h"

#include "tsupport.h"

static int
press(struct prompt *p, int k)
{
	struct tui_key	tk = ts_tkey(k);

	return prompt_key(p, &tk);
}

static void
test_edit(void **state)
{
	struct prompt	p;
	const char	*s;

	prompt_open(&p, 7, "go: ", "1");
	assert_true(p.active);
	assert_int_equal(p.id, 7);
	assert_string_equal(p.buf, "1");
	for (s = "2ms"; *s != '\0'; s++)
		assert_int_equal(press(&p, *s), PROMPT_EDIT);
	assert_string_equal(p.buf, "12ms");
	press(&p, 0xe9);		/* e acute: two bytes */
	assert_int_equal(p.len, 6);
	press(&p, TK_BACKSPACE);
	assert_string_equal(p.buf, "12ms");
	press(&p, 0x1b);		/* a raw ESC code point: ignored */
	press(&p, 0x9b);		/* C1 */
	press(&p, TK_LEFT);
	assert_string_equal(p.buf, "12ms");
	press(&p, ' ');
	press(&p, 'x');
	press(&p, 'y');
	press(&p, TK_CTRL('W'));
	assert_string_equal(p.buf, "12ms ");
	press(&p, TK_CTRL('U'));
	assert_string_equal(p.buf, "");
	press(&p, TK_BACKSPACE);	/* on empty: nothing */
	press(&p, 'a');
	assert_int_equal(press(&p, TK_ENTER), PROMPT_DONE);
	assert_false(p.active);
	assert_string_equal(p.buf, "a");
	prompt_open(&p, 1, "x: ", NULL);
	assert_int_equal(press(&p, TK_ESC), PROMPT_CANCEL);
	assert_false(p.active);
}

static void
test_bound(void **state)
{
	struct prompt	p;
	int		i;

	prompt_open(&p, 1, "x: ", NULL);
	for (i = 0; i < 1000; i++)
		press(&p, i % 2 ? 'a' : 0x4e16);	/* 3 bytes */
	assert_true(p.len < PROMPT_MAX);
	assert_int_equal(strlen(p.buf), p.len);
}

static void
test_draw(void **state)
{
	struct prompt	p;
	struct cellgrid	g;
	char		line[256];
	int		i;

	cellgrid_init(&g);
	cellgrid_resize(&g, 30, 1);
	prompt_open(&p, 1, "search: ", NULL);
	for (i = 0; i < 40; i++)
		press(&p, 'a' + i % 26);
	press(&p, 'Z');
	prompt_draw(&p, &g, 0, 0, 30, 0);
	cellgrid_row_text(&g, 0, line, sizeof line);
	/* The label, then the end of the text. */
	assert_int_equal(strncmp(line, "search: ", 8), 0);
	assert_non_null(strstr(line, "nZ"));
	/* Pasted escapes are drawn escaped. */
	prompt_open(&p, 1, "s: ", "\x1b[2J");
	cellgrid_fill(&g, 0, 0, 30, 1, L' ', CG_STATUS);
	prompt_draw(&p, &g, 0, 0, 30, 0);
	cellgrid_row_text(&g, 0, line, sizeof line);
	assert_string_equal(line, "s: \\x1b[2J");
	cellgrid_free(&g);
}

TS_MAIN(ts_utf8_setup, NULL,
	cmocka_unit_test(test_edit),
	cmocka_unit_test(test_bound),
	cmocka_unit_test(test_draw))
