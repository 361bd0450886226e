/*
 * The column description of `gpulens streams` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col streams_rows[] = {
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "context", COL_INT, NULL,
	    "CUDA context id",
	    "\"minimum\":0", NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "role", COL_STR, NULL,
	    "role",
	    "\"enum\":[\"compute\",\"communication\",\"copy\"]", NULL },
	{ "purpose", COL_STR|COL_NULL, NULL,
	    "purpose",
	    NULL, NULL },
	{ "kernels", COL_INT, NULL,
	    "number of kernels",
	    "\"minimum\":0", NULL },
	{ "comm_kernels", COL_INT, NULL,
	    "comm kernels",
	    "\"minimum\":0", NULL },
	{ "copies", COL_INT, NULL,
	    "copies",
	    "\"minimum\":0", NULL },
	{ "memsets", COL_INT, NULL,
	    "memsets",
	    "\"minimum\":0", NULL },
	{ "busy_ns", COL_INT, "ns",
	    "GPU busy time (union of work intervals)",
	    "\"minimum\":0", NULL },
	{ "busy_pct", COL_NUM, "pct",
	    "busy share",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col streams_aux[] = {
	{ "streams", COL_INT|COL_OPT, NULL,
	    "streams",
	    NULL, NULL },
	{ "compute_streams", COL_INT|COL_OPT, NULL,
	    "compute streams",
	    NULL, NULL },
	{ "communication_streams", COL_INT|COL_OPT, NULL,
	    "communication streams",
	    NULL, NULL },
	{ "copy_streams", COL_INT|COL_OPT, NULL,
	    "copy streams",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_streams = {
	"streams", streams_rows, NULL, NULL, streams_aux, NULL
};
