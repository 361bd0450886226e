/*
 * The column description of `gpulens comm` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col comm_rows[] = {
	COLUSE("kind", 0),
	COLUSE("collective", 0),
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("rank", COL_OPT),
	COLUSE("count", 0),
	COLUSEX("total_ns", 0, "\"minimum\":0", NULL),
	COLUSE("mean_ns", 0),
	COLUSEX("median_ns", 0, "\"minimum\":0", NULL),
	COLUSE("min_ns", 0),
	COLUSE("max_ns", 0),
	{ "gpu_busy_share_pct", COL_NUM|COL_NULL, "pct",
	    "share of gpu busy", "\"minimum\":0", NULL },
	{ "device_busy_ns", COL_INT|COL_NULL, "ns",
	    "device busy time", "\"minimum\":0", NULL },
	COLUSEX("total_bytes", 0, "\"minimum\":0", NULL),
	{ "group_size", COL_INT|COL_NULL, NULL,
	    "group size", "\"minimum\":1", NULL },
	{ "sized_count", COL_INT, NULL, "sized count", "\"minimum\":0", NULL },
	{ "algbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "algorithm bandwidth", "\"minimum\":0", NULL },
	{ "busbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "bus bandwidth", "\"minimum\":0", NULL },
	{ "median_algbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "median algbw", "\"minimum\":0", NULL },
	{ "median_busbw_gbps", COL_NUM|COL_NULL, "GB/s",
	    "median busbw", "\"minimum\":0", NULL },
	{ "process_group", COL_STR|COL_NULL, NULL,
	    "process group", NULL, NULL },
	COLUSE("key", 0),
	COL_END
};

static const struct col comm_aux[] = {
	COLUSE("total_ns", 0),
	COL_END
};

const struct coldesc cols_comm = {
	"comm", comm_rows, NULL, NULL, comm_aux, NULL
};
