/*
 * layout: the rows of the timeline, built from the model.
 *
 * Order (what a profiler user expects, top to bottom):
 *   GPU n <device name>			one group per device
 *     [pid p <process>]			only when the device's
 *						streams belong to several
 *						processes
 *       Stream s				one row per GPU stream
 *   pid p <process>				one group per process
 *     tid t <thread>				one group per thread
 *       NVTX, NVTX +1, ...			one row per nesting depth of
 *						each NVTX track (events of
 *						that depth only)
 *       CUDA API				one row per API track
 *       OS runtime, ...			other CPU tracks
 *       CPU samples				the thread's CPU sample
 *						density (LROW_SAMPLES), where
 *						it was sampled
 *
 * When the trace knows distributed ranks (process.rank), the top-level
 * groups go rank by rank instead: rank 0's GPUs, rank 0's processes, rank
 * 1's GPUs, ...; device labels say their rank (tui/layrank.c).
 *
 * Any track whose events overlap (lane max_depth > 1) gets one row per
 * depth: NVTX nesting, nested API calls, and GPU streams where sync events
 * overlap the kernels they wait for (a single row would let the longer
 * event hide the other).
 *
 * Groups can be collapsed; the row list is then rebuilt without their
 * descendants. The layout is pure (no terminal) and keeps every label as
 * raw UTF-8: labels come from the profile and must be sanitised when drawn.
 *
 * Depth rows query a private sub-lane holding only the events of that
 * depth (built once here, so every per-frame query stays O(log n)). In a
 * sub-lane, rowid is the event's index in the track's own lane and aux is
 * the original aux; layout_gid() maps a row's lane index back to the
 * model's global event id. Depths beyond LAYOUT_MAX_DEPTH - 1 share the
 * last row.
 *
 * Views of the rows: a minimum-duration filter (layout_set_min_dur) gives
 * every lane row a private filtered lane holding only the events at least
 * that long (built once per filter change, O(events)); track types can be
 * hidden (layout_set_hidden: the CUDA API rows); groups can be collapsed
 * one by one or all at once. Group rows keep showing all their tracks'
 * work, filtered or not.
 *
 * Ownership: layout_new() allocates; layout_free() releases everything,
 * including the sub-lanes and filtered lanes. The model must outlive the
 * layout.
 */
#ifndef GPULENS_LAYOUT_H
#define GPULENS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define LAYOUT_MAX_DEPTH	32
#define LAYOUT_LABEL		80	/* bytes per label, NUL included */

enum layout_group_kind {
	LG_DEVICE,		/* id: device index (NONE32: unknown device) */
	LG_DEVPROC,		/* id: process index, under a device */
	LG_PROCESS,		/* id: process index (NONE32: unknown) */
	LG_THREAD		/* id: thread index */
};

struct layout_group {
	uint8_t		 kind;		/* enum layout_group_kind */
	uint8_t		 level;		/* indentation level */
	uint8_t		 collapsed;
	uint32_t	 parent;	/* enclosing group or NONE32 */
	uint32_t	 id;
	size_t		 first, n;	/* member tracks: members[first..+n) */
	char		 label[LAYOUT_LABEL];
};

/*
 * A GPU stream whose events overlap, or an NVTX track whose ranges nest,
 * has two views in the row list: its whole-track row (LOV_WHOLE, every
 * event on one row, the longer event drawn over the shorter) and its depth
 * rows (LOV_DEPTH). The hidden bit LAYOUT_HIDE_OVERLAP shows the whole
 * row; without it, the depth rows.
 */
enum layout_overlap {
	LOV_NONE = 0,		/* always a row of its own */
	LOV_DEPTH,		/* a GPU stream's or NVTX track's depth row */
	LOV_WHOLE		/* a split track as one row */
};

/* layout_set_hidden bit: split tracks as one row (no overlap rows). */
#define LAYOUT_HIDE_OVERLAP	(1u << TRACK_TYPE_COUNT)
/*
 * The compact GPU view the terminal UI starts with: no per-stream sync
 * rows, no overlap rows.
 */
#define LAYOUT_HIDE_DETAIL	(LAYOUT_HIDE_OVERLAP | (1u << TRACK_SYNC))

enum layout_row_kind {
	LROW_GROUP,		/* a group header */
	LROW_LANE,		/* a track, or one depth of a track */
	LROW_SAMPLES		/* a thread's CPU samples (no track, no
				   lane: sthread says which) */
};

struct layout_row {
	uint8_t		 kind;		/* enum layout_row_kind */
	uint8_t		 level;		/* indentation level */
	uint32_t	 group;		/* LROW_GROUP: the group; LROW_LANE:
					   the enclosing group or NONE32 */
	uint32_t	 track;		/* LROW_LANE: track, else NONE32 */
	int32_t		 depth;		/* LROW_LANE: depth, -1 whole */
	int		 sub;		/* lane's rowid maps to the track's
					   lane index (depth sub-lane or
					   filtered lane) */
	const struct lane *lane;	/* LROW_LANE: what to query */
	const struct lane *base;	/* the unfiltered lane */
	int		 base_sub;	/* base is a depth sub-lane */
	uint8_t		 overlap;	/* enum layout_overlap */
	uint32_t	 sthread;	/* LROW_SAMPLES: index into m->cs.th */
	char		 label[LAYOUT_LABEL];
};

struct layout {
	const struct model	*m;
	struct layout_group	*groups;
	size_t			 ngroups, gcap;
	uint32_t		*members;	/* track indices */
	size_t			 nmembers, mcap;
	struct layout_row	*all;		/* every row, all expanded */
	size_t			 nall, allcap;
	uint32_t		*vis;		/* visible rows: all[vis[i]] */
	size_t			 nvis, viscap;
	struct lane		*subs;		/* depth sub-lanes */
	size_t			 nsubs;
	struct lane		*filt;		/* per row of all, filtered */
	int64_t			 min_dur;	/* 0: no filter */
	unsigned		 hidden;	/* 1 << track type: hidden */
};

/* Builds the layout of m with every group expanded. */
struct layout	*layout_new(const struct model *m);
void		 layout_free(struct layout *);
/* Visible rows. */
size_t		 layout_nrows(const struct layout *);
const struct layout_row *layout_row(const struct layout *, size_t i);
/*
 * Toggles the group whose header is visible row i. Returns 1 if the row is
 * a group header (and the row list changed), 0 otherwise.
 */
int		 layout_toggle(struct layout *, size_t i);
/* Collapses (1) or expands (0) group g. */
void		 layout_set_collapsed(struct layout *, uint32_t g, int c);
/* Collapses (1) or expands (0) every group. */
void		 layout_collapse_all(struct layout *, int c);
/*
 * Shows only events at least ns long in lane rows (0: all). Returns the
 * number of events left in lane rows.
 */
uint64_t	 layout_set_min_dur(struct layout *, int64_t ns);
/*
 * Hides the rows of tracks whose type bit (1 << enum track_type) is set;
 * LAYOUT_HIDE_OVERLAP shows each split track as one row.
 */
void		 layout_set_hidden(struct layout *, unsigned mask);
/* Whether lane row r is hidden by the mask (not by a collapsed group). */
int		 layout_row_hidden(const struct layout *,
		    const struct layout_row *r);
/* Every row, visible or not (all groups expanded). */
size_t		 layout_nall(const struct layout *);
const struct layout_row *layout_all(const struct layout *, size_t a);
/* The visible row of all-row a, or (size_t)-1 if hidden. */
size_t		 layout_visible(const struct layout *, size_t a);
/* The all-row of visible row i, or (size_t)-1. */
size_t		 layout_all_index(const struct layout *, size_t i);
/*
 * The all-row showing event gid (its depth row if split) or (size_t)-1.
 */
size_t		 layout_find_all(const struct layout *, uint32_t gid);
/*
 * Expands the groups above all-row a so that it is visible; returns its
 * visible row, or (size_t)-1 when its track type is hidden.
 */
size_t		 layout_reveal(struct layout *, size_t a);
/*
 * Index of event gid in row r's lane (r must show gid's track), or -1 when
 * the lane does not hold it (filtered out).
 */
int64_t		 layout_lane_index(const struct layout *,
		    const struct layout_row *r, uint32_t gid);
/* Member tracks of group g. */
const uint32_t	*layout_members(const struct layout *, uint32_t g,
		    size_t *n);
/* Global event id of event idx of row r's lane. */
uint32_t	 layout_gid(const struct layout *, const struct layout_row *r,
		    size_t idx);
/*
 * The visible row that shows event gid (its depth row if split), or
 * (size_t)-1 if that row is hidden or there is none.
 */
size_t		 layout_find(const struct layout *, uint32_t gid);

#endif
