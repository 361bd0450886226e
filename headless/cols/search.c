/*
 * The column description of `gpulens search` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col search_rows[] = {
	{ "id", COL_INT, NULL,
	    "event id (its ev: id)",
	    "\"minimum\":0", NULL },
	{ "kind", COL_STR, NULL,
	    "kind",
	    "\"enum\":[\"kernel\",\"memcpy\",\"memset\",\"sync\",\"api\",\"osrt\",\"nvtx\",\"mark\",\"graph\",\"counter\",\"overhead\"]", NULL },
	{ "start_ns", COL_INT, "ns-time",
	    "start, from the trace origin",
	    NULL, NULL },
	{ "duration_ns", COL_INT, "ns",
	    "duration",
	    "\"minimum\":0", NULL },
	{ "end_ns", COL_INT, "ns-time",
	    "end, from the trace origin",
	    NULL, NULL },
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "tid", COL_INT|COL_NULL, NULL,
	    "thread id",
	    NULL, NULL },
	{ "grid", COL_ARR|COL_OPT, NULL,
	    "grid dimensions (x, y, z)",
	    "\"items\":{\"type\":\"integer\",\"minimum\":0}", NULL },
	{ "block", COL_ARR|COL_OPT, NULL,
	    "block dimensions (x, y, z)",
	    "\"items\":{\"type\":\"integer\",\"minimum\":0}", NULL },
	{ "bytes", COL_INT|COL_OPT, NULL,
	    "bytes moved",
	    "\"minimum\":0", NULL },
	{ "copy_kind", COL_STR|COL_OPT, NULL,
	    "copy direction",
	    "\"enum\":[\"unknown\",\"h2d\",\"d2h\",\"d2d\",\"h2h\",\"p2p\",\"h2a\",\"a2h\",\"a2a\",\"a2d\",\"d2a\",\"um-h2d\",\"um-d2h\",\"um-d2d\"]", NULL },
	{ "source_rowid", COL_INT|COL_NULL, NULL,
	    "row id in the source table",
	    NULL, NULL },
	{ "name", COL_STR|COL_NAME, NULL,
	    "event name",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col search_aux[] = {
	{ "total_matched", COL_NUM, NULL,
	    "rows that matched before paging",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_search = {
	"search", search_rows, NULL, NULL, search_aux, NULL
};
