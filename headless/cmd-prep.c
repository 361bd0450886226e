/*
 * cmd-prep: `gpulens prep` builds the cache of traces ahead of time;
 * `gpulens clean` removes it.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache.h"
#include "model/cachedir.h"
#include "headless/cmd.h"
#include "model/model.h"
#include "util/sanitize.h"
#include "sources/source.h"
#include "util/units.h"

static int	prep_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);
static int	clean_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);

const struct cmd_entry cmd_prep_entry = {
	.name = "prep",
	.usage = "gpulens prep [--beside] TRACE...",
	.help =
	"Loads each TRACE and writes its cache, so that the next open is fast.\n"
	"The cache goes to $XDG_CACHE_HOME/gpulens (default ~/.cache/gpulens);\n"
	"a valid cache is reused ('gpulens clean' first rebuilds it).\n"
	"  --beside   write the cache next to the trace instead, as\n"
	"             .NAME.gpulens, for a team that shares the directory;\n"
	"             a cache found there is read first",
	.args = { 0, -1, NULL },
	.input = CMD_IN_NONE,
	.run = prep_run
};

const struct cmd_entry cmd_clean_entry = {
	.name = "clean",
	.usage = "gpulens clean TRACE... | gpulens clean --all",
	.help =
	"Removes what gpulens keeps for each TRACE: its cache (in the cache\n"
	"directory and beside it), its decompressed or exported copies and\n"
	"temporary files left by interrupted writes. The trace itself is never\n"
	"touched.\n"
	"  --all      empty the cache directory ($XDG_CACHE_HOME/gpulens)",
	.args = { 0, -1, NULL },
	.input = CMD_IN_NONE,
	.run = clean_run
};

/* Says why the cache of trace was not written, if it was not: -1, else 0. */
static int
cmd_prep_warn(const char *trace, const struct model *m)
{
	char	*safe;
	size_t	 i;
	int	 rc = 0;

	for (i = 0; i < m->nwarnings; i++) {
		if (strncmp(m->warnings[i], "cache not written",
		    strlen("cache not written")) != 0)
			continue;
		safe = sanitize_dup(m->warnings[i], 0);
		fprintf(stderr, "gpulens: %s: %s\n", trace, safe);
		free(safe);
		rc = -1;
	}
	return rc;
}

static int
prep_run(const struct cmd_ctx *ctx, struct out *unused_out,
    const char **unused_code, char **unused_cause)
{
	int			 argc = ctx->argc;
	char			**argv = ctx->argv;
	const struct cmd_global	*g = ctx->g;
	struct cmd_global	 pg = *g;
	struct model		*m;
	int			 i, rc = 0, beside = 0, ntraces = 0;

	pg.no_cache = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--beside") == 0)
			beside = 1;
		else if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0)
			return cmd_usage_error(&cmd_prep_entry,
			    "unknown option: %s", argv[i]);
		else
			ntraces++;
	}
	if (ntraces == 0)
		return cmd_usage_error(&cmd_prep_entry, "no trace given");
	if (g->no_cache)
		return cmd_usage_error(&cmd_prep_entry,
		    "--no-cache: prep writes nothing without the cache");
	if (beside)
		cachedir_set_mode(CACHEDIR_BESIDE);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--beside") == 0)
			continue;
		if ((m = cmd_load(argv[i], &pg)) == NULL) {
			rc = EXIT_USAGE;
			continue;
		}
		if (cmd_prep_warn(argv[i], m) != 0)
			rc = EXIT_USAGE;
		model_free(m);
	}
	return rc;
}

static int
clean_run(const struct cmd_ctx *ctx, struct out *unused_out,
    const char **unused_code, char **unused_cause)
{
	int			 argc = ctx->argc;
	char			**argv = ctx->argv;
	const struct cmd_global	*g = ctx->g;
	uint64_t		 bytes;
	char			 buf[32];
	int			 i, n, all = 0, ntraces = 0;

	(void)g;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--all") == 0)
			all = 1;
		else if (argv[i][0] == '-')
			return cmd_usage_error(&cmd_clean_entry,
			    "unknown option: %s", argv[i]);
		else
			ntraces++;
	}
	if (all && ntraces > 0)
		return cmd_usage_error(&cmd_clean_entry,
		    "--all takes no trace");
	if (!all && ntraces == 0)
		return cmd_usage_error(&cmd_clean_entry, "no trace given");
	if (all) {
		bytes = 0;
		n = cachedir_remove_all(&bytes);
		printf("removed %d file%s (%s) from the cache directory\n", n,
		    n == 1 ? "" : "s", units_bytes(bytes, buf, sizeof buf));
		return 0;
	}
	for (i = 1; i < argc; i++) {
		bytes = 0;
		n = cachedir_remove_trace(argv[i], &bytes);
		if (n > 0)
			printf("%s: removed %d file%s (%s)\n", argv[i], n,
			    n == 1 ? "" : "s", units_bytes(bytes, buf,
			    sizeof buf));
	}
	return 0;
}
