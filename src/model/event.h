/*
 * event: look-ups on one event of the model by its global id (model.h),
 * shared by the analyses and the event-level verbs: the thread and process
 * an event belongs to, the NVTX range and iteration around it, its kernel
 * or copy record, API names without their version suffix.
 *
 * A global event id is stable for a given file: the model orders its
 * tracks deterministically.
 */
#ifndef GPULENS_EVENT_H
#define GPULENS_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* A time as verbs print it: relative to the origin unless absolute. */
int64_t		 event_time(const struct model *, int64_t t, int absolute);
/* The track an event lies on. */
const struct track *event_track(const struct model *, uint32_t gid);
/*
 * The thread of an event: its CPU track's thread or, for GPU work, the
 * thread of the launching API call. NONE32 if unknown.
 */
uint32_t	 event_thread(const struct model *, uint32_t gid);
/* Whether a track belongs to a GPU stream (its work, or its sync waits):
 * device and stream are set. */
int		 event_gpu_side(const struct track *);
/* The process of an event (its track's, else its thread's), or NONE32. */
uint32_t	 event_process(const struct model *, uint32_t gid);
/* Length of an API name without a trailing "_vNNNN" (as nsys reports). */
size_t		 event_api_len(const char *name);
/*
 * The innermost NVTX push/pop range around an event: for GPU work, around
 * its launching API call; for an NVTX range or mark, its parent; for other
 * CPU events, on its thread at its start. NONE32 if none.
 */
uint32_t	 event_range(const struct model *, uint32_t gid);
/* event_range() with the innermost range taken from domain (NULL: all). */
uint32_t	 event_range_in(const struct model *, uint32_t gid,
		    const char *domain);
/* The iteration index of the outermost range enclosing range (itself
 * included), NONE32 if none: what `stats --group-by iter` calls iter. */
uint32_t	 event_iter(const struct model *, uint32_t range);
/* The kernel_info / copy_info of an event, or NULL. */
const struct kernel_info *event_kernel(const struct model *, uint32_t gid);
const struct copy_info	 *event_copy(const struct model *, uint32_t gid);

#endif
