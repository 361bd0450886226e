/*
 * The column description of `gpulens roofline` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col roofline_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("duration_ns", COL_NUM|COL_NULL),
	{ "precision", COL_STR|COL_NULL, NULL,
	    "precision", "\"enum\":[\"fp64\",\"fp32\",\"fp16\",null]", NULL },
	{ "flop_per_s", COL_NUM|COL_NULL, NULL,
	    "achieved floating-point throughput", "\"minimum\":0", NULL },
	{ "dram_bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "dram throughput", "\"minimum\":0", NULL },
	{ "arithmetic_intensity", COL_NUM|COL_NULL, NULL,
	    "arithmetic intensity", "\"minimum\":0", NULL },
	{ "ridge_point", COL_NUM|COL_NULL, NULL,
	    "arithmetic intensity of the roofline ridge",
	    "\"minimum\":0", NULL },
	{ "bound", COL_STR|COL_NULL, NULL,
	    "what bounds the kernel (compute or memory)",
	    "\"enum\":[\"memory\",\"compute\",null]", NULL },
	{ "roofline_pct", COL_NUM|COL_NULL, "pct",
	    "share of the roofline reached", "\"minimum\":0", NULL },
	{ "dram_bytes", COL_NUM|COL_NULL|COL_OPT, "bytes",
	    "dram size", "\"minimum\":0", NULL },
	COLUSEX("l2_bytes", COL_NUM|COL_NULL|COL_OPT, "\"minimum\":0", NULL),
	{ "l1_bytes", COL_NUM|COL_NULL|COL_OPT, "bytes",
	    "l1 size", "\"minimum\":0", NULL },
	COLUSE("kernel", COL_NAME),
	COLUSE("key", 0),
	{ "fp64_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp64 flop per s", "\"minimum\":0", NULL },
	{ "fp32_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp32 flop per s", "\"minimum\":0", NULL },
	{ "fp16_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp16 flop per s", "\"minimum\":0", NULL },
	{ "l2_bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "l2 throughput", "\"minimum\":0", NULL },
	{ "l1_bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "l1 throughput", "\"minimum\":0", NULL },
	{ "peak_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak achieved floating-point throughput", "\"minimum\":0", NULL },
	{ "peak_fp64_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak fp64 flop per s", "\"minimum\":0", NULL },
	{ "peak_fp32_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak fp32 flop per s", "\"minimum\":0", NULL },
	{ "peak_fp16_flop_per_s", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak fp16 flop per s", "\"minimum\":0", NULL },
	{ "peak_dram_bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "peak dram throughput", "\"minimum\":0", NULL },
	{ "peak_l2_bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "peak l2 throughput", "\"minimum\":0", NULL },
	{ "peak_l1_bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "peak l1 throughput", "\"minimum\":0", NULL },
	{ "missing_metric", COL_STR|COL_NULL, NULL,
	    "missing metric", NULL, NULL },
	COL_END
};

const struct coldesc cols_roofline = {
	"roofline", roofline_rows, NULL, NULL, cols_aux_report, NULL
};
