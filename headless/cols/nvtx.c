/*
 * The column description of `gpulens nvtx` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col nvtx_rows[] = {
	{ "count", COL_INT|COL_OPT, NULL,
	    "how many",
	    "\"minimum\":1", NULL },
	{ "cpu_total_ns", COL_INT|COL_OPT, "ns",
	    "total cpu time",
	    NULL, NULL },
	{ "cpu_mean_ns", COL_NUM|COL_OPT, "ns",
	    "mean cpu time",
	    NULL, NULL },
	{ "cpu_median_ns", COL_NUM|COL_OPT, "ns",
	    "median cpu time",
	    NULL, NULL },
	{ "gpu_proj_total_ns", COL_INT|COL_OPT, "ns",
	    "GPU time projected onto the ranges",
	    "\"minimum\":0", NULL },
	{ "gpu_busy_ns", COL_INT|COL_OPT, "ns",
	    "GPU busy time of the work under it",
	    "\"minimum\":0", NULL },
	{ "kernels", COL_INT|COL_OPT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "depth", COL_INT, NULL,
	    "nesting depth",
	    "\"minimum\":-1", NULL },
	{ "domain", COL_STR, NULL,
	    "NVTX domain",
	    NULL, NULL },
	{ "path", COL_STR, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "pid", COL_INT|COL_OPT, NULL,
	    "process id",
	    NULL, NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "style", COL_STR|COL_OPT, NULL,
	    "style",
	    "\"enum\":[\"PushPop\",\"StartEnd\"]", NULL },
	{ "cpu_min_ns", COL_INT|COL_OPT, "ns",
	    "minimum cpu time",
	    NULL, NULL },
	{ "cpu_max_ns", COL_INT|COL_OPT, "ns",
	    "maximum cpu time",
	    NULL, NULL },
	{ "with_gpu_work", COL_INT|COL_OPT, NULL,
	    "ranges with GPU work under them",
	    "\"minimum\":0", NULL },
	{ "id", COL_INT|COL_OPT, NULL,
	    "event id (its ev: id)",
	    NULL, NULL },
	{ "iter", COL_INT|COL_OPT, NULL,
	    "iteration index",
	    NULL, NULL },
	{ "start_ns", COL_INT|COL_OPT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT|COL_OPT, "ns",
	    "duration",
	    "\"minimum\":0", NULL },
	{ "open", COL_BOOL|COL_OPT, NULL,
	    "the range never ended",
	    NULL, NULL },
	{ "gpu_start_ns", COL_INT|COL_NULL|COL_OPT, "ns",
	    "gpu start time",
	    NULL, NULL },
	{ "gpu_proj_ns", COL_INT|COL_NULL|COL_OPT, "ns",
	    "GPU time projected onto the range",
	    NULL, NULL },
	{ "gpu_ops", COL_INT|COL_OPT, NULL,
	    "GPU operations under it",
	    "\"minimum\":0", NULL },
	{ "tid", COL_INT|COL_OPT, NULL,
	    "thread id",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct colvar nvtx_variants[] = {
	{ NULL,
	    "count cpu_total_ns cpu_mean_ns cpu_median_ns gpu_proj_total_ns gpu_busy_ns kernels depth domain path key pid name style cpu_min_ns cpu_max_ns with_gpu_work",
	    "key name path domain depth" },
	{ NULL,
	    "id start_ns duration_ns depth iter gpu_proj_ns gpu_busy_ns kernels tid domain path key name open gpu_start_ns gpu_ops pid",
	    "key name path domain depth" },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_nvtx = {
	"nvtx", nvtx_rows, nvtx_variants, NULL, NULL, NULL
};
