/*
 * The column description of `gpulens correlate` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col correlate_rows[] = {
	{ "seq", COL_INT, NULL, "seq", "\"minimum\":0", NULL },
	{ "link", COL_STR, NULL,
	    "link", "\"enum\":[\"range-api\",\"api-gpu\"]", NULL },
	{ "from_id", COL_INT, NULL, "from id", "\"minimum\":0", NULL },
	{ "from_kind", COL_STR, NULL, "from kind", NULL, NULL },
	{ "to_id", COL_INT, NULL, "to id", "\"minimum\":0", NULL },
	{ "to_kind", COL_STR, NULL, "to kind", NULL, NULL },
	{ "offset_ns", COL_INT, "ns", "offset time", NULL, NULL },
	{ "queue_delay_ns", COL_INT|COL_NULL, "ns",
	    "queue delay time", NULL, NULL },
	{ "to_start_ns", COL_INT, "ns", "to start time", NULL, NULL },
	{ "to_duration_ns", COL_INT, "ns",
	    "to duration time", "\"minimum\":0", NULL },
	{ "from_start_ns", COL_INT, "ns", "from start time", NULL, NULL },
	{ "from_duration_ns", COL_INT, "ns",
	    "from duration time", "\"minimum\":0", NULL },
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("tid", 0),
	{ "from_name", COL_STR, NULL, "from name", NULL, NULL },
	{ "to_name", COL_STR, NULL, "to name", NULL, NULL },
	COLUSE("nvtx_path", 0),
	COLUSE("key", 0),
	COL_END
};

static const struct col correlate_aux_root[] = {
	COLUSE("key", 0),
	COLUSE("id", COL_NULL),
	COLUSE("source_rowid", 0),
	COLUSE("kind", COL_NULL),
	COLUSE("name", 0),
	COLUSE("start_ns", COL_NULL),
	COLUSE("end_ns", COL_NULL),
	COLUSEX("duration_ns", COL_NUM|COL_NULL, "", NULL),
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("tid", 0),
	COLUSEX("bytes", COL_NULL|COL_OPT, "", NULL),
	COLUSEX("copy_kind", COL_OPT, "", NULL),
	COLUSEX("grid", COL_OPT, "\"items\":{\"type\":\"integer\"}", NULL),
	COLUSEX("block", COL_OPT, "\"items\":{\"type\":\"integer\"}", NULL),
	COL_END
};

static const struct col correlate_aux[] = {
	{ "root", COL_OBJ, NULL,
	    "the event asked about", NULL, correlate_aux_root },
	COLUSEX("gpu_ops", COL_OPT, "", NULL),
	COLUSEX("gpu_busy_ns", COL_OPT, "", NULL),
	COLUSE("gpu_start_ns", COL_OPT),
	COLUSE("gpu_end_ns", COL_OPT),
	{ "api_calls", COL_INT, NULL, "CPU API calls linked", NULL, NULL },
	{ "gpu_links", COL_INT, NULL, "gpu links", NULL, NULL },
	COL_END
};

const struct coldesc cols_correlate = {
	"correlate", correlate_rows, NULL, NULL, correlate_aux, NULL
};
