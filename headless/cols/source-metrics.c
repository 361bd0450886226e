/*
 * The column description of `gpulens source-metrics` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* A counter of the instruction, null where the report has none. */
#define SOURCE_METRICS_COUNTER(name, desc) \
	{ (name), COL_NUM|COL_NULL, NULL, (desc), "\"minimum\":0", NULL }

static const struct col source_metrics_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("offset", COL_OPT),
	COLUSE("pc", COL_OPT),
	COLUSE("file", 0),
	COLUSE("line", COL_OPT),
	COLUSE("instructions", 0),
	SOURCE_METRICS_COUNTER("inst_executed", "inst executed"),
	SOURCE_METRICS_COUNTER("thread_inst_executed", "thread inst executed"),
	COLUSE("samples", 0),
	SOURCE_METRICS_COUNTER("l2_sectors_global", "l2 sectors global"),
	SOURCE_METRICS_COUNTER("l2_sectors_global_ideal",
	    "l2 sectors global ideal"),
	SOURCE_METRICS_COUNTER("divergent_branches", "divergent branches"),
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
