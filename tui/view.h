/*
 * view: the contract between the application (app.c) and a view.
 *
 * A view is a table of callbacks (tig's view_ops, tmux's window_mode). It
 * draws into a cellgrid, never into ncurses, and handles keys that the loop
 * has already translated into terminal-independent codes (TK_*), so a view
 * can be driven and inspected without a terminal.
 *
 * Key handlers return a reaction bitmask (htop's HTOP_REFRESH style): the
 * loop ORs reactions into its damage flags and hands them to draw() once per
 * frame, which repaints only the panes named. REACT_QUIT ends the loop;
 * REACT_PASS says the view did not use the key (the application then tries
 * its global keys: view switching, help, quit); REACT_SWITCH asks the
 * application to show another view and hand it a message (view_msg), which
 * is how the NVTX tree and the kernel table jump to an event on the
 * timeline without knowing anything about it.
 *
 * Keys are bound to named actions (action.h) in key tables (keymap.h); the
 * application looks a key up in the current view's table and hands the view
 * the key together with its action (ACT_NONE when the key is not bound
 * there). The view runs the action through its action table (struct
 * view_action: the action, the function and its argument), or uses the
 * key itself while it is in a mode of its own (a prompt being typed, an
 * overlay), and returns REACT_PASS for anything else.
 */
#ifndef GPULENS_VIEW_H
#define GPULENS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"

/* Keys: Unicode code points as themselves, special keys above Unicode. */
enum tui_keycode {
	TK_NONE = 0,
	TK_BASE = 0x110000,
	TK_LEFT, TK_RIGHT, TK_UP, TK_DOWN,
	TK_PGUP, TK_PGDN, TK_HOME, TK_END,
	TK_TAB, TK_BTAB, TK_ENTER, TK_ESC, TK_BACKSPACE,
	TK_WHEEL_UP, TK_WHEEL_DOWN,	/* x, y: pointer cell */
	TK_CLICK,			/* x, y: clicked cell */
	TK_DEL,
	TK_CTRL_L			/* ^L: repaint everything */
};

/* Control characters as keys: ^U is TK_CTRL('U'). */
#define TK_CTRL(c)	((c) & 0x1f)

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
#define REDRAW_BODY	0x040	/* table views: the rows */
#define REDRAW_ALL	0x0ff
#define REACT_QUIT	0x100
#define REACT_PASS	0x200	/* key not used by the view */
#define REACT_SWITCH	0x400	/* see struct view_shared.want */
#define REACT_REPAINT	0x800	/* repaint the terminal from scratch */
#define REACT_OPEN	0x1000	/* open the trace in view_shared.open */

/* What a view does for an action: fn(view, key, arg). */
struct view_action {
	int		 act;		/* enum action */
	int		 (*fn)(void *, const struct tui_key *, int arg);
	int		 arg;
};

/* The entry of act in a table of n entries, or NULL. */
const struct view_action *view_action_find(const struct view_action *,
	    size_t, int act);
/* Runs the entry of act in a table of n entries on view p: its reaction,
 * or REACT_PASS where the table has none. */
int	 view_action_run(const struct view_action *, size_t, void *p,
	    const struct tui_key *, int act);
/* Empties a message shown until the next key; returns REDRAW_STATUS if
 * there was one (the status line must be redrawn), else 0. */
int	 view_clear_msg(char *msg);

/* A message from one view to another, through the application. */
enum view_msg_type {
	VMSG_NONE = 0,
	VMSG_SHOW_EVENT,	/* select gid and bring it into view */
	VMSG_SHOW_RANGE		/* zoom to [t0, t1) */
};

struct view_msg {
	int		 type;		/* enum view_msg_type */
	uint32_t	 gid;
	int64_t		 t0, t1;
	char		 note[160];	/* shown on the status line, or "" */
};

/*
 * State every view can read, owned by the application: the timeline keeps
 * the window, cursor and selection current so that the other views' status
 * lines show them, and views post switch requests here.
 */
struct view_shared {
	int64_t		 t0, span;	/* the timeline's window */
	int64_t		 cursor;	/* cursor time */
	uint32_t	 sel;		/* selected event or NONE32 */
	int		 abs_time;	/* times shown on the source clock */
	int64_t		 res;		/* ns per timeline column */
	/* With REACT_SWITCH: the view to show (its ops name) and what to
	 * tell it. */
	const char	*want;
	struct view_msg	 msg;
	/* A note for the status line (load warnings, where a jump came
	 * from), shown by every view until the next key. */
	char		 note[160];
	/* The view has a box up over it (range statistics, bookmarks): the
	 * application gives it the overlay table's actions, and keys it
	 * passes go nowhere (app.c: an overlay's keys never quit). */
	int		 overlay;
	/* With REACT_OPEN (the job overview): the traces of a rank to open
	 * as one model in views of its own (nopen of them), and the rank. */
	char *const	*open;
	size_t		 nopen;
	int		 open_rank;
	/* The views of a rank opened from a job's overview: q goes back
	 * (the status line says so). */
	int		 in_job;
};

/* What the application tells a view, fixed for its lifetime. */
struct view_env {
	const struct glyph	*gl;
	const char		*title;	/* may be NULL */
	struct view_shared	*sh;
	const void		*arg;	/* view-specific data (tui_opts) */
	const void		*baseline;	/* the same kind of data to
						   compare with, or NULL */
	const char		*baseline_title;	/* may be NULL */
	const char *const	*paths;	/* the traces shown, or NULL */
	int			 npaths;
};

struct view_ops {
	const char	*name;		/* "timeline": tui_opts.view picks it;
					   also its key table's name */
	const char	*label;		/* "Timeline": help and the view bar */
	void		*(*init)(const struct model *, const struct view_env *);
	void		 (*free)(void *);
	/* New screen size; the next draw gets REDRAW_ALL. */
	void		 (*resize)(void *, int w, int h);
	/* Repaints the panes named in dirty into g (already w x h). */
	void		 (*draw)(void *, struct cellgrid *g, int dirty);
	/* A key and the action it is bound to in the view's key table
	 * (ACT_NONE: none); returns a reaction bitmask. */
	int		 (*key)(void *, const struct tui_key *, int act);
	/* Handles a message from another view (may be NULL). */
	int		 (*command)(void *, const struct view_msg *);
	const struct view_action *actions;	/* the actions it runs */
	size_t		 nactions;
};

#endif
