/*
 * worksel: the GPU work a verb's selection keeps (analysis/work.h), for the
 * verbs that ask analysis/busy.h for busy time (gaps, timeline, overlap).
 *
 * The event-level filters (--name, --name-regex, --tid, --nvtx, --min-dur,
 * --type) make it an event selection; without them the analyses may read
 * the precomputed busy sets.
 *
 * Windows: the outer window is the selection's [t0, t1) (the verbs default
 * it to the trace span: origin to last end). With --nvtx, the window of a
 * set of processes is the union of the range instances of those processes
 * (all instances when the set is empty), intersected with the outer window.
 */
#ifndef GPULENS_WORKSEL_H
#define GPULENS_WORKSEL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/launch-walk.h"
#include "analysis/work.h"
#include "headless/select.h"
#include "model/iset.h"

/* sel_track and sel_event of the struct sel at arg: the callbacks of an
 * analysis's selection (struct work_sel, struct commgrp_keep, struct
 * nvgroup_sel, struct launch_sel). */
int	 worksel_track(void *arg, uint32_t t);
int	 worksel_event(void *arg, uint32_t t, uint32_t i);
/* The launch selection (analysis/launch-walk.h) of s, a selection of
 * kernels (kind EV_KERNEL); s must outlive its use. */
void	 worksel_launch(struct launch_sel *, struct sel *s);
/* Prepares w for the outer window [t0, t1). s must outlive w. */
void	 worksel_init(struct work *, const struct model *, struct sel *,
	    int64_t t0, int64_t t1);
/* The window of a set of processes (see above), into *out. */
void	 worksel_windows(const struct work *, const uint32_t *procs,
	    size_t nprocs, struct iset *out);

#endif
