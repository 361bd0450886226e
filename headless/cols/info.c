/*
 * The column description of `gpulens info` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col info_rows[] = {
	COLUSE("key", 0),
	COLUSE("kind", 0),
	COLUSEX("count", 0, "\"minimum\":0", NULL),
	COL_END
};

static const struct col info_aux_source[] = {
	COLUSE("kind", COL_NULL),
	COLUSE("version", COL_STR|COL_NULL),
	{ "schema", COL_STR|COL_NULL, NULL, "schema", NULL, NULL },
	COL_END
};

/* A figure of the device that only some sources record. */
#define INFO_DEVICE_FIGURE(name, unit, desc) \
	{ (name), COL_INT|COL_NULL|COL_OPT, (unit), (desc), NULL, NULL }

static const struct col info_aux_devices[] = {
	COLUSE("device", 0),
	COLUSE("name", 0),
	COLUSE("uuid", COL_STR|COL_OPT),
	COLUSEX("sm_count", 0, "", NULL),
	COLUSE("cc_major", 0),
	COLUSE("cc_minor", 0),
	{ "memory_bytes", COL_INT|COL_NULL, "bytes",
	    "memory size", NULL, NULL },
	{ "memory_bandwidth_bytes_per_s", COL_INT|COL_OPT, "bytes/s",
	    "memory bandwidth throughput", NULL, NULL },
	COLUSE("used", COL_OPT),
	INFO_DEVICE_FIGURE("l2_cache_bytes", "bytes", "l2 cache size"),
	INFO_DEVICE_FIGURE("max_gpu_khz", NULL, "maximum gpu khz"),
	INFO_DEVICE_FIGURE("max_mem_khz", NULL, "maximum mem khz"),
	INFO_DEVICE_FIGURE("bus_width_bits", NULL, "bus width bits"),
	COLUSE("chip", COL_INT|COL_NULL|COL_OPT),
	{ "attributes", COL_INT|COL_OPT, NULL, "attributes", NULL, NULL },
	COL_END
};

static const struct col info_aux_processes[] = {
	COLUSE("pid", 0),
	COLUSE("name", 0),
	COLUSEX("threads", 0, "", NULL),
	COLUSE("streams", 0),
	COLUSEX("rank", COL_OPT, "", NULL),
	COL_END
};

static const struct col info_aux_streams[] = {
	COLUSE("device", 0),
	COLUSE("stream", 0),
	COLUSE("pid", 0),
	COLUSE("name", 0),
	COL_END
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
	COL_END
};

static const struct col info_aux[] = {
	COLUSEX("source", COL_OBJ|COL_OPT, "", info_aux_source),
	{ "origin_ns", COL_INT|COL_NULL|COL_OPT, "ns-time",
	    "trace origin (absolute)", NULL, NULL },
	COLUSE("span_ns", COL_OPT),
	{ "utc_epoch_ns", COL_INT|COL_OPT, "ns",
	    "the trace origin as UTC (ns since 1970)", NULL, NULL },
	COLUSEX("events", COL_OPT, "", NULL),
	{ "tracks", COL_INT|COL_OPT, NULL, "tracks", NULL, NULL },
	COLUSEX("threads", COL_OPT, "", NULL),
	{ "capabilities", COL_ARR|COL_OPT, NULL,
	    "what the trace holds (kernels, nvtx, ...)",
	    "\"items\":{\"type\":\"string\"}", NULL },
	COLUSEX("devices", 0, NULL, info_aux_devices),
	COLUSEX("processes", COL_ARR|COL_OPT, "", info_aux_processes),
	COLUSEX("streams", COL_ARR|COL_OPT, NULL, info_aux_streams),
	{ "nvtx_domains", COL_ARR|COL_OPT, NULL,
	    "nvtx domains", "\"items\":{\"type\":\"string\"}", NULL },
	{ "cpu_samples", COL_OBJ|COL_OPT, NULL,
	    "CPU samples and call chains (present where the trace has them)",
	    NULL, info_aux_cpu_samples },
	COLUSE("report", COL_OPT),
	{ "properties", COL_OBJ|COL_OPT, NULL,
	    "report properties (name: value)",
	    "\"additionalProperties\":{\"type\":\"string\"}", NULL },
	{ "skipped_fields", COL_STR|COL_NULL|COL_OPT, NULL,
	    "skipped fields", NULL, NULL },
	COL_END
};

const struct coldesc cols_info = {
	"info", info_rows, NULL, NULL, info_aux, NULL
};
