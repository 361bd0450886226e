/*
 * The column description of `gpulens ncu-command` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col ncu_command_rows[] = {
	COLUSE("key", 0),
	COLUSEX("id", 0, "\"minimum\":0", NULL),
	{ "tool", COL_STR, NULL,
	    "tool",
	    "\"enum\":[\"ncu\",\"rocprofv3\",\"rocprof-compute\"]", NULL },
	COLUSE("kernel", 0),
	COLUSE("short_name", 0),
	COLUSE("pid", 0),
	COLUSE("process", 0),
	{ "launch_skip", COL_INT, NULL, "launch skip", "\"minimum\":0", NULL },
	{ "launch_count", COL_INT, NULL, "launch count", "\"const\":1", NULL },
	{ "command", COL_STR, NULL, "command", NULL, NULL },
	{ "demangled_launch_skip", COL_INT, NULL,
	    "demangled launch skip", "\"minimum\":0", NULL },
	{ "demangled_command", COL_STR, NULL, "demangled command", NULL, NULL },
	COL_END
};

const struct coldesc cols_ncu_command = {
	"ncu-command", ncu_command_rows, NULL, NULL, NULL, NULL
};
