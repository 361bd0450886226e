/*
 * rpd_fuzz: the rocmProfileData reader (sources/rpd.c) on mutated
 * SQLite databases, loaded with rpd_load() as source_read() calls it after
 * detection; see fuzz_reader() for what is checked. A gzip- or
 * zstd-compressed database is decompressed into the cache location next to
 * the trace (sqlz.h), so this harness does not require the directory to
 * stay empty.
 */
#include "config.h"

#include "fuzz.h"
#include "sources/source.h"

FUZZ_READER_HARNESS("trace.rpd", rpd_load, 0)
