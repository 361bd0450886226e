/*
 * gen: writes a synthetic, deterministic multi-GPU training trace in the
 * Nsight Systems SQLite export layout (see gen.h for what it looks like).
 *
 * The simulation is a set of ranks, each with a CPU cursor (its main and
 * autograd threads share it: the main thread blocks in backward while the
 * autograd thread runs) and one GPU cursor per stream. An API call occupies
 * the CPU from the cursor on; the GPU work it queues starts after the call
 * returns, after a queue delay, and after the previous work on its stream
 * ends. The CPU usually runs far ahead of the GPU, as eager PyTorch does,
 * until the loss.item() synchronisation at the end of each iteration; the
 * next iteration's data loading leaves the GPU idle for a while.
 *
 * Ranks are coupled only through NCCL collectives. The iteration is cut into
 * segments that end with a collective launch: every rank simulates a segment,
 * then the collective is resolved (it ends a transfer time after the last
 * rank arrives, so early ranks' NCCL kernels wait for the straggler).
 *
 * Rows are not written when they are produced but pushed into one min-heap
 * per table and written in start order once no later row can start before
 * them: after each segment, the smallest CPU cursor over the ranks (and, for
 * NVTX, the start of the oldest open range) is such a bound. The heaps hold
 * about one iteration of rows; nothing else grows with the event count.
 *
 * To hit the requested event count, a first pass runs the same simulation
 * without writing anything and counts: the number of iterations is the most
 * that fit, and the remainder is made up by extra kernel launches (and one
 * extra API call) in the last iteration's optimizer step. The event counts
 * of an iteration depend only on its index, never on random draws.
 */

#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sources/synth/gen.h"
#include "util/progress.h"
#include "util/xmalloc.h"

#define US		1000LL
#define MS		1000000LL

#define VM_BITS		(1ULL << 48)		/* globalPid VM id 1, as nsys */
#define SESSION_START	(25 * 1000 * MS)	/* clock at capture start */
#define UTC_EPOCH	1767225600000000000LL	/* 2026-01-01T00:00:00Z */
#define NO_EVENT	4294967295LL		/* eventId of non-event syncs */
#define NO_STREAM	4294967295LL		/* streamId of streamless syncs */
#define NVTX_DEPTH	8

/* Thread ids: pid + 2, 5, 7 are [NSys], CUPTI and cuda-EvtHandlr; a
 * process's k-th rank has these plus k (k = 0's main thread is pid). */
#define TID_MAIN	100
#define TID_AUTOGRAD	300
#define TID_WATCHDOG	500

enum tbl { T_KERNEL, T_MEMCPY, T_MEMSET, T_RUNTIME, T_SYNC, T_NVTX, T_COUNT };
enum { S_COMPUTE, S_NCCL, S_COPY, S_COUNT };		/* streams per GPU */
enum { TH_MAIN, TH_AUTOGRAD, TH_COUNT };		/* threads per rank */
enum { DOM_DEFAULT, DOM_NCCL };				/* NVTX domainId */

/* ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND, ENUM_CUPTI_SYNC_TYPE ids. */
enum { CK_HTOD = 1, CK_DTOH = 2, CK_PTOP = 10 };
enum { MK_PAGEABLE = 0, MK_PINNED = 1, MK_DEVICE = 2 };
enum { SY_STREAM_WAIT = 2, SY_STREAM = 3, SY_CONTEXT = 4 };

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

/* NVTX_EVENTS as Nsight Systems 2026 writes it (both schemas below). */
#define GEN_NVTX_DDL \
"CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER," \
" eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER," \
" color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER," \
" textId INTEGER, domainId INTEGER, uint64Value INTEGER," \
" int64Value INTEGER, doubleValue REAL, uint32Value INTEGER," \
" int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT," \
" binaryData TEXT);"

/*
 * The tables written, with the column names, types and constraints of a
 * 2026.2 export (schema 3.25.0); TARGET_INFO_GPU, _CUDA_DEVICE and
 * _CUDA_CONTEXT_INFO as a 2026.1 export (3.24.14) has them.
 */

static const char schema[] =
"CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY,"
" value TEXT NOT NULL);"
"CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
"CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER,"
" devStateName TEXT NOT NULL, name TEXT NOT NULL, nameEnum INTEGER NOT NULL,"
" value TEXT NOT NULL);"
"CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER,"
" utcTime TEXT, localTime TEXT, systemClockNs INTEGER);"
"CREATE TABLE ANALYSIS_DETAILS (globalVid INTEGER NOT NULL,"
" duration INTEGER NOT NULL, startTime INTEGER NOT NULL,"
" stopTime INTEGER NOT NULL);"
"CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL,"
" name TEXT, busLocation TEXT, isDiscrete INTEGER, l2CacheSize INTEGER,"
" totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER,"
" smCount INTEGER, pwGpuId INTEGER, uuid TEXT, luid INTEGER, chipName TEXT,"
" cuDevice INTEGER, ctxswDevPath TEXT, ctrlDevPath TEXT, revision INTEGER,"
" nodeMask INTEGER, constantMemory INTEGER, maxIPC INTEGER,"
" maxRegistersPerBlock INTEGER, maxShmemPerBlock INTEGER,"
" maxShmemPerBlockOptin INTEGER, maxShmemPerSm INTEGER,"
" maxRegistersPerSm INTEGER, threadsPerWarp INTEGER, asyncEngines INTEGER,"
" maxWarpsPerSm INTEGER, maxBlocksPerSm INTEGER, maxThreadsPerBlock INTEGER,"
" maxBlockDimX INTEGER, maxBlockDimY INTEGER, maxBlockDimZ INTEGER,"
" maxGridDimX INTEGER, maxGridDimY INTEGER, maxGridDimZ INTEGER,"
" computeMajor INTEGER, computeMinor INTEGER, smMajor INTEGER,"
" smMinor INTEGER);"
"CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER,"
" cudaId INTEGER NOT NULL, pid INTEGER NOT NULL, uuid TEXT,"
" numMultiprocessors INTEGER);"
"CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (nullStreamId INTEGER NOT NULL,"
" hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL,"
" deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,"
" parentContextId INTEGER, isGreenContext INTEGER,"
" numMultiprocessors INTEGER);"
"CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL,"
" hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL,"
" contextId INTEGER NOT NULL, priority INTEGER NOT NULL,"
" flag INTEGER NOT NULL);"
"CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
"CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER,"
" globalTid INTEGER);"
"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL,"
" end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
" contextId INTEGER NOT NULL, greenContextId INTEGER,"
" streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
" demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL,"
" mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER,"
" registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,"
" gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,"
" blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,"
" staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,"
" localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,"
" gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER,"
" graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER,"
" qmdBulkReleaseDone INTEGER, qmdPreexitDone INTEGER,"
" qmdLastCtaDone INTEGER, graphId INTEGER, clusterX INTEGER,"
" clusterY INTEGER, clusterZ INTEGER, clusterSchedulingPolicy INTEGER,"
" maxPotentialClusterSize INTEGER, maxActiveClusters INTEGER,"
" sharedMemoryRequestedPercentage INTEGER,"
" tensorSizeMinusOneElements TEXT NOT NULL);"
"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL,"
" end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
" contextId INTEGER NOT NULL, greenContextId INTEGER,"
" streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
" bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL,"
" deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER,"
" srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER,"
" dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER,"
" virtualAddress INTEGER, copyCount INTEGER);"
"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL,"
" end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
" contextId INTEGER NOT NULL, greenContextId INTEGER,"
" streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
" value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER,"
" memKind INTEGER);"
"CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL,"
" end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,"
" correlationId INTEGER, nameId INTEGER NOT NULL,"
" returnValue INTEGER NOT NULL, callchainId INTEGER);"
"CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL,"
" end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
" contextId INTEGER NOT NULL, greenContextId INTEGER,"
" streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
" deprecatedSyncType INTEGER, syncType INTEGER NOT NULL,"
" eventId INTEGER NOT NULL, eventSyncId INTEGER);"
GEN_NVTX_DDL;

static const struct {
	const char	*table;
	int		 ncols;
} tables[T_COUNT] = {
	{ "CUPTI_ACTIVITY_KIND_KERNEL", 40 },
	{ "CUPTI_ACTIVITY_KIND_MEMCPY", 21 },
	{ "CUPTI_ACTIVITY_KIND_MEMSET", 12 },
	{ "CUPTI_ACTIVITY_KIND_RUNTIME", 8 },
	{ "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 12 },
	{ "NVTX_EVENTS", 20 },
};

/* CUDA API calls, with their ENUM_NSYS_EVENT_CLASS (0 runtime, 1 driver). */
enum api {
	A_LAUNCH, A_LAUNCH_EX, A_MEMCPY, A_PEER, A_MEMSET, A_EVENT_RECORD,
	A_WAIT_EVENT, A_STREAM_SYNC, A_DEVICE_SYNC, A_IS_CAPTURING,
	A_MEMCPY_SYNC, A_MEMSET_SYNC,	/* planted problems only */
	A_COUNT
};
#define A_FIRST_PLANT	A_MEMCPY_SYNC
static const struct {
	const char	*name;
	int		 class;
	int64_t		 base, mean;	/* duration: base + exp(mean), ns */
} apis[A_COUNT] = {
	{ "cudaLaunchKernel_v7000",		0, 3500, 2500 },
	{ "cuLaunchKernelEx",			1, 5000, 3000 },
	{ "cudaMemcpyAsync_v3020",		0, 5500, 3000 },
	{ "cudaMemcpyPeerAsync_v4000",		0, 7000, 3000 },
	{ "cudaMemsetAsync_v3020",		0, 4500, 2000 },
	{ "cudaEventRecord_v3020",		0, 1800, 800 },
	{ "cudaStreamWaitEvent_v3020",		0, 1800, 900 },
	{ "cudaStreamSynchronize_v3020",	0, 1500, 1000 },
	{ "cudaDeviceSynchronize_v3020",	0, 2000, 1000 },
	{ "cudaStreamIsCapturing_v10000",	0, 450, 300 },
	{ "cudaMemcpy_v3020",			0, 5500, 3000 },
	{ "cudaMemset_v3020",			0, 4500, 2000 },
};

/*
 * Kernels, named as PyTorch 2.x on an H100 names them (nsys demangling).
 * dur is a typical duration in ns; 0 for NCCL kernels, whose duration comes
 * from the collective. mangled NULL: no mangled name; "": the name itself
 * (extern "C" style cuBLAS/nvjet kernels); NCCL kernels get theirs built.
 */
enum kern {
	K_EMBED, K_LN, K_QKV, K_FLASH_FWD, K_OUT, K_ADD, K_FC1, K_GELU, K_FC2,
	K_LMHEAD, K_SOFTMAX, K_NLL, K_MEAN, K_NLL_BWD, K_SOFTMAX_BWD,
	K_DGRAD_A, K_WGRAD_A, K_DGRAD_B, K_WGRAD_B, K_GELU_BWD, K_LN_BWD,
	K_LN_GB, K_FLASH_DOT, K_FLASH_BWD, K_FLASH_CVT, K_ACC, K_EMBED_BWD,
	K_SCALE, K_ADAM, K_FILL, K_ALLREDUCE, K_BROADCAST,
	K_TUNE0, K_TUNE1, K_TUNE2, K_TINY,	/* planted problems only */
	K_COUNT
};
#define K_FIRST_PLANT	K_TUNE0
struct kdef {
	const char	*name;		/* shortName */
	const char	*demangled;	/* NULL: the name */
	const char	*mangled;
	uint32_t	 grid[3], block[3];
	uint32_t	 regs, ssmem, dsmem, smem_exec;
	uint32_t	 cluster;	/* clusterX, 0 none */
	int64_t		 dur;
	int		 comm;		/* NCCL */
};
#define VEC_EW	"void at::native::vectorized_elementwise_kernel"
#define FLASH_BWD_TRAITS "Flash_bwd_kernel_traits<(int)128, (int)64, " \
	"(int)128, (int)8, (int)2, (int)4, (int)2, (bool)0, (bool)0, " \
	"cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, " \
	"(int)128, (int)8, cutlass::bfloat16_t>>"
static const struct kdef kdefs[K_COUNT] = {
	[K_EMBED] = { "indexSelectLargeIndex",
	    "void at::native::<unnamed>::indexSelectLargeIndex<c10::BFloat16, "
	    "long, unsigned int, (int)2, (int)2, (int)-2, (bool)1>("
	    "at::cuda::detail::TensorInfo<T1, T3>, at::cuda::detail::"
	    "TensorInfo<const T1, T3>, at::cuda::detail::TensorInfo<const T2, "
	    "T3>, int, int, T3, T3, long)", NULL,
	    { 8448, 1, 1 }, { 128, 1, 1 }, 30, 0, 0, 32768, 0, 45000, 0 },
	[K_LN] = { "vectorized_layer_norm_kernel",
	    "void at::native::<unnamed>::vectorized_layer_norm_kernel<float, "
	    "float, (bool)0>(int, T2, const T1 *, const T1 *, const T1 *, "
	    "T2 *, T2 *, T1 *)",
	    "_ZN2at6native53_GLOBAL__N__21739cd4_20_layer_norm_kernel_cu_"
	    "9c5ada8a28vectorized_layer_norm_kernelIffLb0EEEviT0_PKT_S6_S6_"
	    "PS3_S7_PS4_",
	    { 16384, 1, 1 }, { 32, 4, 1 }, 39, 0, 24, 32768, 0, 38000, 0 },
	[K_QKV] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256"
	    "x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
	    NULL, "", { 48, 8, 1 }, { 384, 1, 1 }, 168, 0, 213196, 233472, 2,
	    310000, 0 },
	[K_FLASH_FWD] = { "flash_fwd_kernel",
	    "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128, "
	    "(int)128, (int)64, (int)4, (bool)0, (bool)0, cutlass::bfloat16_t, "
	    "Flash_kernel_traits<(int)128, (int)128, (int)64, (int)4, "
	    "cutlass::bfloat16_t>>, (bool)0, (bool)0, (bool)0, (bool)0, "
	    "(bool)0, (bool)1, (bool)0, (bool)0>(flash::Flash_fwd_params)",
	    "_ZN5flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128E"
	    "Li64ELi4ELb0ELb0EN7cutlass10bfloat16_tE19Flash_kernel_traitsILi128"
	    "ELi128ELi64ELi4ES3_EELb0ELb0ELb0ELb0ELb0ELb1ELb0ELb0EEEvNS_16Flash"
	    "_fwd_paramsE",
	    { 244, 1, 6 }, { 128, 1, 1 }, 255, 0, 65536, 135168, 0, 480000, 0 },
	[K_OUT] = { "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_"
	    "64x3_tn",
	    NULL, "", { 32, 16, 1 }, { 256, 1, 1 }, 238, 0, 98304, 135168, 0,
	    120000, 0 },
	[K_ADD] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)8, at::native::CUDAFunctor_add<c10::BFloat16>, "
	    "std::array<char *, (unsigned long)3>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi8ENS0_15CUDAFunctor"
	    "_addIN3c108BFloat16EEESt5arrayIPcLm3EEEEviT0_T1_",
	    { 23400, 1, 1 }, { 128, 1, 1 }, 34, 0, 0, 32768, 0, 22000, 0 },
	[K_FC1] = { "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", NULL, "",
	    { 2, 66, 1 }, { 384, 1, 1 }, 168, 0, 213196, 233472, 2, 430000, 0 },
	[K_GELU] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)8, at::native::GeluCUDAKernelImpl(at::"
	    "TensorIteratorBase &, at::native::GeluType)::[lambda() (instance "
	    "1)]::operator ()() const::[lambda() (instance 4)]::operator ()() "
	    "const::[lambda(c10::BFloat16) (instance 1)], std::array<char *, "
	    "(unsigned long)2>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi8EZZZNS0_18GeluCUDA"
	    "KernelImplERNS_18TensorIteratorBaseENS0_8GeluTypeEENKUlvE_clEvENKU"
	    "lvE2_clEvEUlN3c108BFloat16EE_St5arrayIPcLm2EEEEviT0_T1_",
	    { 136500, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 85000, 0 },
	[K_FC2] = { "nvjet_tst_192x208_64x4_1x1_h_bz_coopB_bias_TNT", NULL, "",
	    { 1, 132, 1 }, { 384, 1, 1 }, 168, 0, 221388, 233472, 0, 410000,
	    0 },
	[K_LMHEAD] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize256"
	    "x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x"
	    "_cublas",
	    NULL, "", { 132, 1, 1 }, { 384, 1, 1 }, 168, 0, 221184, 233472, 2,
	    900000, 0 },
	[K_SOFTMAX] = { "cunn_SoftMaxForward",
	    "void at::native::<unnamed>::cunn_SoftMaxForward<(int)8, "
	    "c10::BFloat16, float, float, at::native::<unnamed>::"
	    "LogSoftMaxForwardEpilogue>(T4 *, const T2 *, int)", NULL,
	    { 8192, 1, 1 }, { 1024, 1, 1 }, 40, 0, 64, 32768, 0, 260000, 0 },
	[K_NLL] = { "nll_loss_forward_reduce_cuda_kernel_2d",
	    "void at::native::<unnamed>::nll_loss_forward_reduce_cuda_kernel_"
	    "2d<float, float, long>(T1 *, T1 *, const T1 *, const T3 *, "
	    "const T1 *, bool, long, long, long, long)", NULL,
	    { 1, 1, 1 }, { 1024, 1, 1 }, 30, 8192, 0, 16384, 0, 14000, 0 },
	[K_MEAN] = { "reduce_kernel",
	    "void at::native::reduce_kernel<(int)512, (int)1, at::native::"
	    "ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
	    "unsigned int, float, (int)4, (int)4>>(T3)",
	    "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7MeanOps"
	    "IffffEEjfLi4ELi4EEEEEvT1_",
	    { 975, 1, 1 }, { 32, 16, 1 }, 32, 16, 0, 16384, 0, 34000, 0 },
	[K_NLL_BWD] = { "nll_loss_backward_reduce_cuda_kernel_2d",
	    "void at::native::<unnamed>::nll_loss_backward_reduce_cuda_kernel_"
	    "2d<float, long>(T1 *, const T1 *, const T2 *, const T1 *, "
	    "const T1 *, bool, int, int, long, long)", NULL,
	    { 1, 1, 1 }, { 1024, 1, 1 }, 24, 0, 0, 16384, 0, 9000, 0 },
	[K_SOFTMAX_BWD] = { "cunn_SoftMaxBackward",
	    "void at::native::<unnamed>::cunn_SoftMaxBackward<(int)8, "
	    "c10::BFloat16, float, c10::BFloat16, at::native::<unnamed>::"
	    "LogSoftMaxBackwardEpilogue>(T2 *, const T4 *, const T4 *, long)",
	    NULL, { 8192, 1, 1 }, { 1024, 1, 1 }, 38, 0, 64, 32768, 0, 310000,
	    0 },
	[K_DGRAD_A] = { "nvjet_tst_256x128_64x4_1x2_h_bz_coopA_NNT", NULL, "",
	    { 1, 132, 1 }, { 384, 1, 1 }, 168, 0, 221388, 233472, 0, 420000,
	    0 },
	[K_WGRAD_A] = { "nvjet_tst_128x256_64x4_2x1_v_bz_coopB_NTN", NULL, "",
	    { 2, 66, 1 }, { 384, 1, 1 }, 168, 0, 213196, 233472, 2, 450000, 0 },
	[K_DGRAD_B] = { "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_"
	    "64x3_nn", NULL, "", { 16, 32, 1 }, { 256, 1, 1 }, 238, 0, 147456,
	    167936, 0, 140000, 0 },
	[K_WGRAD_B] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x"
	    "128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
	    NULL, "", { 32, 16, 1 }, { 128, 1, 1 }, 168, 0, 196608, 233472, 2,
	    150000, 0 },
	[K_GELU_BWD] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)8, at::native::GeluBackwardCUDAKernelImpl(at::"
	    "TensorIteratorBase &, at::native::GeluType)::[lambda() (instance "
	    "2)]::operator ()() const::[lambda() (instance 4)]::operator ()() "
	    "const::[lambda(c10::BFloat16, c10::BFloat16) (instance 1)], "
	    "std::array<char *, (unsigned long)3>>(int, T2, T3)", NULL,
	    { 136500, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 120000, 0 },
	[K_LN_BWD] = { "layer_norm_grad_input_kernel_vectorized",
	    "void at::native::<unnamed>::layer_norm_grad_input_kernel_"
	    "vectorized<float, float>(const T1 *, const T1 *, const T2 *, "
	    "const T2 *, const T1 *, T1 *, int)", NULL,
	    { 16384, 1, 1 }, { 128, 1, 1 }, 40, 0, 0, 32768, 0, 52000, 0 },
	[K_LN_GB] = { "GammaBetaBackwardCUDAKernel",
	    "void at::native::<unnamed>::GammaBetaBackwardCUDAKernel<float, "
	    "float>(long, long, const T1 *, const T1 *, const T2 *, "
	    "const T2 *, T1 *, T1 *)", NULL,
	    { 64, 1, 1 }, { 32, 32, 1 }, 64, 8192, 0, 16384, 0, 36000, 0 },
	[K_FLASH_DOT] = { "flash_bwd_dot_do_o_kernel",
	    "void flash::flash_bwd_dot_do_o_kernel<(bool)1, " FLASH_BWD_TRAITS
	    ">(flash::Flash_bwd_params)", NULL,
	    { 64, 8, 16 }, { 256, 1, 1 }, 32, 0, 0, 32768, 0, 30000, 0 },
	[K_FLASH_BWD] = { "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
	    "void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<"
	    FLASH_BWD_TRAITS ", (bool)0, (bool)1, (bool)0, (bool)0, (bool)0, "
	    "(bool)1, (bool)0, (bool)0>(flash::Flash_bwd_params)", NULL,
	    { 64, 8, 16 }, { 256, 1, 1 }, 255, 0, 147456, 167936, 0, 1150000,
	    0 },
	[K_FLASH_CVT] = { "flash_bwd_convert_dq_kernel",
	    "void flash::flash_bwd_convert_dq_kernel<" FLASH_BWD_TRAITS
	    ">(flash::Flash_bwd_params, int)", NULL,
	    { 32, 8, 16 }, { 256, 1, 1 }, 40, 0, 24576, 65536, 0, 26000, 0 },
	[K_ACC] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)4, at::native::CUDAFunctor_add<float>, "
	    "std::array<char *, (unsigned long)3>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor"
	    "_addIfEESt5arrayIPcLm3EEEEviT0_T1_",
	    { 46800, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 40000, 0 },
	[K_EMBED_BWD] = { "embedding_backward_feature_kernel",
	    "void at::native::<unnamed>::embedding_backward_feature_kernel<"
	    "c10::BFloat16, float, long>(const T3 *, const T1 *, T1 *, int, "
	    "long, int, int)", NULL,
	    { 64, 1, 1 }, { 32, 32, 1 }, 48, 0, 8448, 32768, 0, 160000, 0 },
	[K_SCALE] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)4, at::native::AUnaryFunctor<float, float, float, "
	    "at::native::binary_internal::MulFunctor<float>>, std::array<char "
	    "*, (unsigned long)2>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13AUnaryFunct"
	    "orIfffNS0_15binary_internal10MulFunctorIfEEEESt5arrayIPcLm2EEEEviT"
	    "0_T1_",
	    { 46800, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 30000, 0 },
	[K_ADAM] = { "multi_tensor_apply_kernel",
	    "void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::"
	    "<unnamed>::TensorListMetadata<(int)4>, at::native::<unnamed>::"
	    "FusedAdamMathFunctor<float, (int)4, (at::native::ADAM_MODE)1, "
	    "(bool)0>, float *, double, double, double, double, double, bool, "
	    "const float *, const float *>(T1, T2, T3...)", NULL,
	    { 320, 1, 1 }, { 512, 1, 1 }, 72, 0, 0, 16384, 0, 650000, 0 },
	[K_FILL] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)4, at::native::FillFunctor<float>, "
	    "std::array<char *, (unsigned long)1>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctor"
	    "IfEESt5arrayIPcLm1EEEEviT0_T1_",
	    { 46800, 1, 1 }, { 128, 1, 1 }, 16, 0, 0, 32768, 0, 18000, 0 },
	[K_ALLREDUCE] = { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
	    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<"
	    "(unsigned long)4096>)", NULL,
	    { 24, 1, 1 }, { 640, 1, 1 }, 96, 21568, 82240, 135168, 4, 0, 1 },
	[K_BROADCAST] = { "ncclDevKernel_Broadcast_RING_LL",
	    "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<"
	    "(unsigned long)4096>)", NULL,
	    { 24, 1, 1 }, { 640, 1, 1 }, 96, 21568, 82240, 135168, 4, 0, 1 },
	/* Autotuning candidates (the warm-up phase). */
	[K_TUNE0] = { "triton_tem_fused_mm_0", NULL, "",
	    { 264, 1, 1 }, { 256, 1, 1 }, 168, 0, 98304, 135168, 0, 350000,
	    0 },
	[K_TUNE1] = { "triton_tem_fused_mm_1", NULL, "",
	    { 132, 1, 1 }, { 256, 1, 1 }, 232, 0, 147456, 167936, 0, 520000,
	    0 },
	[K_TUNE2] = { "triton_tem_fused_mm_2", NULL, "",
	    { 66, 1, 1 }, { 128, 1, 1 }, 255, 0, 196608, 233472, 0, 700000,
	    0 },
	/* A tiny kernel launched in a Python loop (launch-bound). */
	[K_TINY] = { "elementwise_kernel",
	    "void at::native::elementwise_kernel<(int)128, (int)4, "
	    "at::native::AUnaryFunctor<float, float, float, "
	    "at::native::binary_internal::MulFunctor<float>>>(int, T3)", NULL,
	    { 1, 1, 1 }, { 128, 1, 1 }, 20, 0, 0, 16384, 0, 2500, 0 },
};

/* NVTX ranges. Default-domain ranges carry text; NCCL ones a textId. */
enum nv {
	NV_STEP, NV_DATA, NV_FORWARD, NV_LAYER, NV_ATTN, NV_MLP, NV_LOSS,
	NV_BACKWARD, NV_LAYER_BWD, NV_OPT, NV_LOG, NV_INIT, NV_CKPT,
	NV_AUTOTUNE, NV_EVAL, NV_METRICS, NV_STALL,
	NV_ALLREDUCE, NV_BROADCAST, NV_COMM_INIT, NV_DOMAIN_CREATE, NV_COUNT
};
static const char *const nv_names[NV_COUNT] = {
	"ProfilerStep#", "data_load", "forward", "layers.", "attention",
	"mlp", "loss", "backward", "layers.", "optimizer_step",
	"log", "init", "checkpoint",
	"autotune", "evaluation", "metrics", "host_work",
	"ncclAllReduce", "ncclBroadcast", "ncclCommInitRank", "NCCL"
};
/* Ranges with a number: name, number, suffix. */
static const char *const nv_suffix[NV_COUNT] = {
	[NV_LAYER_BWD] = ".backward"
};
#define NV_FIRST_NCCL	NV_ALLREDUCE

/* A row waiting in a reorder heap. */
struct row {
	int64_t		 start, end;
	uint64_t	 seq;		/* emission order: tie-break */
	uint32_t	 rank;
	uint32_t	 corr;
	union {
		struct {
			uint32_t	 grid_id;
			uint8_t		 k, stream;
		} k;
		struct {
			uint64_t	 bytes;
			uint8_t		 kind, src, dst, stream;
			int32_t		 peer;
		} c;
		struct {
			uint64_t	 bytes;
			uint8_t		 stream;
		} s;
		struct {
			uint8_t		 api, th;
		} a;
		struct {
			uint32_t	 event, sync;
			uint8_t		 type, stream;
		} y;
		struct {
			int32_t		 arg;
			uint8_t		 name, th;
		} n;
	} u;
};

struct heap {
	struct row	*v;
	size_t		 n, cap;
};

struct rng {
	uint64_t	 s[4];
};

struct nvrange {
	int64_t		 start;
	int32_t		 arg;
	uint8_t		 name;
};

struct rank {
	int		 proc;		/* index into gen.procs */
	int		 local;		/* index among its process's ranks */
	uint32_t	 tid[TH_COUNT];
	uint64_t	 gtid[TH_COUNT];
	uint32_t	 ctx;
	uint32_t	 stream[S_COUNT];
	double		 speed;		/* compute duration factor */
	struct rng	 rng;
	int64_t		 cpu;		/* CPU cursor */
	int64_t		 gpu[S_COUNT];	/* when each stream is free */
	struct nvrange	 stk[TH_COUNT][NVTX_DEPTH];
	int		 depth[TH_COUNT];
	int		 coll_k;	/* pending collective kernel or -1 */
	int64_t		 coll_at;	/* its arrival on the GPU */
	uint32_t	 coll_corr;
	uint32_t	 grid_id, event_id, sync_id;
	int		 extra;		/* filler launches, last iteration */
};

struct proc {
	uint32_t	 pid;
	uint64_t	 gpid;
	uint32_t	 corr;		/* last correlation id */
};

struct gen {
	struct gen_opts	 o;
	int		 nranks, nprocs, layers, nbuckets, straggler;
	struct rank	*ranks;
	struct proc	*procs;
	struct rng	 rng;		/* collectives */

	int		 count_only;
	int		 iter, niters, odd;
	uint64_t	 count, rows[T_COUNT], seq;
	int64_t		 first, last;
	int64_t		 train0, train1;	/* ProfilerStep span */

	struct heap	 heap[T_COUNT];
	sqlite3		*db;
	sqlite3_stmt	*ins[T_COUNT];
	int		 failed;
	char		*cause;
	char		 text[64];

	char		**strs;		/* StringIds: id = index */
	size_t		 nstrs, strcap;
	uint32_t	 ksid[K_COUNT][3];	/* short, demangled, mangled */
	uint32_t	 asid[A_COUNT];
	uint32_t	 nsid[NV_COUNT];
};

/* xoshiro256** seeded through splitmix64. */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t	z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

static void
rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t	x = seed ^ (stream * 0xd1342543de82ef95ULL);
	int		i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return ((x << k) | (x >> (64 - k)));
}

static uint64_t
rng_next(struct rng *r)
{
	uint64_t	*s = r->s, out, t;

	out = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return (out);
}

/* Uniform in [0, 1). */
static double
rng_unit(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) * 0x1.0p-53);
}

/* Exponential with the given mean. */
static int64_t
rng_exp(struct rng *r, int64_t mean)
{
	return ((int64_t)(-(double)mean * log(1.0 - rng_unit(r))));
}

/* Roughly normal, mean 0, sd 1 (sum of four uniforms). */
static double
rng_gauss(struct rng *r)
{
	double	s;

	s = rng_unit(r) + rng_unit(r) + rng_unit(r) + rng_unit(r);
	return ((s - 2.0) * 1.7320508075688772);
}

static int64_t
max64(int64_t a, int64_t b)
{
	return (a > b ? a : b);
}

static int64_t
min64(int64_t a, int64_t b)
{
	return (a < b ? a : b);
}

/* StringIds: the ids of a handful of static strings, deduplicated. */
static uint32_t
intern(struct gen *g, const char *s)
{
	size_t	i;

	for (i = 0; i < g->nstrs; i++) {
		if (strcmp(g->strs[i], s) == 0)
			return ((uint32_t)i);
	}
	XGROW(g->strs, g->strcap, g->nstrs + 1);
	g->strs[g->nstrs] = xstrdup(s);
	return ((uint32_t)g->nstrs++);
}

static void
intern_all(struct gen *g)
{
	const struct kdef	*d;
	char			*s;
	int			 i;

	for (i = 0; i < K_COUNT; i++) {
		d = &kdefs[i];
		if (i >= K_FIRST_PLANT && g->o.plant == 0) {
			/* Unused: the default trace's strings stay as they
			 * were before plants existed. */
			g->ksid[i][0] = g->ksid[i][1] = g->ksid[i][2] =
			    UINT32_MAX;
			continue;
		}
		g->ksid[i][0] = intern(g, d->name);
		g->ksid[i][1] = intern(g, d->demangled != NULL ? d->demangled :
		    d->name);
		if (d->comm) {
			s = xasprintf("_Z%zu%s24ncclDevKernelArgsStorage"
			    "ILm4096EE", strlen(d->name), d->name);
			g->ksid[i][2] = intern(g, s);
			free(s);
		} else if (d->mangled == NULL)
			g->ksid[i][2] = UINT32_MAX;
		else
			g->ksid[i][2] = intern(g,
			    *d->mangled ? d->mangled : d->name);
	}
	for (i = 0; i < A_COUNT; i++)
		g->asid[i] = i >= A_FIRST_PLANT && g->o.plant == 0 ?
		    UINT32_MAX : intern(g, apis[i].name);
	for (i = NV_FIRST_NCCL; i < NV_COUNT; i++)
		g->nsid[i] = intern(g, nv_names[i]);
}

/* Reorder heaps, ordered by (start, seq). */
static int
row_before(const struct row *a, const struct row *b)
{
	return (a->start < b->start || (a->start == b->start &&
	    a->seq < b->seq));
}

static void
heap_push(struct heap *h, const struct row *rw)
{
	size_t		i, p;
	struct row	tmp;

	XGROW(h->v, h->cap, h->n + 1);
	i = h->n++;
	h->v[i] = *rw;
	while (i > 0) {
		p = (i - 1) / 2;
		if (!row_before(&h->v[i], &h->v[p]))
			break;
		tmp = h->v[p];
		h->v[p] = h->v[i];
		h->v[i] = tmp;
		i = p;
	}
}

static void
heap_pop(struct heap *h, struct row *out)
{
	size_t		i, c, n;
	struct row	tmp;

	*out = h->v[0];
	n = --h->n;
	if (n == 0)
		return;
	h->v[0] = h->v[n];
	i = 0;
	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && row_before(&h->v[c + 1], &h->v[c]))
			c++;
		if (!row_before(&h->v[c], &h->v[i]))
			break;
		tmp = h->v[c];
		h->v[c] = h->v[i];
		h->v[i] = tmp;
		i = c;
	}
}

/* SQLite helpers. */
static void
sql_fail(struct gen *g, const char *what)
{
	if (g->failed)
		return;
	g->failed = 1;
	g->cause = xasprintf("%s: %s", what, sqlite3_errmsg(g->db));
}

static int
sql_exec(struct gen *g, const char *sql)
{
	if (sqlite3_exec(g->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		sql_fail(g, "sqlite");
		return (-1);
	}
	return (0);
}

static void
step(struct gen *g, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		sql_fail(g, "insert");
	sqlite3_reset(st);
}

static sqlite3_stmt *
prepare(struct gen *g, const char *table, int ncols)
{
	sqlite3_stmt	*st;
	char		*sql, *p;
	int		 i;

	sql = xmalloc(strlen(table) + 32 + 3 * (size_t)ncols);
	p = sql + sprintf(sql, "INSERT INTO %s VALUES (", table);
	for (i = 0; i < ncols; i++)
		p += sprintf(p, "%s?", i ? "," : "");
	strcpy(p, ")");
	if (sqlite3_prepare_v2(g->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sql_fail(g, table);
		st = NULL;
	}
	free(sql);
	return (st);
}

#define BIND(st, i, v)	sqlite3_bind_int64((st), (i), (sqlite3_int64)(v))
#define BINDS(st, i, s)	sqlite3_bind_text((st), (i), (s), -1, SQLITE_STATIC)
#define BINDN(st, i)	sqlite3_bind_null((st), (i))

/* Binds the columns that never change; bindings survive sqlite3_reset(). */
static void
bind_constants(struct gen *g)
{
	sqlite3_stmt	*st;

	st = g->ins[T_KERNEL];
	BIND(st, 5, 0);				/* greenContextId */
	BIND(st, 12, 1);			/* launchType: regular */
	BIND(st, 13, 1);			/* cacheConfig */
	BIND(st, 23, 0);			/* localMemoryPerThread */
	BIND(st, 36, 1);			/* clusterSchedulingPolicy */
	BINDS(st, 40, "[]");			/* tensorSizeMinusOneElements */
	st = g->ins[T_MEMCPY];
	BIND(st, 5, 0);
	BIND(st, 21, 1);			/* copyCount */
	st = g->ins[T_MEMSET];
	BIND(st, 5, 0);
	BIND(st, 9, 0);				/* value */
	BIND(st, 12, MK_DEVICE);		/* memKind */
	BIND(g->ins[T_RUNTIME], 7, 0);		/* returnValue */
}

static void
bind_gpu_common(struct gen *g, sqlite3_stmt *st, const struct row *rw,
    int stream)
{
	const struct rank	*r = &g->ranks[rw->rank];

	BIND(st, 1, rw->start);
	BIND(st, 2, rw->end);
	BIND(st, 3, rw->rank);			/* deviceId */
	BIND(st, 4, r->ctx);
	BIND(st, 6, r->stream[stream]);
	BIND(st, 7, rw->corr);
	BIND(st, 8, g->procs[r->proc].gpid);
}

static void
write_kernel(struct gen *g, const struct row *rw)
{
	sqlite3_stmt		*st = g->ins[T_KERNEL];
	const struct kdef	*d = &kdefs[rw->u.k.k];
	const uint32_t		*sid = g->ksid[rw->u.k.k];

	bind_gpu_common(g, st, rw, rw->u.k.stream);
	BIND(st, 9, sid[1]);
	BIND(st, 10, sid[0]);
	if (sid[2] == UINT32_MAX)
		BINDN(st, 11);
	else
		BIND(st, 11, sid[2]);
	BIND(st, 14, d->regs);
	BIND(st, 15, d->grid[0]);
	BIND(st, 16, d->grid[1]);
	BIND(st, 17, d->grid[2]);
	BIND(st, 18, d->block[0]);
	BIND(st, 19, d->block[1]);
	BIND(st, 20, d->block[2]);
	BIND(st, 21, d->ssmem);
	BIND(st, 22, d->dsmem);
	BIND(st, 24, d->comm ? 787218432 : 250871808);
	BIND(st, 25, rw->u.k.grid_id);
	BIND(st, 26, d->smem_exec);
	BIND(st, 28, d->dsmem > 49152);		/* sharedMemoryLimitConfig */
	BIND(st, 33, d->cluster);
	BIND(st, 34, d->cluster ? 1 : 0);
	BIND(st, 35, d->cluster ? 1 : 0);
	BIND(st, 37, d->cluster ? 16 : 0);
	BIND(st, 38, d->cluster ? 66 : 0);
	step(g, st);
}

static void
write_memcpy(struct gen *g, const struct row *rw)
{
	sqlite3_stmt		*st = g->ins[T_MEMCPY];
	const struct rank	*r = &g->ranks[rw->rank];

	bind_gpu_common(g, st, rw, rw->u.c.stream);
	BIND(st, 9, rw->u.c.bytes);
	BIND(st, 10, rw->u.c.kind);
	BIND(st, 12, rw->u.c.src);
	BIND(st, 13, rw->u.c.dst);
	if (rw->u.c.peer >= 0) {
		BIND(st, 14, rw->rank);
		BIND(st, 15, r->ctx);
		BIND(st, 16, rw->u.c.peer);
		BIND(st, 17, g->ranks[rw->u.c.peer].ctx);
	} else {
		BINDN(st, 14);
		BINDN(st, 15);
		BINDN(st, 16);
		BINDN(st, 17);
	}
	step(g, st);
}

static void
write_memset(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_MEMSET];

	bind_gpu_common(g, st, rw, rw->u.s.stream);
	BIND(st, 10, rw->u.s.bytes);
	step(g, st);
}

static void
write_runtime(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_RUNTIME];

	BIND(st, 1, rw->start);
	BIND(st, 2, rw->end);
	BIND(st, 3, apis[rw->u.a.api].class);
	BIND(st, 4, g->ranks[rw->rank].gtid[rw->u.a.th]);
	BIND(st, 5, rw->corr);
	BIND(st, 6, g->asid[rw->u.a.api]);
	step(g, st);
}

static void
write_sync(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_SYNC];

	bind_gpu_common(g, st, rw, rw->u.y.stream);
	if (g->o.quirks & GEN_QUIRK_SYNC_DEVICE0)
		BIND(st, 3, 0);
	if ((g->o.quirks & GEN_QUIRK_SYNC_NOSTREAM) &&
	    rw->u.y.type == SY_CONTEXT)
		BIND(st, 6, NO_STREAM);
	BIND(st, 10, rw->u.y.type);
	if (rw->u.y.type == SY_STREAM_WAIT) {
		BIND(st, 11, rw->u.y.event);
		BIND(st, 12, rw->u.y.sync);
	} else {
		BIND(st, 11, NO_EVENT);
		BIND(st, 12, 0);
	}
	step(g, st);
}

static void
write_nvtx(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_NVTX];
	int		 name = rw->u.n.name;

	BIND(st, 1, rw->start);
	BIND(st, 8, g->ranks[rw->rank].gtid[rw->u.n.th]);
	if (name == NV_DOMAIN_CREATE) {
		BINDN(st, 2);
		BIND(st, 3, 75);		/* NvtxDomainCreate */
		BINDS(st, 7, nv_names[name]);
		BINDN(st, 10);
		BIND(st, 11, DOM_NCCL);
	} else if (name >= NV_FIRST_NCCL) {
		BIND(st, 2, rw->end);
		BIND(st, 3, 59);		/* NvtxPushPopRange */
		BINDN(st, 7);
		BIND(st, 10, g->nsid[name]);
		BIND(st, 11, DOM_NCCL);
	} else {
		BIND(st, 2, rw->end);
		BIND(st, 3, 59);
		if (rw->u.n.arg >= 0) {
			snprintf(g->text, sizeof g->text, "%s%d%s",
			    nv_names[name], (int)rw->u.n.arg,
			    nv_suffix[name] ? nv_suffix[name] : "");
			BINDS(st, 7, g->text);
		} else
			BINDS(st, 7, nv_names[name]);
		BINDN(st, 10);
		BIND(st, 11, DOM_DEFAULT);
	}
	step(g, st);
}

static void
write_row(struct gen *g, int t, const struct row *rw)
{
	switch (t) {
	case T_KERNEL:
		write_kernel(g, rw);
		break;
	case T_MEMCPY:
		write_memcpy(g, rw);
		break;
	case T_MEMSET:
		write_memset(g, rw);
		break;
	case T_RUNTIME:
		write_runtime(g, rw);
		break;
	case T_SYNC:
		write_sync(g, rw);
		break;
	case T_NVTX:
		write_nvtx(g, rw);
		break;
	}
}

/* Writes every queued row starting before the table's watermark. */
static void
flush(struct gen *g, int64_t activity, int64_t nvtx)
{
	struct heap	*h;
	struct row	 rw;
	int		 t;
	int64_t		 wm;

	for (t = 0; t < T_COUNT && !g->failed; t++) {
		h = &g->heap[t];
		wm = (t == T_NVTX) ? nvtx : activity;
		while (h->n > 0 && h->v[0].start < wm && !g->failed) {
			heap_pop(h, &rw);
			write_row(g, t, &rw);
		}
	}
}

/* After a segment: no rank will produce a row starting before its CPU
 * cursor, nor an NVTX row before its oldest open range. */
static void
flush_point(struct gen *g)
{
	const struct rank	*r;
	int64_t			 act = INT64_MAX, nv = INT64_MAX;
	int			 i, th;

	if (g->count_only)
		return;
	progress_rows(g->o.progress, g->count);
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		act = min64(act, r->cpu);
		nv = min64(nv, r->cpu);
		for (th = 0; th < TH_COUNT; th++) {
			if (r->depth[th] > 0)
				nv = min64(nv, r->stk[th][0].start);
		}
	}
	flush(g, act, nv);
}

static void
emit(struct gen *g, int t, struct row *rw, int counted)
{
	if (counted) {
		g->count++;
		g->rows[t]++;
		g->first = min64(g->first, rw->start);
		g->last = max64(g->last, rw->end);
	}
	if (g->count_only)
		return;
	rw->seq = g->seq++;
	heap_push(&g->heap[t], rw);
}

/*
 * The simulation. Every function below acts on one rank and moves its
 * cursors forward; emit() either counts or queues the rows.
 */
#define RI(g, r)	((uint32_t)((r) - (g)->ranks))

static int64_t
api_dur(struct rank *r, int a)
{
	return (apis[a].base + rng_exp(&r->rng, apis[a].mean));
}

/* Python time between two CUDA calls; rarely a long pause (GC, logging). */
static void
gap(struct rank *r)
{
	r->cpu += 4 * US + rng_exp(&r->rng, 9 * US);
	if (rng_unit(&r->rng) < 0.002)
		r->cpu += 1 * MS + rng_exp(&r->rng, 3 * MS);
}

/* An API call on thread th from the CPU cursor to end, which becomes the
 * cursor. Returns its correlation id. */
static uint32_t
api(struct gen *g, struct rank *r, int th, int a, int64_t end)
{
	struct row	rw;

	memset(&rw, 0, sizeof rw);
	rw.start = r->cpu;
	rw.end = end;
	rw.rank = RI(g, r);
	rw.corr = ++g->procs[r->proc].corr;
	rw.u.a.api = (uint8_t)a;
	rw.u.a.th = (uint8_t)th;
	emit(g, T_RUNTIME, &rw, 1);
	r->cpu = end;
	return (rw.corr);
}

static uint32_t
api_quick(struct gen *g, struct rank *r, int th, int a)
{
	return (api(g, r, th, a, r->cpu + api_dur(r, a)));
}

/* When work queued on stream s by the call that just returned starts. */
static int64_t
gpu_start(struct rank *r, int s)
{
	return (max64(r->cpu + 2 * US + rng_exp(&r->rng, 3 * US),
	    r->gpu[s] + 1 * US + rng_exp(&r->rng, 1 * US)));
}

static int64_t
kernel_dur(struct gen *g, struct rank *r, int k)
{
	double	f;

	f = r->speed * (1.0 + 0.04 * rng_gauss(&r->rng));
	if ((int)RI(g, r) == g->straggler)
		f *= g->o.slowdown;
	if ((g->o.plant & GEN_PLANT_IMBALANCE) && RI(g, r) == 0)
		f *= 1.3;		/* a larger shard */
	if (rng_unit(&r->rng) < 0.005) {	/* clock dip, contention */
		double dip = 1.5 + 1.5 * rng_unit(&r->rng);
		if (!g->o.clean)
			f *= dip;
	}
	if (f < 0.5)
		f = 0.5;
	return ((int64_t)((double)kdefs[k].dur * f) + 1);
}

static void
kernel_row(struct gen *g, struct rank *r, int k, int s, int64_t start,
    int64_t end, uint32_t corr)
{
	struct row	rw;

	memset(&rw, 0, sizeof rw);
	rw.start = start;
	rw.end = end;
	rw.rank = RI(g, r);
	rw.corr = corr;
	rw.u.k.k = (uint8_t)k;
	rw.u.k.stream = (uint8_t)s;
	rw.u.k.grid_id = ++r->grid_id;
	emit(g, T_KERNEL, &rw, 1);
}

static void
launch(struct gen *g, struct rank *r, int th, int k)
{
	uint32_t	corr;
	int64_t		start, end;

	corr = api_quick(g, r, th, A_LAUNCH);
	start = gpu_start(r, S_COMPUTE);
	end = start + kernel_dur(g, r, k);
	kernel_row(g, r, k, S_COMPUTE, start, end, corr);
	r->gpu[S_COMPUTE] = end;
	gap(r);
}

/* A copy made by API call a (-1: cudaMemcpyAsync or, with a peer,
 * cudaMemcpyPeerAsync). */
static void
copy_as(struct gen *g, struct rank *r, int th, int a, int kind, int src,
    int dst, uint64_t bytes, int s, int peer)
{
	struct row	rw;
	double		bw;		/* bytes per ns */
	int64_t		start, end, dur;
	uint32_t	corr;
	int		pageable = (src == MK_PAGEABLE || dst == MK_PAGEABLE);
	int		blocking;

	if (a < 0)
		a = (peer >= 0) ? A_PEER : A_MEMCPY;
	blocking = pageable || a == A_MEMCPY_SYNC;

	if (kind == CK_PTOP)
		bw = 280.0;			/* NVLink */
	else
		bw = pageable ? 20.0 : 45.0;	/* PCIe 5 */
	dur = 1500 + (int64_t)((double)bytes / bw) + rng_exp(&r->rng, 500);
	if (blocking) {
		/* Synchronous copies, and copies from or to pageable memory,
		 * return when done. */
		start = max64(r->cpu + 4 * US + rng_exp(&r->rng, US),
		    r->gpu[s] + 1 * US);
		end = start + dur;
		corr = api(g, r, th, a, end + 2 * US + rng_exp(&r->rng, US));
	} else {
		corr = api_quick(g, r, th, a);
		start = gpu_start(r, s);
		end = start + dur;
	}
	memset(&rw, 0, sizeof rw);
	rw.start = start;
	rw.end = end;
	rw.rank = RI(g, r);
	rw.corr = corr;
	rw.u.c.bytes = bytes;
	rw.u.c.kind = (uint8_t)kind;
	rw.u.c.src = (uint8_t)src;
	rw.u.c.dst = (uint8_t)dst;
	rw.u.c.stream = (uint8_t)s;
	rw.u.c.peer = peer;
	emit(g, T_MEMCPY, &rw, 1);
	r->gpu[s] = end;
	gap(r);
}

static void
copy(struct gen *g, struct rank *r, int th, int kind, int src, int dst,
    uint64_t bytes, int s, int peer)
{
	copy_as(g, r, th, -1, kind, src, dst, bytes, s, peer);
}

/* cudaMemsetAsync, or with sync cudaMemset, which returns when done. */
static void
memset_as(struct gen *g, struct rank *r, int th, uint64_t bytes, int sync)
{
	struct row	rw;

	memset(&rw, 0, sizeof rw);
	if (sync) {
		rw.start = max64(r->cpu + 4 * US + rng_exp(&r->rng, US),
		    r->gpu[S_COMPUTE] + 1 * US);
		rw.end = rw.start + 1200 + (int64_t)(bytes / 2000) +
		    rng_exp(&r->rng, 300);
		rw.corr = api(g, r, th, A_MEMSET_SYNC, rw.end + 2 * US +
		    rng_exp(&r->rng, US));
	} else {
		rw.corr = api_quick(g, r, th, A_MEMSET);
		rw.start = gpu_start(r, S_COMPUTE);
		rw.end = rw.start + 1200 + (int64_t)(bytes / 2000) +
		    rng_exp(&r->rng, 300);
	}
	rw.rank = RI(g, r);
	rw.u.s.bytes = bytes;
	rw.u.s.stream = S_COMPUTE;
	emit(g, T_MEMSET, &rw, 1);
	r->gpu[S_COMPUTE] = rw.end;
	gap(r);
}

static void
memset_async(struct gen *g, struct rank *r, int th, uint64_t bytes)
{
	memset_as(g, r, th, bytes, 0);
}

/* The SYNCHRONIZATION row of the API call [t0, r->cpu): CUPTI records it
 * on the CPU timeline, just inside the call. */
static void
sync_row(struct gen *g, struct rank *r, int s, int type, int64_t t0,
    uint32_t corr, uint32_t event)
{
	struct row	rw;
	int64_t		in;

	in = min64(400, (r->cpu - t0) / 4);
	memset(&rw, 0, sizeof rw);
	rw.start = t0 + in;
	rw.end = r->cpu - in;
	rw.rank = RI(g, r);
	rw.corr = corr;
	rw.u.y.type = (uint8_t)type;
	rw.u.y.stream = (uint8_t)s;
	rw.u.y.event = event;
	rw.u.y.sync = (type == SY_STREAM_WAIT) ? ++r->sync_id : 0;
	emit(g, T_SYNC, &rw, 1);
}

/* cudaStreamSynchronize: blocks until stream s is idle. */
static void
stream_sync(struct gen *g, struct rank *r, int th, int s)
{
	int64_t		t0 = r->cpu, end;
	uint32_t	corr;

	end = max64(t0 + api_dur(r, A_STREAM_SYNC),
	    r->gpu[s] + 2 * US + rng_exp(&r->rng, 2 * US));
	corr = api(g, r, th, A_STREAM_SYNC, end);
	sync_row(g, r, s, SY_STREAM, t0, corr, 0);
	gap(r);
}

/* cudaDeviceSynchronize: blocks until every stream is idle. */
static void
device_sync(struct gen *g, struct rank *r, int th)
{
	int64_t		t0 = r->cpu, busy = 0, end;
	uint32_t	corr;
	int		s;

	for (s = 0; s < S_COUNT; s++)
		busy = max64(busy, r->gpu[s]);
	end = max64(t0 + api_dur(r, A_DEVICE_SYNC),
	    busy + 2 * US + rng_exp(&r->rng, 2 * US));
	corr = api(g, r, th, A_DEVICE_SYNC, end);
	sync_row(g, r, S_COMPUTE, SY_CONTEXT, t0, corr, 0);
	gap(r);
}

/* cudaEventRecord on waitee, cudaStreamWaitEvent on waiter. */
static void
stream_wait(struct gen *g, struct rank *r, int th, int waiter, int waitee)
{
	int64_t		ready = r->gpu[waitee], t0;
	uint32_t	corr, ev;

	api_quick(g, r, th, A_EVENT_RECORD);
	ev = ++r->event_id;
	r->cpu += 500 + rng_exp(&r->rng, 500);
	t0 = r->cpu;
	corr = api_quick(g, r, th, A_WAIT_EVENT);
	sync_row(g, r, waiter, SY_STREAM_WAIT, t0, corr, ev);
	r->gpu[waiter] = max64(r->gpu[waiter], ready);
	r->cpu += 500 + rng_exp(&r->rng, 500);
}

static void
push(struct rank *r, int th, int name, int arg)
{
	struct nvrange	*nr;

	if (r->depth[th] == NVTX_DEPTH)
		abort();			/* programming error */
	nr = &r->stk[th][r->depth[th]++];
	nr->start = r->cpu;
	nr->name = (uint8_t)name;
	nr->arg = arg;
	r->cpu += 300 + rng_exp(&r->rng, 200);
}

static void
pop(struct gen *g, struct rank *r, int th)
{
	struct nvrange	*nr;
	struct row	 rw;

	if (r->depth[th] == 0)
		abort();			/* programming error */
	nr = &r->stk[th][--r->depth[th]];
	memset(&rw, 0, sizeof rw);
	rw.start = nr->start;
	rw.end = r->cpu;
	rw.rank = RI(g, r);
	rw.u.n.name = nr->name;
	rw.u.n.arg = nr->arg;
	rw.u.n.th = (uint8_t)th;
	emit(g, T_NVTX, &rw, 1);
	if (nr->name == NV_STEP) {
		g->train0 = min64(g->train0, rw.start);
		g->train1 = max64(g->train1, rw.end);
	}
	r->cpu += 200 + rng_exp(&r->rng, 200);
}

/* The NvtxDomainCreate row of the NCCL domain (not counted as an event). */
static void
domain_create(struct gen *g, struct rank *r)
{
	struct row	rw;

	memset(&rw, 0, sizeof rw);
	rw.start = rw.end = r->cpu;
	rw.rank = RI(g, r);
	rw.u.n.name = NV_DOMAIN_CREATE;
	rw.u.n.th = TH_MAIN;
	emit(g, T_NVTX, &rw, 0);
	r->cpu += 2 * US;
}

/* Queues a collective; resolve() times it once every rank has. */
static void
coll_launch(struct gen *g, struct rank *r, int th, int k, int name)
{
	push(r, th, name, -1);
	stream_wait(g, r, th, S_NCCL, S_COMPUTE);
	r->coll_corr = api_quick(g, r, th, A_LAUNCH_EX);
	r->coll_k = k;
	r->coll_at = gpu_start(r, S_NCCL);
	pop(g, r, th);
	gap(r);
}

/* A collective ends a transfer time after the last rank arrives. */
static void
resolve(struct gen *g, uint64_t bytes)
{
	struct rank	*r;
	double		 f, x;
	int64_t		 last = INT64_MIN, end;
	int		 i, k = -1;

	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		if (r->coll_k >= 0) {
			k = r->coll_k;
			last = max64(last, r->coll_at);
		}
	}
	if (k < 0)
		return;
	f = (k == K_ALLREDUCE) ? 2.0 * (g->nranks - 1) / g->nranks : 1.0;
	x = f * (double)bytes / 170.0 * (1.0 + 0.05 * rng_gauss(&g->rng));
	end = last + 12 * US + (int64_t)(x > 0 ? x : 0);
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		if (r->coll_k < 0)
			continue;
		r->gpu[S_NCCL] = end + rng_exp(&r->rng, 800);
		kernel_row(g, r, r->coll_k, S_NCCL, r->coll_at, r->gpu[S_NCCL],
		    r->coll_corr);
		r->coll_k = -1;
	}
}

/*
 * DDP buckets: backward runs through units U-1 .. 0, unit u >= 1 being layer
 * u - 1 and unit 0 the embedding; bucket b holds the units [lo, hi).
 */
static void
bucket_range(struct gen *g, int b, int *lo, int *hi)
{
	int	u = g->layers + 1;

	*lo = u * (g->nbuckets - 1 - b) / g->nbuckets;
	*hi = u * (g->nbuckets - b) / g->nbuckets;
}

/* Gradient bytes of bucket b (bf16, about 100 MiB a layer). */
static uint64_t
bucket_bytes(struct gen *g, int b)
{
	int	lo, hi;

	bucket_range(g, b, &lo, &hi);
	if (g->o.clean)		/* compressed gradients: short all-reduces */
		return ((uint64_t)(hi - lo) * (25ULL << 20) +
		    (lo == 0 ? (39ULL << 20) : 0));
	return ((uint64_t)(hi - lo) * (100ULL << 20) +
	    (lo == 0 ? (156ULL << 20) : 0));
}

static void
init_a(struct gen *g, struct rank *r)
{
	int	i;

	r->cpu = SESSION_START + 1200 * MS + r->proc * 7 * MS +
	    r->local * 40 * MS + rng_exp(&r->rng, 20 * MS);
	push(r, TH_MAIN, NV_INIT, -1);
	for (i = 0; i < 4; i++)
		copy(g, r, TH_MAIN, CK_HTOD, g->o.clean ? MK_PINNED :
		    MK_PAGEABLE, MK_DEVICE, 64ULL << 20, S_COMPUTE, -1);
	if (g->nranks > 1) {
		if (r->local == 0)
			domain_create(g, r);
		push(r, TH_MAIN, NV_COMM_INIT, -1);
		r->cpu += 80 * MS + rng_exp(&r->rng, 40 * MS);
		pop(g, r, TH_MAIN);
		coll_launch(g, r, TH_MAIN, K_BROADCAST, NV_BROADCAST);
	}
}

static void
init_b(struct gen *g, struct rank *r)
{
	device_sync(g, r, TH_MAIN);
	pop(g, r, TH_MAIN);
	gap(r);
}

static void
layer_fwd(struct gen *g, struct rank *r, int l)
{
	static const int	attn[] = { K_LN, K_QKV, K_FLASH_FWD, K_OUT,
	    K_ADD };
	static const int	mlp[] = { K_LN, K_FC1, K_GELU, K_FC2, K_ADD };
	size_t			i;

	push(r, TH_MAIN, NV_LAYER, l);
	push(r, TH_MAIN, NV_ATTN, -1);
	for (i = 0; i < sizeof attn / sizeof attn[0]; i++)
		launch(g, r, TH_MAIN, attn[i]);
	pop(g, r, TH_MAIN);
	push(r, TH_MAIN, NV_MLP, -1);
	for (i = 0; i < sizeof mlp / sizeof mlp[0]; i++)
		launch(g, r, TH_MAIN, mlp[i]);
	pop(g, r, TH_MAIN);
	pop(g, r, TH_MAIN);
}

static void
layer_bwd(struct gen *g, struct rank *r, int l)
{
	static const int	mlp[] = { K_DGRAD_A, K_WGRAD_A, K_GELU_BWD,
	    K_DGRAD_B, K_WGRAD_B, K_LN_BWD, K_LN_GB, K_ACC };
	static const int	attn[] = { K_DGRAD_B, K_WGRAD_B, K_FLASH_DOT,
	    K_FLASH_BWD, K_FLASH_CVT, K_DGRAD_A, K_WGRAD_A, K_LN_BWD, K_LN_GB,
	    K_ACC };
	size_t			i;

	push(r, TH_AUTOGRAD, NV_LAYER_BWD, l);
	push(r, TH_AUTOGRAD, NV_MLP, -1);
	for (i = 0; i < sizeof mlp / sizeof mlp[0]; i++)
		launch(g, r, TH_AUTOGRAD, mlp[i]);
	pop(g, r, TH_AUTOGRAD);
	push(r, TH_AUTOGRAD, NV_ATTN, -1);
	for (i = 0; i < sizeof attn / sizeof attn[0]; i++)
		launch(g, r, TH_AUTOGRAD, attn[i]);
	pop(g, r, TH_AUTOGRAD);
	pop(g, r, TH_AUTOGRAD);
}

/* Backward through DDP bucket b, then its all-reduce. */
static void
bucket(struct gen *g, struct rank *r, int b)
{
	int	lo, hi, u;

	bucket_range(g, b, &lo, &hi);
	for (u = hi - 1; u >= lo; u--) {
		if (u > 0)
			layer_bwd(g, r, u - 1);
		else
			launch(g, r, TH_AUTOGRAD, K_EMBED_BWD);
	}
	if (g->nranks > 1 && !(g->o.plant & GEN_PLANT_IMBALANCE))
		coll_launch(g, r, TH_AUTOGRAD, K_ALLREDUCE, NV_ALLREDUCE);
}

static int
planted(const struct gen *g, unsigned p)
{
	return ((g->o.plant & p) != 0);
}

/* Plant sync: the host reads a value back after a layer, then works. */
static void
sync_stall(struct gen *g, struct rank *r)
{
	stream_sync(g, r, TH_MAIN, S_COMPUTE);
	push(r, TH_MAIN, NV_STALL, -1);
	r->cpu += 600 * US;
	pop(g, r, TH_MAIN);
}

/* Plant launch: a Python loop of tiny kernels (per-tensor metrics). */
static void
tiny_loop(struct gen *g, struct rank *r)
{
	int	i, n = 30 * g->layers;

	push(r, TH_MAIN, NV_METRICS, -1);
	for (i = 0; i < n; i++) {
		launch(g, r, TH_MAIN, K_TINY);
		r->cpu += 8 * US;		/* the loop's Python */
	}
	pop(g, r, TH_MAIN);
}

/* A forward pass without backward (evaluation), then loss.item(). */
static void
forward_only(struct gen *g, struct rank *r)
{
	int	l;

	launch(g, r, TH_MAIN, K_EMBED);
	for (l = 0; l < g->layers; l++)
		layer_fwd(g, r, l);
	launch(g, r, TH_MAIN, K_LN);
	launch(g, r, TH_MAIN, K_LMHEAD);
	copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 4, S_COMPUTE, -1);
	stream_sync(g, r, TH_MAIN, S_COMPUTE);
}

/* Plant warmup: autotuning candidates, timed one group at a time. */
static void
warmup(struct gen *g, struct rank *r)
{
	int	i, n = 30 * g->layers;

	push(r, TH_MAIN, NV_AUTOTUNE, -1);
	for (i = 0; i < n; i++) {
		launch(g, r, TH_MAIN, K_TUNE0 + i % 3);
		if (i % 8 == 7)
			stream_sync(g, r, TH_MAIN, S_COMPUTE);
	}
	stream_sync(g, r, TH_MAIN, S_COMPUTE);
	pop(g, r, TH_MAIN);
	gap(r);
}

/* Forward-only passes in an NVTX range (plants teardown, imbalance). */
static void
evaluate(struct gen *g, struct rank *r, int name, int passes)
{
	int	i;

	push(r, TH_MAIN, name, -1);
	for (i = 0; i < passes; i++)
		forward_only(g, r);
	pop(g, r, TH_MAIN);
	gap(r);
}

/* From the start of iteration it to the first all-reduce. */
static void
head(struct gen *g, struct rank *r, int it)
{
	static const int	loss[] = { K_LN, K_LMHEAD, K_SOFTMAX, K_NLL,
	    K_MEAN };
	static const int	loss_bwd[] = { K_NLL_BWD, K_SOFTMAX_BWD,
	    K_DGRAD_A, K_WGRAD_B, K_LN_BWD, K_LN_GB };
	size_t			i;
	int			l;

	push(r, TH_MAIN, NV_STEP, it);
	push(r, TH_MAIN, NV_DATA, -1);
	if (g->o.clean)				/* the batch is prefetched */
		r->cpu += 40 * US + rng_exp(&r->rng, 20 * US);
	else {
		r->cpu += 1200 * US + rng_exp(&r->rng, 800 * US);
		if (rng_unit(&r->rng) < 0.03)	/* data loader stall */
			r->cpu += 15 * MS + rng_exp(&r->rng, 20 * MS);
	}
	copy(g, r, TH_MAIN, CK_HTOD, MK_PINNED, MK_DEVICE, 16ULL << 20,
	    S_COMPUTE, -1);
	memset_async(g, r, TH_MAIN, 4);
	if (g->nranks > 1)
		copy(g, r, TH_MAIN, CK_PTOP, MK_DEVICE, MK_DEVICE, 8ULL << 20,
		    S_COPY, (int)(RI(g, r) + 1) % g->nranks);
	if (planted(g, GEN_PLANT_PAGEABLE))
		copy(g, r, TH_MAIN, CK_HTOD, MK_PAGEABLE, MK_DEVICE,
		    (uint64_t)g->layers * (12ULL << 20), S_COMPUTE, -1);
	if (planted(g, GEN_PLANT_MEMCPY_SYNC))
		copy_as(g, r, TH_MAIN, A_MEMCPY_SYNC, CK_HTOD, MK_PINNED,
		    MK_DEVICE, (uint64_t)g->layers * (24ULL << 20), S_COMPUTE,
		    -1);
	if (planted(g, GEN_PLANT_MEMSET_SYNC))
		memset_as(g, r, TH_MAIN, (uint64_t)g->layers << 30, 1);
	pop(g, r, TH_MAIN);

	push(r, TH_MAIN, NV_FORWARD, -1);
	launch(g, r, TH_MAIN, K_EMBED);
	for (l = 0; l < g->layers; l++) {
		layer_fwd(g, r, l);
		if (planted(g, GEN_PLANT_SYNC))
			sync_stall(g, r);
		if (planted(g, GEN_PLANT_BUBBLE) && l == g->layers / 2) {
			push(r, TH_MAIN, NV_STALL, -1);
			r->cpu += (int64_t)g->layers * 2500 * US;
			pop(g, r, TH_MAIN);
		}
	}
	push(r, TH_MAIN, NV_LOSS, -1);
	for (i = 0; i < sizeof loss / sizeof loss[0]; i++)
		launch(g, r, TH_MAIN, loss[i]);
	pop(g, r, TH_MAIN);
	pop(g, r, TH_MAIN);

	push(r, TH_MAIN, NV_BACKWARD, -1);
	for (i = 0; i < sizeof loss_bwd / sizeof loss_bwd[0]; i++)
		launch(g, r, TH_AUTOGRAD, loss_bwd[i]);
	bucket(g, r, 0);
}

/* After the last all-reduce: optimizer, loss.item(), end of iteration. */
static void
tail(struct gen *g, struct rank *r, int it)
{
	int	i;

	/* The optimizer waits for the gradients; clean: it is overlapped
	 * with the last all-reduce (per-bucket optimizer hooks). */
	if (g->nranks > 1 && (!g->o.clean || planted(g, GEN_PLANT_COMM)))
		stream_wait(g, r, TH_AUTOGRAD, S_COMPUTE, S_NCCL);
	pop(g, r, TH_MAIN);			/* backward */

	push(r, TH_MAIN, NV_OPT, -1);
	launch(g, r, TH_MAIN, K_SCALE);
	for (i = 0; i < 1 + g->layers / 8; i++)
		launch(g, r, TH_MAIN, K_ADAM);
	if (it == g->niters - 1) {
		for (i = 0; i < r->extra; i++)
			launch(g, r, TH_MAIN, K_FILL);
		if (g->odd && RI(g, r) == 0) {
			api_quick(g, r, TH_MAIN, A_IS_CAPTURING);
			gap(r);
		}
	}
	pop(g, r, TH_MAIN);

	copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 4, S_COMPUTE, -1);
	stream_sync(g, r, TH_MAIN, S_COMPUTE);
	if (planted(g, GEN_PLANT_LAUNCH))
		tiny_loop(g, r);
	if (it % 10 == 9) {
		push(r, TH_MAIN, NV_LOG, -1);
		device_sync(g, r, TH_MAIN);
		pop(g, r, TH_MAIN);
	}
	pop(g, r, TH_MAIN);			/* ProfilerStep */
	gap(r);
}

static void
checkpoint(struct gen *g, struct rank *r)
{
	push(r, TH_MAIN, NV_CKPT, -1);
	device_sync(g, r, TH_MAIN);
	copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 32ULL << 20,
	    S_COMPUTE, -1);
	copy(g, r, TH_MAIN, CK_DTOH, MK_DEVICE, MK_PINNED, 32ULL << 20,
	    S_COMPUTE, -1);
	stream_sync(g, r, TH_MAIN, S_COMPUTE);
	pop(g, r, TH_MAIN);
}

/* Back to time zero, same seed: the same simulation again. */
static void
reset(struct gen *g)
{
	struct rank	*r;
	int		 i, th;

	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		rng_seed(&r->rng, g->o.seed, 1 + (uint64_t)i);
		r->speed = 1.0 + 0.015 * rng_gauss(&r->rng);
		if (g->o.clean)		/* equal GPUs */
			r->speed = 1.0;
		r->cpu = 0;
		memset(r->gpu, 0, sizeof r->gpu);
		for (th = 0; th < TH_COUNT; th++)
			r->depth[th] = 0;
		r->coll_k = -1;
		r->grid_id = r->event_id = r->sync_id = 0;
	}
	for (i = 0; i < g->nprocs; i++)
		g->procs[i].corr = 0;
	rng_seed(&g->rng, g->o.seed, 0);
	g->count = g->seq = 0;
	memset(g->rows, 0, sizeof g->rows);
	g->first = INT64_MAX;
	g->last = INT64_MIN;
	g->train0 = INT64_MAX;
	g->train1 = INT64_MIN;
}

static void
prologue(struct gen *g)
{
	int	i;

	for (i = 0; i < g->nranks; i++)
		init_a(g, &g->ranks[i]);
	resolve(g, 256ULL << 20);
	flush_point(g);
	for (i = 0; i < g->nranks; i++)
		init_b(g, &g->ranks[i]);
	flush_point(g);
	if (planted(g, GEN_PLANT_WARMUP)) {
		for (i = 0; i < g->nranks; i++)
			warmup(g, &g->ranks[i]);
		flush_point(g);
	}
}

static void
iteration(struct gen *g, int it)
{
	int	i, b;

	/* Plant gap: the host stalls once, halfway (a blocking save). */
	if (planted(g, GEN_PLANT_GAP) && it == g->niters / 2)
		for (i = 0; i < g->nranks; i++)
			g->ranks[i].cpu += 600 * MS;
	for (i = 0; i < g->nranks; i++)
		head(g, &g->ranks[i], it);
	resolve(g, bucket_bytes(g, 0));
	flush_point(g);
	for (b = 1; b < g->nbuckets; b++) {
		for (i = 0; i < g->nranks; i++)
			bucket(g, &g->ranks[i], b);
		resolve(g, bucket_bytes(g, b));
		flush_point(g);
	}
	/* Plant comm: one more all-reduce, alone on the GPUs. */
	if (planted(g, GEN_PLANT_COMM) && g->nranks > 1) {
		for (i = 0; i < g->nranks; i++)
			coll_launch(g, &g->ranks[i], TH_AUTOGRAD, K_ALLREDUCE,
			    NV_ALLREDUCE);
		resolve(g, (uint64_t)g->layers * (100ULL << 20));
		flush_point(g);
	}
	for (i = 0; i < g->nranks; i++)
		tail(g, &g->ranks[i], it);
	flush_point(g);
}

static void
epilogue(struct gen *g)
{
	int	i;

	for (i = 0; i < g->nranks; i++) {
		if (planted(g, GEN_PLANT_TEARDOWN))
			evaluate(g, &g->ranks[i], NV_EVAL, 8);
		checkpoint(g, &g->ranks[i]);
	}
	flush_point(g);
}

/*
 * Counting pass: how many iterations fit in the event budget, and how many
 * filler launches make up the rest.
 */
static void
plan(struct gen *g)
{
	uint64_t	want = g->o.events, pro, epi, done = 0, rem, per;
	int		n, i;

	g->count_only = 1;
	g->odd = 0;
	for (i = 0; i < g->nranks; i++)
		g->ranks[i].extra = 0;
	g->niters = -1;				/* no iteration is the last */

	reset(g);
	prologue(g);
	pro = g->count;
	epilogue(g);
	epi = g->count - pro;

	reset(g);
	prologue(g);
	n = 0;
	for (;;) {
		iteration(g, n);
		if (n > 0 && g->count + epi > want)
			break;
		n++;
		done = g->count;
		if (done + epi >= want)
			break;
	}
	g->niters = n;

	rem = (want > done + epi) ? want - done - epi : 0;
	per = rem / (2 * (uint64_t)g->nranks);
	for (i = 0; i < g->nranks; i++) {
		g->ranks[i].extra = (int)per +
		    ((uint64_t)i < (rem % (2 * (uint64_t)g->nranks)) / 2);
	}
	g->odd = (int)(rem & 1);
	g->count_only = 0;
}

static void
run(struct gen *g)
{
	int	it;

	progress_phase(g->o.progress, "generate", g->o.events);
	reset(g);
	prologue(g);
	for (it = 0; it < g->niters && !g->failed; it++)
		iteration(g, it);
	epilogue(g);
	flush(g, INT64_MAX, INT64_MAX);
}

/* Static tables: prepared once per table, rows bound from a format string
 * ('d' int, 'l' int64_t, 's' string or NULL). */
static sqlite3_stmt *
prep(struct gen *g, const char *sql)
{
	sqlite3_stmt	*st;

	if (g->failed)
		return (NULL);
	if (sqlite3_prepare_v2(g->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sql_fail(g, "prepare");
		return (NULL);
	}
	return (st);
}

static void
put(struct gen *g, sqlite3_stmt *st, const char *fmt, ...)
{
	va_list		 ap;
	const char	*s;
	int		 i;

	if (st == NULL || g->failed)
		return;
	va_start(ap, fmt);
	for (i = 0; fmt[i] != '\0'; i++) {
		switch (fmt[i]) {
		case 'd':
			BIND(st, i + 1, va_arg(ap, int));
			break;
		case 'l':
			BIND(st, i + 1, va_arg(ap, int64_t));
			break;
		case 's':
			if ((s = va_arg(ap, const char *)) == NULL)
				BINDN(st, i + 1);
			else
				sqlite3_bind_text(st, i + 1, s, -1,
				    SQLITE_TRANSIENT);
			break;
		}
	}
	va_end(ap);
	step(g, st);
}

static void
finish(sqlite3_stmt *st)
{
	sqlite3_finalize(st);
}

static void
write_enums(struct gen *g)
{
	const struct enum_table	*e;
	sqlite3_stmt		*st;
	char			*sql, *name;
	size_t			 i, j;

	sql_exec(g, "CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT NULL "
	    "PRIMARY KEY, name TEXT, label TEXT);");
	st = prep(g, "INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (?, ?, ?)");
	for (i = 0; i < sizeof event_types / sizeof event_types[0]; i++)
		put(g, st, "dss", (int)i, event_types[i], event_types[i]);
	finish(st);
	for (i = 0; i < sizeof enum_tables / sizeof enum_tables[0]; i++) {
		e = &enum_tables[i];
		sql = xasprintf("CREATE TABLE %s (id INTEGER NOT NULL PRIMARY "
		    "KEY, name TEXT, label TEXT);", e->table);
		sql_exec(g, sql);
		free(sql);
		sql = xasprintf("INSERT INTO %s VALUES (?, ?, ?)", e->table);
		st = prep(g, sql);
		free(sql);
		for (j = 0; j < e->n; j++) {
			name = xasprintf("%s%s", e->prefix, e->rows[j].name);
			put(g, st, "dss", e->rows[j].id, name,
			    e->rows[j].label);
			free(name);
		}
		finish(st);
	}
}

/* A stable, made-up UUID for GPU i. */
static void
gpu_uuid(int i, char *buf, size_t len)
{
	uint64_t	x = 0x67706c656e73ULL + (uint64_t)i, a, b;

	a = splitmix64(&x);
	b = splitmix64(&x);
	snprintf(buf, len, "%08x-%04x-%04x-%04x-%012llx",
	    (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
	    (unsigned)a & 0xffff, (unsigned)(b >> 48),
	    (unsigned long long)(b & 0xffffffffffffULL));
}

static void
write_targets(struct gen *g)
{
	static const int	 bus[] = { 0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab,
	    0xba, 0xdb };
	const struct rank	*r;
	const struct proc	*p;
	sqlite3_stmt		*st;
	char			 uuid[64], busloc[32];
	int			 i;

	st = prep(g, "INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,"
	    "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		gpu_uuid(i, uuid, sizeof uuid);
		snprintf(busloc, sizeof busloc, "0000:%02x:00.0",
		    i < 8 ? bus[i] : (0x0f + 9 * i) & 0xff);
		put(g, st, "ldssdlllldd" "sdsdss" "dddddddddddddddddddddddd",
		    (int64_t)VM_BITS, i, "NVIDIA H100 80GB HBM3", busloc, 1,
		    (int64_t)52428800, (int64_t)85520809984LL,
		    (int64_t)3352320000000LL, (int64_t)1980000000, 132, 0,
		    uuid, 0, "GH100", i, "", "", 161,
		    0, 65536, 4, 65536, 49152, 232448, 233472, 65536, 32, 3, 64,
		    32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 9, 0, 9,
		    0);
	}
	finish(st);

	st = prep(g, "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		gpu_uuid(i, uuid, sizeof uuid);
		put(g, st, "dddsd", i, i, (int)g->procs[g->ranks[i].proc].pid,
		    uuid, 132);
	}
	finish(st);

	st = prep(g, "INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES "
	    "(?,?,?,?,?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		put(g, st, "ddddddddd", (int)r->stream[S_COMPUTE], 0, 1,
		    (int)g->procs[r->proc].pid, i, (int)r->ctx, 0, 0, 0);
	}
	finish(st);

	st = prep(g, "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES "
	    "(?,?,?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		p = &g->procs[r->proc];
		put(g, st, "ddddddd", (int)r->stream[S_COMPUTE], 0, 1,
		    (int)p->pid, (int)r->ctx, 0, 3);	/* the null stream */
		put(g, st, "ddddddd", (int)r->stream[S_NCCL], 0, 1,
		    (int)p->pid, (int)r->ctx, 0, 2);	/* non-blocking */
		put(g, st, "ddddddd", (int)r->stream[S_COPY], 0, 1,
		    (int)p->pid, (int)r->ctx, 0, 2);
	}
	finish(st);

	st = prep(g, "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES "
	    "(?,?,?,?)");
	put(g, st, "lssl", (int64_t)UTC_EPOCH, "2026-01-01T00:00:00",
	    "2026-01-01T00:00:00", (int64_t)SESSION_START);
	finish(st);

	st = prep(g, "INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (?,?,?,?,?)");
	put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)", "CpuCores", 1,
	    "64");
	put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)",
	    "NvDriverVersion", 205, "580.95.05");
	put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)",
	    "OsDescription", 605, "synthetic trace (gpulens demo)");
	put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)",
	    "CudaDriverVersion", 611, "13000");
	put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)", "Hostname", 619,
	    "gpulens-demo");
	finish(st);
}

static void
write_processes(struct gen *g)
{
	sqlite3_stmt		*st, *tn;
	const struct rank	*r;
	const struct proc	*p;
	uint64_t		 launcher = VM_BITS | (3100ULL << 24);
	char			*s;
	int			 i;

	st = prep(g, "INSERT INTO PROCESSES VALUES (?, ?, ?)");
	tn = prep(g, "INSERT INTO ThreadNames VALUES (?, ?, ?)");
	put(g, st, "lds", (int64_t)launcher, 3100, "torchrun");
	put(g, tn, "ddl", (int)intern(g, "torchrun"), 20,
	    (int64_t)(launcher | 3100));
	put(g, tn, "ddl", (int)intern(g, "pt_elastic"), 20,
	    (int64_t)(launcher | 3105));
	for (i = 0; i < g->nprocs; i++) {
		p = &g->procs[i];
		put(g, st, "lds", (int64_t)p->gpid, (int)p->pid, "python3");
		put(g, tn, "ddl", (int)intern(g, "[NSys]"), 10,
		    (int64_t)(p->gpid | (p->pid + 2)));
		put(g, tn, "ddl", (int)intern(g, "CUPTI worker thread"), 10,
		    (int64_t)(p->gpid | (p->pid + 5)));
		put(g, tn, "ddl", (int)intern(g, "cuda-EvtHandlr"), 20,
		    (int64_t)(p->gpid | (p->pid + 7)));
	}
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		p = &g->procs[r->proc];
		put(g, tn, "ddl", (int)intern(g, "python3"), 20,
		    (int64_t)r->gtid[TH_MAIN]);
		s = xasprintf("pt_autograd_%d", r->local);
		put(g, tn, "ddl", (int)intern(g, s), 20,
		    (int64_t)r->gtid[TH_AUTOGRAD]);
		free(s);
		if (g->nranks > 1) {
			put(g, tn, "ddl", (int)intern(g, "pt_nccl_watchdg"), 20,
			    (int64_t)(p->gpid | (p->pid + TID_WATCHDOG +
			    (uint32_t)r->local)));
		}
	}
	finish(st);
	finish(tn);
}

static void
write_strings(struct gen *g)
{
	sqlite3_stmt	*st;
	size_t		 i;

	st = prep(g, "INSERT INTO StringIds VALUES (?, ?)");
	for (i = 0; i < g->nstrs; i++)
		put(g, st, "ds", (int)i, g->strs[i]);
	finish(st);
}

static void
write_meta(struct gen *g)
{
	sqlite3_stmt	*st;
	char		*s;

	st = prep(g, "INSERT INTO META_DATA_EXPORT VALUES (?, ?)");
	put(g, st, "ss", "EXPORT_PRODUCT_NAME", "gpulens demo generator");
	put(g, st, "ss", "EXPORT_PRODUCT_VERSION", GEN_PRODUCT_VERSION);
	put(g, st, "ss", "EXPORT_SCHEMA_VERSION", "3.25.0");
	put(g, st, "ss", "EXPORT_SCHEMA_VERSION_MAJOR", "3");
	put(g, st, "ss", "EXPORT_SCHEMA_VERSION_MINOR", "25");
	put(g, st, "ss", "EXPORT_SCHEMA_VERSION_MICRO", "0");
	put(g, st, "ss", "EXPORT_PARAM_EXPORT_TYPE", "SQLite");
	s = xasprintf("%llu", (unsigned long long)g->o.seed);
	put(g, st, "ss", "GPULENS_DEMO_SEED", s);
	free(s);
	s = xasprintf("%llu", (unsigned long long)g->o.events);
	put(g, st, "ss", "GPULENS_DEMO_EVENTS", s);
	free(s);
	s = xasprintf("%d", g->nranks);
	put(g, st, "ss", "GPULENS_DEMO_GPUS", s);
	free(s);
	s = xasprintf("%d", g->nprocs);
	put(g, st, "ss", "GPULENS_DEMO_PROCESSES", s);
	free(s);
	s = xasprintf("%d", g->layers);
	put(g, st, "ss", "GPULENS_DEMO_LAYERS", s);
	free(s);
	s = xasprintf("%d", g->niters);
	put(g, st, "ss", "GPULENS_DEMO_ITERATIONS", s);
	free(s);
	s = xasprintf("%d", g->straggler);
	put(g, st, "ss", "GPULENS_DEMO_STRAGGLER", s);
	free(s);
	if (g->o.clean)
		put(g, st, "ss", "GPULENS_DEMO_CLEAN", "1");
	if (g->o.shape == GEN_SHAPE_THREAD_NAME)
		put(g, st, "ss", "GPULENS_DEMO_SHAPE", "thread-name");
	if (g->o.quirks != 0) {
		s = xasprintf("0x%x", g->o.quirks);
		put(g, st, "ss", "GPULENS_DEMO_QUIRKS", s);
		free(s);
	}
	s = xasprintf("%.3f", g->o.slowdown);
	put(g, st, "ss", "GPULENS_DEMO_SLOWDOWN", s);
	free(s);
	if (g->o.plant != 0) {
		char	buf[256];
		size_t	o = 0;
		int	b;

		buf[0] = '\0';
		for (b = 0; b < GEN_PLANT_COUNT; b++)
			if (g->o.plant & (1u << b))
				o += (size_t)snprintf(buf + o, sizeof buf - o,
				    "%s%s", o > 0 ? "," : "",
				    gen_plant_name(b));
		put(g, st, "ss", "GPULENS_DEMO_PLANT", buf);
	}
	finish(st);
}

static void
write_analysis(struct gen *g)
{
	sqlite3_stmt	*st;
	int64_t		 stop;

	stop = max64(g->last, SESSION_START) + 50 * MS;
	st = prep(g, "INSERT INTO ANALYSIS_DETAILS VALUES (?, ?, ?, ?)");
	put(g, st, "llll", (int64_t)VM_BITS, stop - (int64_t)SESSION_START,
	    (int64_t)SESSION_START, stop);
	finish(st);
}

/*
 * GEN_SHAPE_THREAD_NAME: metadata, the enumerations, and one NVTX_EVENTS
 * row naming a thread no other row mentions; no CUDA tables.
 */
static const char thread_name_schema[] =
"CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY,"
" value TEXT NOT NULL);"
"CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
"CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER,"
" utcTime TEXT, localTime TEXT, systemClockNs INTEGER);"
GEN_NVTX_DDL;

static void
write_thread_name(struct gen *g)
{
	sqlite3_stmt	*st;
	uint64_t	 gtid = g->procs[0].gpid | (g->procs[0].pid + 7);

	sql_exec(g, "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF;"
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;");
	sql_exec(g, "BEGIN;");
	sql_exec(g, thread_name_schema);
	write_enums(g);
	write_meta(g);
	st = prep(g, "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES "
	    "(?, ?, ?, ?)");
	put(g, st, "lssl", (int64_t)UTC_EPOCH,
	    "2026-01-01T00:00:00", "2026-01-01T00:00:00",
	    (int64_t)SESSION_START);
	finish(st);
	st = prep(g, "INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
	    "globalTid, domainId) VALUES (?, NULL, 39, ?, ?, 0)");
	put(g, st, "lsl", (int64_t)SESSION_START + 1000 * US, "worker",
	    (int64_t)gtid);
	finish(st);
	g->first = g->last = SESSION_START + 1000 * US;
}

/* Pragmas, schema, the static tables, the insert statements; leaves a
 * transaction open. */
static int
db_setup(struct gen *g)
{
	int	t;

	sql_exec(g, "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF;"
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
	    "PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY;");
	sql_exec(g, "BEGIN;");
	sql_exec(g, schema);
	write_enums(g);
	write_meta(g);
	write_targets(g);
	write_processes(g);
	write_strings(g);		/* last: write_processes interns */
	for (t = 0; t < T_COUNT && !g->failed; t++)
		g->ins[t] = prepare(g, tables[t].table, tables[t].ncols);
	if (!g->failed)
		bind_constants(g);
	return (g->failed ? -1 : 0);
}

/* Ranks, processes, ids; resolves automatic options. */
static void
setup(struct gen *g)
{
	struct rank	*r;
	struct proc	*p;
	int		 i, per;

	g->nranks = g->o.gpus;
	g->nprocs = g->o.processes > 0 ? g->o.processes : g->nranks;
	g->ranks = xcalloc((size_t)g->nranks, sizeof *g->ranks);
	g->procs = xcalloc((size_t)g->nprocs, sizeof *g->procs);
	for (i = 0; i < g->nprocs; i++) {
		p = &g->procs[i];
		p->pid = 3140 + 1000 * (uint32_t)i;
		p->gpid = VM_BITS | ((uint64_t)p->pid << 24);
	}
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		r->proc = (int)((int64_t)i * g->nprocs / g->nranks);
		r->local = i - (int)(((int64_t)r->proc * g->nranks +
		    g->nprocs - 1) / g->nprocs);
		p = &g->procs[r->proc];
		r->tid[TH_MAIN] = r->local == 0 ? p->pid :
		    p->pid + TID_MAIN + (uint32_t)r->local;
		r->tid[TH_AUTOGRAD] = p->pid + TID_AUTOGRAD +
		    (uint32_t)r->local;
		r->gtid[TH_MAIN] = p->gpid | r->tid[TH_MAIN];
		r->gtid[TH_AUTOGRAD] = p->gpid | r->tid[TH_AUTOGRAD];
		r->ctx = (uint32_t)i + 1;
		r->stream[S_COMPUTE] = 7 + 8 * (uint32_t)i;
		r->stream[S_NCCL] = 20 + 8 * (uint32_t)i;
		r->stream[S_COPY] = 21 + 8 * (uint32_t)i;
	}

	if (g->o.layers > 0)
		g->layers = g->o.layers;
	else {
		per = (int)(g->o.events / ((uint64_t)g->nranks * 62 * 25));
		g->layers = per < 1 ? 1 : per > 32 ? 32 : per;
	}
	g->nbuckets = (g->layers + 4) / 4;	/* layers + embedding */
	if (g->nbuckets < 2)
		g->nbuckets = 2;
	if (g->nbuckets > 8)
		g->nbuckets = 8;
	if (g->o.straggler == GEN_STRAGGLER_AUTO)
		g->straggler = g->nranks > 1 && !g->o.clean ?
		    g->nranks - 1 : -1;
	else
		g->straggler = g->o.straggler;
	intern_all(g);
}

static void
cleanup(struct gen *g)
{
	size_t	i;
	int	t;

	for (t = 0; t < T_COUNT; t++) {
		sqlite3_finalize(g->ins[t]);
		free(g->heap[t].v);
	}
	if (g->db != NULL)
		sqlite3_close(g->db);
	for (i = 0; i < g->nstrs; i++)
		free(g->strs[i]);
	free(g->strs);
	free(g->ranks);
	free(g->procs);
	free(g->cause);
}

static int
check_opts(const struct gen_opts *o, char **cause)
{
	if (o->events < 1 || o->events > GEN_MAX_EVENTS) {
		*cause = xasprintf("events must be 1 to %llu",
		    (unsigned long long)GEN_MAX_EVENTS);
		return (-1);
	}
	if (o->gpus < 1 || o->gpus > GEN_MAX_GPUS) {
		*cause = xasprintf("gpus must be 1 to %d", GEN_MAX_GPUS);
		return (-1);
	}
	if (o->processes < 0 || o->processes > o->gpus) {
		*cause = xasprintf("processes must be 0 to %d (the GPUs)",
		    o->gpus);
		return (-1);
	}
	if (o->straggler < GEN_STRAGGLER_AUTO || o->straggler >= o->gpus) {
		*cause = xasprintf("straggler must be a rank below %d",
		    o->gpus);
		return (-1);
	}
	if (!(o->slowdown >= 1.0 && o->slowdown <= 10.0)) {
		*cause = xasprintf("slowdown must be 1 to 10");
		return (-1);
	}
	if ((o->plant & ~(unsigned)GEN_PLANT_ALL) != 0) {
		*cause = xasprintf("unknown plant bits 0x%x",
		    o->plant & ~(unsigned)GEN_PLANT_ALL);
		return (-1);
	}
	if (o->shape != GEN_SHAPE_TRAINING && o->shape != GEN_SHAPE_THREAD_NAME) {
		*cause = xasprintf("unknown shape %d", o->shape);
		return (-1);
	}
	if ((o->quirks & ~(unsigned)GEN_QUIRK_ALL) != 0) {
		*cause = xasprintf("unknown quirk bits 0x%x",
		    o->quirks & ~(unsigned)GEN_QUIRK_ALL);
		return (-1);
	}
	if (o->layers < 0 || o->layers > GEN_MAX_LAYERS) {
		*cause = xasprintf("layers must be 0 to %d", GEN_MAX_LAYERS);
		return (-1);
	}
	return (0);
}

/* Whether path holds a trace this generator wrote. */
static int
is_demo(const char *path)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	const char	*v;
	int		 yes = 0;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(db, "SELECT value FROM "
	    "META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'", -1, &st,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    (v = (const char *)sqlite3_column_text(st, 0)) != NULL)
			yes = strcmp(v, GEN_PRODUCT_VERSION) == 0;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return (yes);
}

static int
check_target(const char *path, int force, char **cause)
{
	struct stat	sb;

	if (stat(path, &sb) == -1) {
		if (errno == ENOENT)
			return (0);
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		return (-1);
	}
	if (force || sb.st_size == 0 || is_demo(path))
		return (0);
	*cause = xasprintf("%s: exists and is not a gpulens demo trace; "
	    "refusing to overwrite it", path);
	return (-1);
}

static const char *const gen_plant_names[GEN_PLANT_COUNT] = {
#define X(e, n, h) n,
	GEN_PLANT_LIST(X)
#undef X
};
static const char *const gen_plant_helps[GEN_PLANT_COUNT] = {
#define X(e, n, h) h,
	GEN_PLANT_LIST(X)
#undef X
};

const char *
gen_plant_name(int b)
{
	if (b < 0 || b >= GEN_PLANT_COUNT)
		return (NULL);
	return (gen_plant_names[b]);
}

const char *
gen_plant_help(int b)
{
	if (b < 0 || b >= GEN_PLANT_COUNT)
		return (NULL);
	return (gen_plant_helps[b]);
}

int
gen_plant_parse(const char *list, unsigned *out, char **cause)
{
	char	*copy, *w, *save = NULL;
	int	 b;

	*out = 0;
	copy = xstrdup(list);
	for (w = strtok_r(copy, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save)) {
		if (strcmp(w, "all") == 0) {
			*out |= (unsigned)GEN_PLANT_ALL;
			continue;
		}
		if (strcmp(w, "none") == 0)
			continue;
		for (b = 0; b < GEN_PLANT_COUNT; b++)
			if (strcmp(w, gen_plant_names[b]) == 0)
				break;
		if (b == GEN_PLANT_COUNT) {
			*cause = xasprintf("unknown plant '%s'", w);
			free(copy);
			return (-1);
		}
		*out |= 1u << b;
	}
	free(copy);
	return (0);
}

void
gen_opts_default(struct gen_opts *o)
{
	memset(o, 0, sizeof *o);
	o->events = 200000;
	o->gpus = 4;
	o->processes = 0;
	o->seed = 1;
	o->straggler = GEN_STRAGGLER_AUTO;
	o->slowdown = 1.3;
	o->layers = 0;
	o->force = 0;
	o->progress = NULL;
}

int
gen_write_nsys(const char *path, const struct gen_opts *o,
    struct gen_stats *stats, char **cause)
{
	struct gen	 g;
	char		*tmp = NULL;
	mode_t		 mask;
	int		 fd, rv = -1, t;

	if (check_opts(o, cause) == -1 ||
	    check_target(path, o->force, cause) == -1)
		return (-1);
	memset(&g, 0, sizeof g);
	g.o = *o;
	setup(&g);
	if (o->shape == GEN_SHAPE_TRAINING)
		plan(&g);

	tmp = xasprintf("%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		g.cause = xasprintf("%s: cannot create a file next to it: %s",
		    path, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	close(fd);
	if (sqlite3_open_v2(tmp, &g.db,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		sql_fail(&g, tmp);
		goto out;
	}
	if (o->shape == GEN_SHAPE_THREAD_NAME)
		write_thread_name(&g);
	else {
		if (db_setup(&g) == -1)
			goto out;
		run(&g);
		write_analysis(&g);
	}
	sql_exec(&g, "COMMIT;");
	if (g.failed)
		goto out;
	for (t = 0; t < T_COUNT; t++) {
		sqlite3_finalize(g.ins[t]);
		g.ins[t] = NULL;
	}
	if (sqlite3_close(g.db) != SQLITE_OK) {
		sql_fail(&g, "close");
		goto out;
	}
	g.db = NULL;
	if (rename(tmp, path) == -1) {
		g.cause = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	if (stats != NULL) {
		memset(stats, 0, sizeof *stats);
		stats->events = g.count;
		stats->kernels = g.rows[T_KERNEL];
		stats->memcpys = g.rows[T_MEMCPY];
		stats->memsets = g.rows[T_MEMSET];
		stats->runtime = g.rows[T_RUNTIME];
		stats->syncs = g.rows[T_SYNC];
		stats->nvtx = g.rows[T_NVTX];
		stats->iterations = g.niters;
		stats->layers = g.layers;
		stats->span_ns = g.last - g.first;
		stats->first_ns = g.first;
		stats->train_start = g.train0;
		stats->train_end = g.train1;
	}
	rv = 0;
out:
	if (rv == -1) {
		if (tmp != NULL)
			unlink(tmp);
		*cause = g.cause != NULL ? g.cause :
		    xstrdup("generation failed");
		g.cause = NULL;
	}
	free(tmp);
	cleanup(&g);
	return (rv);
}
