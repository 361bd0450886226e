/*
 * The column description of `gpulens report-graphs` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_graphs_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("name", 0),
	{ "graph_metrics", COL_INT, NULL,
	    "graph metrics", "\"minimum\":1", NULL },
	COLUSE("duration_ns", COL_NUM|COL_NULL),
	COLUSE("key", 0),
	COL_END
};

const struct coldesc cols_report_graphs = {
	"report-graphs", report_graphs_rows, NULL, NULL, cols_aux_report_opt, NULL
};
