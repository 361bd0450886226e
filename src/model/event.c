/*
 * event: look-ups on one event of the model by its global id (see
 * event.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "model/event.h"
#include "model/nvtx.h"

int64_t
event_time(const struct model *m, int64_t t, int absolute)
{
	return absolute ? t : t - m->origin_ns;
}

const struct track *
event_track(const struct model *m, uint32_t gid)
{
	return &m->tracks[model_ev(m, gid).track];
}

uint32_t
event_thread(const struct model *m, uint32_t gid)
{
	uint32_t	th = event_track(m, gid)->thread, api;

	if (th != NONE32 || (api = correlate_launch(m, gid)) == NONE32)
		return th;
	return event_track(m, api)->thread;
}

int
event_gpu_side(const struct track *tr)
{
	return tr->type == TRACK_GPU || tr->type == TRACK_SYNC;
}

uint32_t
event_process(const struct model *m, uint32_t gid)
{
	uint32_t	p = event_track(m, gid)->process, th;

	if (p == NONE32 && (th = event_thread(m, gid)) != NONE32 &&
	    th < m->nthreads)
		p = m->threads[th].process;
	return p;
}

size_t
event_api_len(const char *s)
{
	size_t	n = strlen(s), k;

	for (k = n; k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9'; k--)
		;
	if (k >= 2 && k < n && s[k - 1] == 'v' && s[k - 2] == '_')
		return k - 2;
	return n;
}

uint32_t
event_range(const struct model *m, uint32_t gid)
{
	return event_range_in(m, gid, NULL);
}

uint32_t
event_range_in(const struct model *m, uint32_t gid, const char *domain)
{
	struct evref		 r = model_ev(m, gid);
	const struct track	*tr = &m->tracks[r.track];
	uint32_t		 api, aux;

	if (event_gpu_side(tr)) {
		if ((api = correlate_launch(m, gid)) == NONE32)
			return NONE32;
		r = model_ev(m, api);
		tr = &m->tracks[r.track];
	} else if (tr->type == TRACK_NVTX) {
		aux = tr->lane.aux[r.idx];
		if (aux == NONE32 || aux >= m->nnvtx)
			return NONE32;
		return m->nvtx[aux].parent;
	}
	if (tr->thread == NONE32)
		return NONE32;
	return nvtx_enclosing_in(m, tr->thread, tr->lane.start[r.idx],
	    domain);
}

uint32_t
event_iter(const struct model *m, uint32_t range)
{
	struct evref	r;
	uint32_t	aux, n = 0;

	while (range != NONE32 && n++ < 65536) {
		r = model_ev(m, range);
		aux = m->tracks[r.track].lane.aux[r.idx];
		if (aux == NONE32 || aux >= m->nnvtx)
			return NONE32;
		if (m->nvtx[aux].parent == NONE32)
			return m->nvtx[aux].iter;
		range = m->nvtx[aux].parent;
	}
	return NONE32;
}

const struct kernel_info *
event_kernel(const struct model *m, uint32_t gid)
{
	struct evref		 r = model_ev(m, gid);
	const struct lane	*l = &m->tracks[r.track].lane;

	if (l->kind[r.idx] != EV_KERNEL || l->aux[r.idx] == NONE32 ||
	    l->aux[r.idx] >= m->nkernels)
		return NULL;
	return &m->kernels[l->aux[r.idx]];
}

const struct copy_info *
event_copy(const struct model *m, uint32_t gid)
{
	struct evref		 r = model_ev(m, gid);
	const struct lane	*l = &m->tracks[r.track].lane;

	if ((l->kind[r.idx] != EV_MEMCPY && l->kind[r.idx] != EV_MEMSET) ||
	    l->aux[r.idx] == NONE32 || l->aux[r.idx] >= m->ncopies)
		return NULL;
	return &m->copies[l->aux[r.idx]];
}
