/*
 * The column description of `gpulens launch` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col launch_rows[] = {
	COLUSE("count", 0),
	{ "qcount", COL_INT, NULL, "qcount", "\"minimum\":0", NULL },
	{ "short_kernels", COL_INT, NULL,
	    "short kernels", "\"minimum\":0", NULL },
	{ "api_mean_ns", COL_NUM|COL_NULL, "ns", "mean api time", NULL, NULL },
	{ "api_median_ns", COL_NUM|COL_NULL, "ns",
	    "median api time", NULL, NULL },
	{ "queue_mean_ns", COL_NUM|COL_NULL, "ns",
	    "mean queue time", NULL, NULL },
	{ "queue_median_ns", COL_NUM|COL_NULL, "ns",
	    "median queue time", NULL, NULL },
	{ "kernel_mean_ns", COL_NUM|COL_NULL, "ns",
	    "mean kernel time", NULL, NULL },
	{ "kernel_median_ns", COL_NUM|COL_NULL, "ns",
	    "median kernel time", NULL, NULL },
	{ "total_mean_ns", COL_NUM|COL_NULL, "ns",
	    "mean total time", NULL, NULL },
	COLUSE("device", COL_OPT),
	COLUSE("stream", COL_OPT),
	COLUSE("pid", COL_OPT),
	COLUSE("tid", COL_OPT),
	{ "api", COL_STR|COL_OPT, NULL, "api", NULL, NULL },
	COLUSE("short_name", COL_OPT),
	{ "name", COL_STR|COL_OPT|COL_NAME, NULL,
	    "kernel or group name", NULL, NULL },
	COLUSE("key", 0),
	{ "short_kernels_pct", COL_NUM, "pct",
	    "short kernels", "\"minimum\":0,\"maximum\":100", NULL },
	{ "api_p90_ns", COL_NUM|COL_NULL, "ns",
	    "90th percentile api time", NULL, NULL },
	{ "api_p99_ns", COL_NUM|COL_NULL, "ns",
	    "99th percentile api time", NULL, NULL },
	{ "api_min_ns", COL_INT|COL_NULL, "ns",
	    "minimum api time", NULL, NULL },
	{ "api_max_ns", COL_INT|COL_NULL, "ns",
	    "maximum api time", NULL, NULL },
	{ "api_stddev_ns", COL_NUM|COL_NULL, "ns",
	    "standard deviation api time", NULL, NULL },
	{ "queue_p90_ns", COL_NUM|COL_NULL, "ns",
	    "90th percentile queue time", NULL, NULL },
	{ "queue_p99_ns", COL_NUM|COL_NULL, "ns",
	    "99th percentile queue time", NULL, NULL },
	{ "queue_min_ns", COL_INT|COL_NULL, "ns",
	    "minimum queue time", NULL, NULL },
	{ "queue_max_ns", COL_INT|COL_NULL, "ns",
	    "maximum queue time", NULL, NULL },
	{ "queue_stddev_ns", COL_NUM|COL_NULL, "ns",
	    "standard deviation queue time", NULL, NULL },
	{ "kernel_p90_ns", COL_NUM|COL_NULL, "ns",
	    "90th percentile kernel time", NULL, NULL },
	{ "kernel_p99_ns", COL_NUM|COL_NULL, "ns",
	    "99th percentile kernel time", NULL, NULL },
	{ "kernel_min_ns", COL_INT|COL_NULL, "ns",
	    "minimum kernel time", NULL, NULL },
	{ "kernel_max_ns", COL_INT|COL_NULL, "ns",
	    "maximum kernel time", NULL, NULL },
	{ "kernel_stddev_ns", COL_NUM|COL_NULL, "ns",
	    "standard deviation kernel time", NULL, NULL },
	{ "total_median_ns", COL_NUM|COL_NULL, "ns",
	    "median total time", NULL, NULL },
	{ "total_p90_ns", COL_NUM|COL_NULL, "ns",
	    "90th percentile total time", NULL, NULL },
	{ "total_p99_ns", COL_NUM|COL_NULL, "ns",
	    "99th percentile total time", NULL, NULL },
	{ "total_min_ns", COL_INT|COL_NULL, "ns",
	    "minimum total time", NULL, NULL },
	{ "total_max_ns", COL_INT|COL_NULL, "ns",
	    "maximum total time", NULL, NULL },
	{ "total_stddev_ns", COL_NUM|COL_NULL, "ns",
	    "standard deviation total time", NULL, NULL },
	COL_END
};

static const struct col launch_aux_sync[] = {
	COLUSE("pid", 0),
	COLUSE("tid", 0),
	{ "calls", COL_INT, NULL,
	    "its blocking calls",
	    "\"minimum\":0", NULL },
	{ "sync_calls", COL_INT, NULL,
	    "of which synchronisations (*Synchronize)",
	    "\"minimum\":0", NULL },
	{ "blocked_ns", COL_INT, "ns",
	    "time in its blocking calls (their union)",
	    "\"minimum\":0", NULL },
	{ "sync_ns", COL_INT, "ns",
	    "of which in synchronisations",
	    "\"minimum\":0", NULL },
	{ "blocked_pct", COL_NUM, "pct",
	    "blocked_ns as a share of the window",
	    "\"minimum\":0,\"maximum\":100", NULL },
	COL_END
};

static const struct col launch_aux[] = {
	COLUSEX("kernels", 0, "", NULL),
	{ "linked_kernels", COL_INT, NULL, "linked kernels", NULL, NULL },
	{ "replayed_kernels", COL_INT, NULL,
	    "kernels replayed by a graph launch after its first (no launch of their own)",
	    "\"minimum\":0", NULL },
	{ "unlinked_kernels", COL_INT, NULL, "unlinked kernels", NULL, NULL },
	{ "sync_calls", COL_INT, NULL,
	    "API calls in the window that block their thread until the GPU is "
	    "done: synchronisations (*Synchronize) and synchronous copies "
	    "(cudaMemcpy and the like without Async)",
	    "\"minimum\":0", NULL },
	{ "sync_blocked_ns", COL_INT, "ns",
	    "host time blocked on the GPU in the window: the union over every "
	    "thread of its sync_calls",
	    "\"minimum\":0", NULL },
	{ "sync_blocked_pct", COL_NUM, "pct",
	    "sync_blocked_ns as a share of the window",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "sync_threads", COL_ARR, NULL,
	    "per thread with a blocking call (of --pid/--tid when given), "
	    "most blocked first",
	    NULL, launch_aux_sync },
	COL_END
};

const struct coldesc cols_launch = {
	"launch", launch_rows, NULL, NULL, launch_aux, NULL
};
