/*
 * The column description of `gpulens iters` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col iters_rows[] = {
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "rank", COL_INT|COL_NULL|COL_OPT, NULL,
	    "distributed rank",
	    "\"minimum\":0", NULL },
	{ "iter", COL_INT, NULL,
	    "iteration index",
	    "\"minimum\":0", NULL },
	{ "start_ns", COL_INT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT, "ns",
	    "duration",
	    "\"minimum\":0", NULL },
	{ "gpu_busy_ns", COL_INT, "ns",
	    "GPU busy time of the work under it",
	    "\"minimum\":0", NULL },
	{ "gpu_busy_pct", COL_NUM, "pct",
	    "gpu busy",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "copies", COL_INT, NULL,
	    "copies",
	    "\"minimum\":0", NULL },
	{ "memsets", COL_INT, NULL,
	    "memsets",
	    "\"minimum\":0", NULL },
	{ "slowest", COL_BOOL, NULL,
	    "slowest",
	    NULL, NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "gpus", COL_INT|COL_OPT, NULL,
	    "number of GPUs",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col iters_aux[] = {
	{ "method", COL_STR, NULL,
	    "how iterations were found",
	    NULL, NULL },
	{ "marker", COL_STR|COL_NULL, NULL,
	    "iteration marker",
	    NULL, NULL },
	{ "iterations", COL_INT, NULL,
	    "iterations",
	    NULL, NULL },
	{ "median_ns", COL_NUM|COL_NULL, "ns",
	    "median",
	    NULL, NULL },
	{ "mean_ns", COL_NUM|COL_NULL, "ns",
	    "mean",
	    NULL, NULL },
	{ "min_ns", COL_INT, "ns",
	    "minimum",
	    NULL, NULL },
	{ "max_ns", COL_INT, "ns",
	    "maximum",
	    NULL, NULL },
	{ "stddev_ns", COL_NUM|COL_NULL, "ns",
	    "standard deviation",
	    NULL, NULL },
	{ "spread_pct", COL_NUM|COL_NULL, "pct",
	    "spread",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_iters = {
	"iters", iters_rows, NULL, NULL, iters_aux, NULL
};
