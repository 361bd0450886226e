/*
 * The column description of `gpulens roofline` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* A measure that a report may not have (null) or not take (absent). */
#define ROOFLINE_MEASURE(name, unit, desc) \
	{ (name), COL_NUM|COL_NULL|COL_OPT, (unit), (desc), \
	    "\"minimum\":0", NULL }
/* The floating-point throughput of each precision, achieved and peak. */
#define ROOFLINE_PRECISIONS(X)	X(fp64) X(fp32) X(fp16)
#define ROOFLINE_FLOPS(p) \
	ROOFLINE_MEASURE(#p "_flop_per_s", "flop/s", #p " throughput"),
#define ROOFLINE_PEAK_FLOPS(p) \
	ROOFLINE_MEASURE("peak_" #p "_flop_per_s", "flop/s", \
	    "peak " #p " throughput"),
/* The throughput of a memory level (dram, l2, l1), achieved and peak. */
#define ROOFLINE_BW(level) \
	ROOFLINE_MEASURE(#level "_bytes_per_s", "bytes/s", \
	    #level " throughput"),
#define ROOFLINE_PEAK_BW(level) \
	ROOFLINE_MEASURE("peak_" #level "_bytes_per_s", "bytes/s", \
	    "peak " #level " throughput"),

static const struct col roofline_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("duration_ns", COL_NUM|COL_NULL),
	{ "precision", COL_STR|COL_NULL, NULL,
	    "precision", "\"enum\":[\"fp64\",\"fp32\",\"fp16\",null]", NULL },
	{ "flop_per_s", COL_NUM|COL_NULL, "flop/s",
	    "achieved floating-point throughput", "\"minimum\":0", NULL },
	ROOFLINE_BW(dram)
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
	ROOFLINE_MEASURE("dram_bytes", "bytes", "dram size"),
	COLUSEX("l2_bytes", COL_NUM|COL_NULL|COL_OPT, "\"minimum\":0", NULL),
	ROOFLINE_MEASURE("l1_bytes", "bytes", "l1 size"),
	COLUSE("kernel", COL_NAME),
	COLUSE("key", 0),
	ROOFLINE_PRECISIONS(ROOFLINE_FLOPS)
	ROOFLINE_BW(l2)
	ROOFLINE_BW(l1)
	ROOFLINE_MEASURE("peak_flop_per_s", "flop/s",
	    "peak achieved floating-point throughput"),
	ROOFLINE_PRECISIONS(ROOFLINE_PEAK_FLOPS)
	ROOFLINE_PEAK_BW(dram)
	ROOFLINE_PEAK_BW(l2)
	ROOFLINE_PEAK_BW(l1)
	{ "missing_metric", COL_STR|COL_NULL, NULL,
	    "missing metric", NULL, NULL },
	COL_END
};

const struct coldesc cols_roofline = {
	"roofline", roofline_rows, NULL, NULL, cols_aux_report, NULL
};
