/*
 * correlate: links CPU API calls to the GPU work they launched.
 *
 * Correlation ids are unique only within a process, so the key is
 * (process, correlation id): an API call on a thread of process P matches
 * GPU events (kernel, memcpy, memset, sync, graph) whose stream belongs to
 * P (nsys: kernel.globalPid == runtime.globalTid & ~0xFFFFFF). When a GPU
 * track's process is unknown, the match falls back to the correlation id
 * alone if it is unique.
 *
 * correlate_build() runs at finalize and fills m->launch (GPU gid -> API gid)
 * and the reverse CSR (API gid -> GPU gids).
 */
#ifndef GPULENS_CORRELATE_H
#define GPULENS_CORRELATE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

void	 correlate_build(struct model *);
/* The API call that launched GPU event gid, or NONE32 (inline: walks
 * ask it once per kernel). */
static inline uint32_t
correlate_launch(const struct model *m, uint32_t gid)
{
	if (m->launch == NULL || gid >= m->nlaunch)
		return NONE32;
	return m->launch[gid];
}
/*
 * The GPU events launched by API call gid: returns their number and points
 * *out at a borrowed array of global ids (valid for the model's life).
 */
size_t	 correlate_gpu(const struct model *, uint32_t api_gid,
	    const uint32_t **out);
/*
 * The first entry of m->gpu_of_api whose launching call is api_gid or
 * later (m->ngpu_of_api if none): the entries are in call order, so the
 * work of a run of calls is one run of entries.
 */
size_t	 correlate_gpu_lower(const struct model *, uint32_t api_gid);
/*
 * Launch latency of GPU event gid: GPU start - API end (may be negative),
 * into *lat; returns -1 if it has no launching call, or if a graph launch
 * replayed it and it is not the first work of its replay (replay.h): a
 * replay has one launch latency, its first kernel's.
 */
int	 correlate_latency(const struct model *, uint32_t gid, int64_t *lat);

#endif
