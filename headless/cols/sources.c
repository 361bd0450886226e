/*
 * The column description of `gpulens sources` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col sources_rows[] = {
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "kernel", COL_STR, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "module", COL_INT|COL_NULL, NULL,
	    "module",
	    "\"minimum\":0", NULL },
	{ "sm", COL_STR|COL_NULL, NULL,
	    "sm",
	    NULL, NULL },
	{ "cubin_bytes", COL_INT|COL_NULL, "bytes",
	    "cubin size",
	    "\"minimum\":0", NULL },
	{ "function", COL_STR|COL_NULL, NULL,
	    "function",
	    NULL, NULL },
	{ "function_bytes", COL_INT|COL_NULL, "bytes",
	    "function size",
	    "\"minimum\":0", NULL },
	{ "has_cubin", COL_BOOL, NULL,
	    "has cubin",
	    NULL, NULL },
	{ "has_lines", COL_BOOL, NULL,
	    "has lines",
	    NULL, NULL },
	{ "has_ptx", COL_BOOL, NULL,
	    "has ptx",
	    NULL, NULL },
	{ "has_sass_text", COL_BOOL, NULL,
	    "has sass text",
	    NULL, NULL },
	{ "source_files", COL_INT, NULL,
	    "source files",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col sources_aux_report[] = {
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

static const struct col sources_aux[] = {
	{ "report", COL_OBJ|COL_OPT, NULL,
	    "the Nsight Compute report",
	    NULL, sources_aux_report },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_sources = {
	"sources", sources_rows, NULL, NULL, sources_aux, NULL
};
