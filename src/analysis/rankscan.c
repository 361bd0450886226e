/*
 * rankscan: the ranks of a model and what each did (rankscan.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/comm.h"
#include "analysis/mpi.h"
#include "analysis/rankscan.h"
#include "model/lane.h"
#include "util/hmap.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static int
rankscan_coll_cmp(const void *a, const void *b)
{
	const struct rankscan_coll	*x = a, *y = b;

	return sort_lex3(x->coll, y->coll, x->start, y->start, x->end, y->end);
}

void
rankscan_sort(struct rankscan_coll *c, size_t n)
{
	if (n > 1)
		qsort(c, n, sizeof *c, rankscan_coll_cmp);
}

static int
rankscan_rank_cmp(const void *a, const void *b)
{
	const struct rankscan_rank	*x = a, *y = b;

	return sort_lex2(x->rank, y->rank, x->process, y->process);
}

static void
rankscan_add(struct rankscan *s, int rank, uint32_t p)
{
	struct rankscan_rank	*r;

	s->r = xreallocarray(s->r, s->nr + 1, sizeof *s->r);
	r = &s->r[s->nr++];
	memset(r, 0, sizeof *r);
	r->rank = rank;
	r->process = p;
	r->first = INT64_MAX;
	r->last = INT64_MIN;
}

/* Finds the ranks and maps every process to one (or NONE32). */
static void
rankscan_find(const struct model *m, int flags, struct rankscan *s)
{
	uint8_t		*gpu;
	size_t		 p, i;
	int		 any = 0, r;

	s->rank_of = xcalloc(m->nprocesses + 1, sizeof *s->rank_of);
	for (p = 0; p < m->nprocesses; p++) {
		s->rank_of[p] = NONE32;
		if (m->processes[p].rank >= 0)
			any = 1;
	}
	gpu = xcalloc(m->nprocesses + 1, 1);
	for (i = 0; i < m->nstreams; i++)
		if (m->streams[i].process < m->nprocesses)
			gpu[m->streams[i].process] = 1;
	s->setup = ranksetup_build(m);
	if (flags & RANKSCAN_ONE) {
		for (p = 0; p < m->nprocesses; p++) {
			if (s->nr == 0)
				rankscan_add(s, -1, (uint32_t)p);
			else if (gpu[p] && !gpu[s->r[0].process])
				s->r[0].process = (uint32_t)p;
			if (s->r[0].rank < 0 && m->processes[p].rank >= 0)
				s->r[0].rank = m->processes[p].rank;
			s->rank_of[p] = 0;
		}
		free(gpu);
		return;
	}
	if (!any) {
		s->guessed = 1;
		for (p = 0; p < m->nprocesses; p++)
			any |= gpu[p];
	}
	for (p = 0; p < m->nprocesses; p++) {
		r = m->processes[p].rank;
		if (s->guessed) {
			if (any && !gpu[p])
				continue;
			r = (int)s->nr;
		} else if (r < 0)
			continue;
		for (i = 0; i < s->nr; i++)
			if (s->r[i].rank == r)
				break;
		if (i == s->nr)
			rankscan_add(s, r, (uint32_t)p);
		else if (gpu[p] && !gpu[s->r[i].process])
			s->r[i].process = (uint32_t)p;	/* the GPU one */
	}
	/* No rank in the metadata: NVTX text may give every rank's. */
	if (s->guessed && s->nr > 0) {
		int ok = 1;
		for (i = 0; i < s->nr && ok; i++) {
			int32_t nr = s->setup[s->r[i].process].rank;
			ok = nr >= 0;
			for (p = 0; p < i && ok; p++)
				ok = s->setup[s->r[p].process].rank != nr;
		}
		if (ok) {
			for (i = 0; i < s->nr; i++)
				s->r[i].rank = s->setup[s->r[i].process].rank;
			s->from_nvtx = 1;
		}
	}
	if (s->nr > 1)
		qsort(s->r, s->nr, sizeof *s->r, rankscan_rank_cmp);
	for (p = 0; p < m->nprocesses; p++) {
		r = m->processes[p].rank;
		for (i = 0; i < s->nr; i++)
			if (s->guessed ? s->r[i].process == p :
			    s->r[i].rank == r)
				s->rank_of[p] = (uint32_t)i;
	}
	free(gpu);
}

/* The collective of kernel (t, i) with name sid (analysis/comm.h), cached
 * per name where the name gives it. */
static uint32_t
rankscan_coll(const struct model *m, struct strpool *pool,
    struct hmap *coll_of, size_t t, size_t i, uint32_t sid)
{
	struct comm_id	id;
	uint32_t	v;

	if (hmap_get(coll_of, sid, &v))
		return v;
	comm_identify(m, model_gid(m, (uint32_t)t, (uint32_t)i), &id);
	v = strpool_intern0(pool, id.name);
	if (id.src == COMM_SRC_NAME)
		hmap_put(coll_of, sid, v);
	return v;
}

/* The message bytes of communication kernel gid, or -1. */
static int64_t
rankscan_bytes(const struct model *m, uint32_t gid)
{
	const struct kernel_info	*ki;
	struct comm_id			 id;
	uint64_t			 n;

	comm_identify(m, gid, &id);
	if ((ki = id.ki) == NULL || ki->comm_elem_size == 0)
		return -1;
	if (id.known >= 0 && comm_known_size(id.known) == COMM_SIZE_OUT) {
		if (!(ki->comm_flags & KCOMM_OUT))
			return -1;
		n = ki->comm_out_nelems;
	} else {
		if (!(ki->comm_flags & KCOMM_IN))
			return -1;
		n = ki->comm_in_nelems;
	}
	return n > (uint64_t)INT64_MAX / ki->comm_elem_size ? INT64_MAX :
	    (int64_t)(n * ki->comm_elem_size);
}

/* Per-rank sums over the tracks, and each rank's collectives. */
static void
rankscan_scan(const struct model *m, int flags, struct strpool *pool,
    struct rankscan *s)
{
	struct hmap		 coll_of;
	uint8_t			*seen;
	size_t			 t, i, d;
	struct rankscan_rank	*r;

	hmap_init(&coll_of);
	seen = xcalloc(m->ndevices * (s->nr + 1) + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		uint32_t ri = tr->process < m->nprocesses ?
		    s->rank_of[tr->process] : NONE32;
		if (ri == NONE32 || l->n == 0)
			continue;
		r = &s->r[ri];
		if (l->start[0] < r->first)
			r->first = l->start[0];
		for (i = 0; i < l->n; i++)
			if (l->end[i] > r->last)
				r->last = l->end[i];
		if (tr->type != TRACK_GPU)
			continue;
		d = tr->device;
		if (d < m->ndevices && !seen[d * (s->nr + 1) + ri]) {
			seen[d * (s->nr + 1) + ri] = 1;
			r->gpus++;
			if (m->device_cov != NULL)
				r->busy = sat_add64(r->busy,
				    busy_device_total(m, (uint32_t)d));
		}
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL)
				continue;
			r->kernels++;
			r->kernel_ns += l->end[i] - l->start[i];
			if (!(l->flags[i] & EVF_COMM))
				continue;
			r->comm++;
			r->comm_ns += l->end[i] - l->start[i];
			XGROW(r->c, r->ccap, r->nc + 1);
			r->c[r->nc].coll = rankscan_coll(m, pool, &coll_of, t,
			    i, l->name[i]);
			r->c[r->nc].start = l->start[i];
			r->c[r->nc].end = l->end[i];
			r->c[r->nc].bytes = (flags & RANKSCAN_BYTES) ?
			    rankscan_bytes(m, model_gid(m, (uint32_t)t,
			    (uint32_t)i)) : -1;
			r->nc++;
		}
	}
	free(seen);
	hmap_free(&coll_of);
	for (i = 0; i < s->nr; i++)
		rankscan_sort(s->r[i].c, s->r[i].nc);
}

void
rankscan_build(const struct model *m, int flags, struct strpool *pool,
    struct rankscan *s)
{
	struct mpi_result	 mr;
	size_t			 i;
	uint32_t		 p;

	memset(s, 0, sizeof *s);
	rankscan_find(m, flags, s);
	rankscan_scan(m, flags, pool, s);
	/* MPI wait per rank: its processes summed. */
	mpi_build(m, INT64_MIN, INT64_MAX, &mr);
	for (i = 0; i < mr.nranks; i++) {
		p = mr.ranks[i].process;
		if (p >= m->nprocesses || s->rank_of == NULL ||
		    s->rank_of[p] == NONE32)
			continue;
		s->r[s->rank_of[p]].mpi_ns = sat_add64(s->r[s->rank_of[p]].mpi_ns,
		    mr.ranks[i].mpi_ns);
		s->r[s->rank_of[p]].mpi_calls += mr.ranks[i].calls;
	}
	mpi_free(&mr);
}

void
rankscan_free(struct rankscan *s)
{
	XFREE_EACH(s->r, s->nr, c);
	free(s->r);
	free(s->rank_of);
	free(s->setup);
	memset(s, 0, sizeof *s);
}
