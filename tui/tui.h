/*
 * tui: the interactive terminal front-end.
 *
 * tui_run() takes over the terminal (ncursesw), shows the views of its
 * input (input.h), picked by the input's kind (app.h): for a timeline
 * model the timeline, NVTX, kernel and findings views (the timeline
 * first, unless opts->view names another); for an Nsight Compute report
 * the report view. It returns when the user quits, after max_frames
 * frames, or at the end of a key script in headless mode. The terminal
 * is restored on every path: quitting, SIGINT, SIGTERM, exit() from a
 * fatal error elsewhere (atexit), and a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT: the handler writes the terminal's reset sequences and restores
 * the saved terminal modes, then dies of the signal).
 *
 * Headless mode: when a script is given and stdout is not a terminal, the
 * screen is an ncurses screen on /dev/null of the size in GPULENS_TUI_SIZE
 * (default 80x24), so tests can drive the real drawing code without a tty
 * and read it back with the script's ":dump FILE" step.
 *
 * Frame timing: with GPULENS_TIMING set, every loop turn that handled
 * input is timed from the input to the end of the terminal update, and at
 * the end one line per frame goes to stderr:
 *	tui-frame SEQ WHAT SECONDS BYTES
 * WHAT is the key ("RIGHT", "+"), a script's action ("zoom-in"), or
 * "start", ":redraw", ":resize", or ":idle" (a script's ":sleep 0": a
 * loop turn with nothing to draw); BYTES is what ncurses wrote to the
 * terminal for that frame (headless runs only: the output goes to a
 * temporary file to be counted; -1 otherwise).
 * bench/bench_tui.sh reads these lines.
 */
#ifndef GPULENS_TUI_H
#define GPULENS_TUI_H

#include "sources/input.h"

struct jobrank;

struct tui_opts {
	const char	*title;		/* shown top left, or NULL */
	int		 max_frames;	/* stop after this many; 0: none */
	const char	*script;	/* key script file, or NULL */
	int		 ascii;		/* force the ASCII glyph set */
	int		 no_color;	/* attributes only (also $NO_COLOR) */
	const char *const *paths;	/* the traces (bookmarks are kept
					   for them, bmstore.h), or NULL */
	int		 npaths;
	const char	*view;		/* first view ("timeline", "nvtx",
					   "kernels"), NULL: the input's
					   first */
	/* A large job shown from its ranks' summaries (in is then of kind
	 * INPUT_NONE): the job overview (view-job.h), the ranks' traces
	 * loaded with load when opened; note starts the status line. */
	const struct jobrank	*job;
	const struct load_opts	*load;
	const char		*note;
};

/*
 * Runs the TUI on in (borrowed, read only). Returns 0, or -1 with *cause
 * (caller frees) when the terminal cannot be set up or the script fails.
 */
int	tui_run(const struct input *in, const struct tui_opts *opts,
	    char **cause);

#endif
