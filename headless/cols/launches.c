/*
 * The column description of `gpulens launches` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col launches_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("duration_ns", COL_NUM|COL_NULL),
	COLUSE("sm_throughput_pct", 0),
	COLUSE("memory_throughput_pct", 0),
	COLUSE("achieved_occupancy_pct", 0),
	COLUSE("registers_per_thread", COL_NUM|COL_NULL),
	COLUSE("grid", 0),
	COLUSE("block", 0),
	COLUSE("rule_messages", 0),
	COLUSE("kernel", COL_NAME),
	COLUSE("key", 0),
	COLUSE("function", 0),
	COLUSE("device", 0),
	COLUSE("context", 0),
	COLUSE("stream", COL_INT),
	COLUSEX("pid", COL_INT, "\"minimum\":0", NULL),
	COLUSE("mangled", COL_OPT),
	COLUSEX("tid", COL_INT|COL_OPT, "\"minimum\":0", NULL),
	COLUSE("threads", COL_OPT),
	{ "metrics", COL_INT, NULL, "metrics", "\"minimum\":0", NULL },
	COL_END
};

const struct coldesc cols_launches = {
	"launches", launches_rows, NULL, NULL, cols_aux_report, NULL
};
