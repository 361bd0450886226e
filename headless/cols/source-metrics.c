/*
 * The column description of `gpulens source-metrics` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col source_metrics_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("offset", COL_OPT),
	COLUSE("pc", COL_OPT),
	COLUSE("file", 0),
	COLUSE("line", COL_OPT),
	COLUSE("instructions", 0),
	{ "inst_executed", COL_NUM|COL_NULL, NULL,
	    "inst executed", "\"minimum\":0", NULL },
	{ "thread_inst_executed", COL_NUM|COL_NULL, NULL,
	    "thread inst executed", "\"minimum\":0", NULL },
	COLUSE("samples", 0),
	{ "l2_sectors_global", COL_NUM|COL_NULL, NULL,
	    "l2 sectors global", "\"minimum\":0", NULL },
	{ "l2_sectors_global_ideal", COL_NUM|COL_NULL, NULL,
	    "l2 sectors global ideal", "\"minimum\":0", NULL },
	{ "divergent_branches", COL_NUM|COL_NULL, NULL,
	    "divergent branches", "\"minimum\":0", NULL },
	{ "counters", COL_OBJ|COL_OPT, NULL,
	    "counters",
	    "\"additionalProperties\":{\"type\":\"number\"}", NULL },
	COLUSE("key", 0),
	COL_END
};

static const struct col source_metrics_aux[] = {
	COLUSE("report", COL_OPT),
	COLUSE("function", COL_NULL|COL_OPT),
	COLUSE("module", COL_OPT),
	{ "sass_embedded", COL_BOOL|COL_OPT, NULL,
	    "sass embedded", NULL, NULL },
	{ "disassemble", COL_STR|COL_NULL|COL_OPT, NULL,
	    "disassemble", NULL, NULL },
	COL_END
};

const struct coldesc cols_source_metrics = {
	"source-metrics", source_metrics_rows, NULL, NULL, source_metrics_aux, NULL
};
