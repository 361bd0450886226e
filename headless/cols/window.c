/*
 * The column description of `gpulens window` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col window_rows[] = {
	COLUSEX("method", 0,
	    "\"enum\":[\"iteration-nvtx\",\"iteration-kernel\",\"phase\",\"whole\"]", NULL),
	COLUSE("start_ns", 0),
	COLUSE("end_ns", 0),
	COLUSE("duration_ns", 0),
	COLUSE("pid", 0),
	COLUSE("iter", COL_NULL),
	COLUSEX("iterations", 0, "\"minimum\":0", NULL),
	{ "median_iter_ns", COL_NUM|COL_NULL, "ns",
	    "median iter", "\"minimum\":0", NULL },
	{ "skipped", COL_INT, NULL, "skipped", "\"minimum\":0", NULL },
	COLUSE("util_pct", 0),
	COLUSE("busy_ns", 0),
	COLUSEX("exposed_comm_ns", 0, "\"minimum\":0", NULL),
	COLUSE("kernels", 0),
	COLUSE("marker", COL_STR),
	COLUSEX("key", 0, "\"const\":\"window|window=steady\"", NULL),
	COL_END
};

static const struct col window_aux[] = {
	COLUSE("gpus", COL_OPT),
	COLUSE("phases", COL_OPT),
	COL_END
};

const struct coldesc cols_window = {
	"window", window_rows, NULL, NULL, window_aux, NULL
};
