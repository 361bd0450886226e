/*
 * The column description of `gpulens gaps` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* The share of the gap the CPU threads spent doing one thing. */
#define GAPS_CPU_PCT(what, desc) \
	{ "cpu_" #what "_pct", COL_NUM|COL_NULL, "pct", \
	    "share of the gap the CPU " desc, \
	    "\"minimum\":0,\"maximum\":100", NULL }

static const struct col gaps_rows[] = {
	COLUSE("scope", 0),
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("start_ns", 0),
	COLUSE("end_ns", 0),
	COLUSEX("duration_ns", 0, "\"minimum\":1", NULL),
	COLUSEX("kind", 0,
	    "\"enum\":[\"leading\",\"inner\",\"trailing\",\"whole\"]", NULL),
	{ "cpu_activity", COL_STR|COL_NULL, NULL,
	    "what the CPU threads did in the gap",
	    "\"enum\":[\"synchronizing\",\"copying\",\"launching\",\"nothing\",null]", NULL },
	GAPS_CPU_PCT(sync, "synchronised"),
	GAPS_CPU_PCT(copy, "copied"),
	GAPS_CPU_PCT(launch, "launched work"),
	GAPS_CPU_PCT(none, "did none of these"),
	{ "prev_name", COL_STR|COL_NULL|COL_NAME, NULL,
	    "GPU operation ending at the gap", NULL, NULL },
	{ "next_name", COL_STR|COL_NULL|COL_NAME, NULL,
	    "GPU operation starting after the gap", NULL, NULL },
	COLUSE("key", 0),
	COL_END
};

/* A device's idle; "all" has the same fields but device. */
static const struct col gaps_aux_devices[] = {
	COLUSE("device", 0),
	COLUSE("window_ns", 0),
	COLUSEX("busy_ns", 0, "", NULL),
	COLUSE("total_idle_ns", 0),
	COLUSE("inner_idle_ns", 0),
	COLUSE("idle_pct", 0),
	COL_END
};

static const struct col gaps_aux_histogram[] = {
	COLUSE("label", 0),
	COLUSEX("count", COL_NUM, "", NULL),
	COLUSE("total_ns", 0),
	COL_END
};

static const struct col gaps_aux[] = {
	COLUSEX("scope", 0, "", NULL),
	COLUSE("window_start_ns", 0),
	COLUSE("window_end_ns", 0),
	{ "min_dur_ns", COL_INT, "ns", "minimum dur", NULL, NULL },
	{ "gaps_matched", COL_INT, NULL, "gaps matched", NULL, NULL },
	COLUSEX("devices", 0, NULL, gaps_aux_devices),
	{ "all", COL_OBJ, NULL, "every device together", NULL,
	    gaps_aux_devices + 1 },
	{ "histogram", COL_ARR, NULL,
	    "gap histogram", NULL, gaps_aux_histogram },
	COL_END
};

const struct coldesc cols_gaps = {
	"gaps", gaps_rows, NULL, NULL, gaps_aux, NULL
};
