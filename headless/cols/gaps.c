/*
 * The column description of `gpulens gaps` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col gaps_rows[] = {
	{ "scope", COL_STR, NULL,
	    "scope",
	    "\"enum\":[\"stream\",\"device\",\"all\"]", NULL },
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "start_ns", COL_INT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "end_ns", COL_INT, "ns-time",
	    "end, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT, "ns",
	    "duration",
	    "\"minimum\":1", NULL },
	{ "kind", COL_STR, NULL,
	    "kind",
	    "\"enum\":[\"leading\",\"inner\",\"trailing\",\"whole\"]", NULL },
	{ "cpu_activity", COL_STR|COL_NULL, NULL,
	    "what the CPU threads did in the gap",
	    "\"enum\":[\"synchronizing\",\"copying\",\"launching\",\"nothing\",null]", NULL },
	{ "cpu_sync_pct", COL_NUM|COL_NULL, "pct",
	    "share of the gap the CPU synchronised",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "cpu_copy_pct", COL_NUM|COL_NULL, "pct",
	    "share of the gap the CPU copied",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "cpu_launch_pct", COL_NUM|COL_NULL, "pct",
	    "share of the gap the CPU launched work",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "cpu_none_pct", COL_NUM|COL_NULL, "pct",
	    "share of the gap the CPU did none of these",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "prev_name", COL_STR|COL_NULL|COL_NAME, NULL,
	    "GPU operation ending at the gap",
	    NULL, NULL },
	{ "next_name", COL_STR|COL_NULL|COL_NAME, NULL,
	    "GPU operation starting after the gap",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col gaps_aux_devices[] = {
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "window_ns", COL_INT, "ns",
	    "window length",
	    NULL, NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    NULL, NULL },
	{ "total_idle_ns", COL_INT, "ns",
	    "idle time in the window",
	    NULL, NULL },
	{ "inner_idle_ns", COL_INT, "ns",
	    "idle between the first and last busy interval",
	    NULL, NULL },
	{ "idle_pct", COL_NUM|COL_NULL, "pct",
	    "idle share of the window",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col gaps_aux_all[] = {
	{ "window_ns", COL_INT, "ns",
	    "window length",
	    NULL, NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    NULL, NULL },
	{ "total_idle_ns", COL_INT, "ns",
	    "idle time in the window",
	    NULL, NULL },
	{ "inner_idle_ns", COL_INT, "ns",
	    "idle between the first and last busy interval",
	    NULL, NULL },
	{ "idle_pct", COL_NUM|COL_NULL, "pct",
	    "idle share of the window",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col gaps_aux_histogram[] = {
	{ "label", COL_STR, NULL,
	    "label",
	    NULL, NULL },
	{ "count", COL_NUM, NULL,
	    "how many",
	    NULL, NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col gaps_aux[] = {
	{ "scope", COL_STR, NULL,
	    "scope",
	    NULL, NULL },
	{ "window_start_ns", COL_INT, "ns",
	    "analysed window start, from the trace origin",
	    NULL, NULL },
	{ "window_end_ns", COL_INT, "ns",
	    "analysed window end, from the trace origin",
	    NULL, NULL },
	{ "min_dur_ns", COL_INT, "ns",
	    "minimum dur",
	    NULL, NULL },
	{ "gaps_matched", COL_INT, NULL,
	    "gaps matched",
	    NULL, NULL },
	{ "devices", COL_ARR, NULL,
	    "devices",
	    NULL, gaps_aux_devices },
	{ "all", COL_OBJ, NULL,
	    "every device together",
	    NULL, gaps_aux_all },
	{ "histogram", COL_ARR, NULL,
	    "gap histogram",
	    NULL, gaps_aux_histogram },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_gaps = {
	"gaps", gaps_rows, NULL, NULL, gaps_aux, NULL
};
