/*
 * The column description of `gpulens phases` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col phases_rows_top_kernels[] = {
	{ "name", COL_STR|COL_NAME, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "count", COL_INT, NULL,
	    "how many",
	    "\"minimum\":1", NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col phases_rows[] = {
	{ "phase", COL_INT, NULL,
	    "phase index",
	    "\"minimum\":0", NULL },
	{ "label", COL_STR, NULL,
	    "label",
	    NULL, NULL },
	{ "start_ns", COL_INT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "end_ns", COL_INT, "ns-time",
	    "end, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT, "ns",
	    "duration",
	    "\"minimum\":0", NULL },
	{ "util_pct", COL_NUM, "pct",
	    "GPU utilisation",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    "\"minimum\":0", NULL },
	{ "idle_ns", COL_INT, "ns",
	    "GPU idle time",
	    "\"minimum\":0", NULL },
	{ "comm_ns", COL_INT, "ns",
	    "communication kernel time",
	    "\"minimum\":0", NULL },
	{ "exposed_comm_ns", COL_INT, "ns",
	    "communication not hidden by compute",
	    "\"minimum\":0", NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "edge", COL_STR, NULL,
	    "what starts the phase",
	    "\"enum\":[\"window\",\"distribution\",\"idle\",\"marker\",\"gpu\"]", NULL },
	{ "dominant", COL_STR|COL_NAME, NULL,
	    "the phase's longest-running kernel",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "compute_ns", COL_INT, "ns",
	    "compute kernel time",
	    "\"minimum\":0", NULL },
	{ "copy_ns", COL_INT, "ns",
	    "copy and memset time",
	    "\"minimum\":0", NULL },
	{ "kernel_ns", COL_INT, "ns",
	    "kernel time",
	    "\"minimum\":0", NULL },
	{ "top_kernels", COL_ARR, NULL,
	    "the longest-running kernels",
	    NULL, phases_rows_top_kernels },
	{ "js_prev", COL_NUM, NULL,
	    "Jensen-Shannon distance to the previous phase",
	    "\"minimum\":0,\"maximum\":1", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col phases_aux_window[] = {
	{ "start_ns", COL_INT|COL_NULL, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "end_ns", COL_INT|COL_NULL, "ns-time",
	    "end, from the trace origin",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col phases_aux_cost_curve[] = {
	{ "k", COL_INT, NULL,
	    "k",
	    NULL, NULL },
	{ "cost", COL_NUM|COL_NULL, NULL,
	    "cost",
	    NULL, NULL },
	{ "gain_pct", COL_NUM|COL_NULL, "pct",
	    "gain",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col phases_aux[] = {
	{ "window", COL_OBJ|COL_OPT, NULL,
	    "the analysed window",
	    NULL, phases_aux_window },
	{ "gpus", COL_INT|COL_OPT, NULL,
	    "number of GPUs",
	    NULL, NULL },
	{ "bin_ns", COL_INT|COL_OPT, "ns",
	    "bin width",
	    NULL, NULL },
	{ "bins", COL_INT|COL_OPT, NULL,
	    "bins",
	    NULL, NULL },
	{ "candidates", COL_INT|COL_OPT, NULL,
	    "candidates",
	    NULL, NULL },
	{ "segments", COL_INT|COL_OPT, NULL,
	    "segments",
	    NULL, NULL },
	{ "max_phases", COL_INT|COL_OPT, NULL,
	    "maximum phases",
	    NULL, NULL },
	{ "elbow_k", COL_INT|COL_OPT, NULL,
	    "elbow k",
	    NULL, NULL },
	{ "phases", COL_INT|COL_OPT, NULL,
	    "phases",
	    NULL, NULL },
	{ "forced", COL_BOOL|COL_OPT, NULL,
	    "the phase count was given with --phases",
	    NULL, NULL },
	{ "cost_curve", COL_ARR|COL_OPT, NULL,
	    "cost curve",
	    NULL, phases_aux_cost_curve },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_phases = {
	"phases", phases_rows, NULL, NULL, phases_aux, NULL
};
