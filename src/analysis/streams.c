/*
 * streams: GPU stream roles and communication purposes (streams.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/streams.h"
#include "model/correlate.h"
#include "model/event.h"
#include "model/iset.h"
#include "model/nvtxfam.h"
#include "util/nametab.h"
#include "util/xmalloc.h"

static const char *const stream_role_names[] = {
	"compute", "communication", "copy", "none"
};

const char *
stream_role_name(int r)
{
	return NAMETAB(stream_role_names, r, "none");
}

/* Counts the work of a track into si. */
static void
streams_count(const struct model *m, uint32_t t, struct stream_role_info *si)
{
	const struct lane	*l = &m->tracks[t].lane;
	size_t			 i;

	memset(si, 0, sizeof *si);
	si->track = t;
	for (i = 0; i < l->n; i++) {
		switch (l->kind[i]) {
		case EV_KERNEL:
		case EV_GRAPH:
			si->kernels++;
			if (l->flags[i] & EVF_COMM)
				si->comm_kernels++;
			break;
		case EV_MEMCPY:
			si->copies++;
			break;
		case EV_MEMSET:
			si->memsets++;
			break;
		}
	}
	if (si->kernels > 0)
		si->role = si->comm_kernels == si->kernels ? STREAM_COMM :
		    STREAM_COMPUTE;
	else if (si->copies + si->memsets > 0)
		si->role = STREAM_COPY;
	else
		si->role = STREAM_NONE;
}

int
streams_track_role(const struct model *m, uint32_t t)
{
	struct stream_role_info	si;

	if (t >= m->ntracks || m->tracks[t].type != TRACK_GPU)
		return STREAM_NONE;
	streams_count(m, t, &si);
	return si.role;
}

/* Whether range r (track, index) is a communication range of the library
 * or framework rather than the caller's: EVF_COMM, or PyTorch's c10d and
 * record_param_comms operators. */
static int
streams_comm_range(const struct model *m, struct evref r)
{
	const char	*s;

	if (m->tracks[r.track].lane.flags[r.idx] & EVF_COMM)
		return 1;
	s = model_str(m, m->tracks[r.track].lane.name[r.idx]);
	return strncmp(s, "nccl", 4) == 0 || strncmp(s, "rccl", 4) == 0 ||
	    strncmp(s, "c10d::", 6) == 0 ||
	    strcmp(s, "record_param_comms") == 0;
}

/* From range up its parents to the first that is not communication. */
static uint32_t
streams_caller(const struct model *m, uint32_t range)
{
	struct evref	 r;
	uint32_t	 aux, n = 0;

	while (range != NONE32 && n++ < 65536) {
		r = model_ev(m, range);
		if (!streams_comm_range(m, r))
			break;
		aux = m->tracks[r.track].lane.aux[r.idx];
		range = aux != NONE32 && aux < m->nnvtx ?
		    m->nvtx[aux].parent : NONE32;
	}
	return range;
}

/*
 * The range family around a GPU event's launch, communication ranges
 * passed over, into buf; 0 if none. A communication range of its own
 * domain (NCCL's) has no parent in the caller's: then the default
 * domain's innermost range is tried too.
 */
static int
streams_range_family(const struct model *m, uint32_t gid, char *buf,
    size_t len)
{
	uint32_t	 api, range;

	if ((api = correlate_launch(m, gid)) == NONE32)
		return 0;
	range = streams_caller(m, event_range(m, api));
	if (range == NONE32)
		range = streams_caller(m, event_range_in(m, api, ""));
	if (range == NONE32)
		return 0;
	nvtx_family(model_str(m, model_ev_name(m, range)), buf, len);
	return 1;
}

static void
streams_purpose(const struct model *m, struct stream_role_info *si)
{
	const struct lane	*l = &m->tracks[si->track].lane;
	char			 cur[1024], first[1024];
	size_t			 i;
	int			 have, seen = 0, first_have = 0, mixed = 0;

	/* Unanimity: every kernel the same range, or every one none. */
	for (i = 0; i < l->n && !mixed; i++) {
		if (l->kind[i] != EV_KERNEL && l->kind[i] != EV_GRAPH)
			continue;
		have = streams_range_family(m, model_gid(m, si->track,
		    (uint32_t)i), cur, sizeof cur);
		if (!seen) {
			seen = 1;
			first_have = have;
			if (have)
				memcpy(first, cur, sizeof first);
		} else if (have != first_have ||
		    (have && strcmp(first, cur) != 0))
			mixed = 1;
	}
	have = first_have;
	if (mixed)
		si->purpose = xstrdup("mixed");
	else if (have)
		si->purpose = xstrdup(first);
}

void
streams_build(struct streams *ss, const struct model *m)
{
	struct stream_role_info	 si;
	size_t			 cap = 0;
	uint32_t		 t;

	memset(ss, 0, sizeof *ss);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		streams_count(m, t, &si);
		if (si.role == STREAM_NONE)
			continue;
		si.busy = iset_len(&m->tracks[t].lane.cov);
		if (si.role == STREAM_COMM)
			streams_purpose(m, &si);
		XGROW(ss->s, cap, ss->n + 1);
		ss->s[ss->n++] = si;
	}
}

void
streams_free(struct streams *ss)
{
	XFREE_EACH(ss->s, ss->n, purpose);
	free(ss->s);
	memset(ss, 0, sizeof *ss);
}
