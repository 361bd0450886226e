/*
 * jobdiff: a job's diff figures from its ranks' summaries (jobdiff.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strpool.h"
#include "util/xmalloc.h"
#include "analysis/comm.h"
#include "analysis/jobdiff.h"

void
jobdiff_init(struct jobdiff *d)
{
	memset(d, 0, sizeof *d);
	d->names = strpool_new();
	hmap_init(&d->kern_at);
	hmap_init(&d->comm_at);
}

static void
jobdiff_put(struct jobdiff *d, struct hmap *at, struct jobdiff_agg **a,
    size_t *n, size_t *cap, const char *name, uint64_t count, int64_t ns)
{
	uint32_t	sid = strpool_intern0(d->names, name), v;

	if (!hmap_get(at, sid, &v)) {
		v = (uint32_t)*n;
		XGROW(*a, *cap, *n + 1);
		(*a)[v].name = sid;
		(*a)[v].count = 0;
		(*a)[v].total_ns = 0;
		(*n)++;
		hmap_put(at, sid, v);
	}
	(*a)[v].count += count;
	(*a)[v].total_ns += ns;
}

void
jobdiff_add(struct jobdiff *d, const struct ranksum *s)
{
	char	coll[128];
	size_t	i;

	for (i = 0; i < s->nkall; i++)
		jobdiff_put(d, &d->kern_at, &d->kern, &d->nkern, &d->kcap,
		    s->names[s->kall[i].name], s->kall[i].count,
		    s->kall[i].total_ns);
	for (i = 0; i < s->nkcomm; i++) {
		comm_collective(s->names[s->kcomm[i].name], coll,
		    sizeof coll);
		jobdiff_put(d, &d->comm_at, &d->comm, &d->ncomm, &d->ccap,
		    coll, s->kcomm[i].count, s->kcomm[i].total_ns);
	}
	for (i = 0; i < s->ncopy; i++) {
		if (s->copy[i].kind == RANKSUM_MEMSET) {
			d->memset_n += s->copy[i].count;
			d->memset_ns += s->copy[i].total_ns;
		} else if (s->copy[i].kind < COPY_KIND_COUNT) {
			d->copy_n[s->copy[i].kind] += s->copy[i].count;
			d->copy_ns[s->copy[i].kind] += s->copy[i].total_ns;
		}
	}
	if (s->niter > 0 && d->marker == NULL)
		d->marker = xstrdup(s->marker);
	for (i = 0; i < s->niter; i++) {
		XGROW(d->iter, d->icap, d->niter + 1);
		d->iter[d->niter++] = s->iter[2 * i + 1] - s->iter[2 * i];
	}
	d->gpus += s->act_ndev;
	d->busy += s->act_busy;
	d->compute += s->act_compute;
	d->comm_ns += s->act_comm;
	d->exposed += s->act_exposed;
}

const char *
jobdiff_name(const struct jobdiff *d, uint32_t sid)
{
	return strpool_get(d->names, sid);
}

void
jobdiff_free(struct jobdiff *d)
{
	strpool_free(d->names);
	free(d->kern);
	free(d->comm);
	hmap_free(&d->kern_at);
	hmap_free(&d->comm_at);
	free(d->marker);
	free(d->iter);
	memset(d, 0, sizeof *d);
}
