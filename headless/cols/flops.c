/*
 * The column description of `gpulens flops` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col flops_rows[] = {
	COLUSE("pid", COL_OPT),
	COLUSE("iter", COL_OPT),
	COLUSE("name", 0),
	COLUSE("start_ns", COL_OPT),
	COLUSE("duration_ns", COL_OPT),
	COLUSE("kernels", 0),
	{ "flops", COL_NUM, NULL, "flops", "\"minimum\":0", NULL },
	{ "tflops", COL_NUM|COL_NULL, NULL, "tflops", "\"minimum\":0", NULL },
	{ "mfu_pct", COL_NUM|COL_NULL, "pct", "mfu", "\"minimum\":0", NULL },
	COLUSE("ops", COL_OPT),
	COLUSEX("gpu_ns", COL_OPT, "\"minimum\":0", NULL),
	COLUSE("event", COL_INT|COL_OPT),
	{ "op", COL_STR|COL_OPT, NULL,
	    "op",
	    "\"enum\":[\"mm\",\"addmm\",\"bmm\",\"baddbmm\",\"matmul\",\"linear\",\"conv\",\"attention\"]", NULL },
	{ "input_type", COL_STR|COL_OPT, NULL, "input type", NULL, NULL },
	{ "dtype", COL_STR|COL_OPT, NULL,
	    "dtype",
	    "\"enum\":[\"unknown\",\"fp64\",\"fp32\",\"tf32\",\"fp16\",\"bf16\",\"fp8\"]", NULL },
	COLUSE("source", COL_OPT),
	{ "counted", COL_BOOL|COL_OPT, NULL, "counted", NULL, NULL },
	COLUSE("peak_tflops", COL_OPT),
	COLUSE("key", 0),
	COL_END
};

static const struct col flops_aux_devices_peak_tflops[] = {
	{ "fp64", COL_NUM|COL_NULL|COL_OPT, NULL, "fp64", NULL, NULL },
	{ "fp32", COL_NUM|COL_NULL|COL_OPT, NULL, "fp32", NULL, NULL },
	{ "tf32", COL_NUM|COL_NULL|COL_OPT, NULL, "tf32", NULL, NULL },
	{ "fp16", COL_NUM|COL_NULL|COL_OPT, NULL, "fp16", NULL, NULL },
	{ "bf16", COL_NUM|COL_NULL|COL_OPT, NULL, "bf16", NULL, NULL },
	{ "fp8", COL_NUM|COL_NULL|COL_OPT, NULL, "fp8", NULL, NULL },
	COL_END
};

static const struct col flops_aux_devices[] = {
	COLUSE("device", COL_OPT),
	COLUSE("name", COL_OPT),
	{ "peak_row", COL_STR|COL_NULL|COL_OPT, NULL, "peak row", NULL, NULL },
	COLUSEX("peak_tflops", COL_OBJ|COL_NULL|COL_OPT,
	    "", flops_aux_devices_peak_tflops),
	COL_END
};

static const struct col flops_aux[] = {
	{ "iter_method", COL_STR|COL_OPT, NULL, "iter method", NULL, NULL },
	{ "total_flops", COL_INT|COL_OPT, NULL, "total flops", NULL, NULL },
	{ "operators", COL_INT|COL_OPT, NULL, "operators", NULL, NULL },
	{ "counted_operators", COL_INT|COL_OPT, NULL,
	    "counted operators", NULL, NULL },
	COLUSEX("kernels", COL_OPT, "", NULL),
	{ "peak_tflops_override", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak tflops override", NULL, NULL },
	COLUSEX("devices", COL_OPT, NULL, flops_aux_devices),
	COL_END
};

const struct coldesc cols_flops = {
	"flops", flops_rows, NULL, NULL, flops_aux, NULL
};
