/*
 * The column description of `gpulens hardware` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

/* A figure of the device the trace may not give (null); never 0. */
#define HARDWARE_FIGURE(name, unit, desc) \
	{ (name), COL_INT|COL_NULL, (unit), (desc), "\"minimum\":1", NULL }

static const struct col hardware_rows[] = {
	COLUSE("kind", 0),
	COLUSEX("device", COL_INT, "\"minimum\":0", NULL),
	COLUSE("pid", 0),
	COLUSE("name", COL_NULL),
	{ "hostname", COL_STR|COL_NULL, NULL, "host name", NULL, NULL },
	COLUSE("sm_count", 0),
	{ "cc", COL_STR|COL_NULL, NULL, "compute capability", NULL, NULL },
	HARDWARE_FIGURE("total_mem_bytes", "bytes", "total mem"),
	HARDWARE_FIGURE("mem_bw_bytes_per_s", "bytes/s", "mem bw throughput"),
	COLUSE("used", 0),
	COLUSE("busy_pct", 0),
	COLUSE("key", 0),
	COLUSE("uuid", 0),
	{ "bus", COL_STR|COL_NULL, NULL, "bus", NULL, NULL },
	COLUSE("chip", 0),
	{ "vendor", COL_STR|COL_NULL, NULL, "vendor", NULL, NULL },
	COLUSE("cc_major", 0),
	COLUSE("cc_minor", 0),
	HARDWARE_FIGURE("clock_hz", "Hz", "clock"),
	COLUSE("l2_bytes", 0),
	HARDWARE_FIGURE("max_threads_per_block", NULL,
	    "maximum threads per block"),
	HARDWARE_FIGURE("regs_per_sm", NULL, "regs per sm"),
	HARDWARE_FIGURE("smem_per_sm_bytes", "bytes", "smem per sm size"),
	HARDWARE_FIGURE("max_warps_per_sm", NULL, "maximum warps per sm"),
	HARDWARE_FIGURE("threads_per_warp", NULL, "threads per warp"),
	HARDWARE_FIGURE("max_threads_per_sm", NULL, "maximum threads per sm"),
	COLUSEX("streams", 0, "\"minimum\":0", NULL),
	COLUSE("kernels", 0),
	COLUSE("busy_ns", 0),
	COLUSE("rank", 0),
	{ "hw_id", COL_INT, NULL, "hw id", "\"minimum\":0", NULL },
	{ "vm_id", COL_INT, NULL, "vm id", "\"minimum\":0", NULL },
	COLUSE("threads", 0),
	{ "gpu_streams", COL_INT, NULL, "gpu streams", "\"minimum\":0", NULL },
	COLUSE("events", 0),
	COLUSEX("devices", 0,
	    "\"items\":{\"type\":\"integer\",\"minimum\":0}", NULL),
	COLUSE("processes", 0),
	{ "cpu_cores", COL_STR|COL_NULL, NULL, "cpu cores", NULL, NULL },
	{ "cpu_description", COL_STR|COL_NULL, NULL,
	    "cpu description", NULL, NULL },
	{ "cpu_arch", COL_STR|COL_NULL, NULL, "cpu arch", NULL, NULL },
	{ "cpu_mhz", COL_STR|COL_NULL, NULL, "cpu mhz", NULL, NULL },
	{ "os", COL_STR|COL_NULL, NULL, "os", NULL, NULL },
	{ "driver_version", COL_STR|COL_NULL, NULL,
	    "driver version", NULL, NULL },
	{ "cuda_driver_version", COL_STR|COL_NULL, NULL,
	    "cuda driver version", NULL, NULL },
	COL_END
};

static const struct col hardware_aux[] = {
	{ "meta", COL_OBJ, NULL,
	    "trace metadata (name: value)",
	    "\"additionalProperties\":{\"type\":\"string\"}", NULL },
	COL_END
};

static const struct colvar hardware_variants[] = {
	{ "kind=gpu",
	    "kind device pid name sm_count cc total_mem_bytes mem_bw_bytes_per_s used busy_pct key uuid bus chip vendor cc_major cc_minor clock_hz l2_bytes max_threads_per_block regs_per_sm smem_per_sm_bytes max_warps_per_sm threads_per_warp max_threads_per_sm streams kernels busy_ns", NULL },
	{ "kind=host",
	    "kind hostname key processes cpu_cores cpu_description cpu_arch cpu_mhz os driver_version cuda_driver_version", NULL },
	{ "kind=process",
	    "kind pid name hostname key rank hw_id vm_id threads gpu_streams events devices", NULL },
	{ NULL, NULL, NULL }
};

const struct coldesc cols_hardware = {
	"hardware", hardware_rows, hardware_variants, NULL, hardware_aux, NULL
};
