/*
 * The column description of `gpulens ranges` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col ranges_rows[] = {
	{ "range_id", COL_INT, NULL, "range id", "\"minimum\":0", NULL },
	COLUSE("bytes", 0),
	COLUSE("key", 0),
	COL_END
};

const struct coldesc cols_ranges = {
	"ranges", ranges_rows, NULL, NULL, cols_aux_report_opt, NULL
};
