/*
 * queue: the launch queue of each GPU stream and where its idle time comes
 * from, as HolisticTraceAnalysis (HTA) defines them.
 *
 * Queue length (HTA's queue_length_analysis): a step function per stream.
 * It goes up by one at the start of each launch call (queue_launch_name():
 * cudaLaunchKernel, cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx,
 * cudaMemcpyAsync, cudaMemsetAsync, their HIP counterparts and MTIA's
 * submit; an nsys "_vNNNN" suffix is ignored) that launched a kernel, copy
 * or memset of the stream, and down by one at the start of that GPU event:
 * a launch is outstanding from its call's start until its work starts on
 * the GPU. At equal times the rises come before the falls (then GPU event
 * order). Per stream: the number of launches, the largest and smallest
 * value, the mean over the change points (HTA's describe() mean, one
 * sample per rise or fall), the time-weighted mean over the first to the
 * last change, and the time at or above max_queue (HTA's "time blocked on
 * a full queue", default 1024, CUDA's launch queue depth): the sum of the
 * steps whose value is >= max_queue, each lasting to the next change.
 *
 * Idle breakdown (HTA's get_idle_time_breakdown): the kernels, copies and
 * memsets of the stream in start order; each after the first has an idle
 * interval, its start minus the end of the one before it (signed: overlap
 * on a stream gives a negative interval, which HTA adds in too). It is
 *   host wait    when its launch call started after that end (the host
 *                had not yet asked for it),
 *   kernel wait  else when the interval is below kernel_delay (HTA's
 *                consecutive_kernel_delay, default 30 ns),
 *   other        else.
 *
 * Streams are the model's (device, process, stream id); HTA keys them by
 * stream id within a rank. Cost: O(n log n) per stream.
 *
 * Ownership: struct queue_result owns its rows (queue_free).
 */
#ifndef GPULENS_QUEUE_H
#define GPULENS_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define QUEUE_MAX_DEFAULT	1024	/* HTA's max_queue_length */
#define QUEUE_DELAY_DEFAULT	30	/* ns, consecutive_kernel_delay */

enum queue_idle { QIDLE_HOST, QIDLE_KERNEL, QIDLE_OTHER, QIDLE_N };

struct queue_stream {
	uint32_t	 track;		/* the stream's GPU track */
	uint64_t	 launches;	/* launch calls counted (rises) */
	int64_t		 max, min;	/* queue length extremes (0 if none) */
	double		 mean_samples;	/* mean over the change points */
	double		 mean_time;	/* time-weighted mean */
	int64_t		 first, last;	/* first and last change */
	int64_t		 at_max_ns;	/* time with length >= max_queue */
	uint64_t	 events;	/* kernels, copies, memsets */
	int64_t		 idle[QIDLE_N];	/* signed interval sums, ns */
	uint64_t	 nidle[QIDLE_N];/* intervals per category */
};

struct queue_result {
	struct queue_stream	*v;	/* one per GPU track with work */
	size_t			 n;
	int64_t			 max_queue, kernel_delay;
};

/* Whether sid names a launch call the queue counts. */
int	 queue_launch_name(const char *);
/* Computes the queue and idle breakdown of every GPU stream. */
void	 queue_compute(const struct model *, int64_t max_queue,
	    int64_t kernel_delay, struct queue_result *);
void	 queue_free(struct queue_result *);

#endif
