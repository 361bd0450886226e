/*
 * tmpreg: temporary files that must not outlive the process.
 *
 * A file written under a temporary name and renamed into place (a cache, a
 * decompressed database, an export) is registered here while it exists.
 * SIGINT, SIGTERM and SIGHUP remove every registered file before the
 * signal takes its previous course (the handler that was installed, or the
 * default action), and so does exit(). SIGKILL cannot be caught: the names
 * carry the writer's process id (tmpreg_name) so that a later sweep can
 * tell a dead writer's leftovers (tmpreg_stale).
 *
 * Thread-safe: ranks load on threads. At most TMPREG_MAX files are
 * registered at once; beyond that a file is still created and removed on
 * the error paths, only not on a signal.
 */
#ifndef GPULENS_TMPREG_H
#define GPULENS_TMPREG_H

#include <time.h>

#define TMPREG_MAX	16
#define TMPREG_TAG	".tmp-"		/* final ".tmp-PID-HOST-XXXXXX" */
/* A temporary whose writer is gone from this host, or that nobody has
 * written for this long, is stale. */
#define TMPREG_IDLE	3600		/* seconds */

/*
 * Creates "FINAL.tmp-PID-HOST-XXXXXX" (mode 0600, O_CLOEXEC) and registers it.
 * Returns the descriptor with *tmp set (caller frees), or -1 with errno.
 */
int	 tmpreg_create(const char *final, char **tmp);
/* Registers an existing temporary path (copied) for removal. */
void	 tmpreg_add(const char *path);
/* Forgets path (after it was renamed into place or removed). */
void	 tmpreg_forget(const char *path);
/* Removes path and forgets it. */
void	 tmpreg_discard(const char *path);
/*
 * 1 if name (a file name, no directory) is a temporary of ours that is
 * stale: its writer's process no longer exists on this host, or mtime is
 * TMPREG_IDLE seconds before now. 0 if it is not ours or still live.
 */
int	 tmpreg_stale(const char *name, time_t mtime, time_t now);
/* 1 if name has the shape of one of our temporaries. */
int	 tmpreg_is_tmp(const char *name);

#endif
