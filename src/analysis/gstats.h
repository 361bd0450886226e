/*
 * gstats: events grouped by axes, with the statistics of each group: the
 * one analysis behind `gpulens stats`, the TUI's kernel table and the
 * kernel part of its range statistics (winstat.h).
 *
 * Selection (struct gstats_sel): the events of one kind that overlap the
 * window [t0, t1) (start < t1 and end > t0; zero-length events at
 * t0 <= start < t1 count too, lane_overlap()'s rule), on the tracks that
 * hold that kind, of one device, stream (source id) and process (pid) when
 * those are set, and that the caller's own filters keep (the verb's name,
 * duration, thread and NVTX scoping). Kind -1 is communication: GPU and
 * NVTX events flagged EVF_COMM. For EV_OSRT only the OS runtime event
 * class counts (osrt_sum's rule: EVF_NOTOSRT events are left out).
 *
 * Groups: one per distinct vector of axis values, numbered in the order
 * their first event is met (tracks in model order, events in start order),
 * so a front-end that lists them in group order keeps the event order.
 * Axes (the --group-by spellings in gstats_axis_names):
 *   name        the full name; API names without "_vNNNN" (cuda_api_sum)
 *   short-name  a kernel's short name, else the name
 *   device, stream, pid, tid
 *               indices into m->devices, streams, processes, threads
 *               (NONE32 when the track has none)
 *   nvtx-path, iter
 *               the caller's (gstats_sel.axis_fn); 0 without it
 *   kind        the event kind
 * NVTX events are further split by style, push/pop or start/end (nvtx_sum
 * keeps them apart). Name, short-name and nvtx-path values are ids of
 * strings in the result's own pool (gstats_str()).
 *
 * Statistics (stats.h, `nsys stats`'s definitions): of the durations
 * end - start, or with GS_CLIP of the parts inside the window; of the byte
 * counts of copies and memsets. With GS_SUMS only count, total, min and max
 * are kept (no samples are stored; the other fields are 0), for windows
 * that only need sums. With GS_LAZY every group has count, total, min,
 * max and mean (those of the full statistics, to the bit), and the rest
 * only once gstats_complete() computed it for the group, from the values
 * the result keeps: a caller that shows a page of groups ordered by one
 * of those fields computes the rest for that page alone (a grouping by
 * nvtx-path and iter at 1e8 events has 1.7 million groups). grand is the
 * sum of every group's total.
 *
 * Cost: one pass over the selected events (a track wholly inside the
 * window is walked without a window query), a few array reads per event
 * to find its group (once per run with the caller's runs), a second that
 * writes the values (on the pool's threads, in ranges of tracks, from
 * 2^18 events), then one sort per group (the groups shared out on the
 * pool).
 *
 * Ownership: gstats_compute() returns a result freed with gstats_free();
 * the model is borrowed and must outlive it; the selection's callbacks are
 * only called during gstats_compute().
 */
#ifndef GPULENS_GSTATS_H
#define GPULENS_GSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/group.h"
#include "analysis/stats.h"
#include "model/model.h"

enum gstats_axis {
	GS_NAME, GS_SHORT, GS_DEVICE, GS_STREAM, GS_PID, GS_TID, GS_NVTX,
	GS_ITER, GS_KIND, GS_NAXES
};

/* The --group-by spellings, by axis. */
extern const char *const gstats_axis_names[GS_NAXES];

/* gstats_compute() flags. */
#define GS_SUMS		0x1	/* count, total, min and max only */
#define GS_CLIP		0x2	/* durations clipped to the window */
#define GS_LAZY		0x4	/* the rest on gstats_complete() */

struct gstats_sel {
	int64_t		 t0, t1;	/* the window [t0, t1) */
	int		 kind;		/* EV_* (0 any, -1 communication) */
	uint32_t	 device;	/* device index, NONE32 for any */
	int64_t		 stream;	/* stream source id, -1 for any */
	int64_t		 pid;		/* process id, -1 for any */
	/* The caller's filters, NULL for none: whether track t may hold
	 * selected events, whether event i of track t is selected. */
	int		(*track)(void *arg, uint32_t t);
	int		(*event)(void *arg, uint32_t t, uint32_t i);
	/* The value of axis GS_NVTX or GS_ITER for event i of track t;
	 * strings are interned in names (group_local() or the pool). */
	uint32_t	(*axis_fn)(void *arg, struct group_names *names,
			    int axis, uint32_t t, uint32_t i);
	/* Optional, with axis_fn: called right after axis_fn was asked
	 * about event i of track t, the end (exclusive, in i + 1 .. hi) of
	 * a run of its events from i on that have event i's values on the
	 * caller's axes (i + 1 when it cannot tell): where the other axes
	 * are the track's, the run's events of the kind are then grouped
	 * without asking again. */
	uint32_t	(*same_fn)(void *arg, uint32_t t, uint32_t i,
			    uint32_t hi);
	void		*arg;
};

struct gstats_vals;

struct gstats_group {
	uint32_t	 v[GS_NAXES];	/* axis values, in gstats.axes order */
	int		 startend;	/* NVTX style: start/end, else push/pop */
	uint32_t	 first;		/* global id of its first event */
	uint32_t	 name;		/* the first event's name (model sid) */
	uint32_t	 short_name;	/* its kernel short name, 0 if none */
	struct stats	 dur;		/* durations (ns) */
};

struct gstats {
	const struct model	*m;
	struct group_names	 names;		/* the strings of the values */
	int			 axes[GS_NAXES];
	int			 naxes;
	int			 kind;
	unsigned		 flags;
	struct gstats_group	*g;		/* groups, first-seen order */
	size_t			 ng;
	/* Per group, the bytes moved (copies and sets), apart: NULL where
	 * no event has any, as with most kinds (gstats_bytes()). */
	struct stats		*bytes;
	int64_t			 grand;		/* sum of the durations */
	uint64_t		 nevents;	/* events counted */
	struct gstats_vals	*vals;		/* GS_LAZY: the values, until
						   every group is complete */
};

/* The whole trace, every device, stream and process, kind 0. */
void		 gstats_sel_all(struct gstats_sel *);
/*
 * Parses a --group-by list (NULL: "name") into axes (GS_NAXES entries of
 * room). Returns 0, or -1 with *cause.
 */
int		 gstats_parse_axes(const char *spec, int *axes, int *naxes,
		    char **cause);
/* Groups the selected events by axes[0 .. naxes) (at most GS_NAXES). */
struct gstats	*gstats_compute(const struct model *,
		    const struct gstats_sel *, const int *axes, int naxes,
		    unsigned flags);
/*
 * With GS_LAZY: computes the full statistics of the groups keep marks
 * (every group with keep NULL, which also frees the values).
 */
void		 gstats_complete(struct gstats *, const uint8_t *keep);
/* The bytes moved by group gi's events (count 0: none). */
const struct stats *gstats_bytes(const struct gstats *, size_t gi);
void		 gstats_free(struct gstats *);
/* The string of a name, short-name or nvtx-path value (borrowed). */
const char	*gstats_str(const struct gstats *, uint32_t id);

#endif
