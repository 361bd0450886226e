/*
 * gen-schema: the CREATE TABLE statements of the files the generator writes:
 * the training trace's tables and the thread-name shape's few.
 */

#include "config.h"

#include "sources/synth/gen-int.h"

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

const char gen_schema_training[] =
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

/*
 * GEN_SHAPE_THREAD_NAME: metadata, the enumerations, and one NVTX_EVENTS
 * row naming a thread no other row mentions; no CUDA tables.
 */
const char gen_schema_thread_name[] =
"CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY,"
" value TEXT NOT NULL);"
"CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
"CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER,"
" utcTime TEXT, localTime TEXT, systemClockNs INTEGER);"
GEN_NVTX_DDL;

/* Plant graph-whole: the whole-graph launches (--cuda-graph-trace=graph). */
const char gen_schema_graph[] =
"CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL,"
" end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
" contextId INTEGER NOT NULL, greenContextId INTEGER,"
" streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
" graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL);";
