/*
 * The column description of `gpulens rules` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col rules_rows[] = {
	{ "rank", COL_INT, NULL,
	    "distributed rank",
	    "\"minimum\":1", NULL },
	{ "launch_id", COL_INT, NULL,
	    "launch index in the report",
	    "\"minimum\":0", NULL },
	{ "type", COL_STR, NULL,
	    "type",
	    "\"enum\":[\"OPT\",\"WRN\",\"ERR\",\"INF\",\"\"]", NULL },
	{ "estimated_speedup_pct", COL_NUM|COL_NULL, "pct",
	    "speed-up the rule estimates",
	    "\"minimum\":0", NULL },
	{ "rule", COL_STR, NULL,
	    "rule name",
	    NULL, NULL },
	{ "section", COL_STR, NULL,
	    "report section",
	    NULL, NULL },
	{ "message", COL_STR, NULL,
	    "message",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "kernel", COL_STR|COL_NAME, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "speedup_type", COL_STR|COL_NULL, NULL,
	    "speedup type",
	    "\"enum\":[\"local\",\"global\",null]", NULL },
	{ "rule_name", COL_STR, NULL,
	    "rule name",
	    NULL, NULL },
	{ "title", COL_STR, NULL,
	    "one-line finding",
	    NULL, NULL },
	{ "focus", COL_STR|COL_NULL, NULL,
	    "focus",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col rules_aux_report[] = {
	{ "path", COL_STR|COL_NULL, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "format", COL_STR, NULL,
	    "format",
	    NULL, NULL },
	{ "version", COL_INT|COL_NULL, NULL,
	    "version",
	    NULL, NULL },
	{ "tool_version", COL_STR|COL_NULL, NULL,
	    "tool version",
	    NULL, NULL },
	{ "launches", COL_INT, NULL,
	    "launches",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col rules_aux[] = {
	{ "report", COL_OBJ, NULL,
	    "the Nsight Compute report",
	    NULL, rules_aux_report },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_rules = {
	"rules", rules_rows, NULL, NULL, rules_aux, NULL
};
