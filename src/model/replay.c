/*
 * replay: CUDA and HIP graph replays (replay.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "model/event.h"
#include "model/replay.h"
#include "util/xmalloc.h"

static const char *const replay_launch_names[] = {
	"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"
};

int
replay_name_is_launch(const char *name)
{
	size_t	i, n;

	for (i = 0; i < sizeof replay_launch_names /
	    sizeof *replay_launch_names; i++) {
		n = strlen(replay_launch_names[i]);
		if (strncmp(name, replay_launch_names[i], n) == 0 &&
		    (name[n] == '\0' || name[n] == '_'))
			return 1;
	}
	return 0;
}

int
replay_is_launch(const struct model *m, uint32_t api_gid)
{
	if ((uint64_t)api_gid >= m->nevents ||
	    model_ev_kind(m, api_gid) != EV_API)
		return 0;
	return replay_name_is_launch(model_str(m, model_ev_name(m, api_gid)));
}

void
replay_names_init(struct replay_names *rn, const struct model *m)
{
	rn->m = m;
	rn->track = NONE32;
	rn->n = strpool_count(m->strs);
	rn->is = xcalloc((size_t)rn->n + 1, 1);
}

void
replay_names_free(struct replay_names *rn)
{
	free(rn->is);
	rn->is = NULL;
}

int
replay_names_launch(struct replay_names *rn, struct evref r)
{
	const struct lane	*l = &rn->m->tracks[r.track].lane;
	uint32_t		 sid = l->name[r.idx];

	/* The name first: its answer is cached, and nearly always no. */
	if (sid >= rn->n) {
		if (!replay_name_is_launch(model_str(rn->m, sid)))
			return 0;
	} else {
		if (rn->is[sid] == 0)
			rn->is[sid] = replay_name_is_launch(model_str(rn->m,
			    sid)) ? 1 : 2;
		if (rn->is[sid] != 1)
			return 0;
	}
	return l->kind[r.idx] == EV_API;
}

uint32_t
replay_names_call(struct replay_names *rn, uint32_t gid)
{
	const struct model	*m = rn->m;
	uint32_t		 api = correlate_launch(m, gid);
	struct evref		 r;

	if (api == NONE32 || (uint64_t)api >= m->nevents)
		return NONE32;
	r = model_ev_near(m, api, &rn->track);
	return replay_names_launch(rn, r) ? api : NONE32;
}

uint32_t
replay_call(const struct model *m, uint32_t gid)
{
	uint32_t	api = correlate_launch(m, gid);

	if (api == NONE32 || !replay_is_launch(m, api))
		return NONE32;
	return api;
}

/* Whether two GPU events are on the same device and context. */
static int
replay_same_ctx(const struct model *m, uint32_t a, uint32_t b)
{
	const struct track	*ta = event_track(m, a);
	const struct track	*tb = event_track(m, b);
	uint32_t		 ca, cb;

	if (ta->device != tb->device)
		return 0;
	ca = ta->stream < m->nstreams ? m->streams[ta->stream].context : 0;
	cb = tb->stream < m->nstreams ? m->streams[tb->stream].context : 0;
	return ca == cb;
}

int
replay_first(const struct model *m, uint32_t gid)
{
	uint32_t	 api = replay_call(m, gid), g;
	size_t		 i;

	if (api == NONE32)
		return 1;
	/* The call's work is one run of gpu_of_api, by GPU start: walk it
	 * from its first entry to the first on gid's context (without
	 * counting the run, which would make a replay of k kernels cost
	 * O(k^2)). */
	for (i = correlate_gpu_lower(m, api); i < m->ngpu_of_api; i++) {
		g = m->gpu_of_api[i];
		if (m->launch[g] != api)
			break;
		if (replay_same_ctx(m, g, gid))
			return g == gid;
	}
	return 1;
}

int
replay_inner(const struct model *m, uint32_t gid)
{
	return !replay_first(m, gid);
}

size_t
replay_work(const struct model *m, uint32_t gid, uint32_t **buf,
    size_t *cap)
{
	const uint32_t	*g;
	uint32_t	 api = replay_call(m, gid);
	size_t		 n, i, k = 0;

	if (api == NONE32)
		return 0;
	n = correlate_gpu(m, api, &g);
	XGROW(*buf, *cap, n);
	for (i = 0; i < n; i++)
		if (replay_same_ctx(m, g[i], gid))
			(*buf)[k++] = g[i];
	return k;
}
