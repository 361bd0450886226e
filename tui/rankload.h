/*
 * rankload: one rank's traces of a job overview (view-job.h) loaded on a
 * thread of its own, so that the screen shows how far it is (the load's
 * phase and rows, from the readers' progress, util/progress.h) and the
 * user can cancel it.
 *
 * rankload_start() starts the load (source_load, through the trace's
 * cache). A rank of several files (its trace split in parts) is loaded
 * file after file, the state saying which, then merged into one model as
 * several traces of a job are (multi_merge, sources/multi.h); a cancel
 * stops the file being read and skips the others; rankload_peek() copies where it is; once rankload_done(),
 * rankload_take() hands over the model (or the reason it failed).
 * rankload_cancel() gives up a load at once: the screen goes back, the
 * thread runs to the end of the read (the readers cannot be stopped
 * half-way) and its model is freed then; rankload_free() waits for that.
 *
 * GPULENS_TUI_LOAD_HOLD (tests): the load waits before it reads, in phase
 * "held", until cancelled, so that a test sees the loading screen.
 *
 * Ownership: rankload_free() frees the load and what it still holds.
 */
#ifndef GPULENS_RANKLOAD_H
#define GPULENS_RANKLOAD_H

#include <stdint.h>

#include "model/model.h"
#include "sources/source.h"

struct rankload;

/* Where a load is. */
struct rankload_state {
	char		 phase[64];	/* "reading the trace", a reader's */
	uint64_t	 rows, total;	/* total 0: unknown */
	size_t		 file, nfiles;	/* the file read (from 0), of */
	double		 secs;		/* since it started */
	int		 held;		/* GPULENS_TUI_LOAD_HOLD */
	int		 done;
};

/* Starts loading paths[0, n) (n >= 1, copied) as one model with lo; NULL
 * with *cause when no thread can be started. */
struct rankload	*rankload_start(char *const *paths, size_t n,
		    const struct load_opts *, char **cause);
void		 rankload_peek(struct rankload *, struct rankload_state *);
int		 rankload_done(struct rankload *);
/* Once done: the model (the caller's), or NULL with *cause. */
struct model	*rankload_take(struct rankload *, char **cause);
/* Gives the load up; its thread ends on its own. */
void		 rankload_cancel(struct rankload *);
/* Waits for the thread, frees everything. */
void		 rankload_free(struct rankload *);

#endif
