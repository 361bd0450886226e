/*
 * work: the GPU work a selection keeps, walked in time order, for the
 * analyses of busy time (analysis/busy.h: gaps, timeline, overlap).
 *
 * GPU work is what occupies a GPU: kernels, memcpys, memsets and whole-graph
 * launches (EV_GRAPH, the only record of a graph's work when nsys traces
 * graphs as a whole). Synchronization records (EV_SYNC: the CPU waiting on
 * the GPU), profiler overhead and anything else on a GPU track are not work:
 * they never make a GPU busy. (The model's lane and device coverages include
 * every event of a GPU track, sync records too, so they are used only for
 * tracks that hold nothing but work.) Work falls into three classes:
 *   compute        kernels and graphs without EVF_COMM
 *   communication  kernels and graphs with EVF_COMM (NCCL/RCCL)
 *   copy           memcpys and memsets
 *
 * A GPU track that holds no work at all (only sync records, say) is left
 * out of every walk, as if it did not exist.
 *
 * The selection is the caller's (struct work_sel): which tracks it keeps,
 * and, when an event-level filter is on (a name, a thread, NVTX ranges, a
 * minimum duration...), which events. The outer window is [t0, t1); the
 * walks take one window segment [a, b) at a time.
 *
 * work_merge walks the selected work events of a set of tracks overlapping
 * [a, b), clamped to it, in start order, in O(1) memory beyond a cursor per
 * track (a 1e7-event trace is swept without allocating per event): a
 * heap-ordered merge, O(log k) per event. A track's cursor takes the few
 * events that start before a and reach into the window from the lane's
 * interval index, then the events starting in [a, b) as one index range.
 *
 * Ownership: struct work owns its per-track flags (work_free); a merge owns
 * its cursors (work_merge_free) and may be restarted any number of times
 * before that. The selection and the model are borrowed.
 */
#ifndef GPULENS_ANALYSIS_WORK_H
#define GPULENS_ANALYSIS_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum work_class {
	WORK_COMPUTE = 0,
	WORK_COMM,
	WORK_COPY,
	WORK_NCLASS
};

/*
 * A selection: track(arg, t) keeps a track (NULL: every track), event(arg,
 * t, i) an event of a kept track (NULL: no event-level filter, every
 * event).
 */
struct work_sel {
	int			(*track)(void *, uint32_t);
	int			(*event)(void *, uint32_t, uint32_t);
	void			*arg;
};

struct work {
	const struct model	*m;
	struct work_sel		 sel;
	int64_t			 t0, t1;	/* outer window */
	int			 filtered;	/* sel.event is set */
	uint8_t			*pure;		/* per track: work_pure()'s
						   answer once known */
	uint8_t			*selected;	/* per track: GPU, holds
						   some work, passes
						   sel_track */
};

/* One selected work event, clamped to the walk's window. */
struct work_item {
	uint32_t		 t, i;		/* track, index in its lane */
	int			 cls;		/* enum work_class */
	int64_t			 s, e;		/* clamped start and end */
};

struct work_cursor {
	uint32_t		 t;
	uint32_t		*strad;		/* events from before a */
	size_t			 nstrad, scap, spos;
	size_t			 cur, hi;	/* then [cur, hi) */
	struct work_item	 it;		/* the current event */
};

struct work_merge {
	const struct work	*w;
	int64_t			 a, b;
	struct work_cursor	*c;
	size_t			 nc, ccap;
	size_t			*heap;		/* cursor indices */
	size_t			 nh, hcap;
	size_t			 lim;		/* the top's smaller child */
};

/* The class of an event kind with its flags; -1 if it is not GPU work.
 * Inline: the passes over every GPU event ask it once an event. */
static inline int
work_class(int kind, unsigned flags)
{
	switch (kind) {
	case EV_KERNEL:
	case EV_GRAPH:
		return (flags & EVF_COMM) ? WORK_COMM : WORK_COMPUTE;
	case EV_MEMCPY:
	case EV_MEMSET:
		return WORK_COPY;
	default:
		return -1;
	}
}
/* Prepares for the outer window [t0, t1). s->arg must outlive w. */
void	 work_init(struct work *, const struct model *,
	    const struct work_sel *, int64_t t0, int64_t t1);
void	 work_free(struct work *);
/*
 * Whether selected GPU track t holds only work (then its busy set is its
 * work's union). Found by a scan of the track on the first call and kept:
 * not to be called for one track from several threads at once.
 */
int	 work_pure(const struct work *, uint32_t t);
/* The class of event i of selected GPU track t if it is selected work,
 * else -1. */
int	 work_event(const struct work *, uint32_t t, uint32_t i);
/*
 * The threads for njobs independent walks of w (one per device, say), each
 * with its own merge: the CPUs (or GPULENS_THREADS as pool_threads() reads
 * it), at most njobs; 1 with an event-level filter, whose callback need not
 * be safe to call from several threads.
 */
unsigned	 work_threads(const struct work *, size_t njobs);
/*
 * The selected tracks of device d (NONE32: of every device), into a buffer
 * grown as needed; returns their number.
 */
size_t	 work_tracks(const struct work *, uint32_t d, uint32_t **buf,
	    size_t *cap);
/*
 * The device indices in the order of their source ids (as printed), into
 * a buffer grown as needed; returns their number.
 */
size_t	 work_devices(const struct model *, uint32_t **buf, size_t *cap);
/*
 * The processes owning the streams of device d (NONE32 left out), into a
 * buffer grown as needed; returns their number.
 */
size_t	 work_device_procs(const struct model *, uint32_t d, uint32_t **buf,
	    size_t *cap);

/* (Re)starts a merge over tracks (selected GPU tracks) on [a, b). mg must
 * be zeroed before its first start. */
void	 work_merge_start(struct work_merge *, const struct work *,
	    const uint32_t *tracks, size_t ntracks, int64_t a, int64_t b);
/* The next event in start order; 0 at the end. */
int	 work_merge_next(struct work_merge *, struct work_item *);
void	 work_merge_free(struct work_merge *);

#endif
