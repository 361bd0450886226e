/*
 * The column description of `gpulens prep` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col prep_rows[] = {
	COLUSE("key", 0),
	COLUSE("path", COL_STR),
	COLUSEX("action", 0,
	    "\"enum\":[\"written\",\"reused\",\"failed\"]", NULL),
	COLUSE("cache_file", 0),
	COLUSE("files", 0),
	COLUSE("bytes", COL_NULL),
	COLUSE("error", COL_STR|COL_NULL),
	COL_END
};

/* Only for a job (a directory, --shard, --jobs or a Slurm array), and
 * answers only with --answers. */
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
	{ "answers", COL_INT|COL_OPT, NULL,
	    "verb answers stored for the traces (--answers)",
	    "\"minimum\":0", NULL },
	COL_END
};

const struct coldesc cols_prep = {
	"prep", prep_rows, NULL, NULL, prep_aux, NULL
};
