/*
 * merge: several finished models into one (merge.h has the contract).
 *
 * Each input is copied in one pass over its arrays and freed before the
 * next is read, so the peak is the merged model plus the largest input
 * still to copy (plus the ones not yet merged, which the caller holds).
 * String ids are mapped lazily through a per-input table (one interning
 * per distinct string actually referred to). Lanes are copied event by
 * event through lane_push() (so whatever storage the lane uses for row
 * ids, it chooses again), rewriting the name and aux of each.
 * model_finalize() then rebuilds every derived structure; lanes are
 * already sorted, so lane_finalize() does no sorting.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "model/merge.h"
#include "model/merge-int.h"
#include "util/xmalloc.h"

#define MERGE_RENUMBER	1000	/* device id base of a renumbered GPU */

uint32_t
merge_sid(struct merge *g, uint32_t sid)
{
	if (sid == 0 || sid >= g->nstr)
		return 0;
	if (g->smap[sid] == NONE32)
		g->smap[sid] = strpool_intern(g->out->strs,
		    strpool_get(g->in->strs, sid),
		    strpool_len(g->in->strs, sid));
	return g->smap[sid];
}

static uint32_t
merge_idx(const uint32_t *map, size_t n, uint32_t i)
{
	return i < n && map != NULL ? map[i] : NONE32;
}

static void
merge_meta(struct merge *g, const char *key, const char *value)
{
	model_set_meta(g->out, &g->metacap, key, value);
}

static void
merge_devices(struct merge *g, int rank)
{
	const struct model	*in = g->in;
	struct model		*m = g->out;
	uint8_t			*used;
	struct device		 d;
	size_t			 i, j;
	uint32_t		 id, base;
	int			 taken;

	used = model_devices_used(in);
	for (i = 0; i < in->ndevices; i++) {
		g->dmap[i] = NONE32;
		if (!used[i])
			continue;
		d = in->devices[i];
		d.name = merge_sid(g, d.name);
		d.uuid = merge_sid(g, d.uuid);
		d.bus = merge_sid(g, d.bus);
		d.chip = merge_sid(g, d.chip);
		d.vendor = merge_sid(g, d.vendor);
		d.process = merge_idx(g->pmap, in->nprocesses, d.process);
		id = d.source_id;
		base = MERGE_RENUMBER * (uint32_t)(rank >= 0 ? rank + 1 : 1);
		do {
			taken = 0;
			for (j = 0; j < m->ndevices; j++)
				if (m->devices[j].source_id == id)
					taken = 1;
			if (taken)
				id = id < base ? base + d.source_id : id + 1;
		} while (taken);
		if (id != d.source_id)
			model_warn(m, "rank %d: GPU %u shown as device %u (an "
			    "earlier rank has a GPU %u)", rank, d.source_id, id,
			    d.source_id);
		d.source_id = id;
		g->dmap[i] = (uint32_t)XPUSH(m->devices, g->devcap,
		    m->ndevices, d);
	}
	free(used);
}

static void
merge_entities(struct merge *g, int rank, int several)
{
	const struct model	*in = g->in;
	struct model		*m = g->out;
	size_t			 i;
	char			*s;
	const char		*h;

	for (i = 0; i < in->nprocesses; i++) {
		struct process p = in->processes[i];
		if (several && rank >= 0) {
			s = xasprintf("rank %d%s%s", rank, p.name != 0 ? " " :
			    "", strpool_get(in->strs, p.name));
			p.name = strpool_intern0(m->strs, s);
			free(s);
		} else
			p.name = merge_sid(g, p.name);
		/* Its trace's host (an nsys export names it once). */
		h = model_host(in, (uint32_t)i);
		p.host = h != NULL ? strpool_intern0(m->strs, h) : 0;
		if (rank >= 0)
			p.rank = rank;
		g->pmap[i] = (uint32_t)XPUSH(m->processes, g->proccap,
		    m->nprocesses, p);
	}
	merge_devices(g, rank);
	for (i = 0; i < in->nthreads; i++) {
		struct thread t = in->threads[i];
		t.source_id = merge_gtid(g, t.source_id);
		t.process = merge_idx(g->pmap, in->nprocesses, t.process);
		t.name = merge_sid(g, t.name);
		g->tmap[i] = (uint32_t)XPUSH(m->threads, g->thrcap,
		    m->nthreads, t);
	}
	for (i = 0; i < in->nstreams; i++) {
		struct stream st = in->streams[i];
		st.device = merge_idx(g->dmap, in->ndevices, st.device);
		st.process = merge_idx(g->pmap, in->nprocesses, st.process);
		st.name = merge_sid(g, st.name);
		g->stmap[i] = (uint32_t)XPUSH(m->streams, g->strcap,
		    m->nstreams, st);
	}
	for (i = 0; i < in->ndomains; i++) {
		struct domain d = in->domains[i];
		if (i == 0) {
			g->dommap[0] = 0;	/* the shared default domain */
			continue;
		}
		d.process = merge_idx(g->pmap, in->nprocesses, d.process);
		d.name = merge_sid(g, d.name);
		g->dommap[i] = (uint32_t)XPUSH(m->domains, g->domcap,
		    m->ndomains, d);
	}
}

/* Kernels, copies, NVTX records and counters; returns their offsets. */
static void
merge_side(struct merge *g, size_t off[4])
{
	const struct model	*in = g->in;
	struct model		*m = g->out;
	size_t			 i;

	off[0] = m->nkernels;
	if (in->nkernels > 0) {
		XGROW(m->kernels, g->kcap, m->nkernels + in->nkernels);
		for (i = 0; i < in->nkernels; i++) {
			struct kernel_info k = in->kernels[i];
			k.short_name = merge_sid(g, k.short_name);
			k.mangled = merge_sid(g, k.mangled);
			k.comm_coll = merge_sid(g, k.comm_coll);
			k.comm_dtype = merge_sid(g, k.comm_dtype);
			k.comm_pg_name = merge_sid(g, k.comm_pg_name);
			k.comm_pg_desc = merge_sid(g, k.comm_pg_desc);
			k.comm_pg_ranks = merge_sid(g, k.comm_pg_ranks);
			m->kernels[m->nkernels++] = k;
		}
	}
	off[1] = m->ncopies;
	if (in->ncopies > 0) {
		XGROW(m->copies, g->ccap, m->ncopies + in->ncopies);
		memcpy(m->copies + m->ncopies, in->copies, in->ncopies *
		    sizeof *in->copies);
		m->ncopies += in->ncopies;
	}
	off[2] = m->nnvtx;
	if (in->nnvtx > 0) {
		XGROW(m->nvtx, g->ncap, m->nnvtx + in->nnvtx);
		for (i = 0; i < in->nnvtx; i++) {
			struct nvtx_info n = in->nvtx[i];
			n.domain = merge_idx(g->dommap, in->ndomains, n.domain);
			if (n.domain == NONE32)
				n.domain = 0;
			n.category_name = merge_sid(g, n.category_name);
			n.parent = NONE32;
			n.iter = 0;
			n.nchildren = 0;
			m->nvtx[m->nnvtx++] = n;
		}
	}
	off[3] = m->ncounters;
	if (in->ncounters > 0) {
		XGROW(m->counters, g->countcap, m->ncounters + in->ncounters);
		memcpy(m->counters + m->ncounters, in->counters,
		    in->ncounters * sizeof *in->counters);
		m->ncounters += in->ncounters;
	}
	if (in->nops > 0) {
		XGROW(m->ops, g->opcap, m->nops + in->nops);
		for (i = 0; i < in->nops; i++) {
			struct op_info o = in->ops[i];
			if (o.nvtx >= in->nnvtx)
				continue;
			o.nvtx = (uint32_t)(off[2] + o.nvtx);
			o.dtype = merge_sid(g, o.dtype);
			m->ops[m->nops++] = o;
		}
	}
}

static uint32_t
merge_aux(const struct merge *g, const struct track *tr, uint8_t kind,
    uint32_t aux, const size_t off[4])
{
	const struct model	*in = g->in;

	if (aux == NONE32)
		return NONE32;
	switch (kind) {
	case EV_KERNEL:
		return aux < in->nkernels ? (uint32_t)(off[0] + aux) : NONE32;
	case EV_MEMCPY:
	case EV_MEMSET:
		return aux < in->ncopies ? (uint32_t)(off[1] + aux) : NONE32;
	case EV_NVTX:
	case EV_MARK:
		if (tr->type != TRACK_NVTX)
			return NONE32;
		return aux < in->nnvtx ? (uint32_t)(off[2] + aux) : NONE32;
	case EV_COUNTER:
		return aux < in->ncounters ? (uint32_t)(off[3] + aux) : NONE32;
	case EV_API:
	case EV_OSRT:			/* a call chain (callchain.h) */
		return aux < in->cs.nchains ? g->chmap[aux] : NONE32;
	}
	return NONE32;
}

static void
merge_tracks(struct merge *g, const size_t off[4])
{
	const struct model	*in = g->in;
	struct model		*m = g->out;
	struct track		*t;
	const struct lane	*s;
	struct lane		*d;
	struct lane_event	 ev;
	size_t			 i, j, n;

	for (i = 0; i < in->ntracks; i++) {
		const struct track *src = &in->tracks[i];
		XGROW(m->tracks, g->trackcap, m->ntracks + 1);
		t = &m->tracks[m->ntracks++];
		*t = *src;
		t->device = merge_idx(g->dmap, in->ndevices, src->device);
		t->stream = merge_idx(g->stmap, in->nstreams, src->stream);
		t->process = merge_idx(g->pmap, in->nprocesses, src->process);
		t->thread = merge_idx(g->tmap, in->nthreads, src->thread);
		t->domain = src->type == TRACK_NVTX ? merge_idx(g->dommap,
		    in->ndomains, src->domain) : NONE32;
		if (src->type == TRACK_NVTX && t->domain == NONE32)
			t->domain = 0;
		t->name = merge_sid(g, src->name);
		lane_init(&t->lane);
		s = &src->lane;
		d = &t->lane;
		if ((n = s->n) == 0)
			continue;
		lane_reserve(d, n);
		for (j = 0; j < n; j++) {
			ev.start = sat_add64(s->start[j], g->shift);
			ev.end = sat_add64(s->end[j], g->shift);
			ev.name = merge_sid(g, s->name[j]);
			ev.kind = s->kind[j];
			ev.flags = s->flags[j];
			ev.rowid = lane_rowid(s, j);
			ev.corr = s->corr[j];
			ev.aux = merge_aux(g, src, s->kind[j], s->aux[j], off);
			lane_push(d, &ev);
		}
	}
}

static void
merge_one(struct merge *g, const struct merge_in *mi, int first, int several)
{
	const struct model	*in = mi->m;
	struct model		*m = g->out;
	size_t			 off[4], i;
	char			*key;

	g->in = in;
	g->shift = mi->shift_ns;
	g->nstr = strpool_count(in->strs);
	g->smap = xreallocarray(NULL, g->nstr + 1, sizeof *g->smap);
	memset(g->smap, 0xff, (g->nstr + 1) * sizeof *g->smap);
	g->dmap = xcalloc(in->ndevices + 1, sizeof *g->dmap);
	g->pmap = xcalloc(in->nprocesses + 1, sizeof *g->pmap);
	g->tmap = xcalloc(in->nthreads + 1, sizeof *g->tmap);
	g->stmap = xcalloc(in->nstreams + 1, sizeof *g->stmap);
	g->dommap = xcalloc(in->ndomains + 1, sizeof *g->dommap);
	hmap_init(&g->gtid_salt);

	if (first) {
		m->source = in->source;
		m->source_version = merge_sid(g, in->source_version);
		m->schema_version = merge_sid(g, in->schema_version);
		m->utc_epoch_ns = in->utc_epoch_ns;
		for (i = 0; i < in->nmeta; i++)
			merge_meta(g, strpool_get(in->strs, in->meta[i].key),
			    strpool_get(in->strs, in->meta[i].value));
	}
	merge_entities(g, mi->rank, several);
	merge_side(g, off);
	merge_host(g);
	merge_tracks(g, off);
	if (several) {
		key = xasprintf("rank.%d.trace", mi->rank);
		merge_meta(g, key, mi->label != NULL ? mi->label : "");
		free(key);
	}
	for (i = 0; i < in->nwarnings; i++) {
		if (several)
			model_warn(m, "rank %d: %s", mi->rank, in->warnings[i]);
		else
			model_warn(m, "%s", in->warnings[i]);
	}

	free(g->smap);
	free(g->dmap);
	free(g->pmap);
	free(g->tmap);
	free(g->stmap);
	free(g->dommap);
	hmap_free(&g->gtid_salt);
	free(g->chmap);
	g->chmap = NULL;
	g->in = NULL;
}

struct model *
merge_models(struct merge_in *in, size_t n, char **cause)
{
	struct merge	 g;
	struct model	*m;
	size_t		 i, len = 0;
	char		*list, tmp[24];
	int		 first = 1;

	memset(&g, 0, sizeof g);
	hmap_init(&g.gtid_taken);
	cpusamp_build_init(&g.csb);
	m = g.out = xcalloc(1, sizeof *m);
	m->strs = strpool_new();
	m->domains = xcalloc(1, sizeof *m->domains);
	m->domains[0].process = NONE32;
	m->ndomains = 1;
	g.domcap = 1;

	list = xcalloc(n * sizeof tmp + 1, 1);
	for (i = 0; i < n; i++) {
		if (in[i].m == NULL)
			continue;
		merge_one(&g, &in[i], first, n > 1);
		first = 0;
		model_free(in[i].m);
		in[i].m = NULL;
		snprintf(tmp, sizeof tmp, "%s%d", len > 0 ? "," : "",
		    in[i].rank);
		memcpy(list + len, tmp, strlen(tmp) + 1);
		len += strlen(tmp);
	}
	if (n > 1)
		merge_meta(&g, "ranks", list);
	free(list);
	merge_host_finish(&g);
	hmap_free(&g.gtid_taken);
	cpusamp_build_free(&g.csb);
	if (model_finalize(m, cause) != 0) {
		model_free(m);
		return NULL;
	}
	return m;
}
