/*
 * cache-stamp: which model cache a load of a trace would read, named
 * without loading it, for what is derived from that model and kept apart
 * (headless/answers.h).
 *
 * The candidates are tried in the order cache_load() tries them (the cache
 * beside the trace, then the cache directory's); the first whose header
 * passes the loader's header checks against the trace's identity now is
 * the one. Its stamp is the header's bytes (their CRC, the payload's
 * checksum and sizes among them: a rebuilt cache has another) and the
 * file's size. Only the header is read, never the payload: a cache whose
 * payload is damaged stamps like the intact one, and the model rebuilt
 * from the unchanged trace is the same.
 */
#ifndef GPULENS_CACHE_STAMP_H
#define GPULENS_CACHE_STAMP_H

#include <stdint.h>

#include "model/cachedir.h"

struct cache_stamp {
	uint64_t		 hdr;	/* FNV-1a of the header bytes */
	uint64_t		 size;	/* the cache file's size */
	struct cachedir_ident	 id;	/* the trace's identity now */
	char			*path;	/* the cache file (malloc'd), or NULL */
};

/*
 * Stamps the cache of trace: 1 with *st filled, 0 when there is none
 * valid for the trace as it is now (or caching is off), -1 when the trace
 * cannot be read.
 */
int	 cache_stamp(const char *trace, struct cache_stamp *st);
/* Frees what a stamp holds (its path). */
void	 cache_stamp_clear(struct cache_stamp *st);

#endif
