/*
 * rocprof_json_fuzz: the rocprofv3 JSON reader (sources/rocprof-json.c) on
 * hostile JSON (plain, gzip or zstd), loaded with rocprof_json_load() as
 * source_read() calls it after detection; see fuzz_reader() for what is
 * checked. The file is only read: nothing may appear next to it.
 */
#include "config.h"

#include "fuzz.h"
#include "source.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet_stdout();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(data, size, "trace.json", rocprof_json_load, 1);
	return 0;
}
