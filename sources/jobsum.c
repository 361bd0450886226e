/*
 * jobsum: a distributed job from its ranks' summaries (jobsum.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cachedir.h"
#include "sources/jobsum.h"
#include "sources/kineto.h"
#include "sources/multi.h"
#include "util/pool.h"
#include "util/xmalloc.h"

struct jobsum_work {
	struct jobsum		*j;
	struct load_opts	 opts;
	char			**causes;
	uint8_t			*got;	/* 1 read, 0 built, 2 failed */
};

static int
jobsum_cache_on(const struct load_opts *opts)
{
	return (opts == NULL || !opts->no_cache) &&
	    cachedir_get_mode() != CACHEDIR_OFF;
}

int
jobsum_one(const char *file, const struct load_opts *opts,
    struct ranksum *s, char **cause)
{
	struct cachedir_ident	 before, after;
	struct model		*m;
	char			*why = NULL;
	int			 cache = jobsum_cache_on(opts);

	if (cache && ranksum_read(file, s))
		return 1;
	if (cachedir_ident(file, &before, cause) != 0)
		return -1;
	if ((m = source_load(file, opts, cause)) == NULL)
		return -1;
	ranksum_build(m, s);
	model_free(m);
	/* A trace that changed while it was read gets no summary. */
	if (cache && cachedir_ident(file, &after, &why) == 0 &&
	    cachedir_ident_eq(&before, &after))
		(void)ranksum_write(file, &before, s, &why);
	free(why);
	return 0;
}

static int
jobsum_job(void *arg, size_t i, unsigned tid, char **unused)
{
	struct jobsum_work	*w = arg;
	int			 rc;

	rc = jobsum_one(w->j->r[i].file, &w->opts, &w->j->r[i].s,
	    &w->causes[i]);
	w->got[i] = rc < 0 ? 2 : (uint8_t)rc;
	return 0;
}

static int
jobsum_cmp(const void *a, const void *b)
{
	const struct jobsum_rank	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->file, y->file);
}

static int
jobsum_taken(const struct jobsum *j, int r)
{
	size_t	i;

	for (i = 0; i < j->n; i++)
		if (j->r[i].rank == r)
			return 1;
	return 0;
}

/* multi_check over the summaries' kinds and clocks. */
static int
jobsum_check(struct jobsum *j, char **cause)
{
	struct model	*shell, **mp;
	char		**files;
	int64_t		*shift;
	size_t		 i;
	int		 rc;

	shell = xcalloc(j->n, sizeof *shell);
	mp = xcalloc(j->n, sizeof *mp);
	files = xcalloc(j->n, sizeof *files);
	shift = xcalloc(j->n, sizeof *shift);
	for (i = 0; i < j->n; i++) {
		shell[i].source = j->r[i].s.source;
		shell[i].origin_ns = j->r[i].s.origin_ns;
		shell[i].end_ns = j->r[i].s.end_ns;
		shell[i].utc_epoch_ns = j->r[i].s.utc_epoch_ns;
		shell[i].nevents = j->r[i].s.nevents;
		mp[i] = &shell[i];
		files[i] = j->r[i].file;
	}
	rc = multi_check(files, mp, j->n, shift, cause);
	for (i = 0; i < j->n; i++)
		j->r[i].shift_ns = shift[i];
	free(shell);
	free(mp);
	free(files);
	free(shift);
	return rc;
}

int
jobsum_load(char **files, size_t n, const struct load_opts *opts,
    struct jobsum *j, char **cause)
{
	struct jobsum_work	 w;
	size_t			 i, k;
	unsigned		 nthreads;
	int			 r;

	memset(j, 0, sizeof *j);
	j->r = xcalloc(n + 1, sizeof *j->r);
	j->n = n;
	for (i = 0; i < n; i++)
		j->r[i].file = files[i];
	free(files);
	memset(&w, 0, sizeof w);
	w.j = j;
	if (opts != NULL)
		w.opts = *opts;
	w.opts.progress = 0;
	w.causes = xcalloc(n + 1, sizeof *w.causes);
	w.got = xcalloc(n + 1, 1);
	nthreads = pool_ncpus();
	if (nthreads > MULTI_THREADS)
		nthreads = MULTI_THREADS;
	pool_run(n, nthreads, jobsum_job, &w, NULL);
	r = 0;
	for (i = 0; i < n; i++) {
		if (w.got[i] == 2) {
			if (r == 0)
				*cause = xstrdup(w.causes[i] != NULL ?
				    w.causes[i] : j->r[i].file);
			r = -1;
		} else if (w.got[i] == 0)
			j->built++;
	}
	for (i = 0; i < n; i++)
		free(w.causes[i]);
	free(w.causes);
	if (r == 0) {
		for (i = 0; i < n; i++)
			if (j->r[i].s.several) {
				*cause = xasprintf("%s holds several ranks",
				    j->r[i].file);
				r = 1;
				break;
			}
	}
	if (r == 0 && n > 1)
		r = jobsum_check(j, cause);
	if (r != 0) {
		/* Summaries that failed hold nothing to free. */
		for (i = 0; i < n; i++)
			if (w.got[i] == 2)
				memset(&j->r[i].s, 0, sizeof j->r[i].s);
		free(w.got);
		jobsum_free(j);
		return r;
	}
	free(w.got);

	/* Ranks: stated, else by name, else the first free one. */
	for (i = 0; i < n; i++) {
		r = j->r[i].s.stated_rank;
		j->r[i].rank = r >= 0 ? r : kineto_rank_from_name(
		    j->r[i].file);
	}
	for (i = 0; i < n; i++) {
		if (j->r[i].rank >= 0)
			continue;
		for (r = 0; jobsum_taken(j, r); r++)
			;
		j->r[i].rank = r;
	}
	qsort(j->r, n, sizeof *j->r, jobsum_cmp);
	for (k = 1; k < n; k++)
		if (j->r[k].rank == j->r[k - 1].rank &&
		    (j->dup == NULL || strlen(j->dup) < 512)) {
			char *s = xasprintf("%s%s%d (%s)", j->dup != NULL ?
			    j->dup : "", j->dup != NULL ? ", " : "",
			    j->r[k].rank, j->r[k].file);
			free(j->dup);
			j->dup = s;
		}
	return 0;
}

void
jobsum_free(struct jobsum *j)
{
	size_t	i;

	for (i = 0; i < j->n; i++) {
		free(j->r[i].file);
		ranksum_free(&j->r[i].s);
	}
	free(j->r);
	free(j->dup);
	memset(j, 0, sizeof *j);
}
