/*
 * kpath-runs: the runs of whole GPU tracks (kpath_runs(); kpath.h), worked
 * out on background threads while the caller asks.
 *
 * The tracks are shared out in jobs, a process's tracks to one job (its
 * threads' cursors go to one walker), in process order. kpath_runs()
 * starts a thread per CPU but the caller's, each taking the next job none
 * took, and returns. The caller's first kpath_value() on a track waits
 * for the track's job (kp_runs_ready()); where its job is taken but not
 * done, the caller's thread takes the next job none took, with walker 0,
 * rather than wait. So the caller's own work (gstats' first pass over the
 * tracks done) runs beside the runs of the tracks after them: at 1e8
 * events grouped by nvtx-path and iter, the runs of the 4 processes' GPU
 * tracks took 1 s on two threads, then the first pass 1.4 s on one, the
 * other thread idle.
 *
 * A job's runs hold the path ids of its thread's walker. The walker's
 * pool of paths grows while its thread works; the strings the caller
 * reads (kp_walker_str()) are copies the thread publishes at the end of
 * each job, before the job is marked done. Everything shared, the next
 * job, the done marks and those copies, is under kpath.mu; the runs of a
 * job are read only once it is done.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kpath-int.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

/*
 * Job j: the runs of its tracks, with walker tid. A track's runs are made
 * in a copy of its struct kp_track, stored once they are, and what the
 * loop reads of struct kpath is read once: the caller's thread writes the
 * struct of the track it reads (its run cursor), which shares a cache line
 * with its neighbours', and struct kpath's fields of the last value asked
 * (at 1e8 events the job's thread spent a fifth of its time on those
 * lines).
 */
static void
kp_job(struct kpath *kp, size_t job, unsigned tid)
{
	struct kp_walker	*w = &kp->w[tid];
	struct kp_track		 x, *tr = &x;
	const struct model	*m = kp->m;
	size_t			 j, lo = kp->jlo[job], hi = kp->jlo[job + 1];
	uint32_t		 t, i, e, n, v, it, range;
	int			 rpath = kp->rpath, riter = kp->riter;

	for (j = lo; j < hi; j++) {
		t = kp->trk[j];
		memset(tr, 0, sizeof *tr);
		tr->w = tid;
		n = (uint32_t)m->tracks[t].lane.n;
		for (i = 0; i < n; i = e) {
			range = kp_range(w, t, i);
			v = rpath ? kp_path(w, range) : 0;
			it = riter ? kp_iter_of(w, range) : 0;
			e = kp_walker_same(w, t, i, n);
			/* Runs of the same values are one. */
			if (tr->n > 0 && tr->val[tr->n - 1] == v &&
			    tr->iter[tr->n - 1] == it) {
				tr->end[tr->n - 1] = e;
				continue;
			}
			XGROW(tr->end, tr->cap, tr->n + 1);
			XGROW(tr->val, tr->vcap, tr->n + 1);
			XGROW(tr->iter, tr->icap, tr->n + 1);
			tr->end[tr->n] = e;
			tr->iter[tr->n] = it;
			tr->val[tr->n++] = v;
		}
		kp->tr[t] = x;
	}
}

/* Under mu: job j done by walker tid, whose new paths are copied first. */
static void
kp_job_done(struct kpath *kp, size_t j, unsigned tid)
{
	struct kp_walker	*w = &kp->w[tid];
	struct kp_ids		*x = &kp->ids[tid];
	uint32_t		 n = strpool_count(w->strs);

	if (tid > 0) {
		XGROW(x->pub, x->pubcap, n);
		for (; x->npub < n; x->npub++)
			x->pub[x->npub] = xstrdup(strpool_get(w->strs,
			    (uint32_t)x->npub));
	}
	kp->done[j] = 1;
	pthread_cond_broadcast(&kp->cv);
}

/* Background thread k: the next job none took, until none is left. */
struct kp_bg {
	struct kpath	*kp;
	unsigned	 tid;
};

static void *
kp_bg_main(void *arg)
{
	struct kp_bg	*bg = arg;
	struct kpath	*kp = bg->kp;
	size_t		 j;

	pthread_mutex_lock(&kp->mu);
	while (kp->next < kp->nj) {
		j = kp->next++;
		pthread_mutex_unlock(&kp->mu);
		kp_job(kp, j, bg->tid);
		pthread_mutex_lock(&kp->mu);
		kp_job_done(kp, j, bg->tid);
	}
	pthread_mutex_unlock(&kp->mu);
	free(bg);
	return NULL;
}

/*
 * Under mu, while the caller waits for a job: whether its thread takes
 * the next job none took. Without background threads, always; else only
 * while more than KP_KEEP jobs per background thread are left to them:
 * the caller's thread has its own work to do once the jobs it waits for
 * are done, and a job it took as the one it waits for was about to be
 * done would delay that work by a whole job. At 1e8 events (4 jobs, 1
 * background thread) the caller's thread takes the second job, then
 * waits for the first and uses the runs as the background thread works
 * out the third and the fourth.
 */
#define KP_KEEP	2

static int
kp_runs_take(const struct kpath *kp)
{
	return kp->next < kp->nj && (kp->nth == 0 ||
	    kp->nj - kp->next > KP_KEEP * (size_t)kp->nth);
}

int
kp_runs_ready(struct kpath *kp, uint32_t t)
{
	uint32_t	j;
	size_t		k;

	if (kp->tr == NULL)
		return 0;
	if (kp->ready[t])
		return kp->tr[t].n > 0;
	j = kp->job_of[t];
	if (j != NONE32) {
		pthread_mutex_lock(&kp->mu);
		while (!kp->done[j]) {
			if (kp_runs_take(kp)) {
				k = kp->next++;
				pthread_mutex_unlock(&kp->mu);
				kp_job(kp, k, 0);
				/* (Walker 0's state is the job's now.) */
				kp->last_t = NONE32;
				pthread_mutex_lock(&kp->mu);
				kp_job_done(kp, k, 0);
			} else
				pthread_cond_wait(&kp->cv, &kp->mu);
		}
		pthread_mutex_unlock(&kp->mu);
	}
	kp->ready[t] = 1;
	return kp->tr[t].n > 0;
}

const char *
kp_walker_str(struct kpath *kp, unsigned k, uint32_t id)
{
	const char	*s;

	if (k == 0 || !kp->mu_on)
		return strpool_get(kp->w[k].strs, id - 1);
	pthread_mutex_lock(&kp->mu);
	s = kp->ids[k].pub[id - 1];	/* (published with its job) */
	pthread_mutex_unlock(&kp->mu);
	return s;
}

static int
kp_u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void
kpath_runs(struct kpath *kp, const uint8_t *use, int path, int iter)
{
	const struct model	*m = kp->m;
	size_t			 n = 0, nj = 0, j, x;
	uint64_t		*key;
	uint32_t		 t;
	unsigned		 nt;
	struct kp_bg		*bg;

	if (kp->tr != NULL || (!path && !iter))
		return;
	kp->rpath = path;
	kp->riter = iter;
	kp->tr = xcalloc((size_t)m->ntracks + 1, sizeof *kp->tr);
	kp->trk = xcalloc((size_t)m->ntracks + 1, sizeof *kp->trk);
	kp->ready = xcalloc((size_t)m->ntracks + 1, 1);
	kp->job_of = xreallocarray(NULL, (size_t)m->ntracks + 1,
	    sizeof *kp->job_of);
	for (t = 0; t < m->ntracks; t++)
		kp->job_of[t] = NONE32;
	/* By process, then track: a process's threads go to one walker. */
	key = xcalloc((size_t)m->ntracks + 1, sizeof *key);
	for (t = 0; t < m->ntracks; t++)
		if (use[t] && m->tracks[t].type == TRACK_GPU &&
		    m->tracks[t].lane.n > 0)
			key[n++] = (uint64_t)m->tracks[t].process << 32 | t;
	qsort(key, n, sizeof *key, kp_u64_cmp);
	for (j = 0; j < n; j++)
		kp->trk[j] = (uint32_t)key[j];
	free(key);
	kp->jlo = xcalloc(n + 2, sizeof *kp->jlo);
	for (j = 0; j < n; j++) {
		if (j == 0 || m->tracks[kp->trk[j]].process !=
		    m->tracks[kp->trk[j - 1]].process)
			kp->jlo[nj++] = j;
		kp->job_of[kp->trk[j]] = (uint32_t)nj - 1;
	}
	kp->jlo[nj] = n;
	kp->nj = nj;
	kp->done = xcalloc(nj + 1, 1);
	pthread_mutex_init(&kp->mu, NULL);
	pthread_cond_init(&kp->cv, NULL);
	kp->mu_on = 1;
	nt = pool_sweep_threads();
	if (nt > POOL_MAX)
		nt = POOL_MAX;
	if (nt > nj)
		nt = nj > 0 ? (unsigned)nj : 1;
	for (; kp->nw < nt; kp->nw++)
		kp_walker_init(&kp->w[kp->nw], m, kp->domain);
	/* Threads that cannot be made leave their jobs to the others. */
	for (x = 1; x < nt; x++) {
		bg = xmalloc(sizeof *bg);
		bg->kp = kp;
		bg->tid = (unsigned)x;
		if (pthread_create(&kp->th[kp->nth], NULL, kp_bg_main,
		    bg) != 0) {
			free(bg);
			break;
		}
		kp->nth++;
	}
}

void
kp_runs_free(struct kpath *kp)
{
	unsigned	k;
	uint32_t	t;

	if (kp->mu_on) {
		/* (Jobs none took yet are not worked out.) */
		pthread_mutex_lock(&kp->mu);
		kp->next = kp->nj;
		pthread_mutex_unlock(&kp->mu);
		for (k = 0; k < kp->nth; k++)
			pthread_join(kp->th[k], NULL);
		pthread_mutex_destroy(&kp->mu);
		pthread_cond_destroy(&kp->cv);
	}
	for (t = 0; kp->tr != NULL && t < kp->m->ntracks; t++) {
		free(kp->tr[t].end);
		free(kp->tr[t].val);
		free(kp->tr[t].iter);
	}
	free(kp->tr);
	free(kp->trk);
	free(kp->jlo);
	free(kp->job_of);
	free(kp->ready);
	free(kp->done);
}
