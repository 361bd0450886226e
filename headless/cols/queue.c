/*
 * The column description of `gpulens queue` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col queue_rows[] = {
	COLUSEX("device", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("pid", 0, "\"minimum\":0", NULL),
	COLUSEX("stream", COL_INT, "\"minimum\":0", NULL),
	COLUSEX("launches", 0, "\"minimum\":0", NULL),
	{ "max_queue", COL_INT, NULL, "maximum queue", NULL, NULL },
	{ "mean_queue", COL_NUM, NULL, "mean queue", NULL, NULL },
	{ "full_ns", COL_INT, "ns", "full time", "\"minimum\":0", NULL },
	COLUSE("idle_ns", COL_INT),
	{ "host_wait_ns", COL_INT, "ns", "host wait time", NULL, NULL },
	{ "kernel_wait_ns", COL_INT, "ns", "kernel wait time", NULL, NULL },
	COLUSEX("other_ns", 0, "", NULL),
	{ "host_wait_pct", COL_NUM, "pct", "host wait", NULL, NULL },
	COLUSE("key", 0),
	COLUSE("events", 0),
	{ "min_queue", COL_INT, NULL, "minimum queue", NULL, NULL },
	{ "mean_samples", COL_NUM, NULL, "mean samples", NULL, NULL },
	{ "first_ns", COL_INT|COL_NULL, "ns", "first time", NULL, NULL },
	{ "last_ns", COL_INT|COL_NULL, "ns", "last time", NULL, NULL },
	{ "full_pct", COL_NUM, "pct", "full", "\"minimum\":0", NULL },
	{ "host_wait_n", COL_INT, NULL, "host wait n", "\"minimum\":0", NULL },
	{ "kernel_wait_n", COL_INT, NULL,
	    "kernel wait n", "\"minimum\":0", NULL },
	{ "other_n", COL_INT, NULL, "other n", "\"minimum\":0", NULL },
	COL_END
};

static const struct col queue_aux_idle_ns[] = {
	{ "host_wait", COL_INT|COL_OPT, NULL, "host wait", NULL, NULL },
	{ "kernel_wait", COL_INT|COL_OPT, NULL, "kernel wait", NULL, NULL },
	COLUSE("other", COL_OPT),
	COL_END
};

static const struct col queue_aux[] = {
	{ "max_queue_length", COL_INT|COL_OPT, NULL,
	    "maximum queue length", NULL, NULL },
	{ "kernel_delay_ns", COL_INT|COL_OPT, "ns",
	    "kernel delay time", NULL, NULL },
	COLUSE("streams", COL_OPT),
	COLUSE("launches", COL_OPT),
	COLUSEX("idle_ns", COL_OBJ|COL_NULL|COL_OPT, NULL, queue_aux_idle_ns),
	COL_END
};

const struct coldesc cols_queue = {
	"queue", queue_rows, NULL, NULL, queue_aux, NULL
};
