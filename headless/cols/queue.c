/*
 * The column description of `gpulens queue` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col queue_rows[] = {
	{ "device", COL_INT, NULL,
	    "device id as the trace gives it",
	    "\"minimum\":0", NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    "\"minimum\":0", NULL },
	{ "stream", COL_INT, NULL,
	    "stream id",
	    "\"minimum\":0", NULL },
	{ "events", COL_INT, NULL,
	    "number of events",
	    "\"minimum\":0", NULL },
	{ "launches", COL_INT, NULL,
	    "launches",
	    "\"minimum\":0", NULL },
	{ "max_queue", COL_INT, NULL,
	    "maximum queue",
	    NULL, NULL },
	{ "min_queue", COL_INT, NULL,
	    "minimum queue",
	    NULL, NULL },
	{ "mean_queue", COL_NUM, NULL,
	    "mean queue",
	    NULL, NULL },
	{ "mean_samples", COL_NUM, NULL,
	    "mean samples",
	    NULL, NULL },
	{ "first_ns", COL_INT|COL_NULL, "ns",
	    "first time",
	    NULL, NULL },
	{ "last_ns", COL_INT|COL_NULL, "ns",
	    "last time",
	    NULL, NULL },
	{ "full_ns", COL_INT, "ns",
	    "full time",
	    "\"minimum\":0", NULL },
	{ "full_pct", COL_NUM, "pct",
	    "full",
	    "\"minimum\":0", NULL },
	{ "host_wait_ns", COL_INT, "ns",
	    "host wait time",
	    NULL, NULL },
	{ "host_wait_n", COL_INT, NULL,
	    "host wait n",
	    "\"minimum\":0", NULL },
	{ "kernel_wait_ns", COL_INT, "ns",
	    "kernel wait time",
	    NULL, NULL },
	{ "kernel_wait_n", COL_INT, NULL,
	    "kernel wait n",
	    "\"minimum\":0", NULL },
	{ "other_ns", COL_INT, "ns",
	    "other time",
	    NULL, NULL },
	{ "other_n", COL_INT, NULL,
	    "other n",
	    "\"minimum\":0", NULL },
	{ "idle_ns", COL_INT, "ns",
	    "GPU idle time",
	    NULL, NULL },
	{ "host_wait_pct", COL_NUM, "pct",
	    "host wait",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col queue_aux_idle_ns[] = {
	{ "host_wait", COL_INT|COL_OPT, NULL,
	    "host wait",
	    NULL, NULL },
	{ "kernel_wait", COL_INT|COL_OPT, NULL,
	    "kernel wait",
	    NULL, NULL },
	{ "other", COL_INT|COL_OPT, NULL,
	    "other",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col queue_aux[] = {
	{ "max_queue_length", COL_INT|COL_OPT, NULL,
	    "maximum queue length",
	    NULL, NULL },
	{ "kernel_delay_ns", COL_INT|COL_OPT, "ns",
	    "kernel delay time",
	    NULL, NULL },
	{ "streams", COL_INT|COL_OPT, NULL,
	    "streams",
	    NULL, NULL },
	{ "launches", COL_INT|COL_OPT, NULL,
	    "launches",
	    NULL, NULL },
	{ "idle_ns", COL_OBJ|COL_NULL|COL_OPT, "ns",
	    "GPU idle time",
	    NULL, queue_aux_idle_ns },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_queue = {
	"queue", queue_rows, NULL, NULL, queue_aux, NULL
};
