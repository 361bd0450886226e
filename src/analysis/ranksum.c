/*
 * ranksum: the summary of one rank's trace (ranksum.h), built from its
 * model by the analyses.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/iters.h"
#include "analysis/ranksum.h"
#include "analysis/rankscan.h"
#include "model/lane.h"
#include "util/hmap.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

/* The trace's own rank: metadata's, else NVTX text's (multi.h's order);
 * whether it holds several. */
static void
ranksum_stated(const struct model *m, const struct rank_setup *setup,
    struct ranksum *s)
{
	size_t	i;
	int	r = -1;

	s->stated_rank = -1;
	for (i = 0; i < m->nprocesses; i++) {
		if (m->processes[i].rank < 0)
			continue;
		if (r >= 0 && m->processes[i].rank != r)
			s->several = 1;
		r = m->processes[i].rank;
		if (s->stated_rank < 0)
			s->stated_rank = r;
	}
	for (i = 0; i < m->nprocesses && s->stated_rank < 0; i++)
		s->stated_rank = setup[i].rank;
}

/* Per device of the rank's GPU tracks: busy, and idle over the span. */
static void
ranksum_devices(const struct model *m, struct ranksum *s)
{
	uint8_t		*seen;
	size_t		 t, cap = 0;
	int64_t		 span, busy;
	uint32_t	 d;

	span = s->last > s->first ? s->last - s->first : 0;
	seen = xcalloc(m->ndevices + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->lane.n == 0 ||
		    tr->process >= m->nprocesses)
			continue;
		d = tr->device;
		if (d >= m->ndevices || seen[d])
			continue;
		seen[d] = 1;
		busy = m->device_cov != NULL ? busy_device_total(m, d) : 0;
		XGROW(s->dev, cap, s->ndev + 1);
		s->dev[s->ndev].id = m->devices[d].source_id;
		s->dev[s->ndev].busy = busy;
		s->dev[s->ndev].idle = span > busy ? span - busy : 0;
		s->ndev++;
	}
	free(seen);
}

/* A kernel with its name, for sorting. */
struct ranksum_named {
	struct ranksum_kern	 k;
	const char		*name;
};

static int
ranksum_named_cmp(const void *a, const void *b)
{
	const struct ranksum_named	*x = a, *y = b;

	if (x->k.total_ns != y->k.total_ns)
		return x->k.total_ns > y->k.total_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The RANKSUM_TOPK kernels of the rank's GPU tracks by total time. */
static void
ranksum_top(const struct model *m, struct strpool *pool, struct ranksum *s)
{
	struct hmap		 at;
	struct ranksum_named	*k = NULL;
	size_t			 t, i, nk = 0, cap = 0;
	uint32_t		 v;

	hmap_init(&at);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type != TRACK_GPU || tr->process >= m->nprocesses)
			continue;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL)
				continue;
			if (!hmap_get(&at, l->name[i], &v)) {
				v = (uint32_t)nk;
				XGROW(k, cap, nk + 1);
				k[nk].name = model_str(m, l->name[i]);
				k[nk].k.count = 0;
				k[nk].k.total_ns = 0;
				nk++;
				hmap_put(&at, l->name[i], v);
			}
			k[v].k.count++;
			k[v].k.total_ns = sat_add64(k[v].k.total_ns,
			    l->end[i] - l->start[i]);
		}
	}
	hmap_free(&at);
	if (nk > 1)
		qsort(k, nk, sizeof *k, ranksum_named_cmp);
	s->ntop = nk < RANKSUM_TOPK ? nk : RANKSUM_TOPK;
	s->top = xcalloc(s->ntop + 1, sizeof *s->top);
	for (i = 0; i < s->ntop; i++) {
		s->top[i] = k[i].k;
		s->top[i].name = strpool_intern0(pool, k[i].name);
	}
	free(k);
}

void
ranksum_build(const struct model *m, struct ranksum *s)
{
	struct strpool		*pool = strpool_new();
	struct rankscan		 rs;
	struct rankscan_rank	*r;
	struct iters		 it;
	char			*why = NULL, buf[RANKSETUP_AXES * 32];
	size_t			 i, cap = 0;
	uint32_t		 p;

	memset(s, 0, sizeof *s);
	s->source = m->source;
	s->origin_ns = m->origin_ns;
	s->end_ns = m->end_ns;
	s->utc_epoch_ns = m->utc_epoch_ns;
	s->nevents = m->nevents;
	s->nvtx_rank = -1;
	s->first = INT64_MAX;
	s->last = INT64_MIN;
	rankscan_build(m, RANKSCAN_ONE | RANKSCAN_BYTES, pool, &rs);
	ranksum_stated(m, rs.setup, s);
	buf[0] = '\0';
	if (rs.nr == 1) {
		r = &rs.r[0];
		p = r->process;
		s->nprocs = (uint32_t)m->nprocesses;
		s->pid = m->processes[p].pid;
		s->has_pname = m->processes[p].name != 0;
		s->pname = xstrdup(model_str(m, m->processes[p].name));
		s->host = xstrdup(model_host(m, p) != NULL ?
		    model_host(m, p) : "");
		s->nvtx_rank = rs.setup[p].rank;
		if (s->nvtx_rank >= 0)
			ranksetup_text(&rs.setup[p], buf, sizeof buf);
		s->gpus = r->gpus;
		s->first = r->first;
		s->last = r->last;
		s->busy = r->busy;
		s->kernel_ns = r->kernel_ns;
		s->comm_ns = r->comm_ns;
		s->kernels = r->kernels;
		s->comm = r->comm;
		s->mpi_ns = r->mpi_ns;
		s->mpi_calls = r->mpi_calls;
		s->nc = r->nc;
		s->c = xcalloc(r->nc + 1, sizeof *s->c);
		for (i = 0; i < r->nc; i++) {
			s->c[i].coll = r->c[i].coll;
			s->c[i].start = r->c[i].start;
			s->c[i].end = r->c[i].end;
			s->c[i].bytes = r->c[i].bytes;
		}
	} else {
		s->pname = xstrdup("");
		s->host = xstrdup("");
	}
	s->parallel = xstrdup(buf);
	rankscan_free(&rs);

	memset(&it, 0, sizeof it);
	if (iters_find(m, NULL, &it, &why) == 0)
		for (i = 0; i < it.n; i++) {
			if (it.v[i].process >= m->nprocesses)
				continue;
			XGROW(s->iter, cap, 2 * s->niter + 2);
			s->iter[2 * s->niter] = it.v[i].start;
			s->iter[2 * s->niter + 1] = it.v[i].end;
			s->niter++;
		}
	free(why);
	s->marker = xstrdup(it.marker != NULL ? it.marker : "");
	iters_free(&it);

	ranksum_devices(m, s);
	ranksum_top(m, pool, s);
	ranksum_agg(m, pool, s);
	s->nnames = strpool_count(pool);
	s->names = xcalloc(s->nnames + 1, sizeof *s->names);
	for (i = 0; i < s->nnames; i++)
		s->names[i] = xstrdup(strpool_get(pool, (uint32_t)i));
	strpool_free(pool);
}

void
ranksum_free(struct ranksum *s)
{
	xfree_strv(s->names, s->nnames);
	free(s->pname);
	free(s->host);
	free(s->parallel);
	free(s->marker);
	free(s->iter);
	free(s->c);
	free(s->dev);
	free(s->top);
	free(s->gpu);
	commgrp_set_free(&s->cg);
	free(s->kall);
	free(s->kcomm);
	free(s->copy);
	memset(s, 0, sizeof *s);
}
