/*
 * merge-host: the host tables of a merge (merge-int.h): call chains and CPU
 * samples (callchain.h), and thread scheduling (model.h's sched_*), carried
 * into the merged model as the events are: strings re-interned, threads
 * renumbered, times shifted by the input's clock shift, thread source ids
 * kept unique (merge_gtid). Frames and chains are stored once
 * (cpusamp_frame, cpusamp_add_chain); an input's chain c is merged chain
 * g->chmap[c].
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/callchain.h"
#include "model/merge-int.h"
#include "util/sort.h"
#include "util/xmalloc.h"

uint64_t
merge_gtid(struct merge *g, uint64_t id)
{
	uint32_t	k, one;
	uint64_t	v;

	if (hmap_get(&g->gtid_salt, id, &k))
		return id + ((uint64_t)k << 56);
	for (k = 0; k < 256; k++) {
		v = id + ((uint64_t)k << 56);
		if (!hmap_get(&g->gtid_taken, v, &one))
			break;
	}
	if (k == 256)			/* 256 threads of one id: keep it */
		k = 0;
	v = id + ((uint64_t)k << 56);
	hmap_put(&g->gtid_salt, id, k);
	hmap_put(&g->gtid_taken, v, 1);
	return v;
}

/* Whether n more fit 32-bit indices after have. */
static int
merge_fits(size_t have, size_t n)
{
	return (uint64_t)have + n < (uint64_t)UINT32_MAX;
}

/* Frames and chains through the merged model's maps: equal ones are
 * stored once, whichever input has them. */
static void
merge_chains(struct merge *g)
{
	const struct cpusamp	*a = &g->in->cs;
	struct cpusamp		*c = &g->out->cs;
	uint32_t		*fmap, *run = NULL;
	size_t			 i, k, n, cap = 0;

	g->chmap = xreallocarray(NULL, a->nchains + 1, sizeof *g->chmap);
	if (a->nchains == 0)
		return;
	fmap = xreallocarray(NULL, a->nframes + 1, sizeof *fmap);
	for (i = 0; i < a->nframes; i++)
		fmap[i] = cpusamp_frame(c, &g->csb, merge_sid(g,
		    a->frame[i].func), merge_sid(g, a->frame[i].module));
	for (i = 0; i < a->nchains; i++) {
		n = a->off[i + 1] - a->off[i];
		XGROW(run, cap, n + 1);
		for (k = 0; k < n; k++)
			run[k] = fmap[a->fr[a->off[i] + k]];
		g->chmap[i] = cpusamp_add_chain(c, &g->csb, run, n);
	}
	free(run);
	free(fmap);
}

static void
merge_samples(struct merge *g)
{
	const struct model	*in = g->in;
	const struct cpusamp	*a = &in->cs;
	struct cpusamp		*c = &g->out->cs;
	size_t			 thbase = c->nth, sbase = c->ns, i;
	struct csthread		 h;
	struct csample		 s;

	if (a->nth == 0 || !merge_fits(c->nth, a->nth) ||
	    !merge_fits(c->ns, a->ns))
		return;
	XGROW(c->th, g->cthcap, c->nth + a->nth);
	for (i = 0; i < a->nth; i++) {
		h = a->th[i];
		h.source_id = merge_gtid(g, h.source_id);
		h.name = merge_sid(g, h.name);
		h.thread = h.thread < in->nthreads ? g->tmap[h.thread] : NONE32;
		h.first = (uint32_t)(sbase + h.first);
		c->th[c->nth++] = h;
	}
	if (a->ns == 0)
		return;
	XGROW(c->s, g->scap, c->ns + a->ns);
	for (i = 0; i < a->ns; i++) {
		s = a->s[i];
		s.t = sat_add64(s.t, g->shift);
		s.chain = s.chain < a->nchains ? g->chmap[s.chain] : NONE32;
		s.sthread = (uint32_t)(thbase + s.sthread);
		c->s[c->ns++] = s;
	}
}

static void
merge_sched(struct merge *g)
{
	const struct model	*in = g->in;
	struct model		*m = g->out;
	size_t			 tbase = m->nsched_threads;
	size_t			 rbase = m->nsched_runs, i;
	struct sched_thread	 t;
	struct sched_run	 r;

	if (in->nsched_threads == 0 ||
	    !merge_fits(m->nsched_threads, in->nsched_threads) ||
	    !merge_fits(m->nsched_runs, in->nsched_runs))
		return;
	XGROW(m->sched_threads, g->schcap, m->nsched_threads +
	    in->nsched_threads);
	for (i = 0; i < in->nsched_threads; i++) {
		t = in->sched_threads[i];
		t.source_id = merge_gtid(g, t.source_id);
		t.name = merge_sid(g, t.name);
		t.pname = merge_sid(g, t.pname);
		t.run0 = (uint32_t)(rbase + t.run0);
		m->sched_threads[m->nsched_threads++] = t;
	}
	if (in->nsched_runs == 0)
		return;
	XGROW(m->sched_runs, g->runcap, m->nsched_runs + in->nsched_runs);
	for (i = 0; i < in->nsched_runs; i++) {
		r = in->sched_runs[i];
		r.start = sat_add64(r.start, g->shift);
		r.end = sat_add64(r.end, g->shift);
		r.thread = (uint32_t)(tbase + r.thread);
		m->sched_runs[m->nsched_runs++] = r;
	}
}

void
merge_host(struct merge *g)
{
	merge_chains(g);
	merge_samples(g);
	merge_sched(g);
}

static int
merge_sched_cmp(const void *a, const void *b, void *ctx)
{
	const struct sched_thread	*th = ctx;
	uint32_t			 x = *(const uint32_t *)a;
	uint32_t			 y = *(const uint32_t *)b;

	if (th[x].source_id != th[y].source_id)
		return th[x].source_id < th[y].source_id ? -1 : 1;
	return x < y ? -1 : x > y;
}

void
merge_host_finish(struct merge *g)
{
	struct model		*m = g->out;
	struct sched_thread	*sorted;
	uint32_t		*ord, *inv;
	size_t			 i, n = m->nsched_threads;

	if (n < 2)
		return;
	ord = xreallocarray(NULL, n, sizeof *ord);
	inv = xreallocarray(NULL, n, sizeof *inv);
	for (i = 0; i < n; i++)
		ord[i] = (uint32_t)i;
	sort_stable(ord, n, sizeof *ord, merge_sched_cmp, m->sched_threads);
	sorted = xreallocarray(NULL, n, sizeof *sorted);
	for (i = 0; i < n; i++) {
		sorted[i] = m->sched_threads[ord[i]];
		inv[ord[i]] = (uint32_t)i;
	}
	for (i = 0; i < m->nsched_runs; i++)
		m->sched_runs[i].thread = inv[m->sched_runs[i].thread];
	free(m->sched_threads);
	m->sched_threads = sorted;
	free(ord);
	free(inv);
}
