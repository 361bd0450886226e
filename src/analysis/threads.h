/*
 * threads: which CPU threads ran, from the model's scheduling table
 * (model.h, struct sched_thread and struct sched_run: nsys SCHED_EVENTS).
 *
 * For each thread and a window, its running time (the part of its runs
 * inside the window), not-running time (the rest of the window), the
 * running share of the window, its context switches (the runs that start
 * inside the window: each is a sched-in) and the CPUs its runs inside the
 * window were on.
 *
 * The window is [t0, t1) or, with windows given (--nvtx instances), the
 * union of the windows of the thread's process (or of every process: pid
 * THREADS_ANYPID) inside [t0, t1); a thread whose process has none is left
 * out. Threads with no run inside their window are left out too (counted
 * in nidle). Rows are by running time, most first, then pid and tid.
 *
 * Cost: one pass over the runs, plus the windows of each thread.
 *
 * Ownership: struct threads owns its rows and their CPU lists
 * (threads_free).
 */
#ifndef GPULENS_THREADS_H
#define GPULENS_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define THREADS_ANYPID	UINT32_MAX

struct threads_win {
	int64_t		 start, end;	/* [start, end) */
	uint32_t	 pid;		/* OS pid, or THREADS_ANYPID */
};

struct threads_query {
	int64_t			 t0, t1;	/* the outer window */
	const struct threads_win *win;		/* NULL: [t0, t1) */
	size_t			 nwin;
	int64_t			 pid;		/* -1: every process */
};

struct threads_row {
	uint32_t	 st;		/* index into m->sched_threads */
	int64_t		 window;	/* ns of window */
	int64_t		 running;	/* ns running inside it */
	uint64_t	 switches;	/* sched-ins inside it */
	uint16_t	*cpus;		/* distinct CPUs, ascending */
	size_t		 ncpus;
	int		 open;		/* a run never ended (SCHEDF_OPEN) */
};

struct threads {
	struct threads_row	*rows;
	size_t			 n;
	size_t			 nidle;		/* threads with no run inside */
	int64_t			 running;	/* all rows, saturated */
	uint64_t		 switches;
	size_t			 ncpus;		/* distinct CPUs of all rows */
};

/* Whether the model has scheduling data. */
int	threads_have(const struct model *);
void	threads_build(struct threads *, const struct model *,
	    const struct threads_query *);
void	threads_free(struct threads *);
/* The scheduling entry of a thread by its source id (globalTid), or
 * NONE32: a binary search. */
uint32_t threads_find(const struct model *, uint64_t source_id);
/* Writes a CPU list as ranges ("0-3,7") into buf. */
void	threads_cpus_text(const uint16_t *, size_t, char *buf, size_t len);

#endif
