/*
 * The column description of `gpulens report-summary` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_summary_rows[] = {
	COLUSEX("launches", 0, "\"minimum\":1", NULL),
	{ "total_duration_ns", COL_NUM|COL_NULL, "ns",
	    "total duration", "\"minimum\":0", NULL },
	{ "mean_duration_ns", COL_NUM|COL_NULL, "ns",
	    "mean duration", "\"minimum\":0", NULL },
	{ "min_duration_ns", COL_NUM|COL_NULL, "ns",
	    "minimum duration", "\"minimum\":0", NULL },
	{ "max_duration_ns", COL_NUM|COL_NULL, "ns",
	    "maximum duration", "\"minimum\":0", NULL },
	COLUSE("sm_throughput_pct", 0),
	COLUSE("memory_throughput_pct", 0),
	COLUSE("achieved_occupancy_pct", 0),
	COLUSE("rule_messages", 0),
	COLUSE("kernel", COL_NAME),
	COLUSE("key", 0),
	COL_END
};

const struct coldesc cols_report_summary = {
	"report-summary", report_summary_rows, NULL, NULL, cols_aux_report, NULL
};
