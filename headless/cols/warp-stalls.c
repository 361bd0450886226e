/*
 * The column description of `gpulens warp-stalls` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col warp_stalls_rows[] = {
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "kernel", COL_STR, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "reason", COL_STR|COL_OPT, NULL,
	    "reason",
	    NULL, NULL },
	{ "instructions", COL_INT, NULL,
	    "instructions",
	    "\"minimum\":0", NULL },
	{ "samples", COL_NUM, NULL,
	    "samples",
	    "\"minimum\":0", NULL },
	{ "samples_pct", COL_NUM|COL_NULL, "pct",
	    "samples",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "not_issued", COL_NUM, NULL,
	    "not issued",
	    "\"minimum\":0", NULL },
	{ "issued", COL_NUM, NULL,
	    "issued",
	    NULL, NULL },
	{ "offset", COL_INT|COL_OPT, NULL,
	    "offset",
	    "\"minimum\":0", NULL },
	{ "pc", COL_STR|COL_OPT, NULL,
	    "pc",
	    "\"pattern\":\"^0x[0-9a-f]+$\"", NULL },
	{ "file", COL_STR|COL_NULL|COL_OPT, NULL,
	    "file",
	    NULL, NULL },
	{ "line", COL_INT|COL_NULL|COL_OPT, NULL,
	    "line",
	    "\"minimum\":1", NULL },
	{ "top_reason", COL_STR|COL_NULL|COL_OPT, NULL,
	    "top reason",
	    NULL, NULL },
	{ "top_reason_samples", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "top reason samples",
	    "\"minimum\":0", NULL },
	{ "stalls", COL_OBJ|COL_OPT, NULL,
	    "stalls",
	    "\"additionalProperties\":{\"type\":\"number\",\"minimum\":0}", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col warp_stalls_aux_report[] = {
	{ "path", COL_STR|COL_NULL|COL_OPT, NULL,
	    "the report's path",
	    NULL, NULL },
	{ "format", COL_STR|COL_OPT, NULL,
	    "format",
	    NULL, NULL },
	{ "version", COL_INT|COL_NULL|COL_OPT, NULL,
	    "version",
	    NULL, NULL },
	{ "tool_version", COL_STR|COL_NULL|COL_OPT, NULL,
	    "tool version",
	    NULL, NULL },
	{ "launches", COL_INT|COL_OPT, NULL,
	    "launches",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col warp_stalls_aux_launches[] = {
	{ "launch_id", COL_NUM|COL_OPT, NULL,
	    "launch index in the report",
	    NULL, NULL },
	{ "kernel", COL_STR|COL_OPT, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "sample_count", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "sample count",
	    NULL, NULL },
	{ "reason_samples", COL_NUM|COL_OPT, NULL,
	    "reason samples",
	    NULL, NULL },
	{ "not_issued", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "not issued",
	    NULL, NULL },
	{ "instructions_sampled", COL_NUM|COL_OPT, NULL,
	    "instructions sampled",
	    NULL, NULL },
	{ "reasons", COL_NUM|COL_OPT, NULL,
	    "reasons",
	    NULL, NULL },
	{ "has_lines", COL_BOOL|COL_OPT, NULL,
	    "has lines",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col warp_stalls_aux[] = {
	{ "report", COL_OBJ|COL_OPT, NULL,
	    "the Nsight Compute report",
	    NULL, warp_stalls_aux_report },
	{ "launches", COL_ARR|COL_OPT, NULL,
	    "launches",
	    NULL, warp_stalls_aux_launches },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_warp_stalls = {
	"warp-stalls", warp_stalls_rows, NULL, NULL, warp_stalls_aux, NULL
};
