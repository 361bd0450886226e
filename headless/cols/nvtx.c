/*
 * The column description of `gpulens nvtx` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col nvtx_rows[] = {
	COLUSE("count", COL_OPT),
	{ "cpu_total_ns", COL_INT|COL_OPT, "ns", "total cpu time", NULL, NULL },
	{ "cpu_mean_ns", COL_NUM|COL_OPT, "ns", "mean cpu time", NULL, NULL },
	{ "cpu_median_ns", COL_NUM|COL_OPT, "ns",
	    "median cpu time", NULL, NULL },
	{ "gpu_proj_total_ns", COL_INT|COL_OPT, "ns",
	    "GPU time projected onto the ranges", "\"minimum\":0", NULL },
	COLUSE("gpu_busy_ns", COL_OPT),
	COLUSE("kernels", COL_OPT),
	COLUSEX("depth", 0, "\"minimum\":-1", NULL),
	COLUSE("domain", COL_STR),
	COLUSE("path", COL_STR),
	COLUSE("key", 0),
	COLUSE("pid", COL_INT|COL_OPT),
	COLUSE("name", 0),
	COLUSE("style", COL_OPT),
	{ "cpu_min_ns", COL_INT|COL_OPT, "ns", "minimum cpu time", NULL, NULL },
	{ "cpu_max_ns", COL_INT|COL_OPT, "ns", "maximum cpu time", NULL, NULL },
	{ "with_gpu_work", COL_INT|COL_OPT, NULL,
	    "ranges with GPU work under them", "\"minimum\":0", NULL },
	COLUSE("id", COL_OPT),
	COLUSEX("iter", COL_OPT, "", NULL),
	COLUSE("start_ns", COL_OPT),
	COLUSE("duration_ns", COL_OPT),
	COLUSE("open", COL_OPT),
	COLUSE("gpu_start_ns", COL_OPT),
	{ "gpu_proj_ns", COL_INT|COL_NULL|COL_OPT, "ns",
	    "GPU time projected onto the range", NULL, NULL },
	COLUSE("gpu_ops", COL_OPT),
	COLUSE("tid", COL_INT|COL_OPT),
	COL_END
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
