/*
 * The column description of `gpulens graphs` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col graphs_rows[] = {
	{ "graph", COL_INT, NULL, "graph", "\"minimum\":0", NULL },
	{ "graph_source", COL_STR, NULL,
	    "graph source", "\"enum\":[\"trace\",\"signature\"]", NULL },
	COLUSEX("device", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("context", 0, "\"minimum\":0", NULL),
	COLUSEX("stream", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("pid", 0, "\"minimum\":0", NULL),
	{ "corr", COL_INT, NULL, "corr", "\"minimum\":0", NULL },
	COLUSE("start_ns", 0),
	COLUSE("end_ns", 0),
	COLUSEX("span_ns", COL_INT, "\"minimum\":0", NULL),
	COLUSE("busy_ns", 0),
	COLUSE("busy_pct", 0),
	COLUSEX("gaps", 0, "\"minimum\":0", NULL),
	{ "gap_ns", COL_INT, "ns", "gap time", "\"minimum\":0", NULL },
	COLUSEX("max_gap_ns", 0, "\"minimum\":0", NULL),
	COLUSEX("ops", 0, "\"minimum\":1", NULL),
	COLUSE("kernels", 0),
	{ "whole", COL_BOOL, NULL, "whole", NULL, NULL },
	{ "first_op_id", COL_STR, NULL, "first op id", NULL, NULL },
	{ "first_op", COL_STR, NULL, "first op", NULL, NULL },
	COLUSE("launch_api_id", 0),
	COLUSE("launch_api", 0),
	COLUSE("launch_latency_ns", 0),
	COLUSE("nvtx_range", 0),
	COLUSE("replays", 0),
	{ "launched", COL_INT, NULL, "launched", "\"minimum\":0", NULL },
	{ "span_mean_ns", COL_NUM, "ns",
	    "mean span time", "\"minimum\":0", NULL },
	{ "span_min_ns", COL_INT, "ns",
	    "minimum span time", "\"minimum\":0", NULL },
	{ "span_max_ns", COL_INT, "ns",
	    "maximum span time", "\"minimum\":0", NULL },
	{ "latency_mean_ns", COL_NUM|COL_NULL, "ns",
	    "mean latency time", NULL, NULL },
	{ "first_start_ns", COL_INT, "ns", "first start time", NULL, NULL },
	COLUSE("name", 0),
	COLUSE("key", 0),
	COL_END
};

static const struct col graphs_aux[] = {
	COLUSEX("replays", COL_OPT, "", NULL),
	{ "graphs", COL_INT|COL_OPT, NULL, "graphs", NULL, NULL },
	{ "replayed_ops", COL_INT|COL_OPT, NULL, "replayed ops", NULL, NULL },
	{ "launched_replays", COL_INT|COL_OPT, NULL,
	    "launched replays", NULL, NULL },
	COL_END
};

/* The shapes: a replay, a graph (--group); their fields in table order. */
static const struct colvar graphs_variants[] = {
	{ NULL,
	    "graph graph_source device stream start_ns span_ns busy_pct gaps "
	    "max_gap_ns ops kernels launch_latency_ns launch_api nvtx_range key "
	    "context pid corr end_ns busy_ns gap_ns whole first_op_id first_op "
	    "launch_api_id", NULL },
	{ NULL,
	    "graph graph_source device replays ops kernels span_mean_ns "
	    "span_min_ns span_max_ns busy_pct gap_ns latency_mean_ns name key "
	    "launched span_ns busy_ns gaps max_gap_ns first_start_ns", NULL },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_graphs = {
	"graphs", graphs_rows, graphs_variants, NULL, graphs_aux, NULL
};
