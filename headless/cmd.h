/*
 * cmd: the verb descriptor, the verb table and the one driver.
 *
 * Each verb lives in its own file headless/cmd-VERB.c and exports one
 * `const struct cmd_entry cmd_VERB_entry` descriptor, in the manner of
 * tmux's cmd_entry: name, usage, help, the number of positional arguments
 * it takes, the kind of input it reads, the options it accepts and its run
 * function. cmd_run() is the one driver: it parses the options the entry
 * names, checks the argument count, loads the input of the entry's kind,
 * calls run with the typed input and prints the answer or the error. The
 * same descriptor prints `gpulens VERB --help` (cmd_print_help), so the
 * help lists exactly the options the parser takes.
 *
 * Exit codes: 0 success, 1 internal failure, 2 bad input or usage.
 */
#ifndef GPULENS_CMD_H
#define GPULENS_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "model/model.h"
#include "sources/input.h"

#define EXIT_USAGE	2
#define EXIT_INTERNAL	1

struct figreq;
struct out;
struct opts;
struct report;
struct vopt;

struct cmd_global {
	int		 no_cache;	/* --no-cache */
	int		 progress;	/* -1 auto, 0 --no-progress, 1 --progress */
	/* Terminal UI options. */
	int		 max_frames;	/* --max-frames N (0: unlimited) */
	int		 ascii;		/* --ascii */
	int		 no_color;	/* --no-color */
	const char	*script;	/* --script FILE (or GPULENS_TUI_SCRIPT) */
	/*
	 * Opens the terminal UI on a loaded input and returns the exit status
	 * (0, or EXIT_INTERNAL with a message on stderr). The entry point
	 * sets it: the verbs (demo opens its trace) do not link the TUI.
	 */
	int		(*tui)(const struct input *, const char *title,
			    const struct cmd_global *);
	/*
	 * Draws a window of a model as SVG or HTML (export --to svg|html)
	 * with the timeline view's rows and colours; set by the entry like
	 * tui. Returns 0, or -1 with *cause.
	 */
	int		(*figure)(const struct model *, struct figreq *, FILE *,
			    char **cause);
};

/* What a verb reads; the driver loads it before calling run. */
enum cmd_input {
	CMD_IN_NONE,		/* nothing: the entry's main reads its words
				   and prints */
	CMD_IN_TRACE,		/* one trace, the first argument; the others
				   are the verb's (row ids, ...) */
	CMD_IN_TRACES,		/* every argument a trace (or a directory of
				   them), merged into one model */
	CMD_IN_PAIR,		/* two traces, A (the baseline) and B */
	CMD_IN_REPORT,		/* an Nsight Compute report, the first
				   argument; the others are the verb's */
};

/* How an entry of cmd_entry.vopts takes its option. */
enum cmd_opt_how {
	CMD_OPT_OWN,		/* the verb's own option: to ctx->v */
	CMD_OPT_AS,		/* a shared option (opts.h) the verb takes
				   with this argument and help */
	CMD_OPT_REFUSE,		/* a shared option of the verb's groups it
				   does not take: help is the error */
};

struct cmd_option {
	const char	*name;		/* "--max-phases" */
	const char	*arg;		/* "N", or NULL for a flag */
	const char	*help;
	enum cmd_opt_how how;
	/* Vets a value (NULL when it is missing) before the input is
	 * loaded: 0, or -1 with *cause. NULL: any value, "needs a value"
	 * when missing. */
	int		(*check)(const char *name, const char *value,
			    char **cause);
};

/* Positional arguments (the input's paths included); a CMD_IN_NONE verb
 * reads its own words (cmd_entry.main), and the driver checks nothing for
 * it. */
struct cmd_args {
	int		 min;
	int		 max;		/* -1: no limit */
	const char	*missing;	/* message for fewer than min, NULL:
					   "missing arguments" */
};

/* What run sees. */
struct cmd_ctx {
	const struct cmd_entry	*entry;
	const struct cmd_global	*g;
	const struct opts	*o;	/* shared options; o->args[0, o->nargs)
					   are the positional arguments */
	const struct vopt	*v;	/* the verb's own options as given, in
					   order (vopt_get takes the last) */
	size_t			 nv;
	const struct input	*in;	/* the input; A of a pair */
	const struct input	*in2;	/* B of a pair, else NULL */
};

/*
 * A verb's run function: it fills out and returns CMD_EMIT (the driver
 * prints out), CMD_PRINTED (run printed the answer itself), CMD_EMIT_FAIL
 * (print out, then exit 1: a gate broke), or -1 with *cause (caller frees)
 * and *code ("usage", "not_found", "bad_input", "internal"; "usage" if
 * left NULL). The function type declares them ("static cmd_run_t
 * info_run;"), the pointer type holds them.
 */
typedef int cmd_run_t(const struct cmd_ctx *, struct out *,
		    const char **code, char **cause);
typedef cmd_run_t *cmd_run_fn;
/*
 * The main function of a verb that reads no input (CMD_IN_NONE): its
 * words argv[0, argc) (argv[0] its name) and the global options; it prints
 * and returns the exit status.
 */
typedef int cmd_main_t(int argc, char **argv, const struct cmd_global *);
typedef cmd_main_t *cmd_main_fn;
/*
 * The answer of a verb from one model and the shared options, as the
 * verbs' compute functions take them (cmd_entry.model): 0, or -1 with
 * *code and *cause. The function type declares them
 * ("cmd_model_t cmd_gaps_compute;"), the pointer type holds them.
 */
typedef int cmd_model_t(const struct model *, const struct opts *,
		    struct out *, const char **code, char **cause);
typedef cmd_model_t *cmd_model_fn;
/*
 * The same from an Nsight Compute report, for a CMD_IN_REPORT verb that
 * needs nothing else (cmd_entry.rmodel).
 */
typedef int cmd_rmodel_t(const struct report *, const struct opts *,
		    struct out *, const char **code, char **cause);
typedef cmd_rmodel_t *cmd_rmodel_fn;
/*
 * What a verb with a model function adds to its answer once the function
 * has given it (cmd_entry.finish), such as a next step that depends on the
 * rows or the model. The driver calls it before adding the hints.
 */
typedef void cmd_finish_t(const struct model *, const struct opts *,
		    struct out *);
typedef cmd_finish_t *cmd_finish_fn;

/*
 * A next step the answer suggests (meta.next), with the first argument
 * quoted in place of its %s: the driver adds it after cmd_entry.model.
 */
struct cmd_hint {
	const char	*fmt;		/* NULL ends the list */
	int		 if_rows;	/* only when the answer has rows */
};
#define CMD_HINTS_MAX	2
#define CMD_EMIT	0
#define CMD_PRINTED	1
#define CMD_EMIT_FAIL	2
#define CMD_LOAD	3	/* cmd_entry.job: load the input, then run */

/*
 * The report form of a verb that takes an Nsight Compute report in place
 * of its trace (info, summary, inspect): when the first argument is a
 * report, the driver runs this form as a CMD_IN_REPORT verb.
 */
struct cmd_form {
	const char	*command;	/* the envelope's command */
	struct cmd_args	 args;
	cmd_run_fn	 run;
};

/* The report form of graphs (cmd-ncu-graphs.c). */
extern const struct cmd_form	ncu_graphs_form;

/* cmd_entry.flags */
#define CMD_SUMMARY	0x1	/* a trace's cached summary model will do */
#define CMD_ALL_ROWS	0x2	/* cmd_entry.model: every row unless --limit
				   (the answer is short) */
#define CMD_ANSWER	0x4	/* a read-only analysis of its traces alone:
				   its answers may be stored (answers.h) */

/*
 * The rows of a verb's own options (cmd_entry.vopts) that refuse --nvtx
 * and --iter: for verbs that read a whole window (phases, findings).
 */
#define CMD_REFUSE_NVTX_ITER						\
	{ "--nvtx", NULL, "--nvtx is not supported here; use --from and --to", \
	    CMD_OPT_REFUSE, NULL },					\
	{ "--iter", NULL, "--iter is not supported here; use --from and --to", \
	    CMD_OPT_REFUSE, NULL }

struct cmd_entry {
	const char		*name;
	const char		*usage;	/* "gpulens info [OPTIONS] TRACE" */
	const char		*help;	/* one paragraph, shown by --help */
	struct cmd_args		 args;
	enum cmd_input		 input;
	unsigned		 options;	/* OPT_* groups (opts.h) */
	const struct cmd_option	*vopts;	/* ended by a NULL name, or NULL */
	int			 flags;
	cmd_run_fn		 run;	/* or NULL: model, finish, hints;
					   or rmodel */
	cmd_model_fn		 model;
	cmd_rmodel_fn		 rmodel;
	cmd_finish_fn		 finish;	/* after model, or NULL */
	cmd_main_fn		 main;	/* CMD_IN_NONE: the verb, whole */
	struct cmd_hint		 hints[CMD_HINTS_MAX];
	const struct cmd_form	*report;	/* or NULL */
	/*
	 * A CMD_IN_TRACES verb that can answer a large job without merging
	 * its models (from rank summaries): called before the input is
	 * loaded, with ctx->in NULL; returns as run does, or CMD_LOAD to
	 * have the input loaded and run called. NULL: always load.
	 */
	cmd_run_fn		 job;
};

extern const struct cmd_entry	*cmd_table[];

const struct cmd_entry	*cmd_find(const char *name);
/*
 * `metrics --type TYPE ARGS` on a timeline trace is another verb (VeloQ's
 * spelling): cpu-sampling is samples, cpu-sched threads, gpu, nic and host
 * counters (which keeps --type). Rewrites av (ac words, av[0] the verb) in
 * place and returns its new length (cmd-metrics.c).
 */
int			 cmd_metrics_alias(int ac, char **av);
/*
 * Runs verb e on argv[0, argc) (argv[0] is the verb's name): the one
 * driver. Returns the exit status.
 */
int			 cmd_run(const struct cmd_entry *e, int argc,
			    char **argv, const struct cmd_global *);
/* Prints usage, help and the options of a verb to stdout. */
void			 cmd_print_help(const struct cmd_entry *);
/*
 * Calls fn on each option verb e takes, as its --help lists them: the
 * shared options of its groups (as the entry re-describes them, without
 * those it refuses), then its own.
 */
void			 cmd_each_option(const struct cmd_entry *e,
			    void (*fn)(const char *name, const char *arg,
			    const char *help, void *), void *);
/* Prints "gpulens VERB: message" to stderr and returns EXIT_USAGE. */
int			 cmd_usage_error(const struct cmd_entry *,
			    const char *fmt, ...)
			    __attribute__((format(printf, 2, 3)));
/* The load options the global ones ask for (cache, progress). */
void			 cmd_load_opts(const struct cmd_global *,
			    struct load_opts *);
/*
 * Loads path into in as an input of that kind (INPUT_NONE: as detected)
 * with the global options. Returns 0, or -1 after printing
 * "gpulens: CAUSE" to stderr.
 */
int			 cmd_load_input(char *path, enum input_kind,
			    const struct cmd_global *, struct input *);
/* As cmd_load_input for paths[0, n): several traces merge into one job
 * (input_load). */
int			 cmd_load_inputs(char *const *paths, int n,
			    enum input_kind, const struct cmd_global *,
			    struct input *);
/* Parses "1e6", "250000", "2M" style counts; -1 on error. */
long long		 cmd_parse_count(const char *);
/* True if arg is -h or --help. */
int			 cmd_is_help(const char *);

#endif
