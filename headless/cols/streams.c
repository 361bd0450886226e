/*
 * The column description of `gpulens streams` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col streams_rows[] = {
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	{ "role", COL_STR, NULL,
	    "role", "\"enum\":[\"compute\",\"communication\",\"copy\"]", NULL },
	{ "purpose", COL_STR|COL_NULL, NULL, "purpose", NULL, NULL },
	COLUSE("kernels", 0),
	COLUSE("comm_kernels", 0),
	COLUSE("copies", 0),
	COLUSE("memsets", 0),
	COLUSEX("busy_pct", 0, "\"minimum\":0", NULL),
	COLUSE("name", 0),
	COLUSE("key", 0),
	COLUSEX("context", 0, "\"minimum\":0", NULL),
	COLUSE("busy_ns", 0),
	COL_END
};

static const struct col streams_aux[] = {
	COLUSE("streams", COL_OPT),
	{ "compute_streams", COL_INT|COL_OPT, NULL,
	    "compute streams", NULL, NULL },
	{ "communication_streams", COL_INT|COL_OPT, NULL,
	    "communication streams", NULL, NULL },
	{ "copy_streams", COL_INT|COL_OPT, NULL, "copy streams", NULL, NULL },
	COL_END
};

const struct coldesc cols_streams = {
	"streams", streams_rows, NULL, NULL, streams_aux, NULL
};
