/*
 * cache: the finished model as a zstd-compressed, versioned binary file, so
 * the second open of an unchanged trace skips parsing.
 *
 * File: a fixed header (magic "GPULENSC", format version, struct sizes, the
 * trace's size, mtime (ns), inode and device, the payload's compressed and
 * raw sizes, a CRC32 of the header and a CRC32 of everything after it), then
 * the zstd frames holding every array of the model, its indices included,
 * so that loading rebuilds nothing (model_adopt). Layout details: cache-int.h.
 *
 * Location: the cache directory ($XDG_CACHE_HOME/gpulens, else
 * ~/.cache/gpulens), or next to the trace as ".<name>.gpulens" when written
 * by `prep --beside` (cachedir.h). Written to a temporary file in the same
 * directory and renamed, so readers never see a partial cache, concurrent
 * writers leave one valid file, and a symlink at the cache path is
 * replaced, never followed; a temporary left by an interrupted write is
 * removed on SIGINT/SIGTERM and swept later otherwise (tmpreg.h).
 *
 * A cache whose header, version, trace identity or checksum does not match,
 * or that is a symlink or owned by another user, is ignored (a miss), never
 * trusted.
 */
#ifndef GPULENS_CACHE_H
#define GPULENS_CACHE_H

#include "model/cachedir.h"
#include "model/model.h"

/* The cache file path for trace (malloc'd; caller frees), or NULL with
 * *cause if no location is usable: for reading, the one beside the trace
 * if it exists, else the cache directory's; for writing, where the mode
 * (cachedir_set_mode) puts it, the directory created if needed. */
char	*cache_path(const char *trace, int for_write, char **cause);
/*
 * Loads the cache of trace. Returns 1 with *out set on a hit, 0 on a miss
 * (absent, stale, corrupt: *cause says why when not NULL), -1 on error.
 */
int	 cache_load(const char *trace, struct model **out, char **cause);
/* As cache_load(), for a trace whose identity was taken (cachedir_ident)
 * before it was read. */
int	 cache_load_ident(const char *trace, const struct cachedir_ident *,
	    struct model **out, char **cause);
/*
 * As cache_load(), but reads only the head of the cache (a few kilobytes:
 * entities, strings, metadata, warnings, per-kind and per-track event
 * counts) and returns a summary model (m->summary set, every lane empty;
 * see model.h), checked by its own CRC. For `gpulens info`, whose output
 * it gives in milliseconds whatever the trace's size.
 */
int	 cache_load_summary(const char *trace, struct model **out,
	    char **cause);
/* Writes the cache of trace (m finalized, not a summary). Returns 0, or -1
 * with *cause. */
int	 cache_save(const char *trace, const struct model *, char **cause);
/* As cache_save(), stamping the identity id that the trace had when it was
 * read (not whatever the path names now). */
int	 cache_save_ident(const char *trace, const struct cachedir_ident *id,
	    const struct model *, char **cause);
/* Removes the cache of trace (both locations) and its derived copies.
 * Returns the number of files removed. */
int	 cache_remove(const char *trace);

#endif
