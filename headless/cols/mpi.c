/*
 * The column description of `gpulens mpi` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col mpi_rows[] = {
	COLUSE("name", COL_OPT),
	COLUSEX("class", COL_OPT,
	    "\"enum\":[\"p2p\",\"wait\",\"collective\",\"onesided\",\"setup\",\"other\"]", NULL),
	COLUSEX("ranks", COL_OPT, "\"minimum\":0", NULL),
	COLUSEX("count", COL_OPT, "\"minimum\":0", NULL),
	COLUSEX("total_ns", COL_OPT, "\"minimum\":0", NULL),
	COLUSE("mean_ns", COL_OPT),
	COLUSE("max_ns", COL_OPT),
	{ "rank_min_ns", COL_INT|COL_OPT, "ns",
	    "minimum rank time", "\"minimum\":0", NULL },
	{ "rank_max_ns", COL_INT|COL_OPT, "ns",
	    "maximum rank time", "\"minimum\":0", NULL },
	COLUSEX("imbalance_pct", COL_NULL|COL_OPT, "\"minimum\":0", NULL),
	COLUSE("rank", COL_INT|COL_OPT),
	COLUSE("pid", COL_INT|COL_OPT),
	COLUSEX("calls", COL_OPT, "\"minimum\":0", NULL),
	{ "mpi_ns", COL_INT|COL_OPT, "ns", "mpi time", "\"minimum\":0", NULL },
	{ "mpi_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "mpi", "\"minimum\":0", NULL },
	{ "p2p_ns", COL_INT|COL_OPT, "ns", "p2p time", "\"minimum\":0", NULL },
	COLUSE("wait_ns", COL_OPT),
	{ "collective_ns", COL_INT|COL_OPT, "ns",
	    "collective time", "\"minimum\":0", NULL },
	{ "onesided_ns", COL_INT|COL_OPT, "ns",
	    "onesided time", "\"minimum\":0", NULL },
	COLUSE("other_ns", COL_OPT),
	{ "setup_ns", COL_INT|COL_OPT, "ns",
	    "setup time", "\"minimum\":0", NULL },
	COLUSEX("span_ns", COL_INT|COL_OPT, "\"minimum\":0", NULL),
	COLUSEX("median_ns", COL_OPT, "\"minimum\":0", NULL),
	COLUSE("min_ns", COL_OPT),
	COLUSE("key", 0),
	{ "bytes", COL_INT|COL_OPT, "bytes",
	    "bytes the calls moved (MPI_* tables: size of point-to-point "
	    "calls, send size of collectives, else receive size); only when "
	    "recorded",
	    "\"minimum\":0", NULL },
	{ "bytes_mean", COL_NUM|COL_OPT, "bytes",
	    "bytes per call that records them",
	    "\"minimum\":0", NULL },
	COL_END
};

static const struct col mpi_aux_class_ns[] = {
	{ "p2p", COL_INT|COL_OPT, NULL, "p2p", NULL, NULL },
	{ "wait", COL_INT|COL_OPT, NULL, "wait", NULL, NULL },
	COLUSE("collective", COL_INT|COL_OPT),
	{ "onesided", COL_INT|COL_OPT, NULL, "onesided", NULL, NULL },
	{ "setup", COL_INT|COL_OPT, NULL, "setup", NULL, NULL },
	COLUSE("other", COL_OPT),
	COL_END
};

static const struct col mpi_aux[] = {
	COLUSE("calls", COL_OPT),
	COLUSE("ranks", COL_OPT),
	{ "class_ns", COL_OBJ|COL_OPT, "ns",
	    "class time", NULL, mpi_aux_class_ns },
	{ "source", COL_STR|COL_OPT, NULL,
	    "where the calls came from when some came from the MPI_* tables "
	    "of newer exports (absent: NVTX domain MPI only)",
	    "\"enum\":[\"mpi-tables\",\"mpi-tables+nvtx\"]", NULL },
	COL_END
};

const struct coldesc cols_mpi = {
	"mpi", mpi_rows, NULL, NULL, mpi_aux, NULL
};
