/*
 * flops: operator FLOPs onto kernels (flops.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/flops.h"
#include "analysis/peak.h"
#include "model/correlate.h"
#include "model/lane.h"
#include "util/xmalloc.h"

/*
 * Calls fn on every kernel launched from api track a during [s, e).
 */
static void
flops_kernels(const struct model *m, uint32_t a, int64_t s, int64_t e,
    void (*fn)(void *, uint32_t), void *arg)
{
	const struct lane	*l = &m->tracks[a].lane;
	const uint32_t		*g;
	size_t			 i, n, j;

	for (i = lane_lower(l, s); i < l->n && l->start[i] < e; i++) {
		n = correlate_gpu(m, model_gid(m, a, (uint32_t)i), &g);
		for (j = 0; j < n; j++)
			if (model_ev_kind(m, g[j]) == EV_KERNEL)
				fn(arg, g[j]);
	}
}

struct flops_walk {
	const struct model	*m;
	struct flops_op		*o;
	uint32_t		*k;
	size_t			 nk, kcap;
};

static void
flops_see(void *arg, uint32_t gid)
{
	struct flops_walk	*w = arg;
	struct evref		 r = model_ev(w->m, gid);
	const struct lane	*l = &w->m->tracks[r.track].lane;

	if (w->o->nkernels == 0)
		w->o->device = w->m->tracks[r.track].device;
	w->o->nkernels++;
	w->o->gpu_ns = sat_add64(w->o->gpu_ns, l->end[r.idx] - l->start[r.idx]);
	XGROW(w->k, w->kcap, w->nk + 1);
	w->k[w->nk++] = gid;
}

void
flops_compute(const struct model *m, double peak_tflops,
    struct flops_result *r)
{
	struct flops_walk	 w;
	const struct peak_row	*pr;
	const struct lane	*l;
	struct flops_op		*o;
	struct flops_kern	*fk;
	uint32_t		*opof, *api, t, aux, g, p;
	size_t			 i, j, k0, kcap = 0;
	struct evref		 ev;
	double			 f, share;
	int64_t			 d;

	memset(r, 0, sizeof *r);
	if (m->nops == 0)
		return;
	r->nops = m->nops;
	r->ops = xcalloc(m->nops, sizeof *r->ops);
	opof = xcalloc(m->nnvtx + 1, sizeof *opof);
	for (i = 0; i < m->nnvtx; i++)
		opof[i] = NONE32;
	for (i = 0; i < m->nops; i++) {
		r->ops[i].op = (uint32_t)i;
		r->ops[i].gid = NONE32;
		r->ops[i].counted = 1;
		r->ops[i].device = NONE32;
		r->ops[i].dtype = m->ops[i].dtype != 0 ?
		    peak_dtype_of(model_str(m, m->ops[i].dtype)) : PD_UNKNOWN;
		if (m->ops[i].nvtx < m->nnvtx)
			opof[m->ops[i].nvtx] = (uint32_t)i;
	}
	/* The operators' events; the API track of each thread. */
	api = xcalloc(m->nthreads + 1, sizeof *api);
	for (i = 0; i <= m->nthreads; i++)
		api[i] = NONE32;
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type == TRACK_API &&
		    m->tracks[t].thread < m->nthreads &&
		    api[m->tracks[t].thread] == NONE32)
			api[m->tracks[t].thread] = t;
		if (m->tracks[t].type != TRACK_NVTX)
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if ((aux = l->aux[i]) != NONE32 && aux < m->nnvtx &&
			    opof[aux] != NONE32)
				r->ops[opof[aux]].gid = model_gid(m, t,
				    (uint32_t)i);
	}
	/* Outer operators are not counted. */
	for (i = 0; i < r->nops; i++) {
		if (r->ops[i].gid == NONE32) {
			r->ops[i].counted = 0;
			continue;
		}
		aux = m->ops[i].nvtx;
		while ((g = m->nvtx[aux].parent) != NONE32) {
			ev = model_ev(m, g);
			aux = m->tracks[ev.track].lane.aux[ev.idx];
			if (aux == NONE32 || aux >= m->nnvtx)
				break;
			if ((p = opof[aux]) != NONE32)
				r->ops[p].counted = 0;
		}
	}
	/* Kernels, FLOPs shares and peaks. */
	memset(&w, 0, sizeof w);
	w.m = m;
	for (i = 0; i < r->nops; i++) {
		o = &r->ops[i];
		if (o->gid == NONE32)
			continue;
		ev = model_ev(m, o->gid);
		t = api[m->tracks[ev.track].thread < m->nthreads ?
		    m->tracks[ev.track].thread : m->nthreads];
		w.o = o;
		k0 = w.nk = 0;
		if (t != NONE32 && m->launch != NULL)
			flops_kernels(m, t, model_ev_start(m, o->gid),
			    model_ev_end(m, o->gid), flops_see, &w);
		pr = peak_lookup(m, o->device);
		o->peak = peak_tflops > 0 ? peak_tflops : pr != NULL ?
		    pr->tflops[o->dtype] : 0;
		if (!o->counted)
			continue;
		f = m->ops[i].flops;
		r->ncounted++;
		r->total += f;
		if (o->peak <= 0)
			r->nunpeaked++;
		for (j = k0; j < w.nk; j++) {
			d = model_ev_end(m, w.k[j]) - model_ev_start(m,
			    w.k[j]);
			share = o->gpu_ns > 0 ? f * (double)d /
			    (double)o->gpu_ns : f / (double)w.nk;
			XGROW(r->kern, kcap, r->nkern + 1);
			fk = &r->kern[r->nkern++];
			fk->gid = w.k[j];
			fk->op = (uint32_t)i;
			fk->flops = share;
			/* TFLOP/s = 1e3 FLOP/ns. */
			fk->peak_ns = o->peak > 0 ? share / (o->peak * 1e3) : 0;
			r->total_peak_ns += fk->peak_ns;
		}
	}
	free(w.k);
	free(api);
	free(opof);
}

void
flops_free(struct flops_result *r)
{
	free(r->ops);
	free(r->kern);
	memset(r, 0, sizeof *r);
}
