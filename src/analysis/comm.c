/*
 * comm: collective identity and exposed communication (comm.h).
 *
 * The collective parsed from a name: the text after "nccl"/"rccl" and a
 * "Kernel_"/"DevKernel_" part, matched against the known collectives
 * ignoring case and underscores, longest match first; else a known
 * collective anywhere in the whole name ("c10d::allreduce_"); else the
 * first word after the library prefix ("ncclDevKernel_Generic" -> Generic,
 * "ncclGroupStart" -> GroupStart), "unknown" when there is none.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/comm.h"
#include "model/correlate.h"
#include "model/event.h"
#include "model/lane.h"
#include "util/xmalloc.h"

#define COMM_NORM	256

enum comm_bus { BUS_ONE, BUS_RING, BUS_ALLREDUCE };	/* 1, (n-1)/n,
							   2(n-1)/n */

static const struct {
	const char	*lower, *name;
	uint8_t		 size;		/* enum comm_size */
	uint8_t		 bus;		/* enum comm_bus */
} comm_known[] = {
	{ "allreduce", "AllReduce", COMM_SIZE_IN, BUS_ALLREDUCE },
	{ "allgather", "AllGather", COMM_SIZE_OUT, BUS_RING },
	{ "reducescatter", "ReduceScatter", COMM_SIZE_IN, BUS_RING },
	{ "reduce", "Reduce", COMM_SIZE_IN, BUS_ONE },
	{ "broadcast", "Broadcast", COMM_SIZE_IN, BUS_ONE },
	{ "bcast", "Broadcast", COMM_SIZE_IN, BUS_ONE },
	{ "sendrecv", "SendRecv", COMM_SIZE_IN, BUS_ONE },
	{ "send", "Send", COMM_SIZE_IN, BUS_ONE },
	{ "recv", "Recv", COMM_SIZE_IN, BUS_ONE },
	{ "alltoallv", "AllToAllv", COMM_SIZE_IN, BUS_RING },
	{ "alltoall", "AllToAll", COMM_SIZE_IN, BUS_RING },
	{ "gather", "Gather", COMM_SIZE_OUT, BUS_RING },
	{ "scatter", "Scatter", COMM_SIZE_IN, BUS_RING },
	{ "barrier", "Barrier", COMM_SIZE_IN, BUS_ALLREDUCE },
};
#define COMM_NKNOWN (sizeof comm_known / sizeof comm_known[0])

/* Position just after "nccl" or "rccl" (any case) in s, or s. */
static const char *
comm_skip_lib(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++)
		if ((strncasecmp(p, "nccl", 4) == 0 ||
		    strncasecmp(p, "rccl", 4) == 0))
			return p + 4;
	return s;
}

/* The longest known collective that starts norm, or -1. */
static int
comm_match(const char *norm)
{
	size_t	k, len, best = 0;
	int	which = -1;

	for (k = 0; k < COMM_NKNOWN; k++) {
		len = strlen(comm_known[k].lower);
		if (len > best && strncmp(norm, comm_known[k].lower, len) == 0) {
			best = len;
			which = (int)k;
		}
	}
	return which;
}

/* The known collective of a name, or -1; the first word into buf. */
static int
comm_parse(const char *name, char *buf, size_t len)
{
	const char	*p = comm_skip_lib(name), *q;
	char		 norm[COMM_NORM];
	size_t		 n = 0, i;
	int		 which;

	/* Separators, then "DevKernel" / "Kernel" and their separators. */
	while (*p == '_' || *p == ':' || *p == '.')
		p++;
	if (strncasecmp(p, "DevKernel", 9) == 0)
		p += 9;
	else if (strncasecmp(p, "Kernel", 6) == 0)
		p += 6;
	while (*p == '_' || *p == ':' || *p == '.')
		p++;
	for (q = p; *q != '\0' && *q != '(' && *q != '<' && *q != ' ' &&
	    n + 1 < sizeof norm; q++)
		if (isalnum((unsigned char)*q))
			norm[n++] = (char)tolower((unsigned char)*q);
	norm[n] = '\0';
	if ((which = comm_match(norm)) >= 0)
		return which;
	/* A known collective anywhere in the whole name ("c10d::allreduce_"). */
	n = 0;
	for (q = name; *q != '\0' && *q != '(' && n + 1 < sizeof norm; q++)
		if (isalnum((unsigned char)*q))
			norm[n++] = (char)tolower((unsigned char)*q);
	norm[n] = '\0';
	for (i = 0; i < n; i++)
		if ((which = comm_match(norm + i)) >= 0)
			return which;
	/* Else the first word after the library prefix. */
	for (n = 0; isalnum((unsigned char)p[n]); n++)
		;
	if (n == 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%.*s", (int)n, p);
	return -1;
}

const char *
comm_collective(const char *name, char *buf, size_t len)
{
	int	which;

	if ((which = comm_parse(name, buf, len)) >= 0)
		snprintf(buf, len, "%s", comm_known[which].name);
	return buf;
}

int
comm_known_of(const char *s)
{
	char	norm[COMM_NORM];
	size_t	n = 0;

	for (; *s != '\0' && n + 1 < sizeof norm; s++)
		if (isalnum((unsigned char)*s))
			norm[n++] = (char)tolower((unsigned char)*s);
	norm[n] = '\0';
	return n > 0 ? comm_match(norm) : -1;
}

int
comm_known_size(int which)
{
	if (which < 0 || (size_t)which >= COMM_NKNOWN)
		return COMM_SIZE_IN;
	return comm_known[which].size;
}

double
comm_bus_factor(int which, uint32_t n)
{
	if (which < 0 || (size_t)which >= COMM_NKNOWN)
		return -1;
	if (comm_known[which].bus == BUS_ONE)
		return 1;
	if (n == 0)
		return -1;
	if (comm_known[which].bus == BUS_RING)
		return (double)(n - 1) / n;
	return 2.0 * (n - 1) / n;
}

/* Whether range (track u, index i) is an NCCL/RCCL annotation: its name
 * or its domain's contains "nccl"/"rccl". */
static int
comm_is_annotation(const struct model *m, const struct track *tr, size_t i)
{
	const char	*s = model_str(m, tr->lane.name[i]), *d = "";

	if (tr->domain < m->ndomains)
		d = model_str(m, m->domains[tr->domain].name);
	return comm_skip_lib(s) != s || comm_skip_lib(d) != d;
}

/*
 * The innermost NCCL/RCCL annotation naming a known collective around the
 * launch of GPU event gid, or -1; *range gets its gid.
 */
static int
comm_annotation(const struct model *m, uint32_t gid, uint32_t *range)
{
	const struct track	*tr;
	struct evref		 r;
	uint32_t		 api, th, u, *buf = NULL;
	size_t			 cap = 0, k, n, j;
	int64_t			 t, span, best = INT64_MAX;
	int			 which, found = -1;
	char			 word[COMM_NAME_MAX];

	if ((api = correlate_launch(m, gid)) == NONE32)
		return -1;
	r = model_ev(m, api);
	if ((th = m->tracks[r.track].thread) == NONE32)
		return -1;
	t = m->tracks[r.track].lane.start[r.idx];
	for (k = model_thread_nvtx_begin(m, th);
	    (u = model_thread_nvtx_next(m, th, &k)) != NONE32;) {
		tr = &m->tracks[u];
		n = lane_stab(&tr->lane, t, &buf, &cap);
		for (j = 0; j < n; j++) {
			if (tr->lane.kind[buf[j]] != EV_NVTX ||
			    !comm_is_annotation(m, tr, buf[j]))
				continue;
			which = comm_parse(model_str(m, tr->lane.name[buf[j]]),
			    word, sizeof word);
			span = tr->lane.end[buf[j]] - tr->lane.start[buf[j]];
			if (which < 0 || span >= best)
				continue;
			best = span;
			found = which;
			*range = model_gid(m, u, buf[j]);
		}
	}
	free(buf);
	return found;
}

void
comm_identify(const struct model *m, uint32_t gid, struct comm_id *id)
{
	struct evref		 r = model_ev(m, gid);
	const struct track	*tr = &m->tracks[r.track];
	const struct lane	*l = &tr->lane;
	int			 which;

	memset(id, 0, sizeof *id);
	id->range = NONE32;
	id->ki = NULL;
	if (l->kind[r.idx] == EV_KERNEL && l->aux[r.idx] < m->nkernels)
		id->ki = &m->kernels[l->aux[r.idx]];
	which = comm_parse(model_str(m, l->name[r.idx]), id->name,
	    sizeof id->name);
	id->src = COMM_SRC_NAME;
	if (which < 0 && id->ki != NULL && id->ki->comm_coll != 0 &&
	    (which = comm_known_of(model_str(m, id->ki->comm_coll))) >= 0)
		id->src = COMM_SRC_ARGS;
	if (which < 0 && tr->type == TRACK_GPU &&
	    (which = comm_annotation(m, gid, &id->range)) >= 0)
		id->src = COMM_SRC_ANNOTATION;
	id->known = which;
	if (which >= 0)
		snprintf(id->name, sizeof id->name, "%s",
		    comm_known[which].name);
	else
		id->src = COMM_SRC_NONE;
}

int64_t
comm_exposed_of(int64_t compute, int64_t compute_or_comm)
{
	int64_t	x = compute_or_comm - compute;

	return x > 0 ? x : 0;
}

void
comm_exposed(const struct activity *a, int64_t t0, int64_t t1,
    struct comm_exposed *ce)
{
	struct comm_exposed_dev	*d;
	size_t			 k;
	int64_t			 comm;

	memset(ce, 0, sizeof *ce);
	for (k = 0; k < a->ndev; k++) {
		comm = activity_busy(a, k, ACT_COMM, t0, t1);
		if (comm <= 0)
			continue;
		XGROW(ce->dev, ce->cap, ce->ndev + 1);
		d = &ce->dev[ce->ndev];
		d->device = a->dev[k].device;
		d->slot = k;
		d->comm = comm;
		d->compute = activity_busy(a, k, ACT_COMPUTE, t0, t1);
		d->exposed = comm_exposed_of(d->compute,
		    activity_busy(a, k, ACT_CM, t0, t1));
		ce->comm = sat_add64(ce->comm, d->comm);
		ce->exposed = sat_add64(ce->exposed, d->exposed);
		if (d->exposed > ce->dev[ce->worst].exposed)
			ce->worst = ce->ndev;
		ce->ndev++;
	}
}

void
comm_exposed_free(struct comm_exposed *ce)
{
	free(ce->dev);
	memset(ce, 0, sizeof *ce);
}
