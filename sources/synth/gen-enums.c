/*
 * gen-enums: the ENUM_* tables of the export (event types and classes, copy
 * and memory kinds, synchronisation, launch and stream types, cache and
 * shared-memory configurations), as Nsight Systems 2026.2 writes them.
 */

#include "config.h"

#include <stdlib.h>

#include "sources/synth/gen-int.h"
#include "util/xmalloc.h"

struct enum_row {
	int		 id;
	const char	*name;		/* after the table's prefix */
	const char	*label;
};

/* ENUM_NSYS_EVENT_TYPE: ids 0..154 in order; name == label. */
static const char *const event_types[] = {
	"Unknown", "CpuCycles", "Instructions", "CacheReferences",
	"L1CacheDataWriteMisses", "L1CacheDataReadMisses",
	"L1CacheInstructionMisses", "L2CacheDataWriteMisses",
	"L2CacheDataReadMisses", "L2CacheInstructionMisses",
	"BranchInstructions", "BranchMisses", "BusCycles", "CpuClock",
	"TaskClock", "PageFault", "ContextSwitches", "CpuMigrations",
	"PageFaultsMin", "PageFaultsMax", "AlignmentFaults",
	"EmulationFaults", "ThreadState", "Frames", "Annotations",
	"SchedSwitch", "SchedWakeup", "Command", "Mmap", "MemUsage", "Emc",
	"Composite", "NvtxEvents", "NvtxCategory", "NvtxMark",
	"NvtxPushRange", "NvtxPopRange", "NvtxStartRange", "NvtxEndRange",
	"NvtxThread", "PowerRate", "Sched", "CpuCyclesSelf", "CpuCyclesTotal",
	"CpuCyclesSelfPlus", "Cuda", "CudaDevice", "TraceProcess",
	"TraceFunctions", "Diagnostic", "GlWorkload", "BandwidthUsage",
	"KhrDebugMark", "KhrDebugPushRange", "KhrDebugPopRange",
	"KhrDebugGpuMark", "KhrDebugGpuPushRange", "KhrDebugGpuPopRange",
	"GpuCtxsw", "NvtxPushPopRange", "NvtxStartEndRange", "ProfTime",
	"KhrDebugPushPopRange", "KhrDebugGpuPushPopRange", "NvtxtCategory",
	"NvtxtMark", "NvtxtPushRange", "NvtxtPopRange", "NvtxtStartRange",
	"NvtxtEndRange", "NvtxtPushPopRange", "NvtxtStartEndRange",
	"NvtxtMetaThread", "NvtxtMetaProcess", "NvtxtMetaFileDisplay",
	"NvtxDomainCreate", "NvtxDomainDestroy", "NvnGpuCmdBuf", "TraceVSync",
	"CudaDeviceKernel", "CudaDeviceMemory", "Pmu", "NvnGpuDraw",
	"NvnGpuCompute", "NvnGpuDebug", "OS runtime libraries", "CuDNN",
	"CuBLAS", "NvMedia", "OpenACC", "Correlation", "DX12", "DX12Workload",
	"PmuRawEvent", "GraphicsFrame", "Vulkan", "VulkanWorkload",
	"NvtxNameCudaDevice", "NvtxNameCudaContext", "NvtxNameCudaStream",
	"SystemEvent", "GpuMemoryEvent", "DX12CreateObject",
	"VulkanCreateObject", "UnitTraceEvent", "CustomETWEvent",
	"CudaSyncEvent", "SLIEvent (DEPRECATED)", "CudaBacktrace",
	"WddmEvent", "DX11", "DX11CreateObject", "DXGI",
	"CudaGraphNodeCreation", "OpenMP", "UncorePmuEvent",
	"UncorePmuCarmel", "CudaDeviceMemoryUsage", "ETWDxgKrnlEvent",
	"CudaUvmCpuPageFaultEvent", "CudaUvmGpuPageFaultEvent",
	"NICMetricsValuesEvent", "NICMetricsListEvent", "InterruptHandler",
	"NvEncode", "NVDecode", "nvJPEG", "CudaEventRecord",
	"PerfEventCountEvent", "CudaDeviceMemoryPool", "CudaDeviceGraph",
	"CudaGraphExecCreation", "CudaGraphCreation", "CudaGraphClone",
	"GpuMemoryTransferEvent", "GlTrace", "GpuVideoEngineWorkload",
	"IBSwitchMetricsValuesEvent", "GenericEvent", "UncorePmuT23xScf",
	"UncorePmuT23xDsu", "IBSwitchCongestionEvent", "CudaDeviceMemcpy",
	"PerfMetricValueEvent", "OpenXREvent", "TegraInternalEvent",
	"TraceStartFinish", "Syscall", "CudaConfidentialComputeKeyRotation",
	"CudaGraphExecNodeSetParams", "NvApi", "CudaHostFunc", "CudaApi",
	"Overhead", "CudaOverhead",
};
static const struct enum_row event_classes[] = {
	{ 0, "CUDA_RUNTIME", "CUDA runtime" },
	{ 1, "CUDA_DRIVER", "CUDA driver" },
	{ 2, "GL", "GL" },
	{ 3, "TSP_OVERHEAD", "TSP overhead" },
	{ 4, "GL_DEBUG", "GL debug" },
	{ 5, "GL_WORKLOAD", "GL workload" },
	{ 6, "NVTX_START", "NVTX start" },
	{ 7, "NVTX_FINISH", "NVTX finish" },
	{ 8, "GL_START", "GL start" },
	{ 9, "GL_FINISH", "GL finish" },
	{ 10, "CUDA_START", "CUDA start" },
	{ 11, "CUDA_FINISH", "CUDA finish" },
	{ 12, "CUDA_INIT_ERROR", "CUDA init error" },
	{ 13, "CUDA_EGL_DRIVER", "CUDA EGL driver" },
	{ 18, "VSYNC", "Vsync" },
	{ 26, "CUDA_API", "CUDA API" },
	{ 27, "OS_RUNTIME", "OSRT runtime" },
	{ 28, "CUDNN", "cuDNN" },
	{ 29, "CUBLAS", "cuBLAS" },
	{ 31, "OS_RUNTIME_START", "OSRT start" },
	{ 32, "OS_RUNTIME_FINISH", "OSRT finish" },
	{ 33, "CUDNN_START", "cuDNN start" },
	{ 34, "CUDNN_FINISH", "cuDNN finish" },
	{ 35, "CUBLAS_START", "cuBLAS start" },
	{ 36, "CUBLAS_FINISH", "cuBLAS finish" },
	{ 37, "THREAD_BLOCK", "Thread block" },
	{ 38, "NVMEDIA", "NVmedia" },
	{ 39, "NVMEDIA_START", "NVmedia start" },
	{ 40, "NVMEDIA_FINISH", "NVmedia finish" },
	{ 41, "DX12_API", "DX12 API" },
	{ 42, "DX12_WORKLOAD", "DX12 workload" },
	{ 43, "DX12_START", "DX12 start" },
	{ 44, "DX12_FINISH", "DX12 finish" },
	{ 45, "OPENACC_START", "OpenACC start" },
	{ 46, "OPENACC_FINISH", "OpenACC finish" },
	{ 47, "OPENACC_INIT_ERROR", "OpenACC init error" },
	{ 48, "OPENACC", "OpenACC" },
	{ 49, "CPU_FPS", "CPU FPS" },
	{ 50, "GPU_FPS", "GPU FPS" },
	{ 51, "GL_MULTI_ERROR", "GL multi-error" },
	{ 52, "DX12_DISPLAY", "DX12 display" },
	{ 53, "VULKAN_API", "Vulkan API" },
	{ 54, "VULKAN_WORKLOAD", "Vulkan workload" },
	{ 55, "VULKAN_START", "Vulkan start" },
	{ 56, "VULKAN_FINISH", "Vulkan finish" },
	{ 57, "SYSTEM_EVENT", "System event" },
	{ 58, "GPU_MEMORY", "GPU memory" },
	{ 59, "DX12_CREATE_OBJECT", "DX12 create object" },
	{ 60, "VULKAN_CREATE_OBJECT", "Vulkan create object" },
	{ 61, "CUSTOM_ETW_TRACE", "Custom ETW trace" },
	{ 62, "SLI_DEPRECATED", "SLI (Deprecated)" },
	{ 63, "SLI_START_DEPRECATED", "SLI start (Deprecated)" },
	{ 64, "SLI_FINISH_DEPRECATED", "SLI finish (Deprecated)" },
	{ 65, "DX12_DEBUG_API", "DX12 debug API" },
	{ 66, "VULKAN_DEBUG_API", "Vulkan debug API" },
	{ 67, "CUDABACKTRACE", "CUDA backtrace" },
	{ 68, "CUDABACKTRACE_START", "CUDA backtrace start" },
	{ 69, "CUDABACKTRACE_FINISH", "CUDA backtrace finish" },
	{ 70, "WDDM", "WDDM" },
	{ 71, "DX11_API", "DX11 API" },
	{ 72, "DX11_START", "DX11 start" },
	{ 73, "DX11_FINISH", "DX11 finish" },
	{ 74, "DX11_CREATE_OBJECT", "DX11 create object" },
	{ 75, "DX11_DEBUG_API", "DX11 debug API" },
	{ 76, "DXCOMMON_API", "DX common API" },
	{ 77, "CUDA_GRAPH_NODE_CREATION", "CUDA graph node creation" },
	{ 78, "OPENMP", "OpenMP" },
	{ 79, "OPENMP_START", "OpenMP start" },
	{ 80, "OPENMP_FINISH", "OpenMP finish" },
	{ 81, "NVAPI", "NV API" },
	{ 82, "ETWDXGKRNL", "ETW DXG KRNL" },
	{ 83, "NVENCODE", "NVENCODE" },
	{ 84, "NVENCODE_START", "NVENCODE start" },
	{ 85, "NVENCODE_FINISH", "NVENCODE finish" },
	{ 86, "NVDECODE", "NVDECODE" },
	{ 87, "NVDECODE_START", "NVDECODE start" },
	{ 88, "NVDECODE_FINISH", "NVDECODE finish" },
	{ 89, "NVJPEG", "nvJPEG" },
	{ 90, "NVJPEG_START", "nvJPEG start" },
	{ 91, "NVJPEG_FINISH", "nvJPEG finish" },
	{ 92, "DX12_BATCH_WORKLOAD", "DX12 batch workload" },
	{ 93, "VULKAN_BATCH_WORKLOAD", "Vulkan batch workload" },
	{ 94, "CUDA_GRAPHEXEC_CREATION", "CUDA graph exec creation" },
	{ 95, "CUDA_GRAPH_CREATION", "CUDA graph creation" },
	{ 96, "CUDA_GRAPH_CLONE", "CUDA graph clone" },
	{ 98, "OPENCL", "OpenCL event" },
	{ 99, "OPENCL_START", "OpenCL start" },
	{ 100, "OPENCL_FINISH", "OpenCL finish" },
	{ 101, "OPENCL_INIT_ERROR", "OpenCL Init error" },
	{ 102, "CUDA_JIT", "CUDA JIT" },
	{ 103, "CUDA_OVERHEAD", "CUDA overhead" },
	{ 104, "OPENXR", "OpenXR event" },
	{ 105, "OPENXR_START", "OpenXR start" },
	{ 106, "OPENXR_FINISH", "OpenXR finish" },
	{ 107, "SYSCALL", "Syscall" },
	{ 108, "TEGRA_INTERNAL", "Tegra Internal API" },
	{ 109, "TEGRA_INTERNAL_START", "Tegra Internal API start" },
	{ 110, "TEGRA_INTERNAL_FINISH", "Tegra Internal API finish" },
	{ 111, "CUDA_GRAPH_EXEC_NODE_SET_PARAMS",
	    "CUDA graph exec-node set params" },
};
static const struct enum_row memcpy_opers[] = {
	{ 0, "UNKNOWN", "Unknown" },
	{ 1, "HTOD", "Host-to-Device" },
	{ 2, "DTOH", "Device-to-Host" },
	{ 3, "HTOA", "Host-to-Array" },
	{ 4, "ATOH", "Array-to-Host" },
	{ 5, "ATOA", "Array-to-Array" },
	{ 6, "ATOD", "Array-to-Device" },
	{ 7, "DTOA", "Device-to-Array" },
	{ 8, "DTOD", "Device-to-Device" },
	{ 9, "HTOH", "Host-to-Host" },
	{ 10, "PTOP", "Peer-to-Peer" },
	{ 11, "UVM_HTOD", "Unified Host-to-Device" },
	{ 12, "UVM_DTOH", "Unified Device-to-Host" },
	{ 13, "UVM_DTOD", "Unified Device-to-Device" },
};
static const struct enum_row mem_kinds[] = {
	{ 0, "PAGEABLE", "Pageable" },
	{ 1, "PINNED", "Pinned" },
	{ 2, "DEVICE", "Device" },
	{ 3, "ARRAY", "Array" },
	{ 4, "MANAGED", "Managed" },
	{ 5, "DEVICE_STATIC", "Device Static" },
	{ 6, "MANAGED_STATIC", "Managed Static" },
	{ 7, "UNKNOWN", "Unknown" },
};
static const struct enum_row sync_types[] = {
	{ 0, "UNKNOWN", "Unknown" },
	{ 1, "EVENT_SYNCHRONIZE", "Event sync" },
	{ 2, "STREAM_WAIT_EVENT", "Stream wait sync" },
	{ 3, "STREAM_SYNCHRONIZE", "Stream sync" },
	{ 4, "CONTEXT_SYNCHRONIZE", "Context sync" },
};
static const struct enum_row launch_types[] = {
	{ 0, "UNKNOWN", "Unknown" },
	{ 1, "REGULAR", "Regular" },
	{ 2, "COOPERATIVE_SINGLE_DEVICE", "Coop Single Device" },
	{ 3, "COOPERATIVE_MULTI_DEVICE", "Coop Multi Device" },
};
static const struct enum_row stream_types[] = {
	{ 0, "UNKNOWN", "Unknown stream type" },
	{ 1, "DEFAULT", "Default stream" },
	{ 2, "NON_BLOCKING", "Non-blocking stream" },
	{ 3, "NULL", "Null stream" },
};
static const struct enum_row cache_configs[] = {
	{ 0, "NONE", "None" },
	{ 1, "SHARED", "Shared" },
	{ 2, "L1", "L1" },
	{ 3, "EQUAL", "Equal" },
};
static const struct enum_row smem_limits[] = {
	{ 0, "DEFAULT", "Default" },
	{ 1, "OPTIN", "Opt in" },
};

struct enum_table {
	const char		*table;
	const char		*prefix;
	const struct enum_row	*rows;
	size_t			 n;
};

#define ENUM_TABLE(t, p, v)	{ t, p, v, sizeof v / sizeof v[0] }
static const struct enum_table enum_tables[] = {
	ENUM_TABLE("ENUM_NSYS_EVENT_CLASS", "TRACE_PROCESS_EVENT_",
	    event_classes),
	ENUM_TABLE("ENUM_CUDA_MEMCPY_OPER", "CUDA_MEMCPY_KIND_", memcpy_opers),
	ENUM_TABLE("ENUM_CUDA_MEM_KIND", "CUDA_MEMOPR_MEMORY_KIND_",
	    mem_kinds),
	ENUM_TABLE("ENUM_CUPTI_SYNC_TYPE",
	    "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_", sync_types),
	ENUM_TABLE("ENUM_CUDA_KERNEL_LAUNCH_TYPE", "CUDA_KERNEL_LAUNCH_TYPE_",
	    launch_types),
	ENUM_TABLE("ENUM_CUPTI_STREAM_TYPE",
	    "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_", stream_types),
	ENUM_TABLE("ENUM_CUDA_FUNC_CACHE_CONFIG", "CU_FUNC_CACHE_PREFER_",
	    cache_configs),
	ENUM_TABLE("ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG",
	    "CUDA_SHARED_MEM_LIMIT_", smem_limits),
};

void
gen_enums_write(struct gen *g)
{
	const struct enum_table	*e;
	sqlite3_stmt		*st;
	char			*sql, *name;
	size_t			 i, j;

	gen_sql_exec(g, "CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT "
	    "NULL PRIMARY KEY, name TEXT, label TEXT);");
	st = gen_sql_prep(g,
	    "INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (?, ?, ?)");
	for (i = 0; i < sizeof event_types / sizeof event_types[0]; i++)
		gen_sql_put(g, st, "dss", (int)i, event_types[i],
		    event_types[i]);
	gen_sql_finish(st);
	for (i = 0; i < sizeof enum_tables / sizeof enum_tables[0]; i++) {
		e = &enum_tables[i];
		sql = xasprintf("CREATE TABLE %s (id INTEGER NOT NULL PRIMARY "
		    "KEY, name TEXT, label TEXT);", e->table);
		gen_sql_exec(g, sql);
		free(sql);
		sql = xasprintf("INSERT INTO %s VALUES (?, ?, ?)", e->table);
		st = gen_sql_prep(g, sql);
		free(sql);
		for (j = 0; j < e->n; j++) {
			name = xasprintf("%s%s", e->prefix, e->rows[j].name);
			gen_sql_put(g, st, "dss", e->rows[j].id, name,
			    e->rows[j].label);
			free(name);
		}
		gen_sql_finish(st);
	}
}
