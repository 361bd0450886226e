/*
 * The column description of `gpulens source-metrics` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col source_metrics_rows[] = {
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "offset", COL_INT|COL_OPT, NULL,
	    "offset",
	    "\"minimum\":0", NULL },
	{ "pc", COL_STR|COL_OPT, NULL,
	    "pc",
	    "\"pattern\":\"^0x[0-9a-f]+$\"", NULL },
	{ "file", COL_STR|COL_NULL, NULL,
	    "file",
	    NULL, NULL },
	{ "line", COL_INT|COL_NULL|COL_OPT, NULL,
	    "line",
	    "\"minimum\":1", NULL },
	{ "instructions", COL_INT, NULL,
	    "instructions",
	    "\"minimum\":0", NULL },
	{ "inst_executed", COL_NUM|COL_NULL, NULL,
	    "inst executed",
	    "\"minimum\":0", NULL },
	{ "thread_inst_executed", COL_NUM|COL_NULL, NULL,
	    "thread inst executed",
	    "\"minimum\":0", NULL },
	{ "samples", COL_NUM|COL_NULL, NULL,
	    "samples",
	    "\"minimum\":0", NULL },
	{ "l2_sectors_global", COL_NUM|COL_NULL, NULL,
	    "l2 sectors global",
	    "\"minimum\":0", NULL },
	{ "l2_sectors_global_ideal", COL_NUM|COL_NULL, NULL,
	    "l2 sectors global ideal",
	    "\"minimum\":0", NULL },
	{ "divergent_branches", COL_NUM|COL_NULL, NULL,
	    "divergent branches",
	    "\"minimum\":0", NULL },
	{ "counters", COL_OBJ|COL_OPT, NULL,
	    "counters",
	    "\"additionalProperties\":{\"type\":\"number\"}", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col source_metrics_aux_report[] = {
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

static const struct col source_metrics_aux[] = {
	{ "report", COL_OBJ|COL_OPT, NULL,
	    "the Nsight Compute report",
	    NULL, source_metrics_aux_report },
	{ "function", COL_STR|COL_NULL|COL_OPT, NULL,
	    "function",
	    NULL, NULL },
	{ "module", COL_INT|COL_NULL|COL_OPT, NULL,
	    "module",
	    NULL, NULL },
	{ "sass_embedded", COL_BOOL|COL_OPT, NULL,
	    "sass embedded",
	    NULL, NULL },
	{ "disassemble", COL_STR|COL_NULL|COL_OPT, NULL,
	    "disassemble",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_source_metrics = {
	"source-metrics", source_metrics_rows, NULL, NULL, source_metrics_aux, NULL
};
