/*
 * pool: a pool of threads working through a list of numbered jobs.
 *
 * pool_run() runs fn(arg, job, tid, &cause) once for every job in
 * [0, njobs) on up to nthreads threads, the caller's included, each with
 * its own tid below nthreads (for per-thread state such as codec contexts
 * or scratch buffers). Jobs are taken in order but finish in any order. fn
 * returns 0, or -1 with a cause (malloc'd, or NULL); after the first
 * failure no new job starts, and pool_run() returns -1 with that cause in
 * *cause (freed when cause is NULL). Threads that cannot be created leave
 * the work to fewer threads.
 */
#ifndef GPULENS_POOL_H
#define GPULENS_POOL_H

#include <stddef.h>

#define POOL_MAX	16	/* threads at most */
/*
 * The last member of a structure that each pool thread keeps for itself,
 * in an array of them or beside another on the stack: 64 bytes that no
 * one reads or writes, so that what one thread writes in its loops never
 * shares a cache line with what another thread reads in its own (false
 * sharing). Without it, `launch`'s two walkers, adjacent on the stack, ran
 * their walk at 1e8 events 1.5 times slower whenever the stack's
 * placement put one walker's counters on the line of the other's model
 * pointer.
 */
#define POOL_PAD	char pool_pad[64]
/*
 * Without GPULENS_THREADS a load uses one thread per CPU from
 * POOL_AUTO_MIN CPUs on, at most POOL_AUTO_MAX. Measured on a cold load of
 * a 1e7-event nsys export (bench/bench_threads.sh, an idle 16-CPU
 * machine): 2 threads took 1.12 times as long as 1, 4 took 0.50, 8 took
 * 0.32 and 16 took 0.37; on a 2-CPU machine 2 threads took 1.27 times as
 * long as 1.
 */
#define POOL_AUTO_MIN	4
#define POOL_AUTO_MAX	8

typedef int	(*pool_job_fn)(void *arg, size_t job, unsigned tid,
		    char **cause);

int		 pool_run(size_t njobs, unsigned nthreads, pool_job_fn fn,
		    void *arg, char **cause);
/* The cores this process may run on (its affinity mask), at least 1. */
unsigned	 pool_ncpus(void);
/*
 * The threads one load may use: GPULENS_THREADS when it is a positive
 * integer (at most POOL_MAX), else pool_ncpus() from POOL_AUTO_MIN CPUs on
 * (at most POOL_AUTO_MAX), else 1. 1 inside a job of a
 * pool_run() of several threads (the files of a job loaded in parallel),
 * so that loads in parallel do not each take every CPU.
 */
unsigned	 pool_threads(void);
/*
 * The threads an analysis may split its independent parts over (the
 * devices of a sweep): pool_threads() where GPULENS_THREADS is set, else
 * one per CPU (pool_ncpus()): unlike a load, an analysis gains from a
 * second thread on two CPUs. 1 inside a job of a pool_run() of several
 * threads, as pool_threads().
 */
unsigned	 pool_sweep_threads(void);

#endif
