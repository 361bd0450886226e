/*
 * pool_test: the thread pool runs every job exactly once, gives each
 * thread a tid below the count asked for, stops taking jobs after a
 * failure and reports the first cause, and copes with no jobs, one thread
 * and more threads than jobs; the threads of a sweep follow
 * GPULENS_THREADS, else the CPUs, and are 1 inside a job of a pool.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/pool.h"
#include "util/xmalloc.h"

#include "tsupport.h"

struct count {
	atomic_int	*runs;		/* per job */
	unsigned	 nthreads;
	atomic_int	 badtid;
	size_t		 fail_at;	/* (size_t)-1: none */
};

static int
count_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct count	*c = arg;

	atomic_fetch_add(&c->runs[j], 1);
	if (tid >= c->nthreads)
		atomic_store(&c->badtid, 1);
	if (j == c->fail_at) {
		*cause = xstrdup("job failed");
		return -1;
	}
	return 0;
}

static void
run(size_t njobs, unsigned nthreads)
{
	struct count	c;
	size_t		i;

	memset(&c, 0, sizeof c);
	c.runs = calloc(njobs + 1, sizeof *c.runs);
	assert_non_null(c.runs);
	c.nthreads = nthreads > POOL_MAX ? POOL_MAX :
	    nthreads == 0 ? 1 : nthreads;
	c.fail_at = (size_t)-1;
	assert_int_equal(pool_run(njobs, nthreads, count_job, &c, NULL), 0);
	for (i = 0; i < njobs; i++)
		assert_int_equal(atomic_load(&c.runs[i]), 1);
	assert_int_equal(atomic_load(&c.badtid), 0);
	free(c.runs);
}

static void
test_every_job_once(void **state)
{
	(void)state;
	run(0, 4);
	run(1, 4);
	run(3, 8);
	run(1000, 1);
	run(1000, 4);
	run(5000, 0);
	run(5000, 64);
}

static void
test_failure(void **state)
{
	struct count	c;
	char		*cause = NULL;
	size_t		i, ran = 0;

	(void)state;
	memset(&c, 0, sizeof c);
	c.runs = calloc(100000, sizeof *c.runs);
	assert_non_null(c.runs);
	c.nthreads = 1;
	c.fail_at = 10;
	assert_int_equal(pool_run(100000, 1, count_job, &c, &cause), -1);
	assert_string_equal(cause, "job failed");
	free(cause);
	/* One thread: nothing after the failing job started. */
	for (i = 0; i < 100000; i++)
		ran += (size_t)atomic_load(&c.runs[i]);
	assert_int_equal(ran, 11);

	/* Several threads: no job runs twice (how many start before the
	 * failure is seen depends on the scheduler). */
	memset(c.runs, 0, 100000 * sizeof *c.runs);
	c.nthreads = 4;
	c.fail_at = 0;
	assert_int_equal(pool_run(100000, 4, count_job, &c, NULL), -1);
	for (ran = 0, i = 0; i < 100000; i++) {
		assert_true(atomic_load(&c.runs[i]) <= 1);
		ran += (size_t)atomic_load(&c.runs[i]);
	}
	assert_true(ran >= 1);
	free(c.runs);
	assert_true(pool_ncpus() >= 1);
}

static int
sweep_job(void *arg, size_t j, unsigned tid, char **cause)
{
	atomic_uint	*seen = arg;

	(void)tid;
	(void)cause;
	atomic_store(&seen[j], pool_sweep_threads());
	return 0;
}

static void
test_sweep_threads(void **state)
{
	atomic_uint	seen[2];

	(void)state;
	unsetenv("GPULENS_THREADS");
	assert_int_equal(pool_sweep_threads(), pool_ncpus());
	setenv("GPULENS_THREADS", "3", 1);
	assert_int_equal(pool_sweep_threads(), 3);
	/* Inside a pool of two threads, one. */
	atomic_init(&seen[0], 0);
	atomic_init(&seen[1], 0);
	assert_int_equal(pool_run(2, 2, sweep_job, seen, NULL), 0);
	assert_int_equal(atomic_load(&seen[0]), 1);
	assert_int_equal(atomic_load(&seen[1]), 1);
	/* Back outside, the count again. */
	assert_int_equal(pool_sweep_threads(), 3);
	unsetenv("GPULENS_THREADS");
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_every_job_once),
	cmocka_unit_test(test_failure),
	cmocka_unit_test(test_sweep_threads))
