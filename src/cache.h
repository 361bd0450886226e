/*
 * cache: the finished model as a zstd-compressed, versioned binary file, so
 * the second open of an unchanged trace skips parsing.
 *
 * File: a fixed header (magic "GPULENSC", format version, the trace's size,
 * mtime (ns) and inode, the payload's compressed and raw sizes and a CRC32
 * of the compressed payload), then the zstd payload holding every array of
 * the model (derived indices are rebuilt by model_finalize on load).
 *
 * Location: "<trace>.gpulens-cache" next to the trace when that directory is
 * writable, else $XDG_CACHE_HOME/gpulens/ (default ~/.cache/gpulens/) under a
 * name derived from the trace's absolute path. Written to a temporary file in
 * the same directory and renamed, so readers never see a partial cache and
 * concurrent writers leave one valid file.
 *
 * A cache whose header, version, trace identity or checksum does not match
 * is ignored (a miss), never trusted.
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
/* Writes the cache of trace. Returns 0, or -1 with *cause. */
int	 cache_save(const char *trace, const struct model *, char **cause);
/* Removes the cache of trace (both locations). Returns the number removed. */
int	 cache_remove(const char *trace);

#endif
