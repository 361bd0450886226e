/*
 * The column description of `gpulens ncu-command` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col ncu_command_rows[] = {
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "id", COL_INT, NULL,
	    "event id (its ev: id)",
	    "\"minimum\":0", NULL },
	{ "tool", COL_STR, NULL,
	    "tool",
	    "\"enum\":[\"ncu\",\"rocprofv3\",\"rocprof-compute\"]", NULL },
	{ "kernel", COL_STR, NULL,
	    "kernel name",
	    NULL, NULL },
	{ "short_name", COL_STR, NULL,
	    "short kernel name",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "process", COL_STR, NULL,
	    "process",
	    NULL, NULL },
	{ "launch_skip", COL_INT, NULL,
	    "launch skip",
	    "\"minimum\":0", NULL },
	{ "launch_count", COL_INT, NULL,
	    "launch count",
	    "\"const\":1", NULL },
	{ "command", COL_STR, NULL,
	    "command",
	    NULL, NULL },
	{ "demangled_launch_skip", COL_INT, NULL,
	    "demangled launch skip",
	    "\"minimum\":0", NULL },
	{ "demangled_command", COL_STR, NULL,
	    "demangled command",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_ncu_command = {
	"ncu-command", ncu_command_rows, NULL, NULL, NULL, NULL
};
