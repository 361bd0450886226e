/*
 * The column description of `gpulens report-inspect` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col report_inspect_rows[] = {
	COLUSE("launch_id", COL_OPT),
	COLUSEX("kind", COL_OPT, "\"enum\":[\"metric\",\"rule\"]", NULL),
	COLUSE("section", COL_OPT),
	COLUSE("label", COL_OPT),
	COLUSE("value", COL_OPT),
	COLUSE("unit", COL_OPT),
	COLUSE("type", COL_OPT),
	COLUSE("estimated_speedup_pct", COL_OPT),
	COLUSE("message", COL_OPT),
	COLUSE("name", COL_OPT),
	COLUSE("key", COL_OPT),
	COLUSE("instances", COL_OPT),
	COLUSE("speedup_type", COL_OPT),
	COLUSE("focus", COL_OPT),
	COLUSE("status", COL_OPT),
	COL_END
};

static const struct col report_inspect_aux_launches_nvtx[] = {
	COLUSE("domain", 0),
	{ "range", COL_STR|COL_NULL, NULL, "range", NULL, NULL },
	COL_END
};

static const struct col report_inspect_aux_launches[] = {
	COLUSEX("launch_id", 0, "", NULL),
	COLUSE("kernel", 0),
	COLUSE("function", 0),
	COLUSEX("grid", 0, "\"items\":{\"type\":\"integer\"}", NULL),
	COLUSEX("block", 0, "\"items\":{\"type\":\"integer\"}", NULL),
	COLUSE("device", 0),
	COLUSE("context", COL_NULL),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("mangled", 0),
	COLUSE("tid", 0),
	COLUSE("process", 0),
	COLUSEX("duration_ns", COL_NUM|COL_NULL, "", NULL),
	{ "nvtx", COL_ARR, NULL,
	    "nvtx", NULL, report_inspect_aux_launches_nvtx },
	COL_END
};

static const struct col report_inspect_aux[] = {
	COLUSE("report", 0),
	COLUSEX("launches", COL_ARR, NULL, report_inspect_aux_launches),
	COL_END
};

static const struct colvar report_inspect_variants[] = {
	{ NULL,
	    "launch_id kind section label value unit type estimated_speedup_pct message name key instances speedup_type focus",
	    "key launch_id kind section name label" },
	{ NULL,
	    "launch_id key status", NULL },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_report_inspect = {
	"report-inspect", report_inspect_rows, report_inspect_variants, NULL, report_inspect_aux, NULL
};
