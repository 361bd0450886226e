/*
 * merge: one model from several finished models, one per rank of a
 * distributed job (or any set of traces that share a clock).
 *
 * Every input contributes its devices, processes, threads, streams,
 * domains, tracks, events and side records, renumbered into the merged
 * model: string ids are re-interned into the merged pool, entity indices
 * and side-table indices (kernel_info, copy_info, nvtx_info, counters) are
 * offset, and the derived indices (lanes, NVTX tree, correlation, device
 * coverage) are rebuilt by model_finalize(). Times are kept as they are,
 * plus in[i].shift_ns (saturated): Kineto traces carry absolute epoch
 * nanoseconds, so ranks of one job line up (to the hosts' clock
 * agreement); Nsight Systems exports count from their session's start,
 * and the caller shifts them onto one clock (multi.h).
 *
 * Ranks: every process of input i gets rank in[i].rank (when >= 0) and,
 * when there are several inputs, the name "rank R NAME" so that the TUI's
 * process groups read as ranks. Devices: an input's GPUs that none of its
 * streams use are dropped (each rank's trace lists every GPU of its node),
 * and a device id already taken by an earlier input is renumbered to
 * 1000 * (rank + 1) + id, with a warning, so that --device N stays
 * unambiguous. Correlation ids stay per process, so ranks never cross-link.
 *
 * Host tables (merge-host.c): CPU samples, their call chains and those of
 * API calls (frames and chains stored once over the inputs), and thread
 * scheduling come along, shifted like the events; samples keep the
 * inputs' order. A thread source id (globalTid) an earlier input already
 * has gets k << 56 added (the least k that makes it unique), in every
 * table of that input alike.
 *
 * Hosts: each process keeps its trace's host (model_host: its own, else
 * the input's metadata host name), so that the merge still says which
 * node each rank ran on.
 *
 * Metadata: the first input's keys, plus "ranks" (the list), and
 * "rank.R.trace" (each input's label). Warnings keep their text, prefixed
 * "rank R: ".
 *
 * Ownership: merge_models() consumes (frees) every input model, also on
 * failure, and returns a new model to free with model_free().
 */
#ifndef GPULENS_MERGE_H
#define GPULENS_MERGE_H

#include <stddef.h>

#include "model/model.h"

struct merge_in {
	struct model	*m;		/* consumed */
	int		 rank;		/* -1: leave process ranks as they are */
	const char	*label;		/* e.g. the trace's path (copied) */
	int64_t		 shift_ns;	/* added to every time (clock
					   alignment), usually 0 */
};

/* Returns the merged model, or NULL with *cause (caller frees). */
struct model	*merge_models(struct merge_in *in, size_t n, char **cause);

#endif
