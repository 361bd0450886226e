/*
 * The column description of `gpulens mpi` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col mpi_rows[] = {
	{ "name", COL_STR|COL_OPT, NULL,
	    "name",
	    NULL, NULL },
	{ "class", COL_STR|COL_OPT, NULL,
	    "class",
	    "\"enum\":[\"p2p\",\"wait\",\"collective\",\"onesided\",\"setup\",\"other\"]", NULL },
	{ "ranks", COL_INT|COL_OPT, NULL,
	    "ranks",
	    "\"minimum\":0", NULL },
	{ "count", COL_INT|COL_OPT, NULL,
	    "how many",
	    "\"minimum\":0", NULL },
	{ "total_ns", COL_INT|COL_OPT, "ns",
	    "total time",
	    "\"minimum\":0", NULL },
	{ "mean_ns", COL_NUM|COL_OPT, "ns",
	    "mean",
	    "\"minimum\":0", NULL },
	{ "max_ns", COL_INT|COL_OPT, "ns",
	    "maximum",
	    "\"minimum\":0", NULL },
	{ "rank_min_ns", COL_INT|COL_OPT, "ns",
	    "minimum rank time",
	    "\"minimum\":0", NULL },
	{ "rank_max_ns", COL_INT|COL_OPT, "ns",
	    "maximum rank time",
	    "\"minimum\":0", NULL },
	{ "imbalance_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "imbalance",
	    "\"minimum\":0", NULL },
	{ "rank", COL_INT|COL_OPT, NULL,
	    "distributed rank",
	    "\"minimum\":0", NULL },
	{ "pid", COL_INT|COL_OPT, NULL,
	    "process id",
	    NULL, NULL },
	{ "calls", COL_INT|COL_OPT, NULL,
	    "calls",
	    "\"minimum\":0", NULL },
	{ "mpi_ns", COL_INT|COL_OPT, "ns",
	    "mpi time",
	    "\"minimum\":0", NULL },
	{ "mpi_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "mpi",
	    "\"minimum\":0", NULL },
	{ "p2p_ns", COL_INT|COL_OPT, "ns",
	    "p2p time",
	    "\"minimum\":0", NULL },
	{ "wait_ns", COL_INT|COL_OPT, "ns",
	    "wait time",
	    "\"minimum\":0", NULL },
	{ "collective_ns", COL_INT|COL_OPT, "ns",
	    "collective time",
	    "\"minimum\":0", NULL },
	{ "onesided_ns", COL_INT|COL_OPT, "ns",
	    "onesided time",
	    "\"minimum\":0", NULL },
	{ "other_ns", COL_INT|COL_OPT, "ns",
	    "other time",
	    "\"minimum\":0", NULL },
	{ "setup_ns", COL_INT|COL_OPT, "ns",
	    "setup time",
	    "\"minimum\":0", NULL },
	{ "span_ns", COL_INT|COL_OPT, "ns",
	    "span",
	    "\"minimum\":0", NULL },
	{ "median_ns", COL_NUM|COL_OPT, "ns",
	    "median",
	    "\"minimum\":0", NULL },
	{ "min_ns", COL_INT|COL_OPT, "ns",
	    "minimum",
	    "\"minimum\":0", NULL },
	{ "bytes", COL_INT|COL_OPT, "bytes",
	    "bytes the calls moved (MPI_* tables: size of point-to-point "
	    "calls, send size of collectives, else receive size); only when "
	    "recorded",
	    "\"minimum\":0", NULL },
	{ "bytes_mean", COL_NUM|COL_OPT, "bytes",
	    "bytes per call that records them",
	    "\"minimum\":0", NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col mpi_aux_class_ns[] = {
	{ "p2p", COL_INT|COL_OPT, NULL,
	    "p2p",
	    NULL, NULL },
	{ "wait", COL_INT|COL_OPT, NULL,
	    "wait",
	    NULL, NULL },
	{ "collective", COL_INT|COL_OPT, NULL,
	    "collective operation",
	    NULL, NULL },
	{ "onesided", COL_INT|COL_OPT, NULL,
	    "onesided",
	    NULL, NULL },
	{ "setup", COL_INT|COL_OPT, NULL,
	    "setup",
	    NULL, NULL },
	{ "other", COL_INT|COL_OPT, NULL,
	    "other",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col mpi_aux[] = {
	{ "calls", COL_INT|COL_OPT, NULL,
	    "calls",
	    NULL, NULL },
	{ "ranks", COL_INT|COL_OPT, NULL,
	    "ranks",
	    NULL, NULL },
	{ "class_ns", COL_OBJ|COL_OPT, "ns",
	    "class time",
	    NULL, mpi_aux_class_ns },
	{ "source", COL_STR|COL_OPT, NULL,
	    "where the calls came from when some came from the MPI_* tables "
	    "of newer exports (absent: NVTX domain MPI only)",
	    "\"enum\":[\"mpi-tables\",\"mpi-tables+nvtx\"]", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_mpi = {
	"mpi", mpi_rows, NULL, NULL, mpi_aux, NULL
};
