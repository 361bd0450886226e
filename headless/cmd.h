/*
 * cmd: the verb table and the options every verb shares.
 *
 * Each verb lives in its own file headless/cmd-VERB.c and exports one
 * `const struct cmd_entry cmd_VERB_entry` descriptor: name, usage, one-line
 * help and exec callback (tmux's cmd_entry). main.c dispatches through
 * cmd_table; `gpulens VERB --help` prints the descriptor's usage and help.
 *
 * Exit codes: 0 success, 1 internal failure, 2 bad input or usage.
 */
#ifndef GPULENS_CMD_H
#define GPULENS_CMD_H

#include "model/model.h"

#define EXIT_USAGE	2
#define EXIT_INTERNAL	1

struct cmd_global {
	int		 no_cache;	/* --no-cache */
	int		 progress;	/* -1 auto, 0 --no-progress, 1 --progress */
	/* Terminal UI options. */
	int		 max_frames;	/* --max-frames N (0: unlimited) */
	int		 ascii;		/* --ascii */
	int		 no_color;	/* --no-color */
	const char	*script;	/* --script FILE (or GPULENS_TUI_SCRIPT) */
	/*
	 * Opens the terminal UI on a loaded model and returns the exit status
	 * (0, or EXIT_INTERNAL with a message on stderr). The entry point
	 * sets it: the verbs (demo opens its trace) do not link the TUI.
	 */
	int		(*tui)(const struct model *, const char *title,
			    const struct cmd_global *);
};

struct cmd_entry {
	const char	*name;
	const char	*usage;		/* "gpulens info [OPTIONS] TRACE" */
	const char	*help;		/* one paragraph, shown by --help */
	int		(*exec)(int argc, char **argv,
			    const struct cmd_global *);
	unsigned	 options;	/* OPT_* groups it accepts (opts.h) */
};

extern const struct cmd_entry	*cmd_table[];

const struct cmd_entry	*cmd_find(const char *name);
/* Prints usage + help of a verb to stdout. */
void			 cmd_print_help(const struct cmd_entry *);
/* Prints "gpulens VERB: message" to stderr and returns EXIT_USAGE. */
int			 cmd_usage_error(const struct cmd_entry *,
			    const char *fmt, ...)
			    __attribute__((format(printf, 2, 3)));
/*
 * Loads a trace with the global options (cache, progress, timing). Returns
 * NULL and prints "gpulens: CAUSE" to stderr on failure.
 */
struct model		*cmd_load(const char *path, const struct cmd_global *);
struct out;
struct opts;
/*
 * The computing half of a verb: reads the model and the parsed options
 * (o->args[0] is the trace path) and fills out; returns 0, or -1 with *cause
 * (caller frees) and *code ("usage", "not_found", "bad_input"; "usage" if
 * left NULL). code may be NULL when the caller does not need it.
 */
typedef int (*cmd_run_fn)(const struct model *, const struct opts *,
			    struct out *, const char **code, char **cause);
/*
 * The whole of a verb that reads one trace: parses the options the entry
 * accepts, checks that there are between minargs and maxargs positional
 * arguments (the trace first; maxargs -1: no limit), loads the trace, runs
 * run and prints the result (or the error) with out_emit/out_error.
 * Returns the exit status.
 */
int			 cmd_verb_main(const struct cmd_entry *, int argc,
			    char **argv, const struct cmd_global *, int minargs,
			    int maxargs, cmd_run_fn run);
/* As cmd_load, but reports a failure through out_error (JSON envelope
 * with --json). */
struct model		*cmd_load_out(const char *path, const struct cmd_global *,
			    struct out *);
/* As cmd_load_out for n paths (n > 1: one trace per rank, merged as
 * multi.h does; a directory path: its traces, likewise). */
struct model		*cmd_load_traces_out(char *const *paths, int n,
			    const struct cmd_global *, struct out *);
/* Parses "1e6", "250000", "2M" style counts; -1 on error. */
long long		 cmd_parse_count(const char *);
/* True if arg is -h or --help. */
int			 cmd_is_help(const char *);

#endif
