/*
 * The column description of `gpulens comm` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* A bandwidth, null where the sizes are not known. */
#define COMM_GBPS(name, desc) \
	{ (name), COL_NUM|COL_NULL, "GB/s", (desc), "\"minimum\":0", NULL }

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
	COMM_GBPS("algbw_gbps", "algorithm bandwidth"),
	COMM_GBPS("busbw_gbps", "bus bandwidth"),
	COMM_GBPS("median_algbw_gbps", "median algbw"),
	COMM_GBPS("median_busbw_gbps", "median busbw"),
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
