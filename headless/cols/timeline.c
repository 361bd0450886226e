/*
 * The column description of `gpulens timeline` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col timeline_rows[] = {
	{ "device", COL_INT, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL|COL_OPT, NULL,
	    "process id",
	    NULL, NULL },
	{ "stream", COL_INT|COL_OPT, NULL,
	    "stream id",
	    NULL, NULL },
	{ "bucket", COL_INT, NULL,
	    "bucket",
	    "\"minimum\":0", NULL },
	{ "start_ns", COL_INT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "end_ns", COL_INT, "ns-time",
	    "end, from the trace origin",
	    NULL, NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    "\"minimum\":0", NULL },
	{ "busy_pct", COL_NUM, "pct",
	    "busy share",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "compute_ns", COL_INT, "ns",
	    "compute kernel time",
	    "\"minimum\":0", NULL },
	{ "comm_ns", COL_INT, "ns",
	    "communication kernel time",
	    "\"minimum\":0", NULL },
	{ "copy_ns", COL_INT, "ns",
	    "copy and memset time",
	    "\"minimum\":0", NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col timeline_aux_totals[] = {
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    NULL, NULL },
	{ "compute_ns", COL_INT, "ns",
	    "compute kernel time",
	    NULL, NULL },
	{ "comm_ns", COL_INT, "ns",
	    "communication kernel time",
	    NULL, NULL },
	{ "copy_ns", COL_INT, "ns",
	    "copy and memset time",
	    NULL, NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL|COL_OPT, NULL,
	    "process id",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL|COL_OPT, NULL,
	    "stream id",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col timeline_aux[] = {
	{ "by", COL_STR, NULL,
	    "grouping",
	    NULL, NULL },
	{ "window_start_ns", COL_INT, "ns",
	    "analysed window start, from the trace origin",
	    NULL, NULL },
	{ "window_end_ns", COL_INT, "ns",
	    "analysed window end, from the trace origin",
	    NULL, NULL },
	{ "buckets", COL_INT, NULL,
	    "buckets",
	    NULL, NULL },
	{ "bucket_ns", COL_NUM|COL_NULL|COL_OPT, "ns",
	    "bucket time",
	    NULL, NULL },
	{ "totals", COL_ARR, NULL,
	    "per-series totals",
	    NULL, timeline_aux_totals },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_timeline = {
	"timeline", timeline_rows, NULL, NULL, timeline_aux, NULL
};
