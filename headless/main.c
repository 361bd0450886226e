/*
 * main: gpulens's entry point.
 *
 *   gpulens [GLOBAL OPTIONS] TRACE...       open the TUI on a trace, or
 *                                           on several as one job
 *   gpulens [GLOBAL OPTIONS] VERB [ARGS]     run one headless verb
 *
 * Verb or trace: a first argument that names a verb is the verb, even
 * when a file or directory of that name exists (a script's verbs must not
 * change meaning with the current directory); write ./ranks to open a
 * path called ranks. Anything else must be an existing file or directory,
 * and so must every further argument: they open together, as one job
 * (the ranks of a distributed run), loaded as the verbs load theirs
 * (cmd_load_inputs).
 *
 * Global options may appear anywhere before "--": --no-cache, --progress,
 * --no-progress. Everything else belongs to the verb.
 *
 * The only file that sees both front-ends: it links the verbs (headless/)
 * and the terminal UI (tui/), and hands the TUI to the verbs that open it
 * through cmd_global.tui. A verb runs through the one driver, cmd_run();
 * a TRACE alone is detected and loaded as a typed input (input.h: a
 * timeline model, or an Nsight Compute report) that the TUI shows.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "headless/cmd.h"
#include "headless/cmd-analyses.h"
#include "headless/out.h"
#include "model/cachedir.h"
#include "sources/input.h"
#include "sources/jobload.h"
#include "sources/multi.h"
#include "tui/figure.h"
#include "tui/keymap.h"
#include "tui/tui.h"
#include "util/sanitize.h"
#include "util/xmalloc.h"

static void
usage(FILE *f)
{
	size_t	i;

	fprintf(f,
	    "usage: gpulens [--no-cache] [--progress|--no-progress] [--ascii]\n"
	    "               [--no-color] [--max-frames N] [--script FILE]\n"
	    "               [--max-memory SIZE] [--summaries|--full] TRACE...\n"
	    "       gpulens [--no-cache] VERB [OPTIONS] [ARGS]\n"
	    "       gpulens --list-keys\n"
	    "\n"
	    "Opens TRACE in the terminal UI, or runs one verb. TRACE is an\n"
	    "Nsight Systems export (.sqlite, or .nsys-rep with nsys installed),\n"
	    "a PyTorch profiler trace (or a directory of rank traces), a\n"
	    "rocprofv3 or rocmProfileData file, or an Nsight Compute report;\n"
	    "several traces open as one job, and of two reports the second\n"
	    "opens compared with the first, its baseline; a job of more than\n"
	    "64 traces (or --summaries) opens as a job overview of its ranks.\n"
	    "A verb's name is\n"
	    "the verb: write ./NAME to open a trace called like a verb.\n\n");
	for (i = 0; cmd_table[i] != NULL; i++)
		fprintf(f, "  %-8s %s\n", cmd_table[i]->name,
		    cmd_table[i]->usage);
	fprintf(f, "\n'gpulens --list-keys' lists the terminal UI's keys (view, "
	    "key, action, help).\n'gpulens VERB --help' describes a verb; "
	    "'man gpulens' describes everything.\n");
}

/* The traces open_tui() opens: the TUI keeps their bookmarks. */
static char	**main_paths;
static int	  main_npaths;
/* A job from its summaries: --summaries 1, --full 0, -1 by its size. */
static int	  main_summaries = -1;
/* The job overview's job, its load options and first note, or NULL. */
static const struct jobrank	*main_job;
static const struct load_opts	*main_load;
static const char		*main_note;

static int
main_tui(const struct input *in, const char *title,
    const struct cmd_global *g)
{
	struct tui_opts	 o;
	char		*cause = NULL;

	memset(&o, 0, sizeof o);
	o.title = title;
	o.paths = (const char *const *)main_paths;
	o.npaths = main_npaths;
	o.max_frames = g->max_frames;
	o.ascii = g->ascii;
	o.no_color = g->no_color;
	o.script = g->script != NULL ? g->script : getenv("GPULENS_TUI_SCRIPT");
	o.job = main_job;
	o.load = main_load;
	o.note = main_note;
	if (tui_run(in, &o, &cause) != 0) {
		sanitize_msg(stderr, "gpulens: %s", cause != NULL ? cause :
		    "terminal UI failed");
		free(cause);
		return EXIT_INTERNAL;
	}
	return 0;
}

/*
 * A job of more than JOBSUM_THRESHOLD traces (or --summaries): its ranks
 * compared from their summaries (as `ranks` does; missing ones are made,
 * with a status line) and the TUI's job overview opened on them, no model
 * merged. Returns the exit status, or -1 to open the job merged (a small
 * one, --full, or a file holding several ranks).
 */
static int
open_job(char **paths, int n, const struct cmd_global *g)
{
	struct jobrank		 jr;
	struct jobsum		 js;
	struct load_opts	 lo;
	struct input		 in;
	char			**files = NULL, *cause = NULL, *title, *note;
	int			 nf, rc, show, tty;

	if (main_summaries == 0 || input_detect(paths[0]) != INPUT_TIMELINE)
		return -1;
	if ((nf = multi_expand(paths, n, &files, &cause)) < 0) {
		free(cause);
		return -1;	/* the merge says why */
	}
	if (!jobsum_wanted(nf, main_summaries == 1)) {
		jobsum_files_free(files, nf);
		return -1;
	}
	cmd_load_opts(g, &lo);
	tty = isatty(STDERR_FILENO);
	show = g->progress == 1 || (g->progress == -1 && tty);
	if (show)
		fprintf(stderr, "gpulens: reading the summaries of %d rank "
		    "traces (missing ones are made; 'gpulens prep' makes them "
		    "ahead)...%s", nf, tty ? "\r" : "\n");
	rc = jobload_ranks(files, (size_t)nf, &lo, &jr, &js, &cause);
	if (show && tty)
		fputs("\033[K", stderr);
	if (rc > 0) {
		free(cause);
		return -1;
	}
	if (rc < 0) {
		sanitize_msg(stderr, "gpulens: %s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	title = n > 1 ? xasprintf("%s +%d more", paths[0], n - 1) :
	    xstrdup(paths[0]);
	note = xasprintf("%zu ranks from their summaries (%zu made now)%s%s",
	    jr.nr, js.built, js.dup != NULL ? "; ranks stated twice: " : "",
	    js.dup != NULL ? js.dup : "");
	memset(&in, 0, sizeof in);
	in.path = paths[0];
	main_job = &jr;
	main_load = &lo;
	main_note = note;
	rc = main_tui(&in, title, g);
	main_job = NULL;
	main_load = NULL;
	main_note = NULL;
	free(note);
	free(title);
	jobrank_free(&jr);
	jobsum_free(&js);
	return rc;
}

/*
 * Detects what paths[0, n) hold, loads them as the verbs do (several
 * traces merge into one job; a large one opens as a job overview) and
 * opens the terminal UI on them.
 */
static int
open_tui(char **paths, int n, const struct cmd_global *g)
{
	struct input	in;
	char		*title;
	int		rc;

	main_paths = paths;
	main_npaths = n;
	rc = open_job(paths, n, g);
	main_paths = NULL;
	main_npaths = 0;
	if (rc >= 0)
		return rc;
	if (cmd_load_inputs(paths, n, INPUT_NONE, g, &in) != 0)
		return EXIT_USAGE;
	if (in.kind == INPUT_REPORT)
		title = xstrdup(in.path);	/* the baseline is named apart */
	else if (n > 1)
		title = xasprintf("%s +%d more", paths[0], n - 1);
	else
		title = xstrdup(paths[0]);
	main_paths = paths;
	main_npaths = n;
	rc = main_tui(&in, title, g);
	main_paths = NULL;
	main_npaths = 0;
	free(title);
	input_free(&in);
	return rc;
}

/*
 * The TUI's traces: av[0, ac) when each is an existing file or directory
 * (the caller has seen that av[0] names no verb). Returns 0, or prints why
 * not and returns EXIT_USAGE.
 */
static int
main_traces(int ac, char **av)
{
	int	i;

	for (i = 0; i < ac; i++) {
		if (av[i][0] == '-' && i > 0) {
			sanitize_msg(stderr, "gpulens: unknown option: %s "
			    "(the terminal UI takes traces only)", av[i]);
			return EXIT_USAGE;
		}
		if (access(av[i], F_OK) != 0) {
			sanitize_msg(stderr, i == 0 ? "gpulens: '%s' is "
			    "neither a verb nor a file" : "gpulens: '%s': no "
			    "such file or directory", av[i]);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * The terminal UI's job options (not global: `ranks` has its own):
 * --summaries opens a job of any size as the job overview, --full merges
 * one of any size. Removes them from av[0, ac); returns the new ac.
 */
static int
main_job_opts(int ac, char **av)
{
	int	i, n = 0;

	for (i = 0; i < ac; i++) {
		if (strcmp(av[i], "--") == 0) {
			while (i < ac)
				av[n++] = av[i++];
			break;
		}
		if (strcmp(av[i], "--summaries") == 0)
			main_summaries = 1;
		else if (strcmp(av[i], "--full") == 0)
			main_summaries = 0;
		else
			av[n++] = av[i];
	}
	av[n] = NULL;
	return n;
}

/* --list-keys: the TUI's default key bindings, one per line. */
static int
main_list_keys(char **av)
{
	struct keymap	*km;
	char		*cause = NULL;

	free(av);
	if ((km = keymap_default(&cause)) == NULL) {
		sanitize_msg(stderr, "gpulens: %s", cause);
		free(cause);
		return EXIT_INTERNAL;
	}
	keymap_list(km, stdout);
	keymap_free(km);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_INTERNAL;
}

/* 1 if --json (or --format json) is on the line, before any "--". */
static int
main_wants_json(int ac, char **av)
{
	int	i;

	for (i = 0; i < ac && strcmp(av[i], "--") != 0; i++)
		if (strcmp(av[i], "--json") == 0 || (strcmp(av[i],
		    "--format") == 0 && i + 1 < ac && strcmp(av[i + 1],
		    "json") == 0))
			return 1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct cmd_global	 g;
	struct out		 o;
	const struct cmd_entry	*e;
	char			**av;
	const char		*env;
	unsigned long long	 maxmem = 0;
	int			 ac = 0, i, dashdash = 0;

	memset(&g, 0, sizeof g);
	g.progress = -1;
	g.tui = main_tui;
	g.figure = figure_write;
	av = calloc((size_t)argc + 1, sizeof *av);
	if (av == NULL)
		return EXIT_INTERNAL;
	for (i = 1; i < argc; i++) {
		if (!dashdash && strcmp(argv[i], "--") == 0) {
			dashdash = 1;
			av[ac++] = argv[i];
		} else if (!dashdash && strcmp(argv[i], "--no-cache") == 0)
			g.no_cache = 1;
		else if (!dashdash && strcmp(argv[i], "--progress") == 0)
			g.progress = 1;
		else if (!dashdash && strcmp(argv[i], "--no-progress") == 0)
			g.progress = 0;
		else if (!dashdash && strcmp(argv[i], "--max-memory") == 0) {
			if (i + 1 >= argc ||
			    (maxmem = xmalloc_parse_size(argv[i + 1])) == 0) {
				sanitize_msg(stderr, "gpulens: --max-memory "
				    "needs a size (512M, 2G)");
				free(av);
				return EXIT_USAGE;
			}
			i++;
		} else if (!dashdash && strcmp(argv[i], "--ascii") == 0)
			g.ascii = 1;
		else if (!dashdash && strcmp(argv[i], "--no-color") == 0)
			g.no_color = 1;
		else if (!dashdash && (strcmp(argv[i], "--max-frames") == 0 ||
		    strcmp(argv[i], "--script") == 0)) {
			if (i + 1 >= argc) {
				sanitize_msg(stderr, "gpulens: %s needs a "
				    "value", argv[i]);
				free(av);
				return EXIT_USAGE;
			}
			if (argv[i][2] == 'm') {
				char *end;
				long v = strtol(argv[i + 1], &end, 10);
				if (*end != '\0' || v < 0 || v > 1000000000) {
					sanitize_msg(stderr, "gpulens: bad "
					    "--max-frames: %s", argv[i + 1]);
					free(av);
					return EXIT_USAGE;
				}
				g.max_frames = (int)v;
			} else
				g.script = argv[i + 1];
			i++;
		}
		else
			av[ac++] = argv[i];
	}
	if (maxmem == 0 && (env = getenv("GPULENS_MAX_MEMORY")) != NULL &&
	    *env != '\0' && (maxmem = xmalloc_parse_size(env)) == 0) {
		sanitize_msg(stderr, "gpulens: bad GPULENS_MAX_MEMORY: %s",
		    env);
		free(av);
		return EXIT_USAGE;
	}
	if (maxmem != 0 && xmalloc_set_limit(maxmem) != 0) {
		sanitize_msg(stderr, "gpulens: cannot set the memory limit "
		    "(not available in sanitizer builds)");
		free(av);
		return EXIT_INTERNAL;
	}
	if (g.no_cache)
		cachedir_set_mode(CACHEDIR_OFF);
	if (ac == 0) {
		usage(stderr);
		free(av);
		return EXIT_USAGE;
	}
	if (cmd_is_help(av[0])) {
		usage(stdout);
		free(av);
		return 0;
	}
	if (strcmp(av[0], "--list-keys") == 0 && ac == 1)
		return main_list_keys(av);
	if (strcmp(av[0], "--version") == 0 || strcmp(av[0], "-V") == 0) {
		printf("gpulens %s\n", PACKAGE_VERSION);
		free(av);
		return 0;
	}
	ac = cmd_metrics_alias(ac, av);	/* metrics --type cpu-sched ... */
	if ((e = cmd_find(av[0])) != NULL) {
		if (ac > 1 && cmd_is_help(av[1])) {
			cmd_print_help(e);
			free(av);
			return 0;
		}
		i = cmd_run(e, ac, av, &g);
		free(av);
		return i;
	}
	if (main_wants_json(ac, av) && access(av[0], F_OK) != 0) {
		/* A script that asked for JSON gets an error envelope. */
		memset(&o, 0, sizeof o);
		out_init(&o, av[0][0] == '-' ? "gpulens" : av[0]);
		o.format = OUT_JSON;
		i = out_error(&o, NULL, NULL, "usage", av[0][0] == '-' ?
		    "unknown option: %s" : "unknown verb '%s'", av[0]);
		out_free(&o);
		free(av);
		return i;
	}
	ac = main_job_opts(ac, av);
	if (ac == 0) {
		usage(stderr);
		free(av);
		return EXIT_USAGE;
	}
	if (av[0][0] == '-') {
		sanitize_msg(stderr, "gpulens: unknown option: %s", av[0]);
		usage(stderr);
		free(av);
		return EXIT_USAGE;
	}
	if ((i = main_traces(ac, av)) != 0) {
		free(av);
		return i;
	}
	i = open_tui(av, ac, &g);
	free(av);
	return i;
}
