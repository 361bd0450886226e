/*
 * The column description of `gpulens summary` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col summary_rows[] = {
	{ "device", COL_INT, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "rank", COL_INT|COL_NULL|COL_OPT, NULL,
	    "distributed rank",
	    "\"minimum\":0", NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "used", COL_BOOL, NULL,
	    "some stream of the device ran GPU work",
	    NULL, NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    "\"minimum\":0", NULL },
	{ "util_pct", COL_NUM|COL_NULL, "pct",
	    "GPU utilisation",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "idle_ns", COL_INT|COL_NULL, "ns",
	    "GPU idle time",
	    NULL, NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "kernel_ns", COL_INT, "ns",
	    "kernel time",
	    "\"minimum\":0", NULL },
	{ "comm_ns", COL_INT, "ns",
	    "communication kernel time",
	    "\"minimum\":0", NULL },
	{ "comm_pct", COL_NUM, "pct",
	    "comm",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "copy_ns", COL_INT, "ns",
	    "copy and memset time",
	    "\"minimum\":0", NULL },
	{ "memcpy_bytes", COL_INT, "bytes",
	    "memcpy size",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "idle_pct", COL_NUM|COL_NULL, "pct",
	    "idle share of the window",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col summary_aux_top_kernels[] = {
	{ "name", COL_STR|COL_NAME, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "count", COL_NUM, NULL,
	    "how many",
	    NULL, NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    NULL, NULL },
	{ "share_pct", COL_NUM|COL_NULL, "pct",
	    "share of the total",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col summary_aux_memcpy[] = {
	{ "direction", COL_STR, NULL,
	    "copy direction",
	    NULL, NULL },
	{ "count", COL_NUM, NULL,
	    "how many",
	    NULL, NULL },
	{ "total_bytes", COL_INT|COL_NULL, "bytes",
	    "bytes in total",
	    NULL, NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col summary_aux_iterations[] = {
	{ "method", COL_STR|COL_OPT, NULL,
	    "how iterations were found",
	    NULL, NULL },
	{ "marker", COL_STR|COL_NULL|COL_OPT, NULL,
	    "iteration marker",
	    NULL, NULL },
	{ "count", COL_NUM, NULL,
	    "how many",
	    NULL, NULL },
	{ "median_ns", COL_NUM|COL_NULL|COL_OPT, "ns",
	    "median",
	    NULL, NULL },
	{ "sync_blocked_median_ns", COL_NUM|COL_OPT, "ns",
	    "median over the iterations of the host time blocked on the GPU "
	    "inside each (sync_blocked_ns)",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col summary_aux[] = {
	{ "span_ns", COL_INT|COL_NULL, "ns",
	    "span",
	    NULL, NULL },
	{ "devices", COL_INT, NULL,
	    "devices",
	    NULL, NULL },
	{ "devices_total", COL_INT, NULL,
	    "devices in the trace, used or not",
	    NULL, NULL },
	{ "comm_share_pct", COL_NUM|COL_NULL, "pct",
	    "share of comm",
	    NULL, NULL },
	{ "idle_share_pct", COL_NUM|COL_NULL, "pct",
	    "idle share of the devices in use",
	    NULL, NULL },
	{ "sync_calls", COL_INT, NULL,
	    "API calls that block their thread until the GPU is done: "
	    "synchronisations (*Synchronize) and synchronous copies "
	    "(cudaMemcpy, cuMemcpyHtoD, hipMemcpy, ... without Async)",
	    "\"minimum\":0", NULL },
	{ "sync_blocked_ns", COL_INT, "ns",
	    "host time blocked on the GPU: the union over every thread of "
	    "its sync_calls",
	    "\"minimum\":0", NULL },
	{ "sync_blocked_pct", COL_NUM, "pct",
	    "sync_blocked_ns as a share of the span",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "top_kernels", COL_ARR, NULL,
	    "the longest-running kernels",
	    NULL, summary_aux_top_kernels },
	{ "memcpy", COL_ARR, NULL,
	    "copies by kind",
	    NULL, summary_aux_memcpy },
	{ "iterations", COL_OBJ, NULL,
	    "iterations",
	    NULL, summary_aux_iterations },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_summary = {
	"summary", summary_rows, NULL, NULL, summary_aux, NULL
};
