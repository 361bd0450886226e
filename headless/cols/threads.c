/*
 * The column description of `gpulens threads` (and `metrics --type
 * cpu-sched` on a trace; see headless/cols.h): its row fields in table
 * order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col threads_rows[] = {
	{ "pid", COL_INT, NULL,
	    "process id (OS)",
	    "\"minimum\":0", NULL },
	{ "tid", COL_INT, NULL,
	    "thread id (OS)",
	    "\"minimum\":0", NULL },
	{ "running_ns", COL_INT, "ns",
	    "time the thread was scheduled on a CPU inside its window",
	    "\"minimum\":0", NULL },
	{ "not_running_ns", COL_INT, "ns",
	    "the rest of its window: descheduled (blocked, sleeping, "
	    "preempted) or not yet started or already ended",
	    "\"minimum\":0", NULL },
	{ "running_pct", COL_NUM, "pct",
	    "running_ns as a share of window_ns",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "switches", COL_INT, NULL,
	    "context switches: times the thread was scheduled in inside its "
	    "window",
	    "\"minimum\":0", NULL },
	{ "cpus", COL_STR, NULL,
	    "the CPUs it ran on inside its window, as ranges (\"0-3,7\")",
	    NULL, NULL },
	{ "process", COL_STR, NULL,
	    "process name, \"\" when unknown",
	    NULL, NULL },
	{ "thread", COL_STR, NULL,
	    "thread name, \"\" when unknown",
	    NULL, NULL },
	{ "window_ns", COL_INT, "ns",
	    "the thread's window: the verb's window, or with --nvtx the "
	    "range instances of its process inside it",
	    "\"minimum\":0", NULL },
	{ "ncpus", COL_INT, NULL,
	    "number of distinct CPUs it ran on inside its window",
	    "\"minimum\":0", NULL },
	{ "open", COL_BOOL, NULL,
	    "a run of the thread was never scheduled out (it is counted to "
	    "the last scheduling time of the trace)",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	COL_END
};

static const struct col threads_aux[] = {
	{ "threads", COL_INT, NULL,
	    "threads that ran inside the window (the rows before --limit)",
	    "\"minimum\":0", NULL },
	{ "idle_threads", COL_INT, NULL,
	    "threads with scheduling data that did not run inside the window",
	    "\"minimum\":0", NULL },
	{ "running_ns", COL_INT, "ns",
	    "running time of every thread, added up",
	    "\"minimum\":0", NULL },
	{ "switches", COL_INT, NULL,
	    "context switches of every thread, added up",
	    "\"minimum\":0", NULL },
	{ "cpus", COL_INT, NULL,
	    "distinct CPUs any thread ran on inside the window",
	    "\"minimum\":0", NULL },
	{ "window_ns", COL_INT, "ns",
	    "length of the outer window (--from/--to, or the trace span)",
	    "\"minimum\":0", NULL },
	COL_END
};

const struct coldesc cols_threads = {
	"threads", threads_rows, NULL, NULL, threads_aux, NULL
};
