/*
 * work: the GPU work a verb's selection keeps, walked in time order, for the
 * analysis verbs (gaps, timeline, overlap).
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
 * Windows: the outer window is the selection's [t0, t1) (the verbs default
 * it to the trace span: origin to last end). With --nvtx, the window of a
 * set of processes is the union of the range instances of those processes
 * (all instances when the set is empty), intersected with the outer window.
 * The walks below take one window segment [a, b) at a time.
 *
 * Two walks, both in O(1) memory beyond a few cursors (a 1e7-event trace
 * is swept without allocating per event):
 *   work_merge  the selected work events of a set of tracks overlapping
 *               [a, b), clamped to it, in start order: a heap-ordered merge
 *               of one cursor per track, O(log k) per event. A track's
 *               cursor takes the few events that start before a and reach
 *               into the window from the lane's interval index, then the
 *               events starting in [a, b) as one index range.
 *   work_busy   the busy segments (the union of that work) in order. When
 *               no event-level filter is on (--name, --name-regex, --tid,
 *               --nvtx, --min-dur) and every track holds only work, it reads
 *               the precomputed coverages instead (m->device_cov for a whole
 *               device, else each lane's), O(log n + segments).
 *
 * Ownership: struct work owns its per-track flags (work_free); a merge and
 * a busy walk own their cursors (work_merge_free, work_busy_free) and may
 * be restarted any number of times before that. The selection and the
 * model are borrowed.
 */
#ifndef GPULENS_WORK_H
#define GPULENS_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "model/iset.h"
#include "model/model.h"
#include "headless/select.h"

enum work_class {
	WORK_COMPUTE = 0,
	WORK_COMM,
	WORK_COPY,
	WORK_NCLASS
};

struct work {
	const struct model	*m;
	struct sel		*s;
	int64_t			 t0, t1;	/* outer window */
	int			 filtered;	/* event-level filters on */
	uint8_t			*pure;		/* per track: only work */
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
};

struct work_cov {
	const struct iset	*cov;
	size_t			 pos;
};

struct work_busy {
	const struct work	*w;
	int64_t			 a, b;
	int			 by_cov;	/* reading coverages */
	struct work_merge	 mg;
	struct work_cov		*src;
	size_t			 nsrc, srccap;
	struct iset_run		 run;
};

/* The class of an event kind with its flags; -1 if it is not GPU work. */
int	 work_class(int kind, unsigned flags);
/* Prepares for the outer window [t0, t1). s must outlive w. */
void	 work_init(struct work *, const struct model *, struct sel *,
	    int64_t t0, int64_t t1);
void	 work_free(struct work *);
/* The window of a set of processes (see above), into *out. */
void	 work_windows(const struct work *, const uint32_t *procs,
	    size_t nprocs, struct iset *out);
/* The class of event i of selected GPU track t if it is selected work,
 * else -1. */
int	 work_event(const struct work *, uint32_t t, uint32_t i);
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

/* (Re)starts a busy walk; wb must be zeroed before its first start. */
void	 work_busy_start(struct work_busy *, const struct work *,
	    const uint32_t *tracks, size_t ntracks, int64_t a, int64_t b);
/* The next busy segment [*s, *e) inside [a, b); 0 at the end. */
int	 work_busy_next(struct work_busy *, int64_t *s, int64_t *e);
void	 work_busy_free(struct work_busy *);

#endif
