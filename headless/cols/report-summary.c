/*
 * The column description of `gpulens report-summary` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_summary_rows[] = {
	{ "launches", COL_INT, NULL,
	    "launches",
	    "\"minimum\":1", NULL },
	{ "total_duration_ns", COL_NUM|COL_NULL, "ns",
	    "total duration",
	    "\"minimum\":0", NULL },
	{ "mean_duration_ns", COL_NUM|COL_NULL, "ns",
	    "mean duration",
	    "\"minimum\":0", NULL },
	{ "min_duration_ns", COL_NUM|COL_NULL, "ns",
	    "minimum duration",
	    "\"minimum\":0", NULL },
	{ "max_duration_ns", COL_NUM|COL_NULL, "ns",
	    "maximum duration",
	    "\"minimum\":0", NULL },
	{ "sm_throughput_pct", COL_NUM|COL_NULL, "pct",
	    "SM throughput",
	    NULL, NULL },
	{ "memory_throughput_pct", COL_NUM|COL_NULL, "pct",
	    "memory throughput",
	    NULL, NULL },
	{ "achieved_occupancy_pct", COL_NUM|COL_NULL, "pct",
	    "achieved occupancy",
	    NULL, NULL },
	{ "rule_messages", COL_INT, NULL,
	    "rule messages of the launch",
	    "\"minimum\":0", NULL },
	{ "kernel", COL_STR|COL_NAME, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_summary_aux_report[] = {
	{ "path", COL_STR|COL_NULL, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "format", COL_STR, NULL,
	    "format",
	    NULL, NULL },
	{ "version", COL_INT|COL_NULL, NULL,
	    "version",
	    NULL, NULL },
	{ "tool_version", COL_STR|COL_NULL, NULL,
	    "tool version",
	    NULL, NULL },
	{ "launches", COL_INT, NULL,
	    "launches",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_summary_aux[] = {
	{ "report", COL_OBJ, NULL,
	    "the Nsight Compute report",
	    NULL, report_summary_aux_report },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_report_summary = {
	"report-summary", report_summary_rows, NULL, NULL, report_summary_aux, NULL
};
