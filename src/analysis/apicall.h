/*
 * apicall: what a CUDA/HIP API call does to its host thread, by its name;
 * the one classifier of the findings' rules (finding.h) and of the time
 * blocked on the GPU (syncwait.h).
 *
 *   APICALL_SYNC          a synchronisation: the name holds "Synchronize"
 *                         (cudaDeviceSynchronize, cudaStreamSynchronize,
 *                         cudaEventSynchronize, cuCtxSynchronize,
 *                         cuStreamSynchronize, cuEventSynchronize,
 *                         hipDeviceSynchronize, ...); cudaStreamWaitEvent
 *                         makes a stream wait, not the host, and is not one
 *   APICALL_MEMCPY_SYNC   a copy call without "Async" (cudaMemcpy,
 *                         cudaMemcpy2D, cuMemcpyHtoD, hipMemcpy, ...):
 *                         it returns when the copy is done
 *   APICALL_MEMCPY_ASYNC  cudaMemcpy*Async, cuMemcpy*Async, hipMemcpy*Async
 *   APICALL_MEMSET_SYNC, APICALL_MEMSET_ASYNC   the same for memsets
 *   APICALL_OTHER         anything else
 * Names may carry nsys's "_vNNNN" suffix.
 */
#ifndef GPULENS_APICALL_H
#define GPULENS_APICALL_H

enum apicall {
	APICALL_OTHER = 0,
	APICALL_SYNC,
	APICALL_MEMCPY_ASYNC,
	APICALL_MEMCPY_SYNC,
	APICALL_MEMSET_ASYNC,
	APICALL_MEMSET_SYNC,
};

int	apicall_class(const char *name);
/* Whether calls of class k block the host until the GPU is done: the
 * synchronisations and the synchronous copies. */
int	apicall_blocks(int k);

#endif
