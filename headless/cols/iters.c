/*
 * The column description of `gpulens iters` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col iters_rows[] = {
	COLUSE("pid", 0),
	COLUSE("rank", COL_OPT),
	COLUSE("iter", 0),
	COLUSE("start_ns", 0),
	COLUSE("duration_ns", 0),
	COLUSE("gpu_busy_ns", 0),
	{ "gpu_busy_pct", COL_NUM, "pct",
	    "gpu busy", "\"minimum\":0,\"maximum\":100", NULL },
	COLUSE("kernels", 0),
	COLUSE("copies", 0),
	COLUSE("memsets", 0),
	{ "sync_blocked_ns", COL_INT, "ns",
	    "host time blocked on the GPU: the union over the threads of the "
	    "iteration's process of their synchronisations and synchronous "
	    "copies, inside the iteration", "\"minimum\":0", NULL },
	{ "sync_blocked_pct", COL_NUM, "pct",
	    "sync_blocked_ns as a share of the iteration's duration",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "slowest", COL_BOOL, NULL, "slowest", NULL, NULL },
	COLUSE("name", 0),
	COLUSE("key", 0),
	COLUSEX("gpus", COL_OPT, "\"minimum\":0", NULL),
	COL_END
};

static const struct col iters_aux[] = {
	COLUSE("method", 0),
	COLUSE("marker", 0),
	COLUSE("iterations", 0),
	COLUSE("median_ns", COL_NULL),
	COLUSEX("mean_ns", COL_NULL, "", NULL),
	COLUSEX("min_ns", 0, "", NULL),
	COLUSEX("max_ns", 0, "", NULL),
	COLUSE("stddev_ns", 0),
	{ "spread_pct", COL_NUM|COL_NULL, "pct", "spread", NULL, NULL },
	COL_END
};

const struct coldesc cols_iters = {
	"iters", iters_rows, NULL, NULL, iters_aux, NULL
};
