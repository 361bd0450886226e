/*
 * jobsum: a distributed job from its ranks' summaries (jobsum.h).
 */
#include "config.h"

#include <stddef.h>
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
	size_t			 first;		/* of the batch */
	struct ranksum		*s;		/* the batch's summaries */
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

	rc = jobsum_one(w->j->r[w->first + i].file, &w->opts, &w->s[i],
	    &w->causes[i]);
	w->got[i] = rc < 0 ? 2 : (uint8_t)rc;
	return 0;
}

/* Keeps what placing file k needs from its summary s. */
static void
jobsum_place(struct jobsum_rank *r, const struct ranksum *s)
{
	r->source = s->source;
	r->origin_ns = s->origin_ns;
	r->end_ns = s->end_ns;
	r->utc_epoch_ns = s->utc_epoch_ns;
	r->nevents = s->nevents;
	r->stated_rank = s->stated_rank;
	r->several = s->several;
}

static int
jobsum_cmp(const void *a, const void *b)
{
	const struct jobsum_rank	*x = a, *y = b;

	return multi_rank_cmp(x->rank, x->file, y->rank, y->file);
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
		shell[i].source = j->r[i].source;
		shell[i].origin_ns = j->r[i].origin_ns;
		shell[i].end_ns = j->r[i].end_ns;
		shell[i].utc_epoch_ns = j->r[i].utc_epoch_ns;
		shell[i].nevents = j->r[i].nevents;
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
    jobsum_take_fn take, void *arg, struct jobsum *j, char **cause)
{
	struct jobsum_work	 w;
	size_t			 i, k, nb;
	unsigned		 nthreads;
	int			 r = 0;

	memset(j, 0, sizeof *j);
	j->r = xcalloc(n + 1, sizeof *j->r);
	j->n = n;
	for (i = 0; i < n; i++) {
		j->r[i].file = files[i];
		j->r[i].index = i;
	}
	free(files);
	memset(&w, 0, sizeof w);
	w.j = j;
	if (opts != NULL)
		w.opts = *opts;
	w.opts.progress = 0;
	w.s = xcalloc(JOBSUM_BATCH, sizeof *w.s);
	w.causes = xcalloc(JOBSUM_BATCH, sizeof *w.causes);
	w.got = xcalloc(JOBSUM_BATCH, 1);
	nthreads = pool_ncpus();
	if (nthreads > MULTI_THREADS)
		nthreads = MULTI_THREADS;
	for (w.first = 0; w.first < n && r == 0; w.first += nb) {
		nb = n - w.first < JOBSUM_BATCH ? n - w.first : JOBSUM_BATCH;
		pool_run(nb, nthreads, jobsum_job, &w, NULL);
		for (k = 0; k < nb; k++) {
			i = w.first + k;
			if (w.got[k] == 2) {
				if (r == 0)
					*cause = xstrdup(w.causes[k] != NULL ?
					    w.causes[k] : j->r[i].file);
				r = -1;
			} else {
				if (w.got[k] == 0)
					j->built++;
				jobsum_place(&j->r[i], &w.s[k]);
				if (j->r[i].several && r == 0) {
					*cause = xasprintf("%s holds several "
					    "ranks", j->r[i].file);
					r = 1;
				}
				if (r == 0 && take != NULL)
					take(arg, i, &w.s[k]);
				ranksum_free(&w.s[k]);
			}
			free(w.causes[k]);
			w.causes[k] = NULL;
		}
	}
	free(w.s);
	free(w.causes);
	free(w.got);
	if (r == 0 && n > 1)
		r = jobsum_check(j, cause);
	if (r != 0) {
		jobsum_free(j);
		return r;
	}

	/* Ranks: stated, else by name, else the first free one. */
	for (i = 0; i < n; i++) {
		r = j->r[i].stated_rank;
		j->r[i].rank = r >= 0 ? r : kineto_rank_from_name(
		    j->r[i].file);
	}
	multi_free_ranks(j->r, n, sizeof *j->r,
	    offsetof(struct jobsum_rank, rank), NULL);
	qsort(j->r, n, sizeof *j->r, jobsum_cmp);
	for (k = 1; k < n; k++)
		if (j->r[k].rank == j->r[k - 1].rank)
			j->dup = multi_rank_dup(j->dup, j->r[k].rank,
			    j->r[k].file);
	return 0;
}

void
jobsum_free(struct jobsum *j)
{
	XFREE_EACH(j->r, j->n, file);
	free(j->r);
	free(j->dup);
	memset(j, 0, sizeof *j);
}

int
jobsum_wanted(int nf, int asked)
{
	return nf >= 2 && (asked || nf > JOBSUM_THRESHOLD);
}

void
jobsum_files_free(char **files, int nf)
{
	while (nf > 0)
		free(files[--nf]);
	free(files);
}
