/*
 * main: gpulens's entry point.
 *
 *   gpulens [GLOBAL OPTIONS] TRACE          open the TUI on a trace
 *   gpulens [GLOBAL OPTIONS] VERB [ARGS]     run one headless verb
 *
 * Global options may appear anywhere before "--": --no-cache, --progress,
 * --no-progress. Everything else belongs to the verb.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "model.h"
#include "tui.h"

static void
usage(FILE *f)
{
	size_t	i;

	fprintf(f,
	    "usage: gpulens [--no-cache] [--progress|--no-progress] TRACE\n"
	    "       gpulens [--no-cache] VERB [OPTIONS] [ARGS]\n"
	    "\n"
	    "Opens TRACE (an Nsight Systems SQLite export, or a .nsys-rep when\n"
	    "nsys is installed) in the terminal UI, or runs one verb:\n\n");
	for (i = 0; cmd_table[i] != NULL; i++)
		fprintf(f, "  %-8s %s\n", cmd_table[i]->name,
		    cmd_table[i]->usage);
	fprintf(f, "\n'gpulens VERB --help' describes a verb; 'man gpulens' "
	    "describes everything.\n");
}

static int
open_tui(const char *path, const struct cmd_global *g)
{
	struct model	*m;
	struct tui_opts	 o;
	char		*cause = NULL;
	int		 rc;

	if ((m = cmd_load(path, g)) == NULL)
		return EXIT_USAGE;
	memset(&o, 0, sizeof o);
	o.title = path;
	o.script = getenv("GPULENS_TUI_SCRIPT");
	rc = tui_run(m, &o, &cause);
	model_free(m);
	if (rc != 0) {
		fprintf(stderr, "gpulens: %s\n", cause != NULL ? cause :
		    "terminal UI failed");
		free(cause);
		return EXIT_INTERNAL;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct cmd_global	 g;
	const struct cmd_entry	*e;
	char			**av;
	int			 ac = 0, i, dashdash = 0;

	memset(&g, 0, sizeof g);
	g.progress = -1;
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
		else
			av[ac++] = argv[i];
	}
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
	if (strcmp(av[0], "--version") == 0 || strcmp(av[0], "-V") == 0) {
		printf("gpulens %s\n", PACKAGE_VERSION);
		free(av);
		return 0;
	}
	if ((e = cmd_find(av[0])) != NULL) {
		if (ac > 1 && cmd_is_help(av[1])) {
			cmd_print_help(e);
			free(av);
			return 0;
		}
		i = e->exec(ac, av, &g);
		free(av);
		return i;
	}
	if (av[0][0] == '-') {
		fprintf(stderr, "gpulens: unknown option: %s\n", av[0]);
		usage(stderr);
		free(av);
		return EXIT_USAGE;
	}
	if (ac > 1) {
		fprintf(stderr, "gpulens: unknown verb '%s' (or more than one "
		    "trace given to the terminal UI)\n", av[0]);
		free(av);
		return EXIT_USAGE;
	}
	if (access(av[0], F_OK) != 0) {
		fprintf(stderr, "gpulens: '%s' is neither a verb nor a file\n",
		    av[0]);
		free(av);
		return EXIT_USAGE;
	}
	i = open_tui(av[0], &g);
	free(av);
	return i;
}
