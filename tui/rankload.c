/*
 * rankload: a rank's traces loaded on a thread of its own (rankload.h).
 *
 * The loading thread writes the phase and rows under the mutex (the
 * watcher of source_load's progress); the screen's thread copies them
 * under it. The result, the model or the cause, is handed over under the
 * mutex too; a load given up frees its own model when it ends.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/jobsum.h"
#include "sources/multi.h"
#include "tui/rankload.h"
#include "util/timing.h"
#include "util/xmalloc.h"

struct rankload {
	pthread_t		 th;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	char			**paths;
	size_t			 n;
	struct load_opts	 lo;
	double			 t0;
	int			 hold;
	/* Under mu. */
	struct rankload_state	 st;
	int			 cancel;
	struct model		*m;
	char			*cause;
};

static void
rankload_watch(void *arg, const struct progress *p)
{
	struct rankload	*rl = arg;

	pthread_mutex_lock(&rl->mu);
	snprintf(rl->st.phase, sizeof rl->st.phase, "%s", p->phase != NULL ?
	    p->phase : "loading");
	rl->st.rows = p->rows;
	rl->st.total = p->total;
	pthread_mutex_unlock(&rl->mu);
}

/* Whether the load is given up (the readers ask, from its thread). */
static int
rankload_stop(void *arg)
{
	struct rankload	*rl = arg;
	int		 cancel;

	pthread_mutex_lock(&rl->mu);
	cancel = rl->cancel;
	pthread_mutex_unlock(&rl->mu);
	return cancel;
}

/* Says which file (from 0) the load is at, in phase; no rows yet. */
static void
rankload_file(struct rankload *rl, size_t i, const char *phase)
{
	pthread_mutex_lock(&rl->mu);
	rl->st.file = i;
	rl->st.rows = rl->st.total = 0;
	snprintf(rl->st.phase, sizeof rl->st.phase, "%s", phase);
	pthread_mutex_unlock(&rl->mu);
}

/* The rank's files one after the other, then merged (multi_merge). */
static struct model *
rankload_several(struct rankload *rl, char **cause)
{
	struct model	**m, *one = NULL;
	size_t		  i;

	m = xcalloc(rl->n + 1, sizeof *m);
	for (i = 0; i < rl->n; i++) {
		rankload_file(rl, i, "starting");
		if (rankload_stop(rl)) {
			*cause = xstrdup("loading given up");
			break;
		}
		if ((m[i] = source_load(rl->paths[i], &rl->lo, cause)) ==
		    NULL)
			break;
	}
	if (i == rl->n) {
		rankload_file(rl, rl->n - 1, "merging the rank's traces");
		one = multi_merge(rl->paths, m, rl->n, cause);
	}
	for (i = 0; i < rl->n; i++)
		model_free(m[i]);
	free(m);
	return one;
}

static void *
rankload_main(void *arg)
{
	struct rankload	*rl = arg;
	struct model	*m = NULL;
	char		*cause = NULL;
	int		 cancel;

	pthread_mutex_lock(&rl->mu);
	while (rl->hold && !rl->cancel)
		pthread_cond_wait(&rl->cv, &rl->mu);
	cancel = rl->cancel;
	pthread_mutex_unlock(&rl->mu);
	if (!cancel)
		m = rl->n == 1 ? source_load(rl->paths[0], &rl->lo, &cause) :
		    rankload_several(rl, &cause);
	pthread_mutex_lock(&rl->mu);
	if (rl->cancel) {
		/* Given up: nobody takes it. */
		model_free(m);
		free(cause);
	} else {
		rl->m = m;
		rl->cause = cause;
	}
	rl->st.done = 1;
	pthread_mutex_unlock(&rl->mu);
	return NULL;
}

struct rankload *
rankload_start(char *const *paths, size_t n, const struct load_opts *lo,
    char **cause)
{
	struct rankload	*rl;
	const char	*env = getenv("GPULENS_TUI_LOAD_HOLD");
	size_t		 i;

	if (n == 0) {
		*cause = xstrdup("no trace file");
		return NULL;
	}
	rl = xcalloc(1, sizeof *rl);
	rl->n = n;
	rl->paths = xcalloc(n + 1, sizeof *rl->paths);
	for (i = 0; i < n; i++)
		rl->paths[i] = xstrdup(paths[i]);
	rl->st.nfiles = n;
	if (lo != NULL)
		rl->lo = *lo;
	rl->lo.progress = 0;		/* never over the screen */
	rl->lo.watch = rankload_watch;
	rl->lo.watch_arg = rl;
	rl->lo.stop = rankload_stop;
	rl->t0 = timing_now();
	rl->hold = env != NULL && *env != '\0' && strcmp(env, "0") != 0;
	rl->st.held = rl->hold;
	snprintf(rl->st.phase, sizeof rl->st.phase, "%s", rl->hold ? "held" :
	    "starting");
	pthread_mutex_init(&rl->mu, NULL);
	pthread_cond_init(&rl->cv, NULL);
	if (pthread_create(&rl->th, NULL, rankload_main, rl) != 0) {
		*cause = xasprintf("cannot start a thread to load it");
		pthread_mutex_destroy(&rl->mu);
		pthread_cond_destroy(&rl->cv);
		jobsum_files_free(rl->paths, (int)rl->n);
		free(rl);
		return NULL;
	}
	return rl;
}

void
rankload_peek(struct rankload *rl, struct rankload_state *st)
{
	pthread_mutex_lock(&rl->mu);
	*st = rl->st;
	pthread_mutex_unlock(&rl->mu);
	st->secs = timing_now() - rl->t0;
}

int
rankload_done(struct rankload *rl)
{
	int	done;

	pthread_mutex_lock(&rl->mu);
	done = rl->st.done;
	pthread_mutex_unlock(&rl->mu);
	return done;
}

struct model *
rankload_take(struct rankload *rl, char **cause)
{
	struct model	*m;

	pthread_mutex_lock(&rl->mu);
	m = rl->m;
	rl->m = NULL;
	if (m == NULL) {
		*cause = rl->cause != NULL ? rl->cause :
		    xstrdup("cannot load");
		rl->cause = NULL;
	}
	pthread_mutex_unlock(&rl->mu);
	return m;
}

void
rankload_cancel(struct rankload *rl)
{
	pthread_mutex_lock(&rl->mu);
	rl->cancel = 1;
	/* What it made already is freed here; what it makes later, there. */
	model_free(rl->m);
	rl->m = NULL;
	free(rl->cause);
	rl->cause = NULL;
	pthread_cond_signal(&rl->cv);
	pthread_mutex_unlock(&rl->mu);
}

void
rankload_free(struct rankload *rl)
{
	if (rl == NULL)
		return;
	rankload_cancel(rl);
	pthread_join(rl->th, NULL);
	pthread_mutex_destroy(&rl->mu);
	pthread_cond_destroy(&rl->cv);
	model_free(rl->m);
	free(rl->cause);
	jobsum_files_free(rl->paths, (int)rl->n);
	free(rl);
}
