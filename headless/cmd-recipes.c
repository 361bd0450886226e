/*
 * cmd-recipes: `gpulens recipes [NAME]` prints the workflows of the agent
 * skill file (recipes.h): the list, one recipe, or the whole file.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/recipes.h"
#include "util/xmalloc.h"

#define RECIPES_MAX	64

static cmd_main_t	recipes_run;

const struct cmd_entry cmd_recipes_entry = {
	.name = "recipes",
	.usage = "gpulens recipes [NAME | --skill]",
	.help =
	"Prints the workflows an expert runs on a trace (first look, GPU idle\n"
	"audit, NVTX cost, communication overlap, before/after, straggler\n"
	"hunt, hand-off to Nsight Compute), each an ordered list of verb\n"
	"calls with what to read in each answer. Without NAME, the list;\n"
	"with --skill, the agent skill file that holds them all (installed\n"
	"as share/gpulens/skills/gpulens/SKILL.md).",
	.input = CMD_IN_NONE,
	.main = recipes_run
};

static struct recipe	 recipes_tab[RECIPES_MAX];
static size_t		 recipes_n;
static pthread_once_t	 recipes_once = PTHREAD_ONCE_INIT;

/* Splits recipes_text at its "### NAME: TITLE" headings. */
static void
recipes_parse(void)
{
	const char	*p = recipes_text, *eol, *colon, *end, *next;
	struct recipe	*r;

	while ((p = strstr(p, "\n### ")) != NULL && recipes_n < RECIPES_MAX) {
		p++;
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		colon = memchr(p, ':', (size_t)(eol - p));
		if (colon == NULL) {
			p = eol;
			continue;
		}
		/* The section ends at the next heading of any level. */
		end = eol;
		while ((next = strstr(end, "\n#")) != NULL &&
		    next[2] != '#' && next[2] != ' ')
			end = next + 1;
		if (next == NULL)
			end = p + strlen(p);
		else
			end = next + 1;
		r = &recipes_tab[recipes_n++];
		r->name = xstrndup(p + 4, (size_t)(colon - (p + 4)));
		colon++;
		while (*colon == ' ')
			colon++;
		r->title = xstrndup(colon, (size_t)(eol - colon));
		r->text = xstrndup(p, (size_t)(end - p));
		p = eol;
	}
}

size_t
recipes_list(const struct recipe **out)
{
	pthread_once(&recipes_once, recipes_parse);
	*out = recipes_tab;
	return recipes_n;
}

const struct recipe *
recipes_find(const char *name)
{
	const struct recipe	*r;
	size_t			 i, n = recipes_list(&r);

	for (i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

static const char *const recipes_ph[] = {
	"TRACE", "DIR", "BEFORE", "AFTER", "REPORT", "ID"
};

/* 1 if text[i..i+len) is the word w (not part of a longer word). */
static int
recipes_word_at(const char *text, size_t i, const char *w, size_t len)
{
	char	b = i > 0 ? text[i - 1] : ' ', a;

	if (strncmp(text + i, w, len) != 0)
		return 0;
	a = text[i + len];	/* in the string: it matched len bytes */
	return !((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
	    b == '_' || (a >= 'A' && a <= 'Z') || (a >= 'a' && a <= 'z') ||
	    a == '_' || (a >= '0' && a <= '9'));
}

/* 1 if word occurs in one of text's `commands`. */
static int
recipes_in_command(const char *text, const char *word)
{
	const char	*open, *close;
	size_t		 j, len = strlen(word);

	for (open = strchr(text, '`'); open != NULL;
	    open = strchr(close + 1, '`')) {
		if ((close = strchr(open + 1, '`')) == NULL)
			return 0;
		for (j = (size_t)(open + 1 - text); text + j < close; j++)
			if (recipes_word_at(text, j, word, len))
				return 1;
	}
	return 0;
}

size_t
recipes_placeholders(const char *text, const char *out[RECIPES_MAXPH])
{
	size_t	k, n = 0;

	for (k = 0; k < sizeof recipes_ph / sizeof *recipes_ph; k++)
		if (n < RECIPES_MAXPH && recipes_in_command(text,
		    recipes_ph[k]))
			out[n++] = recipes_ph[k];
	return n;
}

char *
recipes_fill(const char *text, const char **names, const char **values,
    size_t n)
{
	size_t	 i, k, len, cap = strlen(text) + 1, olen = 0, vlen;
	char	*out = xmalloc(cap);

	for (i = 0; text[i] != '\0'; ) {
		for (k = 0; k < n; k++) {
			len = strlen(names[k]);
			if (values[k] != NULL &&
			    recipes_word_at(text, i, names[k], len))
				break;
		}
		if (k < n) {
			vlen = strlen(values[k]);
			if (olen + vlen + 1 > cap) {
				cap = (olen + vlen + 1) * 2;
				out = xrealloc(out, cap);
			}
			memcpy(out + olen, values[k], vlen);
			olen += vlen;
			i += strlen(names[k]);
			continue;
		}
		if (olen + 2 > cap) {
			cap = cap * 2 + 2;
			out = xrealloc(out, cap);
		}
		out[olen++] = text[i++];
	}
	out[olen] = '\0';
	return out;
}

static int
recipes_run(int argc, char **argv, const struct cmd_global *g)
{
	const struct recipe	*r;
	size_t			 i, n;

	if (argc > 2)
		return cmd_usage_error(&cmd_recipes_entry, "one recipe at a "
		    "time");
	if (argc == 2 && strcmp(argv[1], "--skill") == 0) {
		fputs(recipes_text, stdout);
		return 0;
	}
	if (argc == 2 && argv[1][0] == '-')
		return cmd_usage_error(&cmd_recipes_entry, "unknown option: "
		    "%s", argv[1]);
	n = recipes_list(&r);
	if (argc == 1) {
		for (i = 0; i < n; i++)
			printf("%-14s %s\n", r[i].name, r[i].title);
		printf("\n'gpulens recipes NAME' prints one.\n");
		return 0;
	}
	if ((r = recipes_find(argv[1])) == NULL) {
		n = recipes_list(&r);
		fprintf(stderr, "gpulens recipes: no recipe '%s'; there are:",
		    argv[1]);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %s", r[i].name);
		fprintf(stderr, "\n");
		return EXIT_USAGE;
	}
	fputs(r->text, stdout);
	return 0;
}
