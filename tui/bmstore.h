/*
 * bmstore: the bookmarks of a trace, kept between sessions.
 *
 * They live in the cache directory (model/cachedir.h), beside the trace's
 * model cache and never beside the trace: "<root>/NAME-H.bookmarks" for
 * the trace whose real path hashes to H ("NAME-H-jobN.bookmarks" for a job
 * of N traces, named after the first). The file is text:
 *   gpulens-bookmarks 1
 *   ident SIZE MTIME CTIME INO DEV FP     one per regular-file trace
 *   next ID
 *   b ID T0 SPAN CURSOR GID                one per bookmark
 * and is read only while every identity still matches (a trace replaced
 * by another capture starts with none: the times and events would be
 * another trace's). Saving writes a temporary file and renames it.
 *
 * Nothing here fails the TUI: without a usable cache directory (--no-cache,
 * unwritable, not ours) bookmarks are the session's only, and
 * bmstore_save() says why in *cause ("--no-cache", "cannot write PATH",
 * the cache directory's trouble) for the status line.
 */
#ifndef GPULENS_BMSTORE_H
#define GPULENS_BMSTORE_H

#include "tui/bookmark.h"

/* The store's path for traces paths[0, n) (malloc'd), or NULL with *cause
 * (caller frees) when bookmarks cannot be kept. */
char	*bmstore_path(const char *const *paths, int n, int create,
	    char **cause);
/* Reads the bookmarks of paths[0, n) into bm (empty first); events past
 * nevents are dropped from them. Returns the number read. */
size_t	 bmstore_load(struct bookmarks *bm, const char *const *paths, int n,
	    uint32_t nevents);
/* Writes bm for paths[0, n). Returns 0, or -1 with *cause. */
int	 bmstore_save(const struct bookmarks *bm, const char *const *paths,
	    int n, char **cause);

#endif
