/*
 * ranksum-agg: the parts of a rank summary that `comm` and `diff` of a
 * job are answered from (ranksum.h): the devices the merge keeps
 * (merge.h: those its streams or tracks use), the communication groups
 * (commgrp.h, the whole trace), every GPU kernel by name with its count
 * and total (and, apart, those flagged communication, which `diff`
 * groups by collective), memcpys by kind and memsets, and the busy,
 * compute and communication time of its devices (activity.h). A rank has few of
 * each, so the summary stays a few KB.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/strpool.h"
#include "util/xmalloc.h"
#include "model/lane.h"
#include "analysis/activity.h"
#include "analysis/commgrp.h"
#include "analysis/ranksum.h"
#include "analysis/stats.h"

static void
ranksum_gpus(const struct model *m, struct ranksum *s)
{
	uint8_t	*used;
	size_t	 i;

	used = model_devices_used(m);
	s->gpu = xcalloc(m->ndevices + 1, sizeof *s->gpu);
	for (i = 0; i < m->ndevices; i++)
		if (used[i])
			s->gpu[s->ngpu++] = m->devices[i].source_id;
	free(used);
}

/* Adds an event of name sid and duration dur to the aggregate of its
 * name in *k (at maps model sid -> index). */
static void
ranksum_kadd(const struct model *m, struct strpool *pool, struct hmap *at,
    struct ranksum_kern **k, size_t *nk, size_t *cap, uint32_t sid,
    int64_t dur)
{
	uint32_t	v;

	if (!hmap_get(at, sid, &v)) {
		v = (uint32_t)*nk;
		XGROW(*k, *cap, *nk + 1);
		(*k)[v].name = strpool_intern0(pool, model_str(m, sid));
		(*k)[v].count = 0;
		(*k)[v].total_ns = 0;
		(*nk)++;
		hmap_put(at, sid, v);
	}
	(*k)[v].count++;
	(*k)[v].total_ns += dur;
}

static void
ranksum_kernels(const struct model *m, struct strpool *pool,
    struct ranksum *s)
{
	struct hmap	 all, comm;
	struct ranksum_copy cp[COPY_KIND_COUNT + 1];
	const struct track *tr;
	size_t		 t, i, acap = 0, ccap = 0;
	int64_t		 dur;
	int		 ck;

	hmap_init(&all);
	hmap_init(&comm);
	memset(cp, 0, sizeof cp);
	for (t = 0; (tr = model_track_next(m, TRACK_GPU, &t)) != NULL; t++) {
		const struct lane *l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			dur = l->end[i] - l->start[i];
			switch (l->kind[i]) {
			case EV_KERNEL:
				ranksum_kadd(m, pool, &all, &s->kall,
				    &s->nkall, &acap, l->name[i], dur);
				if (l->flags[i] & EVF_COMM)
					ranksum_kadd(m, pool, &comm,
					    &s->kcomm, &s->nkcomm, &ccap,
					    l->name[i], dur);
				break;
			case EV_MEMCPY:
				ck = l->aux[i] < m->ncopies &&
				    m->copies[l->aux[i]].kind <
				    COPY_KIND_COUNT ?
				    m->copies[l->aux[i]].kind : COPY_UNKNOWN;
				cp[ck].count++;
				cp[ck].total_ns += dur;
				break;
			case EV_MEMSET:
				cp[COPY_KIND_COUNT].count++;
				cp[COPY_KIND_COUNT].total_ns += dur;
				break;
			}
		}
	}
	hmap_free(&all);
	hmap_free(&comm);
	s->copy = xcalloc(COPY_KIND_COUNT + 2, sizeof *s->copy);
	for (ck = 0; ck <= COPY_KIND_COUNT; ck++) {
		if (cp[ck].count == 0)
			continue;
		s->copy[s->ncopy] = cp[ck];
		s->copy[s->ncopy].kind = ck == COPY_KIND_COUNT ?
		    RANKSUM_MEMSET : (uint32_t)ck;
		s->ncopy++;
	}
}

/* Busy, compute, communication and exposed communication time summed
 * over the devices in use, over the trace (diff's side figures). */
static void
ranksum_activity(const struct model *m, struct ranksum *s)
{
	struct activity		a;
	struct act_window	w;

	activity_build(&a, m);
	activity_total(&a, m->origin_ns, m->end_ns, &w);
	s->act_ndev = (uint32_t)a.ndev;
	s->act_busy = w.busy;
	s->act_compute = w.compute;
	s->act_comm = w.comm;
	s->act_exposed = w.exposed;
	activity_free(&a);
}

void
ranksum_agg(const struct model *m, struct strpool *pool, struct ranksum *s)
{
	ranksum_gpus(m, s);
	/* The window `comm` takes by default (select.h). */
	commgrp_build(m, m->origin_ns, m->end_ns + 1, NULL, &s->cg);
	ranksum_kernels(m, pool, s);
	ranksum_activity(m, s);
}
