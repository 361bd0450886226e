/*
 * The column description of `gpulens diff` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* A measure of each side, a_NAME then b_NAME. */
#define DIFF_SIDES(name, type, unit, desc) \
	{ "a_" name, (type), (unit), desc " in trace A", \
	    "\"minimum\":0", NULL }, \
	{ "b_" name, (type), (unit), desc " in trace B", \
	    "\"minimum\":0", NULL }

static const struct col diff_rows[] = {
	COLUSE("class", 0),
	COLUSEX("status", 0,
	    "\"enum\":[\"same\",\"more\",\"less\",\"only_a\",\"only_b\"]", NULL),
	{ "delta_ns", COL_INT, "ns", "ns, B minus A", NULL, NULL },
	COLUSE("delta_pct", 0),
	DIFF_SIDES("total_ns", COL_INT, "ns", "total time"),
	DIFF_SIDES("count", COL_INT, NULL, "how many"),
	DIFF_SIDES("iter_median_ns", COL_NUM|COL_NULL, "ns",
	    "median iteration time"),
	{ "name", COL_STR|COL_NAME, NULL,
	    "kernel, NVTX path, collective or copy direction", NULL, NULL },
	COLUSE("key", 0),
	{ "delta_count", COL_INT, NULL, "how many, B minus A", NULL, NULL },
	{ "abs_delta_ns", COL_INT, "ns",
	    "abs delta time", "\"minimum\":0", NULL },
	{ "delta_iter_median_ns", COL_NUM|COL_NULL, "ns",
	    "median iteration time, B minus A", NULL, NULL },
	COL_END
};

/* The answer of one side (a, b). */
static const struct col diff_aux_side[] = {
	COLUSE("path", 0),
	COLUSE("kind", COL_NULL),
	COLUSE("span_ns", 0),
	COLUSE("gpus", 0),
	COLUSEX("busy_ns", 0, "", NULL),
	COLUSE("idle_ns", 0),
	COLUSE("exposed_comm_ns", 0),
	COLUSE("compute_ns", 0),
	COLUSE("comm_ns", 0),
	COLUSEX("kernels", 0, "", NULL),
	COLUSE("kernel_ns", 0),
	COLUSE("iterations", 0),
	COLUSE("iter_median_ns", 0),
	COL_END
};

static const struct col diff_aux_delta[] = {
	COLUSE("span_ns", 0),
	COLUSEX("busy_ns", 0, "", NULL),
	COLUSE("idle_ns", 0),
	COLUSE("exposed_comm_ns", 0),
	COLUSE("compute_ns", 0),
	COLUSE("comm_ns", 0),
	COLUSE("kernel_ns", 0),
	COLUSEX("kernels", 0, "", NULL),
	COLUSE("iter_median_ns", 0),
	COL_END
};

static const struct col diff_aux_delta_pct[] = {
	COLUSE("span_ns", COL_NUM|COL_NULL),
	COLUSEX("busy_ns", COL_NUM|COL_NULL, "", NULL),
	COLUSE("idle_ns", COL_NUM|COL_NULL),
	COLUSE("exposed_comm_ns", COL_NUM|COL_NULL),
	COLUSE("compute_ns", COL_NUM|COL_NULL),
	COLUSE("comm_ns", COL_NUM|COL_NULL),
	COLUSE("kernel_ns", COL_NUM|COL_NULL),
	COLUSEX("kernels", COL_NUM|COL_NULL, "", NULL),
	COL_END
};

/* The window of one side (a, b). */
static const struct col diff_aux_window_side[] = {
	COLUSE("method", 0),
	COLUSE("start_ns", COL_NULL),
	COLUSE("end_ns", COL_NULL),
	COL_END
};

static const struct col diff_aux_window[] = {
	COLUSEX("a", 0, NULL, diff_aux_window_side),
	COLUSEX("b", 0, NULL, diff_aux_window_side),
	COL_END
};

static const struct col diff_aux_gate_rules[] = {
	COLUSE("rule", 0),
	COLUSE("passed", 0),
	{ "offending", COL_ARR|COL_OPT, NULL,
	    "keys of the rows that broke the rule",
	    "\"items\":{\"type\":\"string\"}", NULL },
	COLUSE("a", COL_NUM|COL_NULL|COL_OPT),
	COLUSE("b", COL_NUM|COL_NULL|COL_OPT),
	COL_END
};

static const struct col diff_aux_gate[] = {
	COLUSEX("rules", 0, NULL, diff_aux_gate_rules),
	COLUSE("passed", 0),
	COL_END
};

static const struct col diff_aux[] = {
	COLUSEX("a", 0, NULL, diff_aux_side),
	COLUSEX("b", 0, NULL, diff_aux_side),
	{ "delta", COL_OBJ, NULL, "B minus A", NULL, diff_aux_delta },
	COLUSEX("delta_pct", COL_OBJ|COL_NULL, NULL, diff_aux_delta_pct),
	{ "kernel_overlap_pct", COL_NUM|COL_NULL, "pct",
	    "kernel names present on both sides", NULL, NULL },
	{ "mode", COL_STR, NULL, "how rows were matched", NULL, NULL },
	{ "keys", COL_INT, NULL, "keys", NULL, NULL },
	{ "only_a", COL_INT, NULL, "keys only in A", NULL, NULL },
	{ "only_b", COL_INT, NULL, "keys only in B", NULL, NULL },
	{ "unchanged", COL_INT, NULL, "keys with no change", NULL, NULL },
	COLUSEX("window", 0, NULL, diff_aux_window),
	{ "gate", COL_OBJ|COL_OPT, NULL,
	    "the --fail-on and --exit-on-regression rules",
	    NULL, diff_aux_gate },
	COL_END
};

const struct coldesc cols_diff = {
	"diff", diff_rows, NULL, NULL, diff_aux, NULL
};
