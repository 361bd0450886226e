/*
 * iters-int: what the iteration files (iters.c, iters-marker.c,
 * iters-kernel.c) share.
 */
#ifndef GPULENS_ITERS_INT_H
#define GPULENS_ITERS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/iters.h"
#include "model/model.h"

/*
 * The NVTX marker family (iters.h's rules), or NULL (the caller frees it).
 * With a marker, its top-level ranges, the iterations, are appended to it
 * (iters_add) in track order, then start order.
 */
char	*iters_marker_pick(const struct model *, struct iters *,
	    size_t *cap);
/* Adds the kernel-period iterations of every process that want[] flags
 * (nprocesses + 1 entries, the last for GPU tracks of no process). */
void	 iters_from_kernels(const struct model *, const uint8_t *want,
	    struct iters *, size_t *cap);
/* Appends one iteration. */
void	 iters_add(struct iters *, size_t *cap, uint32_t process,
	    uint32_t range, uint32_t name, int64_t start, int64_t end);

#endif
