/*
 * graphs: CUDA and HIP graph replays (model/replay.h), one record per
 * replay and one per graph.
 *
 * A replay is the GPU work of one graph launch call on one device context,
 * keyed as VeloQ's graph-replays keys it: (device, context, correlation
 * id), where the correlation id is the call's (the work's own when no
 * call was traced). Work counts as replayed when its launching call is a
 * graph launch (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch), when it
 * is a whole-graph record (EV_GRAPH: nsys --cuda-graph-trace=graph), or
 * when the source gives it a graph id. Per replay:
 *   start, end      first start and last end of its work (span = end -
 *                   start)
 *   busy            the union of its work inside the span
 *   gaps, max_gap   the idle stretches between its work (span - busy is
 *                   their sum)
 *   ops, kernels    its GPU operations and how many are kernels (a whole-
 *                   graph record is one operation whose kernels are not
 *                   traced: kernels 0)
 *   call, latency   the launch call and the launch latency, first work's
 *                   start - call end (NONE32 and 0 without a call)
 *   range           the innermost NVTX range around the call
 *   graph           the graph: the source's id (nsys graphId, or the
 *                   graphId of a whole-graph record) with GRAPH_SRC_TRACE,
 *                   else GRAPH_SRC_SIGNATURE: replays that ran the same
 *                   sequence of operation names are one graph, numbered 1,
 *                   2, ... in order of first replay (RPD and Kineto record
 *                   no graph id)
 * Replays are in start order. A group is one graph on one device: its
 * replays and the sums, minimum and maximum of their spans.
 *
 * Cost: one pass over the GPU work, a sort of the replayed operations,
 * O(n + k log k) for k replayed operations.
 *
 * Ownership: struct graphs owns its arrays (graphs_free).
 */
#ifndef GPULENS_GRAPHS_H
#define GPULENS_GRAPHS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum graph_src { GRAPH_SRC_TRACE, GRAPH_SRC_SIGNATURE };

struct graph_replay {
	uint32_t	 call;		/* launch API call gid or NONE32 */
	uint32_t	 first;		/* first operation's gid */
	uint32_t	 track;		/* its track */
	uint32_t	 device;	/* index into devices */
	uint32_t	 context;
	uint32_t	 corr;
	uint32_t	 range;		/* NVTX range around the call */
	uint8_t		 src;		/* enum graph_src */
	uint8_t		 whole;		/* a whole-graph record */
	uint64_t	 graph;
	uint64_t	 ops, kernels, gaps;
	int64_t		 start, end, busy, max_gap;
	int64_t		 latency;	/* valid with call */
	uint64_t	 signature;	/* hash of its operations' names */
};

struct graph_group {
	uint64_t	 graph;
	uint8_t		 src;
	uint32_t	 device;
	uint32_t	 first;		/* its first replay */
	uint64_t	 replays, ops, kernels, launched, gaps;
	int64_t		 span, busy, span_min, span_max, max_gap;
	int64_t		 latency;	/* summed over launched replays */
};

struct graphs {
	struct graph_replay	*r;
	size_t			 n;
	struct graph_group	*g;	/* by (src, graph, device) */
	size_t			 ng;
	uint64_t		 ops;	/* replayed operations */
	uint64_t		 calls;	/* replays with a launch call */
};

/* The replays that overlap [t0, t1), and their graphs. */
void	 graphs_build(struct graphs *, const struct model *, int64_t t0,
	    int64_t t1);
void	 graphs_free(struct graphs *);

#endif
