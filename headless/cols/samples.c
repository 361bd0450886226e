/*
 * The column description of `gpulens samples` (see headless/cols.h): its
 * row fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col samples_rows[] = {
	{ "tid", COL_INT|COL_OPT, NULL,
	    "--group-by tid: the thread's OS thread id",
	    "\"minimum\":0", NULL },
	{ "pid", COL_INT|COL_OPT, NULL,
	    "--group-by tid: its OS process id",
	    "\"minimum\":0", NULL },
	{ "thread", COL_STR|COL_NULL|COL_OPT, NULL,
	    "--group-by tid: the thread's name, null if unnamed",
	    NULL, NULL },
	{ "function", COL_STR|COL_OPT, NULL,
	    "--group-by function: the function (an address where the "
	    "symbol was not resolved)",
	    NULL, NULL },
	{ "module", COL_STR|COL_OPT, NULL,
	    "the module (binary or shared library) of the function",
	    NULL, NULL },
	{ "self", COL_INT, NULL,
	    "samples whose leaf frame it is (the function was running), "
	    "or a thread's samples",
	    "\"minimum\":0", NULL },
	{ "self_pct", COL_NUM|COL_NULL, "pct",
	    "self as a share of the samples in the window",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "total", COL_INT|COL_OPT, NULL,
	    "samples with it anywhere on the call chain (once per sample)",
	    "\"minimum\":0", NULL },
	{ "total_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "total as a share of the samples in the window",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	COL_END
};

static const struct col samples_aux[] = {
	{ "group_by", COL_STR, NULL,
	    "what a row is",
	    "\"enum\":[\"function\",\"module\",\"tid\"]", NULL },
	{ "samples", COL_INT, NULL,
	    "CPU samples in the window",
	    "\"minimum\":0", NULL },
	{ "samples_without_chain", COL_INT, NULL,
	    "of them, samples without a call chain (in no row but a "
	    "thread's)",
	    "\"minimum\":0", NULL },
	{ "threads", COL_INT, NULL,
	    "sampled threads with a sample in the window",
	    "\"minimum\":0", NULL },
	{ "trace_samples", COL_INT, NULL,
	    "CPU samples in the whole trace",
	    "\"minimum\":0", NULL },
	COL_END
};

const struct coldesc cols_samples = {
	"samples", samples_rows, NULL, NULL, samples_aux, NULL
};
