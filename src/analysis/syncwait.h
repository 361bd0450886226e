/*
 * syncwait: host time blocked on the GPU. The API calls that block their
 * thread until the GPU is done (apicall.h: the synchronisations and the
 * synchronous copies), inside a window [t0, t1): per thread, the union of
 * its calls (a call nested in another counts once), and over the whole
 * trace the union over every thread (the wall time in which some thread
 * waited on the GPU), so a share of the window stays within 100%.
 *
 * syncwait_measure() gives the blocked time (union over threads) inside
 * any window within [t0, t1): per iteration, for instance;
 * syncwait_measure_proc() the same over the threads of one process (the
 * union of their blocking calls: threads of a process that wait at once
 * count once; per iteration in `iters`).
 *
 * Cost: one pass over the API tracks and a sort of the blocking calls.
 *
 * Ownership: struct syncwait owns its rows and set (syncwait_free).
 */
#ifndef GPULENS_SYNCWAIT_H
#define GPULENS_SYNCWAIT_H

#include <stddef.h>
#include <stdint.h>

#include "model/iset.h"
#include "model/model.h"

struct syncwait_thread {
	uint32_t	 track;		/* its API track */
	uint32_t	 thread;	/* index into threads, NONE32 */
	uint32_t	 process;	/* index into processes, NONE32 */
	uint64_t	 calls;		/* blocking calls */
	uint64_t	 sync_calls;	/* of which synchronisations */
	int64_t		 blocked;	/* union of its blocking calls */
	int64_t		 sync;		/* union of its synchronisations */
};

struct syncwait {
	struct syncwait_thread	*th;	/* threads with a blocking call, most
					   blocked first */
	size_t			 n;
	uint64_t		 calls;
	uint64_t		 sync_calls;
	int64_t			 blocked;	/* union over every thread */
	int64_t			 t0, t1;
	struct iset		 all;		/* that union, indexed */
	struct iset		*proc;		/* per process (nprocesses + 1:
					   the last for threads of no
					   process), indexed */
	size_t			 nproc;
};

void	 syncwait_build(struct syncwait *, const struct model *, int64_t t0,
	    int64_t t1);
/* Blocked time (union over threads) inside [a, b). */
int64_t	 syncwait_measure(const struct syncwait *, int64_t a, int64_t b);
/* Blocked time of process p's threads (index; NONE32: every thread's)
 * inside [a, b). */
int64_t	 syncwait_measure_proc(const struct syncwait *, uint32_t p, int64_t a,
	    int64_t b);
void	 syncwait_free(struct syncwait *);

#endif
