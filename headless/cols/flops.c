/*
 * The column description of `gpulens flops` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col flops_rows[] = {
	{ "pid", COL_INT|COL_NULL|COL_OPT, NULL,
	    "process id",
	    NULL, NULL },
	{ "iter", COL_INT|COL_OPT, NULL,
	    "iteration index",
	    "\"minimum\":0", NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "start_ns", COL_INT|COL_OPT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT|COL_OPT, "ns",
	    "duration",
	    "\"minimum\":0", NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "flops", COL_NUM, NULL,
	    "flops",
	    "\"minimum\":0", NULL },
	{ "tflops", COL_NUM|COL_NULL, NULL,
	    "tflops",
	    "\"minimum\":0", NULL },
	{ "mfu_pct", COL_NUM|COL_NULL, "pct",
	    "mfu",
	    "\"minimum\":0", NULL },
	{ "ops", COL_INT|COL_OPT, NULL,
	    "ops",
	    "\"minimum\":0", NULL },
	{ "gpu_ns", COL_INT|COL_OPT, "ns",
	    "gpu time",
	    "\"minimum\":0", NULL },
	{ "event", COL_INT|COL_OPT, NULL,
	    "event id (ev:) of the example",
	    "\"minimum\":0", NULL },
	{ "op", COL_STR|COL_OPT, NULL,
	    "op",
	    "\"enum\":[\"mm\",\"addmm\",\"bmm\",\"baddbmm\",\"matmul\",\"linear\",\"conv\",\"attention\"]", NULL },
	{ "input_type", COL_STR|COL_OPT, NULL,
	    "input type",
	    NULL, NULL },
	{ "dtype", COL_STR|COL_OPT, NULL,
	    "dtype",
	    "\"enum\":[\"unknown\",\"fp64\",\"fp32\",\"tf32\",\"fp16\",\"bf16\",\"fp8\"]", NULL },
	{ "source", COL_STR|COL_OPT, NULL,
	    "source",
	    "\"enum\":[\"arg\",\"shapes\"]", NULL },
	{ "counted", COL_BOOL|COL_OPT, NULL,
	    "counted",
	    NULL, NULL },
	{ "peak_tflops", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak tflops",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col flops_aux_devices_peak_tflops[] = {
	{ "fp64", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp64",
	    NULL, NULL },
	{ "fp32", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp32",
	    NULL, NULL },
	{ "tf32", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "tf32",
	    NULL, NULL },
	{ "fp16", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp16",
	    NULL, NULL },
	{ "bf16", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "bf16",
	    NULL, NULL },
	{ "fp8", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "fp8",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col flops_aux_devices[] = {
	{ "device", COL_INT|COL_NULL|COL_OPT, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "name", COL_STR|COL_OPT, NULL,
	    "name",
	    NULL, NULL },
	{ "peak_row", COL_STR|COL_NULL|COL_OPT, NULL,
	    "peak row",
	    NULL, NULL },
	{ "peak_tflops", COL_OBJ|COL_NULL|COL_OPT, NULL,
	    "peak tflops",
	    NULL, flops_aux_devices_peak_tflops },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col flops_aux[] = {
	{ "iter_method", COL_STR|COL_OPT, NULL,
	    "iter method",
	    NULL, NULL },
	{ "total_flops", COL_INT|COL_OPT, NULL,
	    "total flops",
	    NULL, NULL },
	{ "operators", COL_INT|COL_OPT, NULL,
	    "operators",
	    NULL, NULL },
	{ "counted_operators", COL_INT|COL_OPT, NULL,
	    "counted operators",
	    NULL, NULL },
	{ "kernels", COL_INT|COL_OPT, NULL,
	    "number of kernels",
	    NULL, NULL },
	{ "peak_tflops_override", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "peak tflops override",
	    NULL, NULL },
	{ "devices", COL_ARR|COL_OPT, NULL,
	    "devices",
	    NULL, flops_aux_devices },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_flops = {
	"flops", flops_rows, NULL, NULL, flops_aux, NULL
};
