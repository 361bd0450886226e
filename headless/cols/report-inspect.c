/*
 * The column description of `gpulens report-inspect` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_inspect_rows[] = {
	{ "launch_id", COL_INT|COL_OPT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "kind", COL_STR|COL_OPT, NULL,
	    "kind",
	    "\"enum\":[\"metric\",\"rule\"]", NULL },
	{ "section", COL_STR|COL_OPT, NULL,
	    "report section",
	    NULL, NULL },
	{ "label", COL_STR|COL_OPT, NULL,
	    "label",
	    NULL, NULL },
	{ "value", COL_STR|COL_NUM|COL_NULL|COL_OPT, NULL,
	    "value",
	    NULL, NULL },
	{ "unit", COL_STR|COL_OPT, NULL,
	    "unit of value",
	    NULL, NULL },
	{ "type", COL_STR|COL_OPT, NULL,
	    "type",
	    "\"enum\":[\"OPT\",\"WRN\",\"ERR\",\"INF\",\"\"]", NULL },
	{ "estimated_speedup_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "speed-up the rule estimates",
	    "\"minimum\":0", NULL },
	{ "message", COL_STR|COL_OPT, NULL,
	    "message",
	    NULL, NULL },
	{ "name", COL_STR|COL_OPT, NULL,
	    "name",
	    NULL, NULL },
	{ "key", COL_STR|COL_OPT, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "instances", COL_INT|COL_OPT, NULL,
	    "per-instance values of the metric",
	    "\"minimum\":0", NULL },
	{ "speedup_type", COL_STR|COL_NULL|COL_OPT, NULL,
	    "speedup type",
	    "\"enum\":[\"local\",\"global\",null]", NULL },
	{ "focus", COL_STR|COL_NULL|COL_OPT, NULL,
	    "focus",
	    NULL, NULL },
	{ "status", COL_STR|COL_OPT, NULL,
	    "not_found when the id names nothing",
	    "\"const\":\"not_found\"", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_inspect_aux_report[] = {
	{ "path", COL_STR|COL_NULL, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "format", COL_STR, NULL,
	    "format",
	    NULL, NULL },
	{ "version", COL_INT|COL_NULL, NULL,
	    "version",
	    NULL, NULL },
	{ "tool_version", COL_STR|COL_NULL, NULL,
	    "tool version",
	    NULL, NULL },
	{ "launches", COL_INT, NULL,
	    "launches",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_inspect_aux_launches_nvtx[] = {
	{ "domain", COL_STR|COL_NULL, NULL,
	    "NVTX domain",
	    NULL, NULL },
	{ "range", COL_STR|COL_NULL, NULL,
	    "range",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_inspect_aux_launches[] = {
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    NULL, NULL },
	{ "kernel", COL_STR, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "function", COL_STR, NULL,
	    "function",
	    NULL, NULL },
	{ "grid", COL_ARR, NULL,
	    "grid dimensions (x, y, z)",
	    "\"items\":{\"type\":\"integer\"}", NULL },
	{ "block", COL_ARR, NULL,
	    "block dimensions (x, y, z)",
	    "\"items\":{\"type\":\"integer\"}", NULL },
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "context", COL_INT|COL_NULL, NULL,
	    "CUDA context id",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "mangled", COL_STR, NULL,
	    "mangled",
	    NULL, NULL },
	{ "tid", COL_INT|COL_NULL, NULL,
	    "thread id",
	    NULL, NULL },
	{ "process", COL_STR, NULL,
	    "process",
	    NULL, NULL },
	{ "duration_ns", COL_NUM|COL_NULL, "ns",
	    "duration",
	    NULL, NULL },
	{ "nvtx", COL_ARR, NULL,
	    "nvtx",
	    NULL, report_inspect_aux_launches_nvtx },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col report_inspect_aux[] = {
	{ "report", COL_OBJ, NULL,
	    "the Nsight Compute report",
	    NULL, report_inspect_aux_report },
	{ "launches", COL_ARR, NULL,
	    "launches",
	    NULL, report_inspect_aux_launches },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct colvar report_inspect_variants[] = {
	{ NULL,
	    "launch_id kind section label value unit type estimated_speedup_pct message name key instances speedup_type focus",
	    "key launch_id kind section name label" },
	{ NULL,
	    "launch_id key status",
	    "key launch_id status" },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_report_inspect = {
	"report-inspect", report_inspect_rows, report_inspect_variants, NULL, report_inspect_aux, NULL
};
