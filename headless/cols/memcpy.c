/*
 * The column description of `gpulens memcpy` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col memcpy_rows[] = {
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "copy_kind", COL_STR, NULL,
	    "copy direction",
	    "\"enum\":[\"unknown\",\"h2d\",\"d2h\",\"d2d\",\"h2h\",\"p2p\",\"h2a\",\"a2h\",\"a2a\",\"a2d\",\"d2a\",\"um-h2d\",\"um-d2h\",\"um-d2d\"]", NULL },
	{ "src_kind", COL_STR, NULL,
	    "src kind",
	    "\"enum\":[\"unknown\",\"pageable\",\"pinned\",\"device\",\"array\",\"managed\",\"device-static\",\"managed-static\"]", NULL },
	{ "dst_kind", COL_STR, NULL,
	    "dst kind",
	    "\"enum\":[\"unknown\",\"pageable\",\"pinned\",\"device\",\"array\",\"managed\",\"device-static\",\"managed-static\"]", NULL },
	{ "count", COL_INT, NULL,
	    "how many",
	    "\"minimum\":1", NULL },
	{ "total_bytes", COL_INT, "bytes",
	    "bytes in total",
	    "\"minimum\":0", NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    "\"minimum\":0", NULL },
	{ "mean_bytes", COL_NUM, "bytes",
	    "mean bytes",
	    "\"minimum\":0", NULL },
	{ "mean_ns", COL_NUM, "ns",
	    "mean",
	    "\"minimum\":0", NULL },
	{ "bytes_per_s", COL_NUM|COL_NULL, "bytes/s",
	    "throughput",
	    "\"minimum\":0", NULL },
	{ "peak_bytes_per_s", COL_INT|COL_NULL, "bytes/s",
	    "peak throughput",
	    "\"minimum\":0", NULL },
	{ "peak_pct", COL_NUM|COL_NULL, "pct",
	    "peak pct",
	    "\"minimum\":0", NULL },
	{ "copy_kind_label", COL_STR, NULL,
	    "copy kind label",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col memcpy_aux[] = {
	{ "total_bytes", COL_INT|COL_NULL, "bytes",
	    "bytes in total",
	    NULL, NULL },
	{ "total_ns", COL_INT, "ns",
	    "total time",
	    NULL, NULL },
	{ "bytes_per_s", COL_NUM|COL_NULL|COL_OPT, "bytes/s",
	    "throughput",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_memcpy = {
	"memcpy", memcpy_rows, NULL, NULL, memcpy_aux, NULL
};
