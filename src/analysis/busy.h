/*
 * busy: the busy time of a selection's GPU work (analysis/work.h: compute,
 * communication and copy classes), for every verb that asks for it: the
 * gaps verb's idle gaps, the timeline's per-bucket busy time and the
 * overlap verb's class unions. Every union is an interval set of
 * model/iset.h, grown a segment at a time (struct iset_run) as the work
 * is walked in start order, so no per-event memory is kept.
 *
 * busy_walk    the busy segments (the union of the selected work of a set
 *              of tracks) inside [a, b), in order. Without an event-level
 *              filter, when every track holds only work, it reads the
 *              precomputed busy sets instead (m->device_cov for a whole
 *              device, else each lane's), O(log n + segments); otherwise
 *              it unites the work_merge of the events.
 * busy_buckets per bucket of a list of edges, the busy time of all work
 *              and of each class (unions, clipped to the bucket), and the
 *              kernels starting in it, over a window (an iset). The
 *              segments are spread with a cursor over the edges.
 * busy_overlap over window segments, the lengths of the unions C, M, Y,
 *              C u M, C u Y and C u M u Y (the overlaps follow from
 *              |A n B| = |A| + |B| - |A u B|), the sum of the clipped
 *              durations and the peak concurrency (half-open: an event
 *              ending at t does not overlap one starting at t). With keep,
 *              also C as a set and the communication events, for
 *              per-event breakdowns: busy_overlap_tags() gives, per tag
 *              the caller puts on the communication events (an NVTX path,
 *              say), the union of its events and the part of it exposed.
 * busy_device  the busy time of a device's GPU tracks, any event.
 * busy_lane    the busy time of one lane (its busy set, the one busy_walk
 *              reads for a track), and its prefix (busy before t): the
 *              TUI's timeline shading and busy shares.
 *
 * Ownership: each struct owns its storage (its _free) and may be restarted
 * or swept again any number of times before that; the work, the window and
 * the edges are borrowed.
 */
#ifndef GPULENS_BUSY_H
#define GPULENS_BUSY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/work.h"
#include "model/iset.h"
#include "util/pool.h"

struct lane;

struct busy_src {
	const struct iset	*cov;
	size_t			 pos;
	int64_t			 head;		/* start at pos */
};

struct busy_walk {
	const struct work	*w;
	int64_t			 a, b;
	int			 by_cov;	/* reading busy sets */
	struct work_merge	 mg;
	struct busy_src		*src;
	size_t			 nsrc, srccap;
	struct iset_run		 run;
	POOL_PAD;		/* (one per pool thread: cmd-gaps.c) */
};

/* (Re)starts a walk; wb must be zeroed before its first start. */
void	 busy_walk_start(struct busy_walk *, const struct work *,
	    const uint32_t *tracks, size_t ntracks, int64_t a, int64_t b);
/* The next busy segment [*s, *e) inside [a, b); 0 at the end. */
int	 busy_walk_next(struct busy_walk *, int64_t *s, int64_t *e);
void	 busy_walk_free(struct busy_walk *);

/* Columns of busy_buckets.busy: all work, then each enum work_class. */
#define BUSY_NCOL	(1 + WORK_NCLASS)

struct busy_buckets {
	const int64_t		*edge;		/* nb + 1 edges, borrowed */
	size_t			 nb;
	int64_t			*busy;		/* nb x BUSY_NCOL */
	uint64_t		*kern;		/* kernel starts per bucket */
	struct work_merge	 mg;
	POOL_PAD;		/* (one per job of a round: cmd-timeline.c) */
};

void	 busy_buckets_init(struct busy_buckets *, const int64_t *edge,
	    size_t nb);
void	 busy_buckets_free(struct busy_buckets *);
/* Replaces busy and kern by those of tracks' work inside win. */
void	 busy_buckets_sweep(struct busy_buckets *, const struct work *,
	    const struct iset *win, const uint32_t *tracks, size_t ntracks);
/* The bucket holding t (edge[0] <= t < edge[nb]). */
size_t	 busy_bucket(const struct busy_buckets *, int64_t t);

/* The unions busy_overlap measures. */
enum busy_run {
	BUSY_C, BUSY_M, BUSY_Y, BUSY_CM, BUSY_CY, BUSY_ALL, BUSY_NRUN
};

/* A communication event (keep), clamped to its window segment. */
struct busy_comm {
	uint32_t		 t, i;		/* track, index in its lane */
	uint32_t		 tag;		/* the caller's (0 here) */
	int64_t			 start, end;
};

struct busy_overlap {
	int			 keep;		/* store C and comm */
	const uint8_t		*role;		/* per track, a work class that
						   replaces each event's, or
						   NULL (the caller's) */
	int64_t			 len[BUSY_NRUN];
	int64_t			 sum, peak;
	struct iset		 compute;	/* C (keep) */
	struct busy_comm	*comm;		/* in start order (keep) */
	size_t			 ncomm, commcap;
	/* The sweep's state. */
	int64_t			*ends;		/* min-heap of running ends */
	size_t			 nends, endcap;
	struct work_merge	 mg;
	POOL_PAD;		/* (one per job of a round: cmd-overlap.c) */
};

void	 busy_overlap_init(struct busy_overlap *, int keep);
void	 busy_overlap_free(struct busy_overlap *);
/* Zeroes the lengths, sum and peak, empties C and comm. */
void	 busy_overlap_reset(struct busy_overlap *);
/* Adds the work of tracks inside [a, b): len, sum and C and comm grow;
 * peak is the most inside any one segment swept since the reset. */
void	 busy_overlap_sweep(struct busy_overlap *, const struct work *,
	    const uint32_t *tracks, size_t nt, int64_t a, int64_t b);

/* The communication events (keep) of one tag: M_tag, their union. */
struct busy_tag {
	uint32_t		 tag;
	size_t			 count;		/* events */
	int64_t			 comm;		/* |M_tag| */
	int64_t			 exposed;	/* |M_tag \ C| */
};

/*
 * Groups the communication events by the tags the caller gave them (comm
 * is sorted by tag, then start), in increasing tag order, into a buffer
 * grown as needed; returns the number of groups.
 */
size_t	 busy_overlap_tags(struct busy_overlap *, struct busy_tag **,
	    size_t *cap);

/*
 * Busy time of every event of device d's GPU tracks (the model's device
 * busy set, sync records included) inside [t0, t1), and in all.
 */
int64_t	 busy_device(const struct model *, uint32_t d, int64_t t0, int64_t t1);
int64_t	 busy_device_total(const struct model *, uint32_t d);
/* Whether the model holds device d's busy set (busy_device answers). */
int	 busy_device_known(const struct model *, uint32_t d);

/* Busy time of a lane's events inside [t0, t1), and before t. */
int64_t	 busy_lane(const struct lane *, int64_t t0, int64_t t1);
int64_t	 busy_lane_before(const struct lane *, int64_t t);

#endif
