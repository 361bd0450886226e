/*
 * The column description of `gpulens phases` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col phases_rows_top_kernels[] = {
	{ "name", COL_STR|COL_NAME, NULL, "kernel name", NULL, NULL },
	COLUSE("count", 0),
	COLUSEX("total_ns", 0, "\"minimum\":0", NULL),
	COL_END
};

static const struct col phases_rows[] = {
	{ "phase", COL_INT, NULL, "phase index", "\"minimum\":0", NULL },
	COLUSE("label", 0),
	COLUSE("start_ns", 0),
	COLUSE("end_ns", 0),
	COLUSE("duration_ns", 0),
	COLUSE("util_pct", 0),
	COLUSE("busy_ns", 0),
	COLUSEX("idle_ns", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("comm_ns", 0, "\"minimum\":0", NULL),
	COLUSEX("exposed_comm_ns", 0, "\"minimum\":0", NULL),
	COLUSE("kernels", 0),
	{ "edge", COL_STR, NULL,
	    "what starts the phase",
	    "\"enum\":[\"window\",\"distribution\",\"idle\",\"marker\",\"gpu\"]", NULL },
	{ "dominant", COL_STR|COL_NAME, NULL,
	    "the phase's longest-running kernel", NULL, NULL },
	COLUSE("key", 0),
	COLUSEX("compute_ns", 0, "\"minimum\":0", NULL),
	COLUSE("copy_ns", 0),
	COLUSEX("kernel_ns", 0, "\"minimum\":0", NULL),
	COLUSEX("top_kernels", 0, NULL, phases_rows_top_kernels),
	{ "js_prev", COL_NUM, NULL,
	    "Jensen-Shannon distance to the previous phase",
	    "\"minimum\":0,\"maximum\":1", NULL },
	COL_END
};

static const struct col phases_aux_cost_curve[] = {
	{ "k", COL_INT, NULL, "k", NULL, NULL },
	{ "cost", COL_NUM|COL_NULL, NULL, "cost", NULL, NULL },
	{ "gain_pct", COL_NUM|COL_NULL, "pct", "gain", NULL, NULL },
	COL_END
};

static const struct col phases_aux[] = {
	COLUSEX("window", COL_OPT, NULL, cols_span_or_null),
	COLUSE("gpus", COL_OPT),
	{ "bin_ns", COL_INT|COL_OPT, "ns", "bin width", NULL, NULL },
	{ "bins", COL_INT|COL_OPT, NULL, "bins", NULL, NULL },
	{ "candidates", COL_INT|COL_OPT, NULL, "candidates", NULL, NULL },
	{ "segments", COL_INT|COL_OPT, NULL, "segments", NULL, NULL },
	{ "max_phases", COL_INT|COL_OPT, NULL, "maximum phases", NULL, NULL },
	{ "elbow_k", COL_INT|COL_OPT, NULL, "elbow k", NULL, NULL },
	COLUSE("phases", COL_OPT),
	{ "forced", COL_BOOL|COL_OPT, NULL,
	    "the phase count was given with --phases", NULL, NULL },
	{ "cost_curve", COL_ARR|COL_OPT, NULL,
	    "cost curve", NULL, phases_aux_cost_curve },
	COL_END
};

const struct coldesc cols_phases = {
	"phases", phases_rows, NULL, NULL, phases_aux, NULL
};
