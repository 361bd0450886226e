/*
 * replay: CUDA and HIP graph replays.
 *
 * A graph launch (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch and their
 * versioned names) is one API call that replays the work of a graph: the
 * GPU work of the replay carries the call's correlation id, so
 * correlate.h already links every replayed kernel (or, when nsys traced
 * the graph as a whole, --cuda-graph-trace=graph, the one EV_GRAPH
 * record) to the call. A replay is that work, keyed by (device, context,
 * correlation id) as VeloQ's graph-replays keys it: the work of one call
 * on one device context. RPD's Task ops and Kineto's kernels with a
 * hipGraphLaunch or cudaGraphLaunch correlation are replays the same way.
 *
 * Launch latency of a replay is measured once, from the call to the first
 * work of the replay (replay_first); the other replayed kernels have no
 * launch latency of their own (correlate_latency() answers -1 for them).
 */
#ifndef GPULENS_REPLAY_H
#define GPULENS_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Whether an API name is a graph launch ("cudaGraphLaunch_v10000"). */
int		 replay_name_is_launch(const char *name);
/* Whether API call api_gid is a graph launch. */
int		 replay_is_launch(const struct model *, uint32_t api_gid);
/*
 * replay_is_launch() for loops over millions of events: the answer is kept
 * per API name (string id). Caller-owned: init, free.
 */
struct replay_names {
	const struct model	*m;
	uint8_t			*is;		/* per sid: 0 ?, 1 yes, 2 no */
	uint32_t		 n;
	uint32_t		 track;		/* the last call's track */
};
void		 replay_names_init(struct replay_names *,
		    const struct model *);
void		 replay_names_free(struct replay_names *);
/* Whether the event at r is a graph launch call (replay_is_launch()). */
int		 replay_names_launch(struct replay_names *, struct evref r);
/* replay_call(), with the names' answers kept. */
uint32_t	 replay_names_call(struct replay_names *, uint32_t gid);
/*
 * The graph launch call that replayed GPU event gid, or NONE32 when gid
 * was not replayed by a graph launch (or has no launching call).
 */
uint32_t	 replay_call(const struct model *, uint32_t gid);
/*
 * Whether gid, replayed by a graph launch, is the first work (by GPU
 * start) of its replay: the work of its call on its device and context.
 * 1 for work that is not replayed.
 */
int		 replay_first(const struct model *, uint32_t gid);
/* Whether GPU event gid is replayed and not the first of its replay. */
int		 replay_inner(const struct model *, uint32_t gid);
/*
 * The replay of gid's call on gid's device and context: its GPU events
 * (sorted by start) into *buf (grown as needed); returns their number, 0
 * when gid is not replayed.
 */
size_t		 replay_work(const struct model *, uint32_t gid,
		    uint32_t **buf, size_t *cap);

#endif
