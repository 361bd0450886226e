/*
 * The column description of `gpulens summary` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col summary_rows[] = {
	COLUSE("device", COL_INT),
	COLUSE("rank", COL_OPT),
	COLUSE("name", 0),
	COLUSE("used", 0),
	COLUSE("busy_ns", 0),
	COLUSE("util_pct", COL_NULL),
	COLUSE("idle_ns", 0),
	COLUSE("kernels", 0),
	COLUSEX("kernel_ns", 0, "\"minimum\":0", NULL),
	COLUSEX("comm_ns", 0, "\"minimum\":0", NULL),
	COLUSEX("comm_pct", 0, "\"minimum\":0,\"maximum\":100", NULL),
	COLUSE("copy_ns", 0),
	{ "memcpy_bytes", COL_INT, "bytes",
	    "memcpy size", "\"minimum\":0", NULL },
	COLUSE("key", 0),
	COLUSE("idle_pct", 0),
	COL_END
};

static const struct col summary_aux_top_kernels[] = {
	{ "name", COL_STR|COL_NAME, NULL, "kernel name", NULL, NULL },
	COLUSEX("count", COL_NUM, "", NULL),
	COLUSE("total_ns", 0),
	COLUSEX("share_pct", COL_NULL, "", NULL),
	COL_END
};

static const struct col summary_aux_memcpy[] = {
	{ "direction", COL_STR, NULL, "copy direction", NULL, NULL },
	COLUSEX("count", COL_NUM, "", NULL),
	COLUSE("total_bytes", 0),
	COLUSE("total_ns", 0),
	COL_END
};

static const struct col summary_aux_iterations[] = {
	COLUSE("method", COL_OPT),
	COLUSE("marker", COL_OPT),
	COLUSEX("count", COL_NUM, "", NULL),
	COLUSE("median_ns", COL_NULL|COL_OPT),
	{ "sync_blocked_median_ns", COL_NUM|COL_OPT, "ns",
	    "median over the iterations of the host time blocked on the GPU "
	    "inside each (sync_blocked_ns)",
	    "\"minimum\":0", NULL },
	COL_END
};

static const struct col summary_aux[] = {
	COLUSE("span_ns", 0),
	COLUSE("devices", COL_INT),
	{ "devices_total", COL_INT, NULL,
	    "devices in the trace, used or not", NULL, NULL },
	{ "comm_share_pct", COL_NUM|COL_NULL, "pct",
	    "share of comm", NULL, NULL },
	{ "idle_share_pct", COL_NUM|COL_NULL, "pct",
	    "idle share of the devices in use", NULL, NULL },
	COLUSEX("top_kernels", 0, NULL, summary_aux_top_kernels),
	{ "memcpy", COL_ARR, NULL, "copies by kind", NULL, summary_aux_memcpy },
	COLUSEX("iterations", COL_OBJ, NULL, summary_aux_iterations),
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
	COL_END
};

const struct coldesc cols_summary = {
	"summary", summary_rows, NULL, NULL, summary_aux, NULL
};
