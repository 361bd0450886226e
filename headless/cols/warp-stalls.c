/*
 * The column description of `gpulens warp-stalls` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col warp_stalls_rows[] = {
	COLUSE("launch_id", 0),
	COLUSE("kernel", 0),
	COLUSE("reason", COL_STR|COL_OPT),
	COLUSE("instructions", 0),
	COLUSE("samples", COL_NUM),
	{ "samples_pct", COL_NUM|COL_NULL, "pct",
	    "samples", "\"minimum\":0,\"maximum\":100", NULL },
	COLUSE("not_issued", 0),
	{ "issued", COL_NUM, NULL, "issued", NULL, NULL },
	COLUSE("offset", COL_OPT),
	COLUSE("pc", COL_OPT),
	COLUSE("file", COL_OPT),
	COLUSE("line", COL_OPT),
	{ "top_reason", COL_STR|COL_NULL|COL_OPT, NULL,
	    "top reason", NULL, NULL },
	{ "top_reason_samples", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "top reason samples", "\"minimum\":0", NULL },
	{ "stalls", COL_OBJ|COL_OPT, NULL,
	    "stalls",
	    "\"additionalProperties\":{\"type\":\"number\",\"minimum\":0}", NULL },
	COLUSE("key", 0),
	COL_END
};

static const struct col warp_stalls_aux_launches[] = {
	COLUSEX("launch_id", COL_NUM|COL_OPT, "", NULL),
	COLUSE("kernel", COL_OPT),
	{ "sample_count", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "sample count", NULL, NULL },
	{ "reason_samples", COL_NUM|COL_OPT, NULL,
	    "reason samples", NULL, NULL },
	COLUSEX("not_issued", COL_NULL|COL_OPT, "", NULL),
	{ "instructions_sampled", COL_NUM|COL_OPT, NULL,
	    "instructions sampled", NULL, NULL },
	{ "reasons", COL_NUM|COL_OPT, NULL, "reasons", NULL, NULL },
	COLUSE("has_lines", COL_OPT),
	COL_END
};

static const struct col warp_stalls_aux[] = {
	COLUSE("report", COL_OPT),
	COLUSEX("launches", COL_ARR|COL_OPT, NULL, warp_stalls_aux_launches),
	COL_END
};

const struct coldesc cols_warp_stalls = {
	"warp-stalls", warp_stalls_rows, NULL, NULL, warp_stalls_aux, NULL
};
