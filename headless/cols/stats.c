/*
 * The column description of `gpulens stats` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col stats_rows[] = {
	{ "count", COL_INT, NULL,
	    "how many",
	    "\"minimum\":1", NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    NULL, NULL },
	{ "share_pct", COL_NUM, "pct",
	    "share of the total",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "mean_ns", COL_NUM, "ns",
	    "mean",
	    NULL, NULL },
	{ "median_ns", COL_NUM, "ns",
	    "median",
	    NULL, NULL },
	{ "min_ns", COL_INT, "ns",
	    "minimum",
	    NULL, NULL },
	{ "max_ns", COL_INT, "ns",
	    "maximum",
	    NULL, NULL },
	{ "stddev_ns", COL_NUM, "ns",
	    "standard deviation",
	    "\"minimum\":0", NULL },
	{ "total_bytes", COL_INT|COL_OPT, "bytes",
	    "bytes in total",
	    NULL, NULL },
	{ "device", COL_INT|COL_NULL|COL_OPT, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL|COL_OPT, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL|COL_OPT, NULL,
	    "process id",
	    NULL, NULL },
	{ "tid", COL_INT|COL_NULL|COL_OPT, NULL,
	    "thread id",
	    NULL, NULL },
	{ "iter", COL_INT|COL_NULL|COL_OPT, NULL,
	    "iteration index",
	    NULL, NULL },
	{ "kind", COL_STR|COL_OPT, NULL,
	    "kind",
	    NULL, NULL },
	{ "style", COL_STR|COL_OPT, NULL,
	    "style",
	    "\"enum\":[\"PushPop\",\"StartEnd\"]", NULL },
	{ "short_name", COL_STR|COL_OPT, NULL,
	    "short kernel name",
	    NULL, NULL },
	{ "nvtx_path", COL_STR|COL_OPT, NULL,
	    "innermost NVTX path",
	    NULL, NULL },
	{ "name", COL_STR|COL_OPT|COL_NAME, NULL,
	    "kernel or group name",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "mean_bytes", COL_NUM|COL_OPT, "bytes",
	    "mean bytes",
	    NULL, NULL },
	{ "median_bytes", COL_NUM|COL_OPT, "bytes",
	    "median bytes",
	    NULL, NULL },
	{ "min_bytes", COL_INT|COL_OPT, "bytes",
	    "minimum bytes",
	    NULL, NULL },
	{ "max_bytes", COL_INT|COL_OPT, "bytes",
	    "maximum bytes",
	    NULL, NULL },
	{ "stddev_bytes", COL_NUM|COL_OPT, "bytes",
	    "standard deviation bytes",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col stats_aux[] = {
	{ "grand_total_ns", COL_INT, "ns",
	    "time of every matched row",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_stats = {
	"stats", stats_rows, NULL, NULL, stats_aux, NULL
};
