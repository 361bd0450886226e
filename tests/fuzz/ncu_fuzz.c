/*
 * ncu_fuzz: the Nsight Compute readers on hostile reports: the .ncu-rep
 * container and its protobuf messages (sources/ncurep.c on protowire.c,
 * plain or compressed) and the ncu CSV exports (sources/ncucsv.c), through
 * ncu_load() as the report verbs call it after ncu_detect().
 *
 * A failure must have a reason; a report is freed, and one report verb
 * (picked by the input's length; every one in the replays) runs on the
 * file, so what the readers let through is also what the verbs survive. The file is only read:
 * nothing may appear next to it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sources/ncu.h"
#include "report/report.h"
#include "util/xmalloc.h"

#define P	"\001"

static const char *const verbs[][6] = {
	{ "launches", "--json", "--limit", "0", P, NULL },
	{ "metrics", "--json", P, "*", NULL },
	{ "rules", "--json", P, NULL },
	{ "roofline", "--json", P, NULL },
	{ "info", "--json", P, NULL },
	{ "summary", "--json", P, NULL },
	{ "inspect", "--json", P, "0", NULL },
	{ "launches", P, NULL },		/* a table */
};
#define NVERBS	(sizeof verbs / sizeof verbs[0])

static char	*path;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet_stdout();
	path = fuzz_path("report.ncu-rep");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report	*r;
	char		*cause = NULL;
	enum ncu_kind	 k;

	fuzz_write(path, data, size);
	k = ncu_detect(path);
	FUZZ_CHECK(k == NCU_NONE || k == NCU_REP || k == NCU_CSV);
	if ((r = ncu_load(path, &cause)) == NULL) {
		FUZZ_CHECK(cause != NULL && *cause != '\0');
		free(cause);
	} else
		report_free(r);
	FUZZ_CHECK(fuzz_others("report.ncu-rep") == 0);
	if (k != NCU_NONE) {
#ifdef FUZZ_STRICT
		size_t	i;

		/* Every verb, as fuzz_run_verb() does for the replays. */
		for (i = 0; i < NVERBS; i++)
			fuzz_run_argv(verbs[i], path, 1);
#else
		fuzz_run_argv(verbs[size % NVERBS], path, 1);
#endif
	}
	FUZZ_CHECK(fuzz_others("report.ncu-rep") == 0);
	return 0;
}
