/*
 * cmd-complete: `gpulens complete WORD...` prints what may come next on a
 * gpulens command line, for the bash and zsh completion scripts
 * (headless/completion/): WORDs are the words typed after "gpulens", the
 * last one the word being completed (possibly empty). One candidate per
 * line, those that start with that word; a line "@files" asks the shell to
 * offer file names too.
 *
 * Everything comes from the descriptors the verbs run with: the verb
 * table, each verb's options (cmd_each_option, as its --help lists them)
 * and the option lines of its help, the values an option's argument
 * lists ("table|json|csv"), the kinds and axes its help names, and for
 * --sort the fields of the verb's JSON schema. Nothing here can drift
 * from what the parser accepts.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/cols.h"
#include "util/xmalloc.h"

static cmd_main_t	complete_main;
static int	complete_in_usage(const struct cmd_entry *, const char *);

const struct cmd_entry cmd_complete_entry = {
	.name = "complete",
	.usage = "gpulens complete WORD...",
	.help =
	"Prints the completions of the last WORD of a gpulens command line\n"
	"(used by the bash and zsh completion scripts).",
	.input = CMD_IN_NONE,
	.main = complete_main
};

static const char *const complete_globals[] = {
	"--no-cache", "--progress", "--no-progress", "--ascii", "--no-color",
	"--max-frames", "--script", "--max-memory", "--summaries", "--full",
	"--list-keys", "--help", "--version",
	NULL
};

/* Candidates printed so far: each once. */
static char	**complete_seen;
static size_t	  complete_nseen;

static void
complete_put(const char *cand, const char *cur)
{
	size_t	i;

	if (strncmp(cand, cur, strlen(cur)) != 0 || *cand == '\0')
		return;
	for (i = 0; i < complete_nseen; i++)
		if (strcmp(complete_seen[i], cand) == 0)
			return;
	complete_seen = xreallocarray(complete_seen, complete_nseen + 1,
	    sizeof *complete_seen);
	complete_seen[complete_nseen++] = xstrdup(cand);
	printf("%s\n", cand);
}

/* Puts each of the words of list, split at any of seps. */
static void
complete_split(const char *list, const char *seps, const char *cur)
{
	char	*s = xstrdup(list), *w, *save = NULL;

	for (w = strtok_r(s, seps, &save); w != NULL;
	    w = strtok_r(NULL, seps, &save))
		if (strcmp(w, "or") != 0 && strcmp(w, "and") != 0)
			complete_put(w, cur);
	free(s);
}

struct complete_each {
	void	(*fn)(const char *, const char *, const char *, void *);
	void	 *arg;
};

static void
complete_each_option(const char *name, const char *argname, const char *help,
    void *p)
{
	struct complete_each	*ce = p;

	ce->fn(name, argname != NULL ? argname : "", help, ce->arg);
}

/*
 * The options of verb e: every option its descriptor lists (as its --help
 * does), then, for a verb that reads its own words, the option lines of
 * its help ("  --name ARG   help") for the options its usage line names.
 * Calls fn on each with the option, its argument (or "") and its help.
 */
static void
complete_options(const struct cmd_entry *e,
    void (*fn)(const char *, const char *, const char *, void *), void *arg)
{
	struct complete_each	 ce;
	char			*s, *line, *save = NULL, *name, *rest, *help;

	ce.fn = fn;
	ce.arg = arg;
	cmd_each_option(e, complete_each_option, &ce);
	s = xstrdup(e->help);
	for (line = strtok_r(s, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ')
			line++;
		if (strncmp(line, "--", 2) != 0)
			continue;
		name = line;
		rest = name + strcspn(name, " ");
		if (*rest != '\0')
			*rest++ = '\0';
		while (*rest == ' ')
			rest++;
		/* "ARG   help", or "help" alone after two spaces. */
		help = strstr(rest, "  ");
		if (help != NULL) {
			*help = '\0';
			for (help += 2; *help == ' '; help++)
				;
		} else {
			help = rest;
			rest = (char *)"";
		}
		/* The help's option lines count only for the options its
		 * usage line names: other lines may describe another
		 * program's flags. */
		if (complete_in_usage(e, name))
			fn(name, rest, help, arg);
	}
	free(s);
}

struct complete_ctx {
	const char	*cur;
	const char	*want;		/* the option whose value, or NULL */
	const char	*verb;
	int		 found;
	int		 takes;		/* want takes a value */
};

/* 1 if the verb's usage line names option name ("[--tree]"). */
static int
complete_in_usage(const struct cmd_entry *e, const char *name)
{
	const char	*p = e->usage;
	size_t		 len = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		if (p[len] == ' ' || p[len] == ']' || p[len] == '|' ||
		    p[len] == '\0')
			return 1;
		p += len;
	}
	return 0;
}

static void
complete_opt_name(const char *name, const char *argname, const char *help,
    void *arg)
{
	struct complete_ctx	*c = arg;

	(void)argname;
	(void)help;
	complete_put(name, c->cur);
}

/* The fields of verb's rows, from its column description. */
static void
complete_fields(const char *verb, const char *cur)
{
	const struct coldesc	*d = cols_find(verb);
	const struct col	*c;

	if (d == NULL)
		return;
	for (c = d->rows; c->name != NULL; c++)
		complete_put(c->name, cur);
}

static void
complete_opt_value(const char *name, const char *argname, const char *help,
    void *arg)
{
	struct complete_ctx	*c = arg;

	if (c->found || strcmp(name, c->want) != 0)
		return;
	c->found = 1;
	c->takes = *argname != '\0';
	if (!c->takes)
		return;
	if (strcmp(name, "--sort") == 0 || strcmp(name, "--fields") == 0)
		complete_fields(c->verb, c->cur);
	else if (strchr(argname, '|') != NULL && strchr(argname, '[') == NULL)
		complete_split(argname, "|", c->cur);
	else if (strcmp(argname, "KIND") == 0 || strcmp(argname, "AXES") == 0)
		complete_split(help, ", ", c->cur);
	else if (strcmp(argname, "steady") == 0 ||
	    strcmp(argname, "nvtx-path") == 0)
		complete_put(argname, c->cur);
	/* TIME, N, ID, GLOB...: nothing to offer. */
}

static int	complete_run(int, char **);

static int
complete_main(int argc, char **argv, const struct cmd_global *g)
{
	size_t	i;
	int	rc;

	rc = complete_run(argc, argv);
	for (i = 0; i < complete_nseen; i++)
		free(complete_seen[i]);
	free(complete_seen);
	complete_seen = NULL;
	complete_nseen = 0;
	return rc;
}

static int
complete_run(int argc, char **argv)
{
	const struct cmd_entry	*e = NULL;
	struct complete_ctx	 c;
	const char		*cur, *prev;
	int			 i, nwords;
	size_t			 k;

	nwords = argc - 1;
	cur = nwords > 0 ? argv[argc - 1] : "";
	prev = nwords > 1 ? argv[argc - 2] : NULL;
	/* The verb: the first word that is not a global option. */
	for (i = 1; i < argc - 1; i++) {
		if (argv[i][0] == '-') {
			if (strcmp(argv[i], "--max-frames") == 0 ||
			    strcmp(argv[i], "--script") == 0 ||
			    strcmp(argv[i], "--max-memory") == 0)
				i++;
			continue;
		}
		e = cmd_find(argv[i]);
		break;
	}
	if (e == NULL) {
		if (prev != NULL && (strcmp(prev, "--max-frames") == 0 ||
		    strcmp(prev, "--max-memory") == 0))
			return 0;
		if (prev != NULL && strcmp(prev, "--script") == 0) {
			printf("@files\n");
			return 0;
		}
		if (cur[0] == '-') {
			for (k = 0; complete_globals[k] != NULL; k++)
				complete_put(complete_globals[k], cur);
			return 0;
		}
		for (k = 0; cmd_table[k] != NULL; k++)
			if (strcmp(cmd_table[k]->name, "complete") != 0)
				complete_put(cmd_table[k]->name, cur);
		printf("@files\n");	/* a trace opens the terminal UI */
		return 0;
	}
	memset(&c, 0, sizeof c);
	c.cur = cur;
	c.verb = e->name;
	if (prev != NULL && prev[0] == '-' && prev[1] == '-') {
		c.want = prev;
		complete_options(e, complete_opt_value, &c);
		if (c.found && c.takes)
			return 0;
	}
	if (strcmp(e->name, "schema") == 0 && cur[0] != '-') {
		for (k = 0; cmd_table[k] != NULL; k++)
			if (cols_find(cmd_table[k]->name) != NULL)
				complete_put(cmd_table[k]->name, cur);
		return 0;
	}
	if (cur[0] == '-') {
		complete_options(e, complete_opt_name, &c);
		/* Verb options named only in the usage line ([--tree]). */
		complete_split(e->usage, " []|.", cur);
		complete_put("--help", cur);
		return 0;
	}
	printf("@files\n");
	return 0;
}
