/*
 * The column description of `gpulens ranks` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col ranks_rows[] = {
	COLUSE("rank", COL_INT),
	COLUSEX("pid", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("gpus", 0, "\"minimum\":0", NULL),
	COLUSE("busy_ns", 0),
	COLUSEX("util_pct", 0, "\"minimum\":0", NULL),
	COLUSE("kernels", 0),
	COLUSEX("comm_ns", 0, "\"minimum\":0", NULL),
	COLUSE("comm_pct", 0),
	{ "iters", COL_INT, NULL, "iters", "\"minimum\":0", NULL },
	COLUSEX("iter_median_ns", 0, "\"minimum\":0", NULL),
	COLUSE("wait_ns", 0),
	{ "last", COL_INT, NULL, "last", "\"minimum\":0", NULL },
	COLUSE("straggler", 0),
	{ "parallel", COL_STR|COL_NULL, NULL,
	    "parallel setup the rank's NVTX states (pp=R/S dp=R/S ...)",
	    NULL, NULL },
	{ "nvtx_rank", COL_INT|COL_NULL, NULL,
	    "rank the rank's NVTX states (rank=N)", "\"minimum\":0", NULL },
	COLUSE("name", 0),
	{ "host", COL_STR|COL_NULL, NULL,
	    "host the rank ran on (its trace's host name)", NULL, NULL },
	COLUSE("key", 0),
	COLUSEX("span_ns", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("kernel_ns", 0, "\"minimum\":0", NULL),
	COLUSE("comm_kernels", 0),
	{ "iter_max_ns", COL_INT|COL_NULL, "ns",
	    "maximum iter time", "\"minimum\":0", NULL },
	{ "caused_ns", COL_INT, "ns", "caused time", "\"minimum\":0", NULL },
	{ "mpi_wait_ns", COL_INT|COL_OPT, "ns",
	    "time in MPI calls other than set-up (nested once); only when "
	    "the trace has MPI calls",
	    "\"minimum\":0", NULL },
	{ "mpi_wait_pct", COL_NUM|COL_OPT, "pct",
	    "mpi_wait_ns as a share of the rank's span",
	    "\"minimum\":0", NULL },
	COL_END
};

static const struct col ranks_aux[] = {
	{ "rank_trace", COL_STR|COL_OPT, NULL,
	    "--rank with rank summaries: the trace file of that rank",
	    NULL, NULL },
	{ "rank_source", COL_STR, NULL,
	    "where the ranks come from",
	    "\"enum\":[\"metadata\",\"nvtx\",\"process-order\"]", NULL },
	COLUSE("ranks", 0),
	COLUSE("straggler", COL_INT|COL_NULL),
	{ "straggler_last_pct", COL_NUM|COL_NULL, "pct",
	    "share of collectives the straggler arrived last", NULL, NULL },
	{ "collectives_matched", COL_INT, NULL,
	    "collectives matched across ranks", NULL, NULL },
	{ "skew_median_ns", COL_NUM|COL_NULL, "ns",
	    "median skew time", NULL, NULL },
	{ "skew_max_ns", COL_INT, "ns", "maximum skew time", NULL, NULL },
	COLUSE("iter_median_ns", 0),
	{ "iter_marker", COL_STR, NULL, "iter marker", NULL, NULL },
	{ "iter_spread_pct", COL_NUM|COL_NULL, "pct",
	    "spread of iter across ranks (max/min - 1)", NULL, NULL },
	{ "comm_spread_pct", COL_NUM|COL_NULL, "pct",
	    "spread of comm across ranks (max/min - 1)", NULL, NULL },
	{ "busy_spread_pct", COL_NUM|COL_NULL, "pct",
	    "spread of busy across ranks (max/min - 1)", NULL, NULL },
	{ "mpi_wait_spread_pct", COL_NUM|COL_OPT, "pct",
	    "spread of mpi_wait_ns across ranks ((max - min) / median); "
	    "only when the trace has MPI calls",
	    NULL, NULL },
	COL_END
};

const struct coldesc cols_ranks = {
	"ranks", ranks_rows, NULL, NULL, ranks_aux, NULL
};
