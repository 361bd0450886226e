/*
 * The column description of `gpulens metrics` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col metrics_rows_instance_values[] = {
	COLUSE("id", COL_STR|COL_NUM|COL_NULL),
	COLUSE("value", 0),
	COL_END
};

static const struct col metrics_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("section", COL_OPT),
	COLUSE("label", COL_OPT),
	COLUSE("name", COL_OPT),
	COLUSE("value", COL_OPT),
	COLUSE("unit", COL_OPT),
	COLUSE("instances", COL_OPT),
	COLUSE("key", 0),
	COLUSE("kernel", COL_OPT),
	{ "instance_values", COL_ARR|COL_OPT, NULL,
	    "instance values", NULL, metrics_rows_instance_values },
	COL_END
};

const struct coldesc cols_metrics = {
	"metrics", metrics_rows, NULL, "\"additionalProperties\":{\"type\":[\"number\",\"string\",\"null\"]}", cols_aux_report, NULL
};
