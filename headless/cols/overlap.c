/*
 * The column description of `gpulens overlap` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col overlap_rows[] = {
	COLUSE("device", COL_INT),
	COLUSE("nvtx_path", COL_STR|COL_OPT),
	COLUSE("count", COL_OPT),
	COLUSEX("compute_ns", COL_OPT, "\"minimum\":0", NULL),
	COLUSEX("comm_ns", COL_OPT, "\"minimum\":0", NULL),
	COLUSE("copy_ns", COL_OPT),
	COLUSE("busy_ns", COL_OPT),
	{ "sum_ns", COL_INT|COL_OPT, "ns", "sum time", "\"minimum\":0", NULL },
	COLUSEX("exposed_comm_ns", COL_OPT, "\"minimum\":0", NULL),
	{ "hidden_comm_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "communication hidden by compute",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "copy_overlap_ns", COL_INT|COL_OPT, "ns",
	    "copy overlap time", "\"minimum\":0", NULL },
	{ "peak_concurrency", COL_INT|COL_OPT, NULL,
	    "most kernels running at once", "\"minimum\":0", NULL },
	COLUSEX("span_ns", COL_INT|COL_OPT, "\"minimum\":0", NULL),
	COLUSE("busy_pct", COL_NULL|COL_OPT),
	COLUSE("key", 0),
	COL_END
};

static const struct col overlap_aux[] = {
	COLUSE("by", 0),
	COLUSE("window_start_ns", 0),
	COLUSE("window_end_ns", 0),
	COL_END
};

static const struct colvar overlap_variants[] = {
	{ NULL,
	    "device compute_ns comm_ns copy_ns busy_ns sum_ns exposed_comm_ns hidden_comm_pct copy_overlap_ns peak_concurrency span_ns busy_pct key", NULL },
	{ NULL,
	    "device nvtx_path count comm_ns exposed_comm_ns hidden_comm_pct key", NULL },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_overlap = {
	"overlap", overlap_rows, overlap_variants, NULL, overlap_aux, NULL
};
