/*
 * pool: a thread pool over numbered jobs. See pool.h.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/pool.h"
#include "util/xmalloc.h"

struct pool {
	atomic_size_t	 next;
	atomic_int	 failed;
	size_t		 njobs;
	pool_job_fn	 fn;
	void		*arg;
	pthread_mutex_t	 lock;
	char		*err;		/* the first failure's cause */
};

struct pool_worker {
	struct pool	*pool;
	unsigned	 tid;
};

unsigned
pool_ncpus(void)
{
	long		n;
#ifdef CPU_COUNT
	cpu_set_t	set;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	else
#endif
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (unsigned)n;
}

/* Whether this thread runs the jobs of a pool of several threads. */
static _Thread_local int pool_inside;

unsigned
pool_threads(void)
{
	const char	*env;
	char		*end;
	long		 v;
	unsigned	 n;

	if (pool_inside)
		return 1;
	env = getenv("GPULENS_THREADS");
	if (env != NULL && *env != '\0') {
		v = strtol(env, &end, 10);
		if (*end == '\0' && v >= 1)
			return v > POOL_MAX ? POOL_MAX : (unsigned)v;
	}
	n = pool_ncpus();
	if (n < POOL_AUTO_MIN)
		return 1;
	return n > POOL_AUTO_MAX ? POOL_AUTO_MAX : n;
}

unsigned
pool_sweep_threads(void)
{
	if (pool_inside)
		return 1;
	return getenv("GPULENS_THREADS") != NULL ? pool_threads() :
	    pool_ncpus();
}

static void *
pool_main(void *arg)
{
	struct pool_worker	*w = arg;
	struct pool		*p = w->pool;
	size_t			 j;
	char			*cause;

	while (!atomic_load(&p->failed)) {
		j = atomic_fetch_add(&p->next, 1);
		if (j >= p->njobs)
			break;
		cause = NULL;
		if (p->fn(p->arg, j, w->tid, &cause) == 0)
			continue;
		pthread_mutex_lock(&p->lock);
		if (p->err == NULL)
			p->err = cause != NULL ? cause : xstrdup("failed");
		else
			free(cause);
		pthread_mutex_unlock(&p->lock);
		atomic_store(&p->failed, 1);
	}
	return NULL;
}

/* A thread of the pool, besides the caller. */
static void *
pool_thread(void *arg)
{
	pool_inside = 1;
	return pool_main(arg);
}

int
pool_run(size_t njobs, unsigned nthreads, pool_job_fn fn, void *arg,
    char **cause)
{
	struct pool		 p;
	struct pool_worker	 w[POOL_MAX];
	pthread_t		 th[POOL_MAX];
	unsigned		 i, started = 0;
	int			 inside;

	atomic_init(&p.next, 0);
	atomic_init(&p.failed, 0);
	p.njobs = njobs;
	p.fn = fn;
	p.arg = arg;
	p.err = NULL;
	pthread_mutex_init(&p.lock, NULL);
	if (nthreads > POOL_MAX)
		nthreads = POOL_MAX;
	if (nthreads == 0)
		nthreads = 1;
	if (nthreads > njobs)
		nthreads = njobs > 0 ? (unsigned)njobs : 1;
	for (i = 0; i < nthreads; i++) {
		w[i].pool = &p;
		w[i].tid = i;
	}
	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&th[i], NULL, pool_thread, &w[i]) != 0)
			break;	/* fewer threads do the same work */
		started++;
	}
	inside = pool_inside;
	if (nthreads > 1)
		pool_inside = 1;
	pool_main(&w[0]);
	pool_inside = inside;
	for (i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.lock);
	if (p.err == NULL)
		return 0;
	if (cause != NULL)
		*cause = p.err;
	else
		free(p.err);
	return -1;
}
