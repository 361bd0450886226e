/*
 * progress: load progress on stderr ("phase: rows read, percent"), shown
 * only when stderr is a terminal and throttled to ten updates a second.
 * Readers call progress_phase() when they start a table and progress_rows()
 * every few thousand rows. progress_done() erases the line.
 *
 * A watcher (progress_watch) is told of every phase and row count too,
 * whether or not the line is shown, from the thread that loads: the TUI
 * shows a rank's load on its own screen through it. progress_note()
 * names a phase for the watcher only (reading or writing the cache).
 */
#ifndef GPULENS_PROGRESS_H
#define GPULENS_PROGRESS_H

#include <stdint.h>

struct progress {
	int		 enabled;	/* stderr is a tty and not disabled */
	const char	*phase;
	uint64_t	 rows, total;	/* total 0 = unknown */
	uint64_t	 last_ms;
	int		 shown;
	void		(*watch)(void *, const struct progress *);
	void		*watch_arg;
	int		(*stop)(void *);	/* nonzero: give up (arg) */
};

/* enable: 1 on, 0 off, -1 on when stderr is a terminal. NULL progress
 * pointers are accepted by every function and do nothing. */
void	progress_init(struct progress *, int enable);
void	progress_phase(struct progress *, const char *phase, uint64_t total);
void	progress_rows(struct progress *, uint64_t rows);
void	progress_done(struct progress *);
/* Tells fn(arg, p) of every phase and row count from now on (fn NULL:
 * nobody). */
void	progress_watch(struct progress *,
	    void (*fn)(void *, const struct progress *), void *arg);
/* Asks stop(arg) (any thread) whether the load is given up; a reader that
 * can stop early checks progress_stopped() where it reports rows. */
void	progress_stop_fn(struct progress *, int (*stop)(void *));
int	progress_stopped(const struct progress *);
/* A phase only the watcher hears of (total unknown). */
void	progress_note(struct progress *, const char *phase);

#endif
