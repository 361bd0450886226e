/*
 * The column description of `gpulens window` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col window_rows[] = {
	{ "method", COL_STR, NULL,
	    "how iterations were found",
	    "\"enum\":[\"iteration-nvtx\",\"iteration-kernel\",\"phase\",\"whole\"]", NULL },
	{ "start_ns", COL_INT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "end_ns", COL_INT, "ns-time",
	    "end, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT, "ns",
	    "duration",
	    "\"minimum\":0", NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "iter", COL_INT|COL_NULL, NULL,
	    "iteration index",
	    "\"minimum\":0", NULL },
	{ "iterations", COL_INT, NULL,
	    "iterations",
	    "\"minimum\":0", NULL },
	{ "median_iter_ns", COL_NUM|COL_NULL, "ns",
	    "median iter",
	    "\"minimum\":0", NULL },
	{ "skipped", COL_INT, NULL,
	    "skipped",
	    "\"minimum\":0", NULL },
	{ "util_pct", COL_NUM, "pct",
	    "GPU utilisation",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    "\"minimum\":0", NULL },
	{ "exposed_comm_ns", COL_INT, "ns",
	    "communication not hidden by compute",
	    "\"minimum\":0", NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "marker", COL_STR, NULL,
	    "iteration marker",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    "\"const\":\"window|window=steady\"", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col window_aux[] = {
	{ "gpus", COL_INT|COL_OPT, NULL,
	    "number of GPUs",
	    NULL, NULL },
	{ "phases", COL_INT|COL_OPT, NULL,
	    "phases",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_window = {
	"window", window_rows, NULL, NULL, window_aux, NULL
};
