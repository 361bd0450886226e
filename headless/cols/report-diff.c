/*
 * The column description of `gpulens report-diff` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_diff_rows[] = {
	{ "kernel", COL_STR, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "occurrence", COL_INT, NULL,
	    "occurrence",
	    "\"minimum\":0", NULL },
	{ "launch_a", COL_INT, NULL,
	    "launch a",
	    "\"minimum\":0", NULL },
	{ "launch_b", COL_INT, NULL,
	    "launch b",
	    "\"minimum\":0", NULL },
	{ "metric", COL_STR, NULL,
	    "metric",
	    NULL, NULL },
	{ "label", COL_STR, NULL,
	    "label",
	    NULL, NULL },
	{ "unit", COL_STR, NULL,
	    "unit of value",
	    NULL, NULL },
	{ "a", COL_NUM, NULL,
	    "side A",
	    NULL, NULL },
	{ "b", COL_NUM, NULL,
	    "side B",
	    NULL, NULL },
	{ "change", COL_NUM, NULL,
	    "change",
	    NULL, NULL },
	{ "change_pct", COL_NUM|COL_NULL, "pct",
	    "change",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_diff_aux_report[] = {
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

static const struct col report_diff_aux[] = {
	{ "report", COL_OBJ|COL_OPT, NULL,
	    "the Nsight Compute report",
	    NULL, report_diff_aux_report },
	{ "pairs", COL_INT|COL_OPT, NULL,
	    "pairs",
	    NULL, NULL },
	{ "unmatched_launches", COL_INT|COL_OPT, NULL,
	    "unmatched launches",
	    NULL, NULL },
	{ "gate_broken", COL_INT|COL_OPT, NULL,
	    "gate broken",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_report_diff = {
	"report-diff", report_diff_rows, NULL, NULL, report_diff_aux, NULL
};
