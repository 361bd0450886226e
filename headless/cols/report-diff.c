/*
 * The column description of `gpulens report-diff` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_diff_rows[] = {
	COLUSE("kernel", 0),
	{ "occurrence", COL_INT, NULL, "occurrence", "\"minimum\":0", NULL },
	{ "launch_a", COL_INT, NULL, "launch a", "\"minimum\":0", NULL },
	{ "launch_b", COL_INT, NULL, "launch b", "\"minimum\":0", NULL },
	{ "metric", COL_STR, NULL, "metric", NULL, NULL },
	COLUSE("label", 0),
	COLUSE("unit", 0),
	COLUSE("a", COL_NUM),
	COLUSE("b", COL_NUM),
	{ "change", COL_NUM, NULL, "change", NULL, NULL },
	{ "change_pct", COL_NUM|COL_NULL, "pct", "change", NULL, NULL },
	COLUSE("key", 0),
	COL_END
};

static const struct col report_diff_aux[] = {
	COLUSE("report", COL_OPT),
	{ "pairs", COL_INT|COL_OPT, NULL, "pairs", NULL, NULL },
	{ "unmatched_launches", COL_INT|COL_OPT, NULL,
	    "unmatched launches", NULL, NULL },
	{ "gate_broken", COL_INT|COL_OPT, NULL, "gate broken", NULL, NULL },
	COL_END
};

const struct coldesc cols_report_diff = {
	"report-diff", report_diff_rows, NULL, NULL, report_diff_aux, NULL
};
