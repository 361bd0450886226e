/*
 * commgrp: communication grouped by event kind (kernel or nvtx),
 * collective (comm.h's identity), device, stream and process, what
 * `gpulens comm` reports (headless/cmd-comm.c tells each figure).
 *
 * The events are those readers flag EVF_COMM (GPU kernels, NVTX ranges)
 * overlapping [t0, t1) that the caller's keep functions keep. Per group:
 * the durations' statistics, the time inside the window (clipped) and,
 * for kernels whose kernel_info has a message size (the "sized" ones),
 * their bytes, bus bytes, the median of the per-kernel bandwidths, and
 * the process group's size and name when they all agree.
 *
 * Every group lies in one process, so one rank: a rank's groups are its
 * summary's (ranksum.h), and a job's answer is its ranks' groups with
 * the labels the merge gives (device ids renumbered, the rank).
 *
 * Ownership: commgrp_set_free frees the groups and their strings.
 */
#ifndef GPULENS_COMMGRP_H
#define GPULENS_COMMGRP_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct hmap;

struct commgrp {
	uint8_t		 kind;		/* enum ev_kind */
	char		*coll;		/* "AllReduce" */
	/* Labels: the source's ids, -1 when none. */
	int64_t		 device, stream, pid;
	int32_t		 rank;		/* the process's rank, or -1 */
	/* The durations. */
	uint64_t	 count;
	int64_t		 total, min, max;
	double		 mean, median;
	int64_t		 clipped;	/* time inside the window */
	int64_t		 device_busy;	/* the device's busy time in the
					   window, -1 unknown */
	/* The sized kernels. */
	uint64_t	 nsized;
	int64_t		 bytes, sized_ns;
	double		 busbytes;	/* bytes x bus factor */
	int		 nofactor;	/* one has no bus factor */
	uint32_t	 group_size;	/* 0: none, or they disagree */
	char		*pg;		/* NULL: none, or they disagree */
	uint64_t	 nbw;		/* kernels of nonzero duration */
	double		 median_algbw, median_busbw;	/* GB/s, nbw > 0 */
};

struct commgrp_set {
	struct commgrp	*g;		/* in the order first seen */
	size_t		 n, cap;
	int64_t		 total;		/* every group's time, summed */
};

/* Which tracks and events count (NULL: all). */
struct commgrp_keep {
	int		(*track)(void *, uint32_t t);
	int		(*event)(void *, uint32_t t, uint32_t i);
	void		*arg;
};

void	 commgrp_build(const struct model *, int64_t t0, int64_t t1,
	    const struct commgrp_keep *, struct commgrp_set *);
/* Appends a copy of g (its strings copied) to set. */
void	 commgrp_add(struct commgrp_set *, const struct commgrp *);
void	 commgrp_set_free(struct commgrp_set *);

/*
 * A job's groups from its ranks' (each rank's commgrp_build over its whole
 * trace), labelled as the merge of the job labels them (merge.h): added
 * in the merge's order (rank, then file), every group gets its rank, and
 * a device id an earlier rank took is renumbered as the merge does
 * (1000 x (rank + 1) + id, or the next free one).
 */
struct commgrp_job {
	struct commgrp_set	 set;
	struct hmap		*taken;		/* device ids given out */
};

void	 commgrp_job_init(struct commgrp_job *);
/* Adds the groups of rank `rank`, whose kept devices (merge.h: those its
 * streams or tracks use) have source ids gpu[0, ngpu), in device order. */
void	 commgrp_job_add(struct commgrp_job *, int rank, const uint32_t *gpu,
	    size_t ngpu, const struct commgrp_set *);
void	 commgrp_job_free(struct commgrp_job *);

#endif
