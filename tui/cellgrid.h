/*
 * cellgrid: a plain, terminal-independent screen of w x h cells.
 *
 * Views draw into a cellgrid; the main loop blits it to ncurses in one
 * place (tui.c). Tests draw into one and read cells back, so the whole
 * rendering path is testable without a terminal.
 *
 * A cell holds one wide character and a 16-bit attribute: a colour class
 * (CG_*, what the cell shows) in the low bits plus CGA_* flags. A character
 * of width 2 occupies its cell and the next, which holds CG_CONT. Writes
 * are clipped to the grid; a write that splits a wide character blanks the
 * other half. Each row carries a dirty bit, set by every write and cleared
 * by cellgrid_clean(), so the blit can skip unchanged rows.
 *
 * Ownership: the grid owns its arrays; cellgrid_free() releases them.
 * cellgrid_resize() reuses them when they are large enough.
 */
#ifndef GPULENS_CELLGRID_H
#define GPULENS_CELLGRID_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

/* Colour classes. */
#define CG_CLASS_LIST(X)	\
	X(NORMAL)	\
	X(LABEL)	\
	X(GROUP)	\
	X(RULER)	\
	X(STATUS)	\
	X(DETAIL)	\
	X(KEY)		/* field names in the detail pane */	\
	X(HELP)		\
	X(BORDER)	\
	X(DIM)		\
	X(KERNEL)	\
	X(COMM)		\
	X(MEMCPY)	\
	X(MEMSET)	\
	X(SYNC)		\
	X(API)		\
	X(NVTX)		\
	X(OSRT)		\
	X(OTHER)

enum cg_class {
#define X(e) CG_##e,
	CG_CLASS_LIST(X)
#undef X
	CG_CLASS_COUNT
};

#define CGA_CLASS	0x001f	/* mask: enum cg_class */
#define CGA_FILL	0x0020	/* class colour as background (event box) */
#define CGA_BOLD	0x0040
#define CGA_REVERSE	0x0080
#define CGA_UNDERLINE	0x0100
#define CGA_DIM		0x0200
#define CGA_SEL		0x0400	/* the selected event */
#define CGA_CURSOR	0x0800	/* on the cursor column */
#define CGA_FOLD	0x1000	/* several events folded into one glyph */

#define CG_CONT		((wchar_t)0)	/* right half of a wide character */

struct cell {
	wchar_t		 ch;
	uint16_t	 attr;
};

struct cellgrid {
	int		 w, h;
	struct cell	*cells;		/* h rows of w cells */
	size_t		 cap;		/* cells allocated */
	uint8_t		*dirty;		/* per row */
	size_t		 dcap;
};

void		 cellgrid_init(struct cellgrid *);
void		 cellgrid_free(struct cellgrid *);
/* Sets the size; all cells become blank and all rows dirty. */
void		 cellgrid_resize(struct cellgrid *, int w, int h);
/* The cell at (x, y), or NULL outside the grid. */
struct cell	*cellgrid_at(struct cellgrid *, int x, int y);
const struct cell *cellgrid_cat(const struct cellgrid *, int x, int y);
/* Fills a rectangle with ch (width 1). */
void		 cellgrid_fill(struct cellgrid *, int x, int y, int w, int h,
		    wchar_t ch, uint16_t attr);
/* Puts one character (width 1 or 2, from wcwidth; others as width 1). */
void		 cellgrid_put(struct cellgrid *, int x, int y, wchar_t ch,
		    uint16_t attr);
/*
 * Draws a displayable (already sanitised) wide string from (x, y), at most
 * maxw columns; a wide character that does not fit is left out. Returns
 * the columns used.
 */
int		 cellgrid_puts(struct cellgrid *, int x, int y, int maxw,
		    const wchar_t *s, uint16_t attr);
/*
 * Sanitises untrusted UTF-8 text (safetext.h flags) and draws it in at most
 * maxw columns. Returns the columns used.
 */
int		 cellgrid_text(struct cellgrid *, int x, int y, int maxw,
		    const char *s, int sanflags, uint16_t attr);
/* Sets (or, with set 0, clears) attribute flags on a run of cells. */
void		 cellgrid_attr(struct cellgrid *, int x, int y, int w,
		    uint16_t flags, int set);
/* Clears the dirty bits. */
void		 cellgrid_clean(struct cellgrid *);
/*
 * Row y as UTF-8 text without trailing blanks, into buf (NUL-terminated).
 * Returns the length.
 */
size_t		 cellgrid_row_text(const struct cellgrid *, int y, char *buf,
		    size_t len);
/* Writes the whole grid as text lines to f. Returns 0 or -1. */
int		 cellgrid_dump(const struct cellgrid *, FILE *f);

#endif
