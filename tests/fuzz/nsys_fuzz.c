/*
 * nsys_fuzz: the Nsight Systems reader (sources/nsys.c) on mutated SQLite
 * databases.
 *
 * The input is written to a file and loaded with nsys_load(), as
 * source_read() would after detecting an export: a corrupt database, a
 * missing table or column, NULLs, out-of-range ids and absurd times must
 * give a model or a clean error, never a crash. On a model, one verb runs
 * on the file, so what the reader lets through is also what the verbs
 * survive (fuzz_reader). The file is opened read-only: the
 * harness checks that nothing appears next to it.
 */
#include "config.h"

#include "fuzz.h"
#include "sources/source.h"

FUZZ_READER_HARNESS("trace.sqlite", nsys_load, 1)
