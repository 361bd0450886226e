/*
 * phase-kernels: the per-phase kernel sums of the segmentation: the count,
 * clipped time and per-name counts and durations of the kernels (and
 * graphs) overlapping a phase (phase_kscan()), the name with the most time
 * in it and that name's short name (phase_kernels()). See phase-int.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/iset.h"
#include "model/lane.h"
#include "analysis/phase-int.h"
#include "util/xmalloc.h"

void
phase_kscan(struct phase_ctx *c, int64_t s, int64_t e, struct phase_kacc *a)
{
	const struct model	*m = c->m;
	const struct track	*tr;
	const struct lane	*l;
	size_t			 ns = strpool_count(m->strs) + 1, t, k, n, i;
	int64_t			 sp;
	uint32_t		 id;

	memset(a, 0, sizeof *a);
	a->s = s;
	a->e = e;
	a->ksum = xcalloc(ns, sizeof *a->ksum);
	a->kn = xcalloc(ns, sizeof *a->kn);
	for (t = 0; (tr = phase_next_track(c, TRACK_GPU, s, e, &t,
	    &n)) != NULL;) {
		l = &tr->lane;
		for (k = 0; k < n; k++) {
			i = phase_at(c, k);
			if (l->kind[i] != EV_KERNEL && l->kind[i] != EV_GRAPH)
				continue;
			sp = iset_span_in(l->start[i], l->end[i], s, e);
			a->kernels++;
			a->kernel_ns += sp;
			if ((id = l->name[i]) >= ns)
				continue;
			a->ksum[id] += (double)sp;
			a->kn[id].count++;
			a->kn[id].total += l->end[i] - l->start[i];
		}
	}
}

struct phase_kacc *
phase_kscan_window(const struct model *m, const struct phase_opts *po)
{
	struct phase_ctx	 c;
	struct phase_kacc	*a = xcalloc(1, sizeof *a);

	memset(&c, 0, sizeof c);
	c.m = m;
	/* The window as phase_detect() takes it. */
	c.t0 = po->t1 > po->t0 ? po->t0 : m->origin_ns;
	c.t1 = po->t1 > po->t0 ? po->t1 : m->end_ns;
	phase_kscan(&c, c.t0, c.t1, a);
	free(c.idx);
	return a;
}

void
phase_kacc_release(struct phase_kacc *a)
{
	if (a == NULL)
		return;
	phase_kacc_free(a);
	free(a);
}

/*
 * The short name of the last kernel named id overlapping [s, e) that has
 * one (in the order of the tracks and their events), or 0: a walk back
 * from the end, which reads a kernel's record (m->kernels, wide) only for
 * kernels of that name, not for every kernel.
 */
static uint32_t
ph_short(struct phase_ctx *c, int64_t s, int64_t e, uint32_t id)
{
	const struct model	*m = c->m;
	const struct lane	*l;
	size_t			 t, k, n, i;

	for (t = m->ntracks; t > 0; t--) {
		if (m->tracks[t - 1].type != TRACK_GPU)
			continue;
		l = &m->tracks[t - 1].lane;
		n = phase_lane(c, l, s, e);
		for (k = n; k > 0; k--) {
			i = phase_at(c, k - 1);
			if (l->name[i] == id && l->kind[i] == EV_KERNEL &&
			    l->aux[i] < m->nkernels &&
			    m->kernels[l->aux[i]].short_name != 0)
				return m->kernels[l->aux[i]].short_name;
		}
	}
	return 0;
}

void
phase_kacc_free(struct phase_kacc *a)
{
	free(a->ksum);
	free(a->kn);
	memset(a, 0, sizeof *a);
}

uint32_t
phase_kernels(struct phase_ctx *c, struct phase *p, uint32_t *shortn)
{
	struct phase_kacc	 a;
	size_t		 ns = strpool_count(c->m->strs) + 1;
	uint32_t	 id, kbest = 0;

	if (c->win.ksum != NULL && p->start == c->win.s &&
	    p->end == c->win.e) {
		a = c->win;
		memset(&c->win, 0, sizeof c->win);
	} else
		phase_kscan(c, p->start, p->end, &a);
	for (id = 1; id < ns; id++)
		if (a.ksum[id] > 0 && (kbest == 0 || a.ksum[id] >
		    a.ksum[kbest]))
			kbest = id;
	*shortn = kbest != 0 ? ph_short(c, p->start, p->end, kbest) : 0;
	p->kernels = a.kernels;
	p->kernel_ns = a.kernel_ns;
	/* The names seen, packed at the front. */
	for (id = 0; id < ns; id++)
		if (a.kn[id].count != 0) {
			a.kn[p->nkn] = a.kn[id];
			a.kn[p->nkn++].name = id;
		}
	if (p->nkn > 0) {
		p->kn = xreallocarray(a.kn, p->nkn, sizeof *a.kn);
		a.kn = NULL;
	}
	phase_kacc_free(&a);
	return kbest;
}
