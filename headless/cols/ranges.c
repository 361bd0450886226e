/*
 * The column description of `gpulens ranges` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col ranges_rows[] = {
	{ "range_id", COL_INT, NULL,
	    "range id",
	    "\"minimum\":0", NULL },
	{ "bytes", COL_INT, NULL,
	    "bytes moved",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col ranges_aux_report[] = {
	{ "path", COL_STR|COL_NULL|COL_OPT, NULL,
	    "the report's path",
	    NULL, NULL },
	{ "format", COL_STR|COL_OPT, NULL,
	    "format",
	    NULL, NULL },
	{ "version", COL_INT|COL_NULL|COL_OPT, NULL,
	    "version",
	    NULL, NULL },
	{ "tool_version", COL_STR|COL_NULL|COL_OPT, NULL,
	    "tool version",
	    NULL, NULL },
	{ "launches", COL_INT|COL_OPT, NULL,
	    "launches",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col ranges_aux[] = {
	{ "report", COL_OBJ|COL_OPT, NULL,
	    "the Nsight Compute report",
	    NULL, ranges_aux_report },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_ranges = {
	"ranges", ranges_rows, NULL, NULL, ranges_aux, NULL
};
