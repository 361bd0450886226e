/*
 * script: key scripts that drive the TUI without a person (tig's
 * --script, for tests and demos).
 *
 * A script is a text file with one step per line:
 *   l  +  ?  é		a single character: that key
 *   KEY_RIGHT, RIGHT	a named key (names below, case-insensitive)
 *   :action NAME	run the action NAME (action.h; `gpulens --list-keys`
 *			lists them) as the first key bound to it in the
 *			current view would; an unknown name is an error, and
 *			so, when it runs, is an action that applies neither
 *			to the current view nor to every view
 *   :dump FILE		write the current screen as plain text to FILE
 *   :sleep MS		pause for MS milliseconds
 *   :resize WxH		resize the (headless) screen
 *   :redraw		repaint every pane without changing anything (a
 *			baseline frame for benchmarks)
 *   :quit		stop
 * Blank lines and lines starting with "#" followed by more text are
 * ignored ("#" alone is the key #). Key names: LEFT RIGHT UP DOWN PGUP
 * (PPAGE) PGDN (NPAGE) HOME END TAB BTAB (SHIFT_TAB) ENTER (RETURN) ESC
 * SPACE BACKSPACE DEL C-L, each also with a KEY_ prefix, and WHEEL_UP X Y,
 * WHEEL_DOWN X Y, CLICK X Y (screen cell of the pointer).
 *
 * Ownership: script_load() fills a caller-provided struct; free it with
 * script_free().
 */
#ifndef GPULENS_SCRIPT_H
#define GPULENS_SCRIPT_H

#include <stddef.h>

#include "tui/view.h"

enum script_op {
	SCRIPT_KEY,
	SCRIPT_DUMP,
	SCRIPT_SLEEP,
	SCRIPT_RESIZE,
	SCRIPT_REDRAW,
	SCRIPT_QUIT,
	SCRIPT_ACTION
};

struct script_step {
	int		 op;		/* enum script_op */
	struct tui_key	 key;		/* SCRIPT_KEY */
	char		*path;		/* SCRIPT_DUMP */
	int		 a, b;		/* SLEEP: ms; RESIZE: w, h;
					   ACTION: a is the enum action */
	int		 line;		/* line number in the file */
};

struct script {
	struct script_step	*steps;
	size_t			 n, cap;
};

/* Reads path. Returns 0, or -1 with *cause (caller frees). */
int	 script_load(struct script *, const char *path, char **cause);
/* Parses one line into *st; returns 1 for a step, 0 for nothing (blank or
 * comment), -1 with *cause for an error. */
int	 script_parse_line(const char *line, struct script_step *st,
	    char **cause);
void	 script_free(struct script *);
/* A printable name for key k ("j", "RIGHT", "U+00E9"), into buf. */
const char *script_key_name(int k, char *buf, size_t len);

#endif
