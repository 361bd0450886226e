/*
 * chrome_fuzz: the generic Chrome trace reader (sources/chrome.c, on the
 * streaming JSON scanner jsonscan.c) on hostile Trace Event Format JSON
 * (plain, gzip or zstd), loaded with chrome_load() as source_read() calls
 * it after detection; see fuzz_reader() for what is checked. The file is
 * only read: nothing may appear next to it.
 */
#include "config.h"

#include "sources/chrome.h"
#include "fuzz.h"

FUZZ_READER_HARNESS("trace.json", chrome_load, 1)
