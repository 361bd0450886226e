/*
 * multi: loading one trace per rank, in parallel, into one model (multi.h).
 *
 * A thread pool (util/pool.h) loads each file with source_load() (progress
 * off: several bars would garble the terminal). Loading touches no shared mutable state except the cache
 * files, which are per trace and written atomically (cache.h); readers
 * keep their state on the stack or in the builder.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/ranksetup.h"
#include "sources/kineto.h"
#include "model/merge.h"
#include "sources/multi.h"
#include "util/pool.h"
#include "util/xmalloc.h"

struct multi_job {
	char		**files;
	size_t		  n;
	struct model	**models;
	char		**causes;
	struct load_opts  opts;
};

static int
multi_suffix(const char *name)
{
	static const char *const sfx[] = {
		".json", ".json.gz", ".json.zst", ".sqlite"
	};
	size_t	n = strlen(name), i, k;

	if (name[0] == '.')
		return 0;
	for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		k = strlen(sfx[i]);
		if (n > k && strcmp(name + n - k, sfx[i]) == 0)
			return 1;
	}
	return 0;
}

static int
multi_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
multi_expand(char *const *paths, int n, char ***files, char **cause)
{
	struct stat	 sb;
	struct dirent	*de;
	DIR		*d;
	char		**v = NULL, *p;
	size_t		 nv = 0, cap = 0, first;
	int		 i;

	for (i = 0; i < n; i++) {
		if (stat(paths[i], &sb) != 0) {
			*cause = xasprintf("%s: %s", paths[i],
			    strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(sb.st_mode)) {
			XGROW(v, cap, nv + 1);
			v[nv++] = xstrdup(paths[i]);
			continue;
		}
		if ((d = opendir(paths[i])) == NULL) {
			*cause = xasprintf("%s: %s", paths[i],
			    strerror(errno));
			goto fail;
		}
		first = nv;
		while ((de = readdir(d)) != NULL) {
			if (!multi_suffix(de->d_name))
				continue;
			p = xasprintf("%s%s%s", paths[i],
			    paths[i][strlen(paths[i]) - 1] == '/' ? "" : "/",
			    de->d_name);
			if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
				free(p);
				continue;
			}
			XGROW(v, cap, nv + 1);
			v[nv++] = p;
		}
		closedir(d);
		if (nv == first) {
			*cause = xasprintf("%s: no trace files in this "
			    "directory (*.json, *.json.gz, *.json.zst, "
			    "*.sqlite)", paths[i]);
			goto fail;
		}
		qsort(v + first, nv - first, sizeof *v, multi_cmp);
	}
	*files = v;
	return (int)nv;
fail:
	while (nv > 0)
		free(v[--nv]);
	free(v);
	return -1;
}

/* Loads file i; a failure is kept in its cause, not the pool's. */
static int
multi_load_one(void *arg, size_t i, unsigned tid, char **cause)
{
	struct multi_job	*j = arg;

	j->models[i] = source_load(j->files[i], &j->opts, &j->causes[i]);
	return 0;
}

/* The rank a model states: the first process rank >= 0, or -1. */
static int
multi_model_rank(const struct model *m)
{
	size_t	i;

	for (i = 0; i < m->nprocesses; i++)
		if (m->processes[i].rank >= 0)
			return m->processes[i].rank;
	return -1;
}

/* The rank NVTX text states in a model (its first process that has
 * one), or -1. */
static int
multi_nvtx_rank(const struct model *m)
{
	struct rank_setup	*rs = ranksetup_build(m);
	size_t			 i;
	int			 r = -1;

	for (i = 0; i < m->nprocesses && r < 0; i++)
		r = rs[i].rank;
	free(rs);
	return r;
}

/* Whether a model holds processes of more than one rank (one file of a
 * merged job, kineto-ranks.c): its ranks are kept as they are. */
static int
multi_model_merged(const struct model *m)
{
	size_t	i;
	int	r = -1;

	for (i = 0; i < m->nprocesses; i++) {
		if (m->processes[i].rank < 0)
			continue;
		if (r >= 0 && m->processes[i].rank != r)
			return 1;
		r = m->processes[i].rank;
	}
	return 0;
}

static int
multi_in_cmp(const void *a, const void *b)
{
	const struct merge_in	*x = a, *y = b;

	return multi_rank_cmp(x->rank, x->label, y->rank, y->label);
}

/* The rank of element i (multi_free_ranks()). */
static int *
multi_rank_of(char *base, size_t size, size_t off, size_t i)
{
	return (int *)(void *)(base + i * size + off);
}

static int
multi_rank_taken(char *base, size_t n, size_t size, size_t off, int r)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (*multi_rank_of(base, size, off, i) == r)
			return 1;
	return 0;
}

void
multi_free_ranks(void *base, size_t n, size_t size, size_t off,
    const char *skip)
{
	size_t	i;
	int	r;

	for (i = 0; i < n; i++) {
		if (*multi_rank_of(base, size, off, i) >= 0 ||
		    (skip != NULL && skip[i]))
			continue;
		for (r = 0; multi_rank_taken(base, n, size, off, r); r++)
			;
		*multi_rank_of(base, size, off, i) = r;
	}
}

int
multi_rank_cmp(int ra, const char *a, int rb, const char *b)
{
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a, b);
}

char *
multi_rank_dup(char *dup, int rank, const char *name)
{
	char	*s;

	if (dup != NULL && strlen(dup) >= 512)
		return dup;
	s = xasprintf("%s%s%d (%s)", dup != NULL ? dup : "",
	    dup != NULL ? ", " : "", rank, name);
	free(dup);
	return s;
}

struct model *
multi_merge(char *const *files, struct model **models, size_t n,
    char **cause)
{
	struct merge_in		*in = NULL;
	struct model		*m = NULL;
	char			*dup = NULL, *keep = NULL;
	int64_t			*shift;
	size_t			 i;
	int			 r;

	shift = xcalloc(n + 1, sizeof *shift);
	if (multi_check(files, models, n, shift, cause) != 0)
		goto done;

	/* Ranks: stated by the trace (metadata, else NVTX), else by the
	 * name, else the first free one. */
	in = xcalloc(n + 1, sizeof *in);
	keep = xcalloc(n + 1, sizeof *keep);
	for (i = 0; i < n; i++) {
		in[i].m = models[i];
		in[i].label = files[i];
		in[i].shift_ns = shift[i];
		if (multi_model_merged(in[i].m)) {
			keep[i] = 1;
			in[i].rank = -1;
			continue;
		}
		if ((r = multi_model_rank(in[i].m)) < 0)
			r = multi_nvtx_rank(in[i].m);
		if (r < 0)
			r = kineto_rank_from_name(files[i]);
		in[i].rank = r;
	}
	multi_free_ranks(in, n, sizeof *in, offsetof(struct merge_in, rank),
	    keep);
	qsort(in, n, sizeof *in, multi_in_cmp);
	for (i = 1; i < n; i++)
		if (in[i].rank >= 0 && in[i].rank == in[i - 1].rank)
			dup = multi_rank_dup(dup, in[i].rank, in[i].label);
	for (i = 0; i < n; i++)
		models[i] = NULL;	/* merge_models consumes them */
	m = merge_models(in, n, cause);
	if (m != NULL && dup != NULL)
		model_warn(m, "ranks stated by more than one trace: %s", dup);
done:
	for (i = 0; i < n; i++) {
		model_free(models[i]);
		models[i] = NULL;
	}
	free(in);
	free(keep);
	free(dup);
	free(shift);
	return m;
}

struct model *
multi_load(char *const *paths, int n, const struct load_opts *opts,
    char **cause)
{
	struct multi_job	 j;
	struct model		*m = NULL;
	struct stat		 sb;
	char			**files = NULL;
	size_t			 i, k;
	unsigned		 nthreads;
	int			 nf;

	if (n == 1 && stat(paths[0], &sb) == 0 && !S_ISDIR(sb.st_mode))
		return source_load(paths[0], opts, cause);
	if ((nf = multi_expand(paths, n, &files, cause)) < 0)
		return NULL;
	if (nf == 1) {
		m = source_load(files[0], opts, cause);
		free(files[0]);
		free(files);
		return m;
	}

	memset(&j, 0, sizeof j);
	j.files = files;
	j.n = (size_t)nf;
	j.models = xcalloc(j.n, sizeof *j.models);
	j.causes = xcalloc(j.n, sizeof *j.causes);
	if (opts != NULL)
		j.opts = *opts;
	j.opts.progress = 0;
	nthreads = pool_ncpus();
	if (nthreads > MULTI_THREADS)
		nthreads = MULTI_THREADS;
	pool_run(j.n, nthreads, multi_load_one, &j, NULL);

	for (i = 0; i < j.n; i++)
		if (j.models[i] == NULL) {
			*cause = xasprintf("%s", j.causes[i] != NULL ?
			    j.causes[i] : j.files[i]);
			break;
		}
	if (i == j.n)
		m = multi_merge(j.files, j.models, j.n, cause);
	for (k = 0; k < j.n; k++) {
		model_free(j.models[k]);
		free(j.causes[k]);
		free(j.files[k]);
	}
	free(j.models);
	free(j.causes);
	free(j.files);
	return m;
}
