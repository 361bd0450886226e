/*
 * The column description of `gpulens search` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col search_rows[] = {
	COLUSEX("id", 0, "\"minimum\":0", NULL),
	COLUSEX("kind", 0,
	    "\"enum\":[\"kernel\",\"memcpy\",\"memset\",\"sync\",\"api\",\"osrt\",\"nvtx\",\"mark\",\"graph\",\"counter\",\"overhead\"]", NULL),
	COLUSE("start_ns", 0),
	COLUSE("duration_ns", 0),
	COLUSE("end_ns", 0),
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("tid", 0),
	COLUSE("grid", COL_OPT),
	COLUSE("block", COL_OPT),
	COLUSE("bytes", COL_OPT),
	COLUSE("copy_kind", COL_OPT),
	COLUSE("source_rowid", 0),
	{ "name", COL_STR|COL_NAME, NULL, "event name", NULL, NULL },
	COLUSE("key", 0),
	COL_END
};

static const struct col search_aux[] = {
	{ "total_matched", COL_NUM, NULL,
	    "rows that matched before paging", NULL, NULL },
	COL_END
};

const struct coldesc cols_search = {
	"search", search_rows, NULL, NULL, search_aux, NULL
};
