/*
 * The column description of `gpulens comm` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col comm_rows[] = {
	{ "kind", COL_STR, NULL,
	    "kind",
	    NULL, NULL },
	{ "collective", COL_STR, NULL,
	    "collective operation",
	    NULL, NULL },
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "rank", COL_INT|COL_NULL|COL_OPT, NULL,
	    "distributed rank",
	    "\"minimum\":0", NULL },
	{ "count", COL_INT, NULL,
	    "how many",
	    "\"minimum\":1", NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    "\"minimum\":0", NULL },
	{ "mean_ns", COL_NUM, "ns",
	    "mean",
	    "\"minimum\":0", NULL },
	{ "median_ns", COL_NUM, "ns",
	    "median",
	    "\"minimum\":0", NULL },
	{ "min_ns", COL_INT, "ns",
	    "minimum",
	    "\"minimum\":0", NULL },
	{ "max_ns", COL_INT, "ns",
	    "maximum",
	    "\"minimum\":0", NULL },
	{ "gpu_busy_share_pct", COL_NUM|COL_NULL, "pct",
	    "share of gpu busy",
	    "\"minimum\":0", NULL },
	{ "device_busy_ns", COL_INT|COL_NULL, "ns",
	    "device busy time",
	    "\"minimum\":0", NULL },
	{ "total_bytes", COL_INT|COL_NULL, "bytes",
	    "bytes in total",
	    "\"minimum\":0", NULL },
	{ "group_size", COL_INT|COL_NULL, NULL,
	    "group size",
	    "\"minimum\":1", NULL },
	{ "sized_count", COL_INT, NULL,
	    "sized count",
	    "\"minimum\":0", NULL },
	{ "algbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "algorithm bandwidth",
	    "\"minimum\":0", NULL },
	{ "busbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "bus bandwidth",
	    "\"minimum\":0", NULL },
	{ "median_algbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "median algbw",
	    "\"minimum\":0", NULL },
	{ "median_busbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "median busbw",
	    "\"minimum\":0", NULL },
	{ "process_group", COL_STR|COL_NULL, NULL,
	    "process group",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col comm_aux[] = {
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_comm = {
	"comm", comm_rows, NULL, NULL, comm_aux, NULL
};
