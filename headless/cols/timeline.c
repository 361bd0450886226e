/*
 * The column description of `gpulens timeline` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col timeline_rows[] = {
	COLUSE("device", COL_INT),
	COLUSE("pid", COL_OPT),
	COLUSE("stream", COL_INT|COL_OPT),
	{ "bucket", COL_INT, NULL, "bucket", "\"minimum\":0", NULL },
	COLUSE("start_ns", 0),
	COLUSE("end_ns", 0),
	COLUSE("busy_ns", 0),
	COLUSE("busy_pct", 0),
	COLUSEX("compute_ns", 0, "\"minimum\":0", NULL),
	COLUSEX("comm_ns", 0, "\"minimum\":0", NULL),
	COLUSE("copy_ns", 0),
	COLUSE("kernels", 0),
	COLUSE("key", 0),
	COL_END
};

static const struct col timeline_aux_totals[] = {
	COLUSE("device", 0),
	COLUSEX("busy_ns", 0, "", NULL),
	COLUSE("compute_ns", 0),
	COLUSE("comm_ns", 0),
	COLUSEX("copy_ns", 0, "", NULL),
	COLUSEX("kernels", 0, "", NULL),
	COLUSE("pid", COL_OPT),
	COLUSE("stream", COL_OPT),
	COL_END
};

static const struct col timeline_aux[] = {
	COLUSE("by", 0),
	COLUSE("window_start_ns", 0),
	COLUSE("window_end_ns", 0),
	{ "buckets", COL_INT, NULL, "buckets", NULL, NULL },
	{ "bucket_ns", COL_NUM|COL_NULL|COL_OPT, "ns",
	    "bucket time", NULL, NULL },
	{ "totals", COL_ARR, NULL,
	    "per-series totals", NULL, timeline_aux_totals },
	COL_END
};

const struct coldesc cols_timeline = {
	"timeline", timeline_rows, NULL, NULL, timeline_aux, NULL
};
