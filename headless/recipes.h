/*
 * recipes: the workflows an expert runs, as ordered lists of verb calls
 * with what to read in each answer. One text, headless/recipes/SKILL.md,
 * is compiled in (recipes-gen.sh), printed by `gpulens recipes`, served as
 * MCP prompts by `gpulens mcp` and installed as an agent skill file
 * (share/gpulens/skills/gpulens/SKILL.md).
 *
 * A recipe is a "### NAME: TITLE" section of that file; its text runs to
 * the next heading. Placeholders in upper case (TRACE, DIR, BEFORE, AFTER,
 * REPORT, ID, NAME) stand for what the user supplies.
 */
#ifndef GPULENS_RECIPES_H
#define GPULENS_RECIPES_H

#include <stddef.h>

extern const char	recipes_text[];	/* the whole skill file */

struct recipe {
	const char	*name;		/* borrowed, NUL-terminated copies */
	const char	*title;
	const char	*text;		/* the section, heading included */
};

/* The recipes in file order (a static table made on first use). */
size_t			 recipes_list(const struct recipe **);
/* The recipe called name, or NULL. */
const struct recipe	*recipes_find(const char *name);
#define RECIPES_MAXPH	8
/* The placeholders text uses, of TRACE, DIR, BEFORE, AFTER, REPORT and
 * ID, into out (static strings); returns how many. */
size_t			 recipes_placeholders(const char *text,
			    const char *out[RECIPES_MAXPH]);
/* text with each placeholder whose name is in names[i] replaced by
 * values[i] (whole words only). Returns a string the caller frees. */
char			*recipes_fill(const char *text, const char **names,
			    const char **values, size_t n);

#endif
