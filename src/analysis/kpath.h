/*
 * kpath: the NVTX path and iteration of an event's innermost range, the
 * values of `gpulens stats`' nvtx-path and iter axes (gstats.h's caller
 * axes): for a GPU event, the range around its launching API call on the
 * launching thread; for a CPU event, around its start on its thread; for
 * an NVTX range, itself (a mark: its parent). A path is the range's
 * family path (nvtxfam.h), an id in the caller's string pool (0: none);
 * an iteration is the outermost range's (NONE32: none).
 *
 * Asked event by event (kpath_value()), in each track's order, the ranges
 * come from a cursor per thread (nvtxcur.h) and the paths from their
 * parents' (kpfam.h), each range's once. Right after,
 * kpath_same() says how far the answer holds: the GPU events launched
 * from the same API track before the innermost range may change.
 *
 * kpath_runs() starts working out the runs of the nvtx-path values, the
 * iterations or both of whole GPU tracks on background threads (the
 * processes' tracks shared out; each thread with cursors and paths of its
 * own), and returns: kpath_value() on such a track waits for its runs,
 * while the caller's work on the tracks before it runs beside them
 * (kpath-runs.c). The values of their events are then read from the runs.
 * The answers are the same.
 *
 * Ownership: kpath_new() returns a context freed with kpath_free(), which
 * joins its threads; it borrows the model and the domain string.
 */
#ifndef GPULENS_KPATH_H
#define GPULENS_KPATH_H

#include <stdint.h>

#include "model/model.h"

struct kpath;
struct strpool;

/* Ranges of domain (NULL: every domain). */
struct kpath	*kpath_new(const struct model *, const char *domain);
void		 kpath_free(struct kpath *);
/*
 * Starts the runs of the GPU tracks t with use[t] set (ntracks entries),
 * of the nvtx-path values where path is set and of the iterations where
 * iter is (kpath_value() asks the other axis as without runs). Once per
 * context; the context is then the calling thread's alone.
 */
void		 kpath_runs(struct kpath *, const uint8_t *use, int path,
		    int iter);
/*
 * The value of axis (GS_NVTX: a path id interned in pool; GS_ITER) for
 * event i of track t.
 */
uint32_t	 kpath_value(struct kpath *, struct strpool *pool, int axis,
		    uint32_t t, uint32_t i);
/*
 * After kpath_value() for event i of track t: the end (exclusive, i + 1
 * .. hi) of the run of its events from i on with the same values.
 */
uint32_t	 kpath_same(struct kpath *, uint32_t t, uint32_t i,
		    uint32_t hi);

#endif
