/*
 * lane-int.h: what the files of the lane index (src/model/lane*.c) share:
 * its constants, the duration of an event, the hits of a tree walk, and the
 * functions each file gives the others, named after their file
 * (lane_sort_* in lane-sort.c, lane_tree_* in lane-tree.c, ...). The
 * interface is lane.h.
 */
#ifndef GPULENS_LANE_INT_H
#define GPULENS_LANE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "model/lane.h"

#define LANE_RUNSORT	16	/* insertion sort below this run length */
#define LANE_SCAN_K	3	/* tree: scan subtrees of this level or less */
#define LANE_MAXLEVEL	(UINT16_MAX - 1)	/* deepest stored depth */
#define LANE_LINEAR	32	/* depth: linear level search up to here */
#define PYR_SHIFT	6
#define PYR_BLOCK	(1 << PYR_SHIFT)

static inline int64_t
lane_dur(const struct lane *l, size_t i)
{
	return l->end[i] - l->start[i];
}

typedef void	lane_visit_fn(void *, size_t);

/* Hits of a tree walk go to a buffer (fn NULL) or to a callback. */
struct lane_collect {
	uint32_t	**buf;
	size_t		 *cap;
	size_t		  n;
};

/* lane-sort.c: sorting by (start, longer first). */
int	 lane_sort_sorted(const struct lane *);
void	 lane_sort_radix(uint64_t **, uint64_t **, uint32_t **, uint32_t **,
	    size_t);
void	 lane_sort(struct lane *);

/* lane-depth.c: depth[] and max_depth of an overlapping lane. */
void	 lane_depth(struct lane *);

/* lane-tree.c: the implicit interval tree. */
int	 lane_tree_build(const int64_t *, int64_t *, size_t);
int	 lane_tree_levels(size_t);
void	 lane_tree_visit(const struct lane *, size_t, int64_t,
	    lane_visit_fn *, void *);

/* lane-pyr.c: the block-max pyramid of durations. */
void	 lane_pyr_shape(struct lane *);
void	 lane_pyr_build(struct lane *);

#endif
