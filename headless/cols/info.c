/*
 * The column description of `gpulens info` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col info_rows[] = {
	{ "key", COL_STR, NULL,
	    "the row's key: unique in the answer (gpulens(1), Row keys)",
	    NULL, NULL },
	{ "kind", COL_STR, NULL,
	    "kind",
	    NULL, NULL },
	{ "count", COL_INT, NULL,
	    "how many",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux_source[] = {
	{ "kind", COL_STR|COL_NULL, NULL,
	    "kind",
	    NULL, NULL },
	{ "version", COL_STR|COL_NULL, NULL,
	    "version",
	    NULL, NULL },
	{ "schema", COL_STR|COL_NULL, NULL,
	    "schema",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux_devices[] = {
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "uuid", COL_STR|COL_OPT, NULL,
	    "device UUID",
	    NULL, NULL },
	{ "sm_count", COL_INT|COL_NULL, NULL,
	    "streaming multiprocessors",
	    NULL, NULL },
	{ "cc_major", COL_INT|COL_NULL, NULL,
	    "compute capability, major",
	    NULL, NULL },
	{ "cc_minor", COL_INT|COL_NULL, NULL,
	    "compute capability, minor",
	    NULL, NULL },
	{ "memory_bytes", COL_INT|COL_NULL, "bytes",
	    "memory size",
	    NULL, NULL },
	{ "memory_bandwidth_bytes_per_s", COL_INT|COL_OPT, "bytes/s",
	    "memory bandwidth throughput",
	    NULL, NULL },
	{ "used", COL_BOOL|COL_OPT, NULL,
	    "some stream of the device ran GPU work",
	    NULL, NULL },
	{ "l2_cache_bytes", COL_INT|COL_NULL|COL_OPT, "bytes",
	    "l2 cache size",
	    NULL, NULL },
	{ "max_gpu_khz", COL_INT|COL_NULL|COL_OPT, NULL,
	    "maximum gpu khz",
	    NULL, NULL },
	{ "max_mem_khz", COL_INT|COL_NULL|COL_OPT, NULL,
	    "maximum mem khz",
	    NULL, NULL },
	{ "bus_width_bits", COL_INT|COL_NULL|COL_OPT, NULL,
	    "bus width bits",
	    NULL, NULL },
	{ "chip", COL_INT|COL_NULL|COL_OPT, NULL,
	    "chip",
	    NULL, NULL },
	{ "attributes", COL_INT|COL_OPT, NULL,
	    "attributes",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux_processes[] = {
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ "threads", COL_INT, NULL,
	    "number of threads",
	    NULL, NULL },
	{ "streams", COL_INT, NULL,
	    "streams",
	    NULL, NULL },
	{ "rank", COL_INT|COL_NULL|COL_OPT, NULL,
	    "distributed rank",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux_streams[] = {
	{ "device", COL_INT|COL_NULL, NULL,
	    "device id as the trace gives it",
	    NULL, NULL },
	{ "stream", COL_INT|COL_NULL, NULL,
	    "stream id",
	    NULL, NULL },
	{ "pid", COL_INT|COL_NULL, NULL,
	    "process id",
	    NULL, NULL },
	{ "name", COL_STR, NULL,
	    "name",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux_report[] = {
	{ "path", COL_STR|COL_NULL, NULL,
	    "NVTX path",
	    NULL, NULL },
	{ "format", COL_STR, NULL,
	    "format",
	    NULL, NULL },
	{ "version", COL_INT|COL_NULL, NULL,
	    "version",
	    NULL, NULL },
	{ "tool_version", COL_STR|COL_NULL, NULL,
	    "tool version",
	    NULL, NULL },
	{ "launches", COL_INT, NULL,
	    "launches",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux_cpu_samples[] = {
	{ "samples", COL_INT, NULL,
	    "CPU samples (see samples)",
	    "\"minimum\":0", NULL },
	{ "threads", COL_INT, NULL,
	    "sampled threads",
	    "\"minimum\":0", NULL },
	{ "call_chains", COL_INT, NULL,
	    "distinct call chains (of samples and of API and OS runtime "
	    "calls)",
	    "\"minimum\":0", NULL },
	{ "frames", COL_INT, NULL,
	    "distinct frames (function and module) of the call chains",
	    "\"minimum\":0", NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

static const struct col info_aux[] = {
	{ "source", COL_OBJ|COL_OPT, NULL,
	    "source",
	    NULL, info_aux_source },
	{ "origin_ns", COL_INT|COL_NULL|COL_OPT, "ns-time",
	    "trace origin (absolute)",
	    NULL, NULL },
	{ "span_ns", COL_INT|COL_NULL|COL_OPT, "ns",
	    "span",
	    NULL, NULL },
	{ "utc_epoch_ns", COL_INT|COL_OPT, "ns",
	    "the trace origin as UTC (ns since 1970)",
	    NULL, NULL },
	{ "events", COL_INT|COL_OPT, NULL,
	    "number of events",
	    NULL, NULL },
	{ "tracks", COL_INT|COL_OPT, NULL,
	    "tracks",
	    NULL, NULL },
	{ "threads", COL_INT|COL_OPT, NULL,
	    "number of threads",
	    NULL, NULL },
	{ "capabilities", COL_ARR|COL_OPT, NULL,
	    "what the trace holds (kernels, nvtx, ...)",
	    "\"items\":{\"type\":\"string\"}", NULL },
	{ "devices", COL_ARR, NULL,
	    "devices",
	    NULL, info_aux_devices },
	{ "processes", COL_ARR|COL_OPT, NULL,
	    "processes",
	    NULL, info_aux_processes },
	{ "streams", COL_ARR|COL_OPT, NULL,
	    "streams",
	    NULL, info_aux_streams },
	{ "nvtx_domains", COL_ARR|COL_OPT, NULL,
	    "nvtx domains",
	    "\"items\":{\"type\":\"string\"}", NULL },
	{ "cpu_samples", COL_OBJ|COL_OPT, NULL,
	    "CPU samples and call chains (present where the trace has them)",
	    NULL, info_aux_cpu_samples },
	{ "report", COL_OBJ|COL_OPT, NULL,
	    "the Nsight Compute report",
	    NULL, info_aux_report },
	{ "properties", COL_OBJ|COL_OPT, NULL,
	    "report properties (name: value)",
	    "\"additionalProperties\":{\"type\":\"string\"}", NULL },
	{ "skipped_fields", COL_STR|COL_NULL|COL_OPT, NULL,
	    "skipped fields",
	    NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL }
};

const struct coldesc cols_info = {
	"info", info_rows, NULL, NULL, info_aux, NULL
};
