/*
 * commgrp: communication by kind, collective, device, stream and process
 * (commgrp.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/sort.h"
#include "util/strpool.h"
#include "util/xmalloc.h"
#include "model/event.h"
#include "model/lane.h"
#include "analysis/busy.h"
#include "analysis/comm.h"
#include "analysis/commgrp.h"
#include "analysis/stats.h"

#define COMMGRP_MIXED	(NONE32 - 1)	/* group_size / pg: kernels disagree */

/* A group while it is built. */
struct cg_acc {
	int		 kind;
	uint32_t	 coll;		/* local string id */
	uint32_t	 device, stream, process;
	struct stats_acc dur;
	int64_t		 clipped;
	size_t		 nsized;
	int64_t		 bytes, sized_ns;
	double		 busbytes;
	int		 nofactor;
	uint32_t	 group_size;	/* 0 none yet, COMMGRP_MIXED */
	uint32_t	 pg;		/* model sid, NONE32 none yet,
					   COMMGRP_MIXED */
	double		*algbw, *busbw;	/* per kernel, GB/s (dur > 0) */
	size_t		 nbw, bwcap;
};

struct cg_ctx {
	const struct model	*m;
	struct strpool		*local;
	struct hmap		 coll_of;	/* model sid -> local sid */
	struct hmap		 known_of;	/* model sid of a kernel_info
						   comm_coll -> comm_known
						   index + 1, or 0 */
	struct cg_acc		*g;
	size_t			 ng, gcap;
	struct hmap		 by_key;
};

/* The collective of a kernel for its size and bus factor: its
 * kernel_info's when known, else the group's (parsed from the name). */
static int
cg_kernel_known(struct cg_ctx *c, const struct kernel_info *ki,
    const struct cg_acc *g)
{
	uint32_t	v;
	int		which;

	if (ki->comm_coll != 0) {
		if (!hmap_get(&c->known_of, ki->comm_coll, &v)) {
			which = comm_known_of(model_str(c->m, ki->comm_coll));
			v = (uint32_t)(which + 1);
			hmap_put(&c->known_of, ki->comm_coll, v);
		}
		if (v != 0)
			return (int)v - 1;
	}
	return comm_known_of(strpool_get(c->local, g->coll));
}

/* Adds a kernel of duration dur with a known message size to g; a
 * kernel without one is left out. */
static void
cg_add_sized(struct cg_ctx *c, struct cg_acc *g,
    const struct kernel_info *ki, int64_t dur)
{
	uint64_t	n;
	int64_t		bytes;
	double		factor;
	int		which;

	if (ki->comm_elem_size == 0)
		return;
	which = cg_kernel_known(c, ki, g);
	if (which >= 0 && comm_known_size(which) == COMM_SIZE_OUT) {
		if (!(ki->comm_flags & KCOMM_OUT))
			return;
		n = ki->comm_out_nelems;
	} else {
		if (!(ki->comm_flags & KCOMM_IN))
			return;
		n = ki->comm_in_nelems;
	}
	bytes = n > (uint64_t)INT64_MAX / ki->comm_elem_size ? INT64_MAX :
	    (int64_t)(n * ki->comm_elem_size);
	factor = comm_bus_factor(which, ki->comm_group_size);
	if (g->nsized++ == 0) {
		g->group_size = ki->comm_group_size;
		g->pg = ki->comm_pg_name;
	} else {
		if (g->group_size != ki->comm_group_size)
			g->group_size = COMMGRP_MIXED;
		if (g->pg != ki->comm_pg_name)
			g->pg = COMMGRP_MIXED;
	}
	g->bytes = sat_add64(g->bytes, bytes);
	g->sized_ns = sat_add64(g->sized_ns, dur);
	if (factor < 0)
		g->nofactor = 1;
	else
		g->busbytes += (double)bytes * factor;
	if (dur <= 0)
		return;
	if (g->nbw == g->bwcap) {
		g->bwcap = g->bwcap == 0 ? 16 : g->bwcap * 2;
		g->algbw = xreallocarray(g->algbw, g->bwcap, sizeof *g->algbw);
		g->busbw = xreallocarray(g->busbw, g->bwcap, sizeof *g->busbw);
	}
	g->algbw[g->nbw] = (double)bytes / (double)dur;
	g->busbw[g->nbw] = factor < 0 ? 0 : (double)bytes * factor /
	    (double)dur;
	g->nbw++;
}

/* The median of v[0, n), n > 0 (sorts v): the middle value, or the mean
 * of the two middle ones, as stats.h defines it. */
static double
cg_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, sort_cmp_double);
	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The local string id of the collective of event (t, i) with name sid: the
 * one its name gives, cached per name; a GPU event whose name names none
 * is identified on its own (comm_identify: its args, the annotation around
 * its launch).
 */
static uint32_t
cg_coll_sid(struct cg_ctx *c, uint32_t t, uint32_t i, uint32_t sid)
{
	struct comm_id	id;
	char		buf[COMM_NAME_MAX];
	uint32_t	v;

	if (!hmap_get(&c->coll_of, sid, &v)) {
		v = strpool_intern0(c->local, comm_collective(model_str(c->m,
		    sid), buf, sizeof buf)) << 1;
		if (comm_known_of(buf) < 0)
			v |= 1;		/* the name names no collective */
		hmap_put(&c->coll_of, sid, v);
	}
	if ((v & 1) == 0 || c->m->tracks[t].type != TRACK_GPU)
		return v >> 1;
	comm_identify(c->m, model_gid(c->m, t, i), &id);
	return strpool_intern0(c->local, id.name);
}

static struct cg_acc *
cg_group(struct cg_ctx *c, int kind, uint32_t coll, uint32_t device,
    uint32_t stream, uint32_t process)
{
	uint64_t	 key;
	uint32_t	*slot;
	int		 isnew;
	struct cg_acc	*g;

	key = hmap_key2(hmap_key2(hmap_key2((uint64_t)kind, coll), device),
	    hmap_key2(stream, process));
	for (;;) {
		slot = hmap_upsert(&c->by_key, key, (uint32_t)c->ng, &isnew);
		if (isnew) {
			g = XAPPEND(c->g, c->gcap, c->ng++);
			g->kind = kind;
			g->coll = coll;
			g->device = device;
			g->stream = stream;
			g->process = process;
			stats_acc_init(&g->dur);
			g->pg = NONE32;
			return g;
		}
		g = &c->g[*slot];
		if (g->kind == kind && g->coll == coll && g->device == device &&
		    g->stream == stream && g->process == process)
			return g;
		key++;		/* a hash collision: probe the next key */
	}
}

/* The finished figures of a (whose durations it sorts) into g. */
static void
cg_finish(struct cg_ctx *c, struct cg_acc *a, int64_t t0, int64_t t1,
    struct commgrp *g)
{
	const struct model	*m = c->m;
	struct stats		 s;

	memset(g, 0, sizeof *g);
	stats_acc_compute(&a->dur, &s);
	g->kind = (uint8_t)a->kind;
	g->coll = xstrdup(strpool_get(c->local, a->coll));
	g->device = a->device < m->ndevices ?
	    (int64_t)m->devices[a->device].source_id : -1;
	g->stream = a->stream < m->nstreams ?
	    (int64_t)m->streams[a->stream].source_id : -1;
	g->pid = a->process < m->nprocesses ?
	    (int64_t)m->processes[a->process].pid : -1;
	g->rank = a->process < m->nprocesses ?
	    m->processes[a->process].rank : -1;
	if (g->rank < 0)
		g->rank = -1;
	g->count = s.count;
	g->total = s.total;
	g->min = s.min;
	g->max = s.max;
	g->mean = s.mean;
	g->median = s.median;
	g->clipped = a->clipped;
	g->device_busy = a->device < m->ndevices && m->device_cov != NULL ?
	    busy_device(m, a->device, t0, t1) : -1;
	g->nsized = a->nsized;
	g->bytes = a->bytes;
	g->sized_ns = a->sized_ns;
	g->busbytes = a->busbytes;
	g->nofactor = a->nofactor;
	if (a->nsized > 0 && a->group_size != COMMGRP_MIXED)
		g->group_size = a->group_size;
	if (a->nsized > 0 && a->pg != 0 && a->pg != COMMGRP_MIXED &&
	    a->pg != NONE32)
		g->pg = xstrdup(model_str(m, a->pg));
	g->nbw = a->nbw;
	if (a->nbw > 0) {
		g->median_algbw = cg_median(a->algbw, a->nbw);
		g->median_busbw = cg_median(a->busbw, a->nbw);
	}
}

void
commgrp_build(const struct model *m, int64_t t0, int64_t t1,
    const struct commgrp_keep *keep, struct commgrp_set *out)
{
	struct cg_ctx	 c;
	struct cg_acc	*g;
	uint32_t	*idx = NULL, t, aux;
	size_t		 icap = 0, k, i, gi;
	int64_t		 a, b, dur;
	int		 kind;

	memset(out, 0, sizeof *out);
	memset(&c, 0, sizeof c);
	c.m = m;
	c.local = strpool_new();
	hmap_init(&c.coll_of);
	hmap_init(&c.known_of);
	hmap_init(&c.by_key);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type != TRACK_NVTX && tr->type != TRACK_GPU)
			continue;
		if (keep != NULL && keep->track != NULL &&
		    !keep->track(keep->arg, t))
			continue;
		k = lane_overlap(l, t0, t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			kind = l->kind[idx[i]];
			if (tr->type == TRACK_NVTX && kind != EV_NVTX)
				continue;
			if (!(l->flags[idx[i]] & EVF_COMM))
				continue;
			/* In the window: starts before t1, ends after t0
			 * (an instant: at or after t0). */
			if (l->start[idx[i]] >= t1 || (l->end[idx[i]] <= t0 &&
			    !(l->end[idx[i]] == l->start[idx[i]] &&
			    l->start[idx[i]] >= t0)))
				continue;
			if (keep != NULL && keep->event != NULL &&
			    !keep->event(keep->arg, t, idx[i]))
				continue;
			g = cg_group(&c, kind, cg_coll_sid(&c, t, idx[i],
			    l->name[idx[i]]),
			    tr->type == TRACK_GPU ? tr->device : NONE32,
			    tr->type == TRACK_GPU ? tr->stream : NONE32,
			    event_process(m, model_gid(m, t, idx[i])));
			dur = l->end[idx[i]] - l->start[idx[i]];
			stats_acc_add(&g->dur, dur);
			aux = l->aux[idx[i]];
			if (kind == EV_KERNEL && aux < m->nkernels &&
			    m->kernels[aux].comm_flags != 0)
				cg_add_sized(&c, g, &m->kernels[aux], dur);
			a = l->start[idx[i]] > t0 ? l->start[idx[i]] : t0;
			b = l->end[idx[i]] < t1 ? l->end[idx[i]] : t1;
			if (b > a)
				g->clipped += b - a;
		}
	}
	out->g = xcalloc(c.ng + 1, sizeof *out->g);
	out->n = out->cap = c.ng;
	for (gi = 0; gi < c.ng; gi++) {
		for (i = 0; i < c.g[gi].dur.n; i++)
			out->total += c.g[gi].dur.v[i];
		cg_finish(&c, &c.g[gi], t0, t1, &out->g[gi]);
		stats_acc_free(&c.g[gi].dur);
		free(c.g[gi].algbw);
		free(c.g[gi].busbw);
	}
	free(c.g);
	strpool_free(c.local);
	hmap_free(&c.coll_of);
	hmap_free(&c.known_of);
	hmap_free(&c.by_key);
	free(idx);
}

void
commgrp_add(struct commgrp_set *set, const struct commgrp *g)
{
	struct commgrp	*n;

	XGROW(set->g, set->cap, set->n + 1);
	n = &set->g[set->n++];
	*n = *g;
	n->coll = xstrdup(g->coll);
	n->pg = g->pg != NULL ? xstrdup(g->pg) : NULL;
	set->total += g->total;
}

void
commgrp_set_free(struct commgrp_set *set)
{
	XFREE_EACH(set->g, set->n, coll);
	XFREE_EACH(set->g, set->n, pg);
	free(set->g);
	memset(set, 0, sizeof *set);
}

void
commgrp_job_init(struct commgrp_job *j)
{
	memset(j, 0, sizeof *j);
	j->taken = xmalloc(sizeof *j->taken);
	hmap_init(j->taken);
}

void
commgrp_job_add(struct commgrp_job *j, int rank, const uint32_t *gpu,
    size_t ngpu, const struct commgrp_set *rs)
{
	struct commgrp	 g;
	uint32_t	*to, id, base, v;
	size_t		 i, k;

	/* merge_devices: the first free id from the source's. */
	to = xcalloc(ngpu + 1, sizeof *to);
	base = 1000 * (uint32_t)(rank >= 0 ? rank + 1 : 1);
	for (i = 0; i < ngpu; i++) {
		id = gpu[i];
		while (hmap_get(j->taken, id, &v))
			id = id < base ? base + gpu[i] : id + 1;
		hmap_put(j->taken, id, 1);
		to[i] = id;
	}
	for (i = 0; i < rs->n; i++) {
		g = rs->g[i];
		g.rank = rank >= 0 ? rank : g.rank;
		for (k = 0; k < ngpu && g.device >= 0; k++)
			if ((int64_t)gpu[k] == g.device) {
				g.device = to[k];
				break;
			}
		commgrp_add(&j->set, &g);
	}
	free(to);
}

void
commgrp_job_free(struct commgrp_job *j)
{
	commgrp_set_free(&j->set);
	if (j->taken != NULL) {
		hmap_free(j->taken);
		free(j->taken);
	}
	memset(j, 0, sizeof *j);
}
