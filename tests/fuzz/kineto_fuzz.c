/*
 * kineto_fuzz: the PyTorch profiler (Kineto) reader (sources/kineto*.c, on
 * the streaming JSON scanner jsonscan.c) on hostile Chrome-trace JSON
 * (plain, gzip or zstd), loaded with kineto_load() as source_read() calls
 * it after detection; see fuzz_reader() for what is checked. The file is
 * only read: nothing may appear next to it.
 */
#include "config.h"

#include "fuzz.h"
#include "sources/kineto.h"

FUZZ_READER_HARNESS("trace.json", kineto_load, 1)
