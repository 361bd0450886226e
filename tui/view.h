/*
 * view: the contract between the main loop (tui.c) and a view.
 *
 * A view is a table of callbacks (tig's view_ops, tmux's window_mode). It
 * draws into a cellgrid, never into ncurses, and handles keys that the loop
 * has already translated into terminal-independent codes (TK_*), so a view
 * can be driven and inspected without a terminal.
 *
 * Key handlers return a reaction bitmask (htop's HTOP_REFRESH style): the
 * loop ORs reactions into its damage flags and hands them to draw() once per
 * frame, which repaints only the panes named. REACT_QUIT ends the loop.
 */
#ifndef GPULENS_VIEW_H
#define GPULENS_VIEW_H

#include "cellgrid.h"
#include "glyph.h"
#include "model.h"

/* Keys: Unicode code points as themselves, special keys above Unicode. */
enum tui_keycode {
	TK_NONE = 0,
	TK_BASE = 0x110000,
	TK_LEFT, TK_RIGHT, TK_UP, TK_DOWN,
	TK_PGUP, TK_PGDN, TK_HOME, TK_END,
	TK_TAB, TK_BTAB, TK_ENTER, TK_ESC, TK_BACKSPACE,
	TK_WHEEL_UP, TK_WHEEL_DOWN,	/* x, y: pointer cell */
	TK_CLICK			/* x, y: clicked cell */
};

struct tui_key {
	int		 key;		/* code point or TK_* */
	int		 x, y;		/* pointer position for mouse keys */
};

/* Damage and reactions. */
#define REDRAW_RULER	0x001
#define REDRAW_TIMELINE	0x002	/* all visible rows: labels and lanes */
#define REDRAW_LABELS	0x004	/* label column only (selection moved) */
#define REDRAW_DETAIL	0x008
#define REDRAW_STATUS	0x010
#define REDRAW_OVERLAY	0x020	/* help or other overlay */
#define REDRAW_ALL	0x0ff
#define REACT_QUIT	0x100

/* What the loop tells a view about the terminal, fixed for its lifetime. */
struct view_env {
	const struct glyph	*gl;
	const char		*title;	/* may be NULL */
};

struct view_ops {
	const char	*name;
	void		*(*init)(const struct model *, const struct view_env *);
	void		 (*free)(void *);
	/* New screen size; the next draw gets REDRAW_ALL. */
	void		 (*resize)(void *, int w, int h);
	/* Repaints the panes named in dirty into g (already w x h). */
	void		 (*draw)(void *, struct cellgrid *g, int dirty);
	/* Returns a reaction bitmask. */
	int		 (*key)(void *, const struct tui_key *);
};

#endif
