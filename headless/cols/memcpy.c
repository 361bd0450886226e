/*
 * The column description of `gpulens memcpy` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col memcpy_rows[] = {
	COLUSE("device", 0),
	COLUSE("copy_kind", 0),
	COLUSEX("src_kind", 0,
	    "\"enum\":[\"unknown\",\"pageable\",\"pinned\",\"device\",\"array\",\"managed\",\"device-static\",\"managed-static\"]", NULL),
	COLUSEX("dst_kind", 0,
	    "\"enum\":[\"unknown\",\"pageable\",\"pinned\",\"device\",\"array\",\"managed\",\"device-static\",\"managed-static\"]", NULL),
	COLUSE("count", 0),
	COLUSEX("total_bytes", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("total_ns", 0, "\"minimum\":0", NULL),
	COLUSE("mean_bytes", 0),
	COLUSE("mean_ns", 0),
	COLUSE("bytes_per_s", 0),
	{ "peak_bytes_per_s", COL_INT|COL_NULL, "bytes/s",
	    "peak throughput", "\"minimum\":0", NULL },
	{ "peak_pct", COL_NUM|COL_NULL, "pct",
	    "peak pct", "\"minimum\":0", NULL },
	COLUSE("copy_kind_label", 0),
	COLUSE("key", 0),
	COL_END
};

static const struct col memcpy_aux[] = {
	COLUSE("total_bytes", 0),
	COLUSE("total_ns", 0),
	COLUSEX("bytes_per_s", COL_OPT, "", NULL),
	COL_END
};

const struct coldesc cols_memcpy = {
	"memcpy", memcpy_rows, NULL, NULL, memcpy_aux, NULL
};
