/*
 * The column description of `gpulens clean` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col clean_rows[] = {
	COLUSE("key", 0),
	COLUSE("path", COL_STR),
	COLUSE("action", 0),
	COLUSE("cache_file", 0),
	COLUSE("files", 0),
	COLUSE("bytes", 0),
	COLUSE("error", 0),
	COL_END
};

const struct coldesc cols_clean = {
	"clean", clean_rows, NULL, NULL, NULL, NULL
};
