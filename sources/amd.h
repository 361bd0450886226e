/*
 * amd: the vocabulary the three AMD readers share (rocpd.c, rpd.c,
 * rocprof-json.c): how a rocprofiler agent becomes a device, what a
 * tracing category or API name means, how a copy's direction follows from
 * its endpoints, which kernels are communication.
 *
 * Agents: rocprofiler-sdk describes each agent (CPU or GPU) with the same
 * fields in its JSON output ("agents") and in a rocpd database
 * (rocpd_info_agent.extdata): cu_count, wave_front_size, max_waves_per_cu,
 * lds_size_in_kb, max_engine_clk_fcompute (MHz), gfx_target_version
 * (major * 10000 + minor * 100 + stepping), location_id (PCI
 * bus << 8 | device << 3 | function), mem_banks[].size_in_bytes, name
 * ("gfx950"), product_name ("AMD Instinct MI350X"), vendor_name.
 *
 * Categories are the rocprofiler buffer-tracing kind names: HIP_* calls are
 * runtime API calls, HSA_* calls driver-level API calls (EVF_DRIVER),
 * RCCL_API calls communication (EVF_COMM), and any *MARKER* kind roctx
 * annotations (as the rocpd marker views define them).
 */
#ifndef GPULENS_AMD_H
#define GPULENS_AMD_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "model/builder.h"

/* What a tracing category (or an API name) is. */
enum amd_class {
	AMD_API = 0,		/* HIP runtime and everything unknown */
	AMD_API_DRIVER,		/* HSA */
	AMD_API_COMM,		/* RCCL */
	AMD_MARKER,		/* roctx */
	AMD_OVERHEAD,		/* the profiler's own work (RPD) */
};

/*
 * Fills d from a rocprofiler agent description (a JSON object; NULL
 * leaves the fields zero) and interns its strings. d->source_id, process
 * and anything already non-zero are left alone.
 */
void		 amd_device_from_agent(struct builder *, const cJSON *agent,
		    struct device *d);
/* 1 if the agent description says GPU (type 2 or "GPU"). */
int		 amd_agent_is_gpu(const cJSON *agent);

/* The class of a rocprofiler tracing kind name ("HIP_RUNTIME_API"). */
enum amd_class	 amd_category_class(const char *category);
/* The class of an RPD API name ("hipLaunchKernel", "hsa_...",
 * "UserMarker", "ApiTable::writeRows"). */
enum amd_class	 amd_api_class(const char *name);

/*
 * The direction of a copy between two agents: src_gpu/dst_gpu say whether
 * each end is a GPU, same whether both are the same agent.
 */
int		 amd_copy_kind(int src_gpu, int dst_gpu, int same);
/* The direction named by a copy name ("MEMORY_COPY_HOST_TO_DEVICE",
 * "CopyDeviceToHost", ...), COPY_UNKNOWN if none. */
int		 amd_copy_kind_of_name(const char *name);
struct copy_info;
/* Sets c's source and destination memory kinds and devices from the model
 * devices sd and dd (NONE32: not a device, memory of unknown kind). */
void		 amd_copy_ends(struct copy_info *c, const struct model *m,
		     uint32_t sd, uint32_t dd);

/*
 * Fills k from a rocprofiler kernel dispatch: grid and workgroup sizes in
 * work-items (the grid becomes work-groups, rounded up, as HIP launches
 * count it), the dispatch's LDS and scratch (group/private segment) sizes,
 * the kernel symbol's static LDS size and vector registers (arch + accum).
 * Negative values mean unknown (0).
 */
void		 amd_kernel_fill(struct kernel_info *k, const int64_t grid[3],
		    const int64_t wg[3], int64_t lds, int64_t scratch,
		    int64_t static_lds, int64_t vgprs);

/* 1 if a kernel or range name is communication (nccl/rccl, any case). */
int		 amd_is_comm(const char *name);

/* A JSON integer field of o (0 when absent); nested "x.y" not supported. */
int64_t		 amd_json_int(const cJSON *o, const char *key);
/* A JSON string field of o ("" when absent or not a string). */
const char	*amd_json_str(const cJSON *o, const char *key);

#endif
