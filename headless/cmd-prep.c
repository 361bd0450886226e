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

#include "headless/answers.h"
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
#include "util/pool.h"
#include "analysis/ranksum.h"
#include "headless/shard.h"
#include "sources/input.h"
#include "sources/multi.h"

static cmd_main_t	prep_run;
static cmd_main_t	clean_run;

const struct cmd_entry cmd_prep_entry = {
	.name = "prep",
	.usage = "gpulens prep [--beside] [--answers] [--json] [--shard I/N] "
	    "[--jobs N] TRACE|DIR...",
	.help =
	"Loads each TRACE and writes its cache, so that the next open is fast.\n"
	"The cache goes to $XDG_CACHE_HOME/gpulens (default ~/.cache/gpulens);\n"
	"a valid cache is reused ('gpulens clean' first rebuilds it).\n"
	"  --beside   write the cache next to the trace instead, as\n"
	"             .NAME.gpulens, for a team that shares the directory;\n"
	"             a cache found there is read first\n"
	"  --answers  then store the answer of every analysis verb that takes\n"
	"             the trace alone, as 'gpulens VERB TRACE --json' with TRACE\n"
	"             spelt as given here, so that this exact command line is\n"
	"             answered without loading the model (gpulens(1), ANSWERS)\n"
	"  --json     the answer as a JSON envelope: a row per trace with its\n"
	"             action (written, reused or failed), cache_file and bytes\n"
	"A DIR is a job, one trace per rank: each of its traces is prepped\n"
	"and its rank summary written beside its cache ('ranks' compares a\n"
	"large job from them).\n"
	"  --shard I/N  prep only every N-th trace of the list, from the I-th\n"
	"             (0-based); in a Slurm job array the default comes from\n"
	"             SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (the\n"
	"             sbatch line is in gpulens(1), RANK SUMMARIES)\n"
	"  --jobs N   prep N traces at a time (1 to 16, default 1)",
	.input = CMD_IN_NONE,
	.main = prep_run
};

const struct cmd_entry cmd_clean_entry = {
	.name = "clean",
	.usage = "gpulens clean [--json] TRACE... | gpulens clean [--json] --all",
	.help =
	"Removes what gpulens keeps for each TRACE: its cache (in the cache\n"
	"directory and beside it), its stored answers, its decompressed or\n"
	"exported copies and temporary files left by interrupted writes. The\n"
	"trace itself is never touched.\n"
	"  --all      empty the cache directory ($XDG_CACHE_HOME/gpulens)\n"
	"  --json     the answer as a JSON envelope: a row per trace with its\n"
	"             action (removed or none), cache_file, files and bytes",
	.input = CMD_IN_NONE,
	.main = clean_run
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

/* One trace to prep, and what came of it. */
struct prep_item {
	char		*path;
	int		 summarise;	/* from a directory: a rank summary */
	const char	*action;	/* "written", "reused", "failed" */
	char		*file;		/* its cache file, or NULL */
	int		 have;
	int64_t		 size;
	char		*err;		/* sanitised, or NULL */
	int		 usage;		/* the error is the input's */
	int		 summary;	/* a valid summary is there */
};

struct prep_job {
	struct prep_item	*v;
	size_t			 n;
	struct load_opts	 lo;
	int			 beside;
};

/* Summarises the loaded model m of it into its summary file (ranksum.h),
 * unless a valid one is there. */
static void
cmd_prep_summary(struct prep_item *it, const struct model *m,
    const struct cachedir_ident *before)
{
	struct cachedir_ident	 after;
	struct ranksum		 rs;
	char			*cause = NULL;

	if (ranksum_read(it->path, &rs)) {
		ranksum_free(&rs);
		it->summary = 1;
		return;
	}
	ranksum_build(m, &rs);
	if (cachedir_ident(it->path, &after, &cause) == 0 &&
	    cachedir_ident_eq(before, &after) &&
	    ranksum_write(it->path, before, &rs, &cause) == 0)
		it->summary = 1;
	else if (cause != NULL)
		sanitize_msg(stderr, "gpulens: %s: summary not written: %s",
		    it->path, cause);
	free(cause);
	ranksum_free(&rs);
}

/* Preps trace i of the job (a pool job: one per trace). */
static int
cmd_prep_one(void *arg, size_t i, unsigned tid, char **unused)
{
	struct prep_job		*j = arg;
	struct prep_item	*it = &j->v[i];
	struct cachedir_ident	 before;
	struct input		 in;
	struct stat		 sb, sa;
	char			*cause = NULL, *safe;
	int			 had, ident;

	it->file = cmd_prep_cache_file(it->path, j->beside);
	had = it->file != NULL && stat(it->file, &sb) == 0;
	ident = it->summarise && cachedir_ident(it->path, &before,
	    &cause) == 0;
	free(cause);
	cause = NULL;
	memset(&in, 0, sizeof in);
	if (input_load(&in, INPUT_TIMELINE, &it->path, 1, &j->lo,
	    &cause) != 0) {
		it->err = sanitize_dup(cause != NULL ? cause :
		    "cannot load trace", 0);
		it->usage = 1;
		it->action = "failed";
		free(cause);
		free(it->file);
		it->file = NULL;
		return 0;
	}
	if ((safe = cmd_prep_warn(in.m)) != NULL) {
		it->err = safe;
		it->action = "failed";
		free(it->file);
		it->file = NULL;
		model_free(in.m);
		return 0;
	}
	if (ident)
		cmd_prep_summary(it, in.m, &before);
	model_free(in.m);
	/* The cache directory may have been made by this load. */
	free(it->file);
	it->file = cmd_prep_cache_file(it->path, j->beside);
	it->have = it->file != NULL && stat(it->file, &sa) == 0;
	it->size = it->have ? (int64_t)sa.st_size : -1;
	/* A cache is written to a new file renamed into place. The
	 * load said nothing against it: a cache that is gone already
	 * (a concurrent clean) is no failure, only of unknown size. */
	it->action = had && (!it->have || (sb.st_ino == sa.st_ino &&
	    sb.st_dev == sa.st_dev)) ? "reused" : "written";
	return 0;
}

/* Adds path, or the traces of directory path, to the job's list. */
static int
cmd_prep_add(struct prep_job *j, size_t *cap, char *path, char **cause)
{
	struct stat	  sb;
	char		**files;
	int		  n, k;

	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		XGROW(j->v, *cap, j->n + 1);
		memset(&j->v[j->n], 0, sizeof j->v[j->n]);
		j->v[j->n++].path = xstrdup(path);
		return 0;
	}
	if ((n = multi_expand(&path, 1, &files, cause)) < 0)
		return -1;
	for (k = 0; k < n; k++) {
		XGROW(j->v, *cap, j->n + 1);
		memset(&j->v[j->n], 0, sizeof j->v[j->n]);
		j->v[j->n].path = files[k];
		j->v[j->n++].summarise = 1;
	}
	free(files);
	return 0;
}

static int
prep_run(int argc, char **argv, const struct cmd_global *g)
{
	struct cmd_global	 pg = *g;
	struct prep_job		 j;
	struct prep_item	*it;
	struct shard		 sh;
	struct out		 o;
	const char		*shard_arg = NULL, *jobs_arg = NULL;
	char			*cause = NULL, *safe, buf[32], *first = NULL;
	int			 i, rc = 0, beside = 0, ntraces = 0, json;
	int			 nok = 0, dirs = 0, nsum = 0, answers = 0;
	int			 nans = 0, na;
	long long		 jobs = 1;
	size_t			 k, cap = 0, keep;

	json = cmd_prep_json(&argc, argv);
	pg.no_cache = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--beside") == 0)
			beside = 1;
		else if (strcmp(argv[i], "--answers") == 0)
			answers = 1;
		else if (strcmp(argv[i], "--shard") == 0 ||
		    strcmp(argv[i], "--jobs") == 0) {
			if (i + 1 >= argc)
				return cmd_prep_usage(&cmd_prep_entry, json,
				    argv[i], " needs a value");
			if (argv[i][2] == 's')
				shard_arg = argv[++i];
			else
				jobs_arg = argv[++i];
		} else if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0)
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
	if (jobs_arg != NULL && ((jobs = cmd_parse_count(jobs_arg)) < 1 ||
	    jobs > POOL_MAX))
		return cmd_prep_usage(&cmd_prep_entry, json,
		    "--jobs: a number of workers from 1 to 16: ", jobs_arg);
	if ((shard_arg != NULL ? shard_parse(shard_arg, &sh, &cause) :
	    shard_env(&sh, &cause)) != 0) {
		rc = cmd_prep_usage(&cmd_prep_entry, json, cause, "");
		free(cause);
		return rc;
	}
	if (beside)
		cachedir_set_mode(CACHEDIR_BESIDE);
	out_init(&o, "prep");
	o.format = OUT_JSON;
	memset(&j, 0, sizeof j);
	cmd_load_opts(&pg, &j.lo);
	j.lo.progress = 0;
	j.beside = beside;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--beside") == 0 ||
		    strcmp(argv[i], "--answers") == 0)
			continue;
		if (strcmp(argv[i], "--shard") == 0 ||
		    strcmp(argv[i], "--jobs") == 0) {
			i++;
			continue;
		}
		if (cmd_prep_add(&j, &cap, argv[i], &cause) != 0) {
			safe = sanitize_dup(cause, 0);
			fprintf(stderr, "gpulens: %s\n", safe);
			cmd_prep_row(&o, argv[i], "failed", NULL, 0, -1, safe);
			if (first == NULL)
				first = safe;
			else
				free(safe);
			free(cause);
			cause = NULL;
			rc = EXIT_USAGE;
			continue;
		}
		dirs |= j.n > 0 && j.v[j.n - 1].summarise;
	}
	/* This task's share: every count-th trace of the list. */
	for (k = 0, keep = 0; k < j.n; k++) {
		if (shard_has(&sh, k))
			j.v[keep++] = j.v[k];
		else
			free(j.v[k].path);
	}
	j.n = keep;
	pool_run(j.n, (unsigned)jobs, cmd_prep_one, &j, NULL);
	for (k = 0; k < j.n; k++) {
		it = &j.v[k];
		if (it->err != NULL) {
			if (it->usage)
				fprintf(stderr, "gpulens: %s\n", it->err);
			else
				sanitize_msg(stderr, "gpulens: %s: %s",
				    it->path, it->err);
			cmd_prep_row(&o, it->path, "failed", NULL, 0, -1,
			    it->err);
			if (first == NULL)
				first = it->usage ? xstrdup(it->err) :
				    xasprintf("%s: %s", it->path, it->err);
			rc = EXIT_USAGE;
			continue;
		}
		cmd_prep_row(&o, it->path, it->action, it->file,
		    it->have ? 1 : 0, it->size, NULL);
		nok++;
		nsum += it->summary;
		if (!json) {
			safe = sanitize_dup(it->file != NULL ? it->file : "?",
			    0);
			if (it->have)
				units_bytes((uint64_t)it->size, buf,
				    sizeof buf);
			else
				snprintf(buf, sizeof buf, "gone");
			printf("%s: cache %s, %s (%s)\n", it->path,
			    it->action, safe, buf);
			free(safe);
		}
		if (answers) {
			nans += na = answers_prep(it->path);
			if (!json) {
				safe = sanitize_dup(it->path, 0);
				printf("%s: %d answer%s stored\n", safe, na,
				    na == 1 ? "" : "s");
				free(safe);
			}
		}
	}
	if (answers)
		out_int(o.aux, "answers", nans);
	if (dirs || sh.count > 1 || jobs > 1) {
		snprintf(buf, sizeof buf, "%ld/%ld", sh.index, sh.count);
		out_str(o.aux, "shard", buf);
		out_int(o.aux, "jobs", jobs);
		out_int(o.aux, "summaries", nsum);
		if (!json && (dirs || sh.count > 1))
			printf("shard %s: %zu trace%s, %d rank summar%s\n",
			    buf, j.n, j.n == 1 ? "" : "s", nsum,
			    nsum == 1 ? "y" : "ies");
	}
	for (k = 0; k < j.n; k++) {
		free(j.v[k].path);
		free(j.v[k].file);
		free(j.v[k].err);
	}
	free(j.v);
	if (json && nok == 0 && first != NULL) {
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
clean_run(int argc, char **argv, const struct cmd_global *g)
{
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
		n = answers_remove(argv[i], &bytes);
		n += cachedir_remove_trace(argv[i], &bytes);
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
