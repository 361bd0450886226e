/*
 * The column description of `gpulens sources` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col sources_rows[] = {
	COLUSE("launch_id", 0),
	COLUSEX("module", 0, "\"minimum\":0", NULL),
	{ "sm", COL_STR|COL_NULL, NULL, "sm", NULL, NULL },
	{ "cubin_bytes", COL_INT|COL_NULL, "bytes",
	    "cubin size", "\"minimum\":0", NULL },
	{ "function_bytes", COL_INT|COL_NULL, "bytes",
	    "function size", "\"minimum\":0", NULL },
	COLUSE("has_lines", 0),
	{ "has_ptx", COL_BOOL, NULL, "has ptx", NULL, NULL },
	{ "source_files", COL_INT, NULL,
	    "source files", "\"minimum\":0", NULL },
	COLUSE("function", COL_NULL),
	COLUSE("kernel", 0),
	COLUSE("key", 0),
	{ "has_cubin", COL_BOOL, NULL, "has cubin", NULL, NULL },
	{ "has_sass_text", COL_BOOL, NULL, "has sass text", NULL, NULL },
	COL_END
};

const struct coldesc cols_sources = {
	"sources", sources_rows, NULL, NULL, cols_aux_report_opt, NULL
};
