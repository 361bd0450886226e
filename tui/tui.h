/*
 * tui: the interactive terminal front-end.
 *
 * tui_run() takes over the terminal (ncursesw), shows the timeline view of
 * a finished model and returns when the user quits, after max_frames frames,
 * or at the end of a key script in headless mode. The terminal is restored
 * on every path, including exit() from a fatal error elsewhere.
 *
 * Headless mode: when a script is given and stdout is not a terminal, the
 * screen is an ncurses screen on /dev/null of the size in GPULENS_TUI_SIZE
 * (default 80x24), so tests can drive the real drawing code without a tty
 * and read it back with the script's ":dump FILE" step.
 */
#ifndef GPULENS_TUI_H
#define GPULENS_TUI_H

#include "model.h"

struct tui_opts {
	const char	*title;		/* shown top left, or NULL */
	int		 max_frames;	/* stop after this many; 0: none */
	const char	*script;	/* key script file, or NULL */
	int		 ascii;		/* force the ASCII glyph set */
	int		 no_color;	/* attributes only (also $NO_COLOR) */
};

/*
 * Runs the TUI on m (borrowed, read only). Returns 0, or -1 with *cause
 * (caller frees) when the terminal cannot be set up or the script fails.
 */
int	tui_run(const struct model *m, const struct tui_opts *opts,
	    char **cause);

#endif
