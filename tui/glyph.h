/*
 * glyph: the two glyph sets the TUI draws with, chosen once at start-up.
 *
 * The UTF-8 set uses block elements (eighth blocks, a height ramp) and box
 * drawing; the ASCII set, for LANG=C terminals and --ascii, uses the ramp
 * ".:|#" and plain punctuation. Everything that draws takes the set from
 * here so that no UTF-8 character can reach an ASCII terminal.
 */
#ifndef GPULENS_GLYPH_H
#define GPULENS_GLYPH_H

#include <wchar.h>

struct glyph {
	int		 utf8;		/* 1 for the UTF-8 set */
	wchar_t		 ramp[9];	/* [1..8]: busy fraction, low to full */
	wchar_t		 left[9];	/* [1..8]: left-aligned n/8 blocks */
	wchar_t		 right_eighth;	/* right-aligned 1/8 block */
	wchar_t		 right_half;	/* right-aligned 1/2 block */
	wchar_t		 box_open;	/* first cell of a box */
	wchar_t		 box_close;	/* last cell of a box, 0: none */
	wchar_t		 ellipsis;
	wchar_t		 vline, hline;	/* separators */
	wchar_t		 tick;		/* ruler tick */
	wchar_t		 cursor;	/* cursor column on empty cells */
	wchar_t		 cursor_mark;	/* cursor position on the ruler */
	wchar_t		 expanded;	/* group header markers */
	wchar_t		 collapsed;
	wchar_t		 flow;		/* the launching call's row mark */
	wchar_t		 wait;		/* a sync wait in an idle stream cell */
	wchar_t		 corner[4];	/* top-left, top-right, bottom-left,
					   bottom-right (overlay frames) */
};

/* The UTF-8 set if utf8, else the ASCII set. Static storage. */
const struct glyph	*glyph_get(int utf8);

#endif
