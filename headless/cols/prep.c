/*
 * The column description of `gpulens prep` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col prep_rows[] = {
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "path", COL_STR, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "action", COL_STR, NULL,
	    "what was done",
	    "\"enum\":[\"written\",\"reused\",\"failed\"]", NULL },
	{ "cache_file", COL_STR|COL_NULL, NULL,
	    "cache file written, reused or removed",
	    NULL, NULL },
	{ "files", COL_INT, NULL,
	    "files",
	    "\"minimum\":0", NULL },
	{ "bytes", COL_INT|COL_NULL, NULL,
	    "bytes moved",
	    "\"minimum\":0", NULL },
	{ "error", COL_STR|COL_NULL, NULL,
	    "error",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

/* Only for a job (a directory, --shard, --jobs or a Slurm array). */
static const struct col prep_aux[] = {
	{ "shard", COL_STR|COL_OPT, NULL,
	    "this task's share of the traces, I/N (--shard or the Slurm "
	    "array's task)",
	    NULL, NULL },
	{ "jobs", COL_INT|COL_OPT, NULL,
	    "traces prepped at a time (--jobs)",
	    "\"minimum\":1", NULL },
	{ "summaries", COL_INT|COL_OPT, NULL,
	    "valid rank summaries of this share's traces",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_prep = {
	"prep", prep_rows, NULL, NULL, prep_aux, NULL
};
