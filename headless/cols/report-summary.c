/*
 * The column description of `gpulens report-summary` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* A statistic of the launches' durations, null where none was measured. */
#define REPORT_SUMMARY_DURATION(stat, desc) \
	{ stat "_duration_ns", COL_NUM|COL_NULL, "ns", desc " duration", \
	    "\"minimum\":0", NULL }

static const struct col report_summary_rows[] = {
	COLUSEX("launches", 0, "\"minimum\":1", NULL),
	REPORT_SUMMARY_DURATION("total", "total"),
	REPORT_SUMMARY_DURATION("mean", "mean"),
	REPORT_SUMMARY_DURATION("min", "minimum"),
	REPORT_SUMMARY_DURATION("max", "maximum"),
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
