/*
 * The column description of `gpulens prep` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col prep_rows[] = {
	COLUSE("key", 0),
	COLUSE("path", COL_STR),
	COLUSEX("action", 0,
	    "\"enum\":[\"written\",\"reused\",\"failed\"]", NULL),
	COLUSE("cache_file", 0),
	COLUSE("files", 0),
	COLUSE("bytes", COL_NULL),
	COLUSE("error", COL_STR|COL_NULL),
	COL_END
};

const struct coldesc cols_prep = {
	"prep", prep_rows, NULL, NULL, NULL, NULL
};
