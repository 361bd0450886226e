/*
 * cmd-prep: `gpulens prep` builds the cache of traces ahead of time;
 * `gpulens clean` removes it. Each prints a line per trace (what was
 * written or removed, and its size), or with --json the envelope with a
 * row per trace: path, action, cache_file, files, bytes.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache.h"
#include "model/cachedir.h"
#include "headless/cmd.h"
#include "headless/out.h"
#include "model/model.h"
#include "util/sanitize.h"
#include "sources/source.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

static int	prep_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);
static int	clean_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);

const struct cmd_entry cmd_prep_entry = {
	.name = "prep",
	.usage = "gpulens prep [--beside] [--json] TRACE...",
	.help =
	"Loads each TRACE and writes its cache, so that the next open is fast.\n"
	"The cache goes to $XDG_CACHE_HOME/gpulens (default ~/.cache/gpulens);\n"
	"a valid cache is reused ('gpulens clean' first rebuilds it).\n"
	"  --beside   write the cache next to the trace instead, as\n"
	"             .NAME.gpulens, for a team that shares the directory;\n"
	"             a cache found there is read first\n"
	"  --json     the answer as a JSON envelope: a row per trace with its\n"
	"             action (written, reused or failed), cache_file and bytes",
	.args = { 0, -1, NULL },
	.input = CMD_IN_NONE,
	.run = prep_run
};

const struct cmd_entry cmd_clean_entry = {
	.name = "clean",
	.usage = "gpulens clean [--json] TRACE... | gpulens clean [--json] --all",
	.help =
	"Removes what gpulens keeps for each TRACE: its cache (in the cache\n"
	"directory and beside it), its decompressed or exported copies and\n"
	"temporary files left by interrupted writes. The trace itself is never\n"
	"touched.\n"
	"  --all      empty the cache directory ($XDG_CACHE_HOME/gpulens)\n"
	"  --json     the answer as a JSON envelope: a row per trace with its\n"
	"             action (removed or none), cache_file, files and bytes",
	.args = { 0, -1, NULL },
	.input = CMD_IN_NONE,
	.run = clean_run
};

/* Why the cache of trace was not written, if it was not (malloc'd,
 * sanitised), else NULL. */
static char *
cmd_prep_warn(const struct model *m)
{
	size_t	i;

	for (i = 0; i < m->nwarnings; i++)
		if (strncmp(m->warnings[i], "cache not written",
		    strlen("cache not written")) == 0)
			return sanitize_dup(m->warnings[i], 0);
	return NULL;
}

/* Takes --json out of argv: 1 if it was there. */
static int
cmd_prep_json(int *argc, char **argv)
{
	int	i, json = 0;

	for (i = 1; i < *argc; i++)
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
			memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) *
			    sizeof *argv);
			(*argc)--;
			i--;
		}
	return json;
}

/* A usage error: the envelope with --json, else the usage lines. */
static int
cmd_prep_usage(const struct cmd_entry *e, int json, const char *msg,
    const char *arg)
{
	struct out	o;
	int		rc;

	if (!json)
		return cmd_usage_error(e, "%s%s", msg, arg);
	out_init(&o, e->name);
	o.format = OUT_JSON;
	rc = out_error(&o, NULL, NULL, "usage", "%s%s", msg, arg);
	out_free(&o);
	return rc;
}

/* The file the model cache of trace is in (malloc'd), or NULL. */
static char *
cmd_prep_cache_file(const char *trace, int beside)
{
	char	*cause = NULL, *p;

	if (beside)
		return cachedir_beside(trace);
	p = cachedir_entry(trace, 0, &cause);
	free(cause);
	return p;
}

/* The row of one trace. cache_file and err may be NULL. */
static void
cmd_prep_row(struct out *o, const char *trace, const char *action,
    const char *cache_file, int files, int64_t bytes, const char *err)
{
	cJSON	*row = out_row(o);
	char	*key = rowkey("trace", "path=%s", trace);

	out_str(row, "key", key);
	free(key);
	out_str(row, "path", trace);
	out_str(row, "action", action);
	if (cache_file != NULL)
		out_str(row, "cache_file", cache_file);
	else
		cJSON_AddNullToObject(row, "cache_file");
	out_int(row, "files", files);
	if (bytes >= 0)
		out_int(row, "bytes", bytes);
	else
		cJSON_AddNullToObject(row, "bytes");
	if (err != NULL)
		out_str(row, "error", err);
	else
		cJSON_AddNullToObject(row, "error");
}

/* Prints the envelope of o (--json) and frees it; returns rc, or the
 * emitter's error status. */
static int
cmd_prep_emit(struct out *o, int json, int rc)
{
	int	erc = 0;

	if (json) {
		o->limit = 0;
		erc = out_emit(o, NULL, NULL);
	}
	out_free(o);
	return erc != 0 ? erc : rc;
}

static int
prep_run(const struct cmd_ctx *ctx, struct out *unused_out,
    const char **unused_code, char **unused_cause)
{
	int			 argc = ctx->argc;
	char			**argv = ctx->argv;
	const struct cmd_global	*g = ctx->g;
	struct cmd_global	 pg = *g;
	struct load_opts	 lo;
	struct input		 in;
	struct out		 o;
	struct stat		 before, after;
	const char		*action;
	char			*file, *cause, *safe, buf[32];
	int			 i, rc = 0, beside = 0, ntraces = 0, json;
	int			 had, have, nok = 0;
	char			*first = NULL;

	json = cmd_prep_json(&argc, argv);
	pg.no_cache = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--beside") == 0)
			beside = 1;
		else if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0)
			return cmd_prep_usage(&cmd_prep_entry, json,
			    "unknown option: ", argv[i]);
		else
			ntraces++;
	}
	if (ntraces == 0)
		return cmd_prep_usage(&cmd_prep_entry, json,
		    "no trace given", "");
	if (g->no_cache)
		return cmd_prep_usage(&cmd_prep_entry, json,
		    "--no-cache: prep writes nothing without the cache", "");
	if (beside)
		cachedir_set_mode(CACHEDIR_BESIDE);
	out_init(&o, "prep");
	o.format = OUT_JSON;
	cmd_load_opts(&pg, &lo);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--beside") == 0)
			continue;
		file = cmd_prep_cache_file(argv[i], beside);
		had = file != NULL && stat(file, &before) == 0;
		cause = NULL;
		memset(&in, 0, sizeof in);
		if (input_load(&in, INPUT_TIMELINE, &argv[i], 1, &lo,
		    &cause) != 0) {
			safe = sanitize_dup(cause != NULL ? cause :
			    "cannot load trace", 0);
			fprintf(stderr, "gpulens: %s\n", safe);
			cmd_prep_row(&o, argv[i], "failed", NULL, 0, -1, safe);
			if (first == NULL)
				first = safe;
			else
				free(safe);
			free(cause);
			free(file);
			rc = EXIT_USAGE;
			continue;
		}
		if ((safe = cmd_prep_warn(in.m)) != NULL) {
			sanitize_msg(stderr, "gpulens: %s: %s", argv[i], safe);
			cmd_prep_row(&o, argv[i], "failed", NULL, 0, -1, safe);
			if (first == NULL)
				first = xasprintf("%s: %s", argv[i], safe);
			free(safe);
			free(file);
			model_free(in.m);
			rc = EXIT_USAGE;
			continue;
		}
		model_free(in.m);
		/* The cache directory may have been made by this load. */
		free(file);
		file = cmd_prep_cache_file(argv[i], beside);
		have = file != NULL && stat(file, &after) == 0;
		/* A cache is written to a new file renamed into place. The
		 * load said nothing against it: a cache that is gone already
		 * (a concurrent clean) is no failure, only of unknown size. */
		action = had && (!have || (before.st_ino == after.st_ino &&
		    before.st_dev == after.st_dev)) ? "reused" : "written";
		cmd_prep_row(&o, argv[i], action, file, have ? 1 : 0,
		    have ? (int64_t)after.st_size : -1, NULL);
		nok++;
		if (!json) {
			safe = sanitize_dup(file != NULL ? file : "?", 0);
			if (have)
				units_bytes((uint64_t)after.st_size, buf,
				    sizeof buf);
			else
				snprintf(buf, sizeof buf, "gone");
			printf("%s: cache %s, %s (%s)\n", argv[i], action, safe,
			    buf);
			free(safe);
		}
		free(file);
	}
	if (json && nok == 0) {
		/* Not one cache: the error, naming the first failure. */
		rc = out_error(&o, NULL, NULL, "bad_input", "%s", first);
		out_free(&o);
		free(first);
		return rc;
	}
	free(first);
	return cmd_prep_emit(&o, json, rc);
}

static int
clean_run(const struct cmd_ctx *ctx, struct out *unused_out,
    const char **unused_code, char **unused_cause)
{
	int			 argc = ctx->argc;
	char			**argv = ctx->argv;
	struct out		 o;
	uint64_t		 bytes;
	char			 buf[32], *file, *safe;
	int			 i, n, all = 0, ntraces = 0, json;

	json = cmd_prep_json(&argc, argv);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--all") == 0)
			all = 1;
		else if (argv[i][0] == '-')
			return cmd_prep_usage(&cmd_clean_entry, json,
			    "unknown option: ", argv[i]);
		else
			ntraces++;
	}
	if (all && ntraces > 0)
		return cmd_prep_usage(&cmd_clean_entry, json,
		    "--all takes no trace", "");
	if (!all && ntraces == 0)
		return cmd_prep_usage(&cmd_clean_entry, json,
		    "no trace given", "");
	out_init(&o, "clean");
	o.format = OUT_JSON;
	if (all) {
		bytes = 0;
		n = cachedir_remove_all(&bytes);
		file = cachedir_root(0, NULL);
		cmd_prep_row(&o, file != NULL ? file : "", n > 0 ? "removed" :
		    "none", file, n, (int64_t)bytes, NULL);
		free(file);
		if (!json)
			printf("removed %d file%s (%s) from the cache "
			    "directory\n", n, n == 1 ? "" : "s",
			    units_bytes(bytes, buf, sizeof buf));
		return cmd_prep_emit(&o, json, 0);
	}
	for (i = 1; i < argc; i++) {
		bytes = 0;
		file = cmd_prep_cache_file(argv[i], 0);
		n = cachedir_remove_trace(argv[i], &bytes);
		cmd_prep_row(&o, argv[i], n > 0 ? "removed" : "none", file, n,
		    (int64_t)bytes, NULL);
		free(file);
		if (json)
			continue;
		safe = sanitize_dup(argv[i], 0);
		if (n > 0)
			printf("%s: removed %d file%s (%s)\n", safe, n,
			    n == 1 ? "" : "s", units_bytes(bytes, buf,
			    sizeof buf));
		else
			printf("%s: nothing to remove\n", safe);
		free(safe);
	}
	return cmd_prep_emit(&o, json, 0);
}
