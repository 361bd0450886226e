/*
 * glyph: the UTF-8 and ASCII glyph tables. See glyph.h.
 */
#include "config.h"

#include "tui/glyph.h"

static const struct glyph glyph_utf8 = {
	.utf8 = 1,
	.ramp = { L' ', L'\u2581', L'\u2582', L'\u2583', L'\u2584',
	    L'\u2585', L'\u2586', L'\u2587', L'\u2588' },	/* ▁..█ */
	.left = { L' ', L'\u258f', L'\u258e', L'\u258d', L'\u258c',
	    L'\u258b', L'\u258a', L'\u2589', L'\u2588' },	/* ▏..█ */
	.right_eighth = L'\u2595',				/* ▕ */
	.right_half = L'\u2590',				/* ▐ */
	.box_open = L'\u258f',					/* ▏ */
	.box_close = 0,
	.ellipsis = L'\u2026',					/* … */
	.vline = L'\u2502',					/* │ */
	.hline = L'\u2500',					/* ─ */
	.tick = L'\u2577',					/* ╷ */
	.cursor = L'\u2502',
	.cursor_mark = L'\u25bc',				/* ▼ */
	.expanded = L'\u25be',					/* ▾ */
	.collapsed = L'\u25b8',					/* ▸ */
	.flow = L'\u25c2',						/* ◂ */
	.wait = L'\u2591',						/* ░ */
	.corner = { L'\u250c', L'\u2510', L'\u2514', L'\u2518' },
};

static const struct glyph glyph_ascii = {
	.utf8 = 0,
	.ramp = { ' ', '.', '.', ':', ':', '|', '|', '#', '#' },
	.left = { ' ', '.', '.', ':', ':', '|', '|', '#', '#' },
	.right_eighth = '.',
	.right_half = '|',
	.box_open = '[',
	.box_close = ']',
	.ellipsis = '~',
	.vline = '|',
	.hline = '-',
	.tick = '|',
	.cursor = '|',
	.cursor_mark = 'v',
	.expanded = '-',
	.collapsed = '+',
	.flow = '<',
	.wait = '~',
	.corner = { '+', '+', '+', '+' },
};

const struct glyph *
glyph_get(int utf8)
{
	return utf8 ? &glyph_utf8 : &glyph_ascii;
}
