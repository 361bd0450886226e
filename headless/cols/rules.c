/*
 * The column description of `gpulens rules` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col rules_rows[] = {
	COLUSEX("rank", COL_INT, "\"minimum\":1", NULL),
	COLUSE("launch_id", 0),
	COLUSE("type", 0),
	COLUSE("estimated_speedup_pct", 0),
	COLUSE("rule", 0),
	COLUSE("section", 0),
	COLUSE("message", 0),
	COLUSE("key", 0),
	COLUSE("kernel", COL_NAME),
	COLUSE("speedup_type", 0),
	{ "rule_name", COL_STR, NULL, "rule name", NULL, NULL },
	COLUSE("title", 0),
	COLUSE("focus", 0),
	COL_END
};

const struct coldesc cols_rules = {
	"rules", rules_rows, NULL, NULL, cols_aux_report, NULL
};
