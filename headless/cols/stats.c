/*
 * The column description of `gpulens stats` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col stats_rows[] = {
	COLUSE("count", 0),
	COLUSE("total_ns", 0),
	COLUSE("share_pct", 0),
	COLUSEX("mean_ns", 0, "", NULL),
	COLUSE("median_ns", 0),
	COLUSEX("min_ns", 0, "", NULL),
	COLUSEX("max_ns", 0, "", NULL),
	COLUSEX("stddev_ns", COL_NUM, "\"minimum\":0", NULL),
	COLUSE("total_bytes", COL_INT|COL_OPT),
	COLUSE("device", COL_OPT),
	COLUSE("stream", COL_OPT),
	COLUSE("pid", COL_OPT),
	COLUSE("tid", COL_OPT),
	COLUSEX("iter", COL_NULL|COL_OPT, "", NULL),
	COLUSE("kind", COL_OPT),
	COLUSE("style", COL_OPT),
	COLUSE("short_name", COL_OPT),
	COLUSE("nvtx_path", COL_STR|COL_OPT),
	{ "name", COL_STR|COL_OPT|COL_NAME, NULL,
	    "kernel or group name", NULL, NULL },
	COLUSE("key", 0),
	COLUSEX("mean_bytes", COL_OPT, "", NULL),
	{ "median_bytes", COL_NUM|COL_OPT, "bytes",
	    "median bytes", NULL, NULL },
	{ "min_bytes", COL_INT|COL_OPT, "bytes", "minimum bytes", NULL, NULL },
	{ "max_bytes", COL_INT|COL_OPT, "bytes", "maximum bytes", NULL, NULL },
	{ "stddev_bytes", COL_NUM|COL_OPT, "bytes",
	    "standard deviation bytes", "\"minimum\":0", NULL },
	COL_END
};

static const struct col stats_aux[] = {
	{ "grand_total_ns", COL_INT, "ns",
	    "time of every matched row", NULL, NULL },
	COL_END
};

const struct coldesc cols_stats = {
	"stats", stats_rows, NULL, NULL, stats_aux, NULL
};
