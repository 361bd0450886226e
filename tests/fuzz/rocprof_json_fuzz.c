/*
 * rocprof_json_fuzz: the rocprofv3 JSON reader (sources/rocprof-json.c) on
 * hostile JSON (plain, gzip or zstd), loaded with rocprof_json_load() as
 * source_read() calls it after detection; see fuzz_reader() for what is
 * checked. The file is only read: nothing may appear next to it.
 */
#include "config.h"

#include "fuzz.h"
#include "sources/source.h"

FUZZ_READER_HARNESS("trace.json", rocprof_json_load, 1)
