/*
 * cmd-prep: `gpulens prep` builds the cache of traces ahead of time;
 * `gpulens clean` removes it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cmd.h"
#include "model.h"
#include "source.h"

static int	cmd_prep_exec(int, char **, const struct cmd_global *);
static int	cmd_clean_exec(int, char **, const struct cmd_global *);

const struct cmd_entry cmd_prep_entry = {
	"prep",
	"gpulens prep TRACE...",
	"Loads each TRACE and writes its cache, so that the next open is fast.\n"
	"A valid cache is reused; use 'gpulens clean' first to rebuild it.",
	cmd_prep_exec,
	0
};

const struct cmd_entry cmd_clean_entry = {
	"clean",
	"gpulens clean TRACE...",
	"Removes the cache of each TRACE (next to it and under\n"
	"$XDG_CACHE_HOME/gpulens). The trace itself is never touched.",
	cmd_clean_exec,
	0
};

static int
cmd_prep_exec(int argc, char **argv, const struct cmd_global *g)
{
	struct cmd_global	 pg = *g;
	struct model		*m;
	int			 i, rc = 0;

	if (argc < 2)
		return cmd_usage_error(&cmd_prep_entry, "no trace given");
	pg.no_cache = 0;
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0)
			return cmd_usage_error(&cmd_prep_entry,
			    "unknown option: %s", argv[i]);
	}
	for (i = 1; i < argc; i++) {
		if ((m = cmd_load(argv[i], &pg)) == NULL) {
			rc = EXIT_USAGE;
			continue;
		}
		model_free(m);
	}
	return rc;
}

static int
cmd_clean_exec(int argc, char **argv, const struct cmd_global *g)
{
	int	i, n;

	(void)g;
	if (argc < 2)
		return cmd_usage_error(&cmd_clean_entry, "no trace given");
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			return cmd_usage_error(&cmd_clean_entry,
			    "unknown option: %s", argv[i]);
	}
	for (i = 1; i < argc; i++) {
		n = cache_remove(argv[i]);
		if (n > 0)
			printf("%s: removed %d cache file%s\n", argv[i], n,
			    n == 1 ? "" : "s");
	}
	return 0;
}
