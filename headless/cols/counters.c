/*
 * The column description of `gpulens counters` (see headless/cols.h): its
 * row fields in table order and its data.auxiliary. Coverage fields come
 * before the values.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col counters_rows[] = {
	{ "where", COL_STR, NULL,
	    "where the counter was sampled: \"GPU N\", the NIC or switch "
	    "(\"NIC mlx5_0 port 1\"), or \"pid P tid T\" for a host counter",
	    NULL, NULL },
	{ "counter", COL_STR, NULL,
	    "the counter's name",
	    NULL, NULL },
	{ "bucket", COL_INT|COL_OPT, NULL,
	    "--bucket: the bucket's index from the window's start",
	    "\"minimum\":0", NULL },
	{ "start_ns", COL_INT|COL_OPT, "ns",
	    "--bucket: the bucket's start (relative to the trace origin unless "
	    "--absolute)",
	    NULL, NULL },
	{ "samples", COL_INT, NULL,
	    "samples in the window (--bucket: in the bucket)",
	    "\"minimum\":0", NULL },
	{ "rate_hz", COL_NUM|COL_NULL, "Hz",
	    "sampling rate: 1 / interval_ns; null with fewer than 2 samples",
	    "\"minimum\":0", NULL },
	{ "interval_ns", COL_INT, "ns",
	    "median interval between consecutive samples (0 with fewer than "
	    "2)",
	    "\"minimum\":0", NULL },
	{ "gaps", COL_INT, NULL,
	    "intervals longer than gap_factor times the median: stretches "
	    "the numbers do not cover",
	    "\"minimum\":0", NULL },
	{ "max_gap_ns", COL_INT, "ns",
	    "the largest interval between consecutive samples",
	    "\"minimum\":0", NULL },
	{ "mean", COL_NUM|COL_NULL, NULL,
	    "mean value (each sample weighs the same; --bucket: of the "
	    "bucket, null when it has no sample)",
	    NULL, NULL },
	{ "min", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "smallest value",
	    NULL, NULL },
	{ "max", COL_NUM|COL_NULL, NULL,
	    "largest value (--bucket: of the bucket, null when empty)",
	    NULL, NULL },
	{ "p50", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "median value",
	    NULL, NULL },
	{ "p90", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "90th percentile value",
	    NULL, NULL },
	{ "p99", COL_NUM|COL_NULL|COL_OPT, NULL,
	    "99th percentile value",
	    NULL, NULL },
	{ "type", COL_STR, NULL,
	    "the kind of counter",
	    "\"enum\":[\"gpu\",\"nic\",\"host\"]", NULL },
	{ "device", COL_INT|COL_NULL, NULL,
	    "the GPU's device id (gpu counters), else null",
	    "\"minimum\":0", NULL },
	{ "first_ns", COL_INT|COL_OPT, "ns",
	    "the first sample in the window (relative to the origin unless "
	    "--absolute)",
	    NULL, NULL },
	{ "last_ns", COL_INT|COL_OPT, "ns",
	    "the last sample in the window",
	    NULL, NULL },
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (see ROW KEYS in gpulens(1))",
	    NULL, NULL },
	COL_END
};

static const struct col counters_aux[] = {
	{ "series", COL_INT, NULL,
	    "counters (one per counter and device) with samples in the window",
	    "\"minimum\":0", NULL },
	{ "samples", COL_INT, NULL,
	    "samples over every counter",
	    "\"minimum\":0", NULL },
	{ "gap_factor", COL_INT, NULL,
	    "an interval this many times the median is a gap",
	    "\"minimum\":1", NULL },
	{ "series_with_gaps", COL_INT, NULL,
	    "counters with at least one gap",
	    "\"minimum\":0", NULL },
	{ "bucket_ns", COL_INT|COL_OPT, "ns",
	    "--bucket: the bucket width",
	    "\"minimum\":1", NULL },
	{ "buckets", COL_INT|COL_OPT, NULL,
	    "--bucket: buckets in the window",
	    "\"minimum\":0", NULL },
	COL_END
};

const struct coldesc cols_counters = {
	"counters", counters_rows, NULL, NULL, counters_aux, NULL
};
