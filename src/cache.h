/*
 * cache: the finished model as a zstd-compressed, versioned binary file, so
 * the second open of an unchanged trace skips parsing.
 *
 * File: a fixed header (magic "GPULENSC", format version, struct sizes, the
 * trace's size, mtime (ns), inode and device, the payload's compressed and
 * raw sizes, a CRC32 of the header and a CRC32 of everything after it), then
 * the zstd frames holding every array of the model, its indices included,
 * so that loading rebuilds nothing (model_adopt). Layout details: cache.c.
 *
 * Location: ".<name>.gpulens" next to the trace when that directory is
 * writable, else $XDG_CACHE_HOME/gpulens/ (default ~/.cache/gpulens/) under
 * "<name>-<16 hex digits of a hash of the real path>.gpulens". Written to a
 * mkstemp() file in the same directory and renamed, so readers never see a
 * partial cache, concurrent writers leave one valid file, and a symlink at
 * the cache path is replaced, never followed.
 *
 * A cache whose header, version, trace identity or checksum does not match,
 * or that is a symlink or owned by another user, is ignored (a miss), never
 * trusted.
 */
#ifndef GPULENS_CACHE_H
#define GPULENS_CACHE_H

#include "model.h"

/* The cache file path for trace (malloc'd; caller frees), or NULL with
 * *cause if no location is usable. for_write picks a writable directory. */
char	*cache_path(const char *trace, int for_write, char **cause);
/*
 * Loads the cache of trace. Returns 1 with *out set on a hit, 0 on a miss
 * (absent, stale, corrupt: *cause says why when not NULL), -1 on error.
 */
int	 cache_load(const char *trace, struct model **out, char **cause);
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
/* Removes the cache of trace (both locations). Returns the number removed. */
int	 cache_remove(const char *trace);

#endif
