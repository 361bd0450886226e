/*
 * tracksel: the tracks a selection keeps. See tracksel.h.
 */
#include "config.h"

#include <stdint.h>

#include "analysis/tracksel.h"

int
tracksel_match(const struct model *m, const struct tracksel *s, uint32_t t)
{
	const struct track	*tr = &m->tracks[t];
	int			 gpu = tr->type == TRACK_GPU ||
				    tr->type == TRACK_SYNC;

	if (s->has_device && (!gpu || tr->device != s->device))
		return 0;
	if (s->stream >= 0 && (!gpu || tr->stream >= m->nstreams ||
	    m->streams[tr->stream].source_id != (uint64_t)s->stream))
		return 0;
	if (s->pid >= 0 && (tr->process == NONE32 ||
	    m->processes[tr->process].pid != (uint64_t)s->pid))
		return 0;
	if (s->tid >= 0 && !gpu && (tr->thread == NONE32 ||
	    m->threads[tr->thread].tid != (uint64_t)s->tid))
		return 0;
	if (s->kind > 0)
		return model_track_holds(tr, s->kind);
	if (s->kind < 0)
		return tr->type == TRACK_GPU || tr->type == TRACK_NVTX;
	return 1;
}
