/*
 * The column description of `gpulens launches` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col launches_rows[] = {
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "duration_ns", COL_NUM|COL_NULL, "ns",
	    "duration",
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
	{ "registers_per_thread", COL_NUM|COL_NULL, NULL,
	    "registers per thread",
	    "\"minimum\":0", NULL },
	{ "grid", COL_ARR, NULL,
	    "grid dimensions (x, y, z)",
	    "\"items\":{\"type\":\"integer\",\"minimum\":0}", NULL },
	{ "block", COL_ARR, NULL,
	    "block dimensions (x, y, z)",
	    "\"items\":{\"type\":\"integer\",\"minimum\":0}", NULL },
	{ "rule_messages", COL_INT, NULL,
	    "rule messages of the launch",
	    "\"minimum\":0", NULL },
	{ "kernel", COL_STR|COL_NAME, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "function", COL_STR, NULL,
	    "function",
	    NULL, NULL },
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "context", COL_INT, NULL,
	    "CUDA context id",
	    NULL, NULL },
	{ "stream", COL_INT, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT, NULL,
	    "process id",
	    "\"minimum\":0", NULL },
	{ "mangled", COL_STR|COL_OPT, NULL,
	    "mangled",
	    NULL, NULL },
	{ "tid", COL_INT|COL_OPT, NULL,
	    "thread id",
	    "\"minimum\":0", NULL },
	{ "threads", COL_INT|COL_OPT, NULL,
	    "number of threads",
	    "\"minimum\":0", NULL },
	{ "metrics", COL_INT, NULL,
	    "metrics",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col launches_aux_report[] = {
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

static const struct col launches_aux[] = {
	{ "report", COL_OBJ, NULL,
	    "the Nsight Compute report",
	    NULL, launches_aux_report },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_launches = {
	"launches", launches_rows, NULL, NULL, launches_aux, NULL
};
