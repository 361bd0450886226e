/*
 * The column description of `gpulens metrics` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col metrics_rows_instance_values[] = {
	{ "id", COL_STR|COL_NUM|COL_NULL, NULL,
	    "event id (its ev: id)",
	    NULL, NULL },
	{ "value", COL_STR|COL_NUM|COL_NULL, NULL,
	    "value",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col metrics_rows[] = {
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "section", COL_STR|COL_OPT, NULL,
	    "report section",
	    NULL, NULL },
	{ "label", COL_STR|COL_OPT, NULL,
	    "label",
	    NULL, NULL },
	{ "name", COL_STR|COL_OPT, NULL,
	    "name",
	    NULL, NULL },
	{ "value", COL_STR|COL_NUM|COL_NULL|COL_OPT, NULL,
	    "value",
	    NULL, NULL },
	{ "unit", COL_STR|COL_OPT, NULL,
	    "unit of value",
	    NULL, NULL },
	{ "instances", COL_INT|COL_OPT, NULL,
	    "per-instance values of the metric",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "kernel", COL_STR|COL_OPT, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "instance_values", COL_ARR|COL_OPT, NULL,
	    "instance values",
	    NULL, metrics_rows_instance_values },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col metrics_aux_report[] = {
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

static const struct col metrics_aux[] = {
	{ "report", COL_OBJ, NULL,
	    "the Nsight Compute report",
	    NULL, metrics_aux_report },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_metrics = {
	"metrics", metrics_rows, NULL, "\"additionalProperties\":{\"type\":[\"number\",\"string\",\"null\"]}", metrics_aux, NULL
};
