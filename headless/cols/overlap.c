/*
 * The column description of `gpulens overlap` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col overlap_rows[] = {
	{ "device", COL_INT, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "nvtx_path", COL_STR|COL_OPT, NULL,
	    "innermost NVTX path",
	    NULL, NULL },
	{ "count", COL_INT|COL_OPT, NULL,
	    "how many",
	    "\"minimum\":1", NULL },
	{ "compute_ns", COL_INT|COL_OPT, "ns",
	    "compute kernel time",
	    "\"minimum\":0", NULL },
	{ "comm_ns", COL_INT|COL_OPT, "ns",
	    "communication kernel time",
	    "\"minimum\":0", NULL },
	{ "copy_ns", COL_INT|COL_OPT, "ns",
	    "copy and memset time",
	    "\"minimum\":0", NULL },
	{ "busy_ns", COL_INT|COL_OPT, "ns",
	    "GPU busy time (union of work intervals)",
	    "\"minimum\":0", NULL },
	{ "sum_ns", COL_INT|COL_OPT, "ns",
	    "sum time",
	    "\"minimum\":0", NULL },
	{ "exposed_comm_ns", COL_INT|COL_OPT, "ns",
	    "communication not hidden by compute",
	    "\"minimum\":0", NULL },
	{ "hidden_comm_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "communication hidden by compute",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "copy_overlap_ns", COL_INT|COL_OPT, "ns",
	    "copy overlap time",
	    "\"minimum\":0", NULL },
	{ "peak_concurrency", COL_INT|COL_OPT, NULL,
	    "most kernels running at once",
	    "\"minimum\":0", NULL },
	{ "span_ns", COL_INT|COL_OPT, "ns",
	    "span",
	    "\"minimum\":0", NULL },
	{ "busy_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "busy share",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col overlap_aux[] = {
	{ "by", COL_STR, NULL,
	    "grouping",
	    NULL, NULL },
	{ "window_start_ns", COL_INT, "ns",
	    "analysed window start, from the trace origin",
	    NULL, NULL },
	{ "window_end_ns", COL_INT, "ns",
	    "analysed window end, from the trace origin",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct colvar overlap_variants[] = {
	{ NULL,
	    "device compute_ns comm_ns copy_ns busy_ns sum_ns exposed_comm_ns hidden_comm_pct copy_overlap_ns peak_concurrency span_ns busy_pct key",
	    "key device compute_ns comm_ns copy_ns busy_ns sum_ns exposed_comm_ns hidden_comm_pct copy_overlap_ns peak_concurrency span_ns busy_pct" },
	{ NULL,
	    "device nvtx_path count comm_ns exposed_comm_ns hidden_comm_pct key",
	    "key device nvtx_path count comm_ns exposed_comm_ns hidden_comm_pct" },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_overlap = {
	"overlap", overlap_rows, overlap_variants, NULL, overlap_aux, NULL
};
