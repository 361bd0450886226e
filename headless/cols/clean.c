/*
 * The column description of `gpulens clean` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col clean_rows[] = {
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "path", COL_STR, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "action", COL_STR, NULL,
	    "what was done",
	    "\"enum\":[\"removed\",\"none\"]", NULL },
	{ "cache_file", COL_STR|COL_NULL, NULL,
	    "cache file written, reused or removed",
	    NULL, NULL },
	{ "files", COL_INT, NULL,
	    "files",
	    "\"minimum\":0", NULL },
	{ "bytes", COL_INT, NULL,
	    "bytes moved",
	    "\"minimum\":0", NULL },
	{ "error", COL_NULL, NULL,
	    "error",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_clean = {
	"clean", clean_rows, NULL, NULL, NULL, NULL
};
