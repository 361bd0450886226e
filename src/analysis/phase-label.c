/*
 * phase-label: the phases' labels (phase.h, step 12): the NVTX range
 * family that covers the most of a phase, else idle, else its dominant
 * kernel, made unique; and which NVTX ranges are communication, which the
 * marker candidates (phase.c) leave out too. See phase-int.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/iset.h"
#include "model/lane.h"
#include "model/nvtxfam.h"
#include "analysis/phase-int.h"
#include "util/xmalloc.h"

#define PH_LABEL_SHARE		0.30	/* of a phase, for a family label */

/* A communication range by its name. */
static int
ph_comm_name(const char *name)
{
	return strncmp(name, "nccl", 4) == 0 || strncmp(name, "rccl", 4) == 0;
}

/* A communication track: of the NCCL domain. */
int
phase_comm_domain(const struct model *m, const struct track *tr)
{
	return tr->domain < m->ndomains &&
	    strcmp(model_str(m, m->domains[tr->domain].name), "NCCL") == 0;
}

int
phase_comm_range(const struct model *m, const struct track *tr,
    const struct lane *l, size_t i)
{
	return (l->flags[i] & EVF_COMM) ||
	    ph_comm_name(model_str(m, l->name[i])) || phase_comm_domain(m, tr);
}

/*
 * phase_label()'s memo of a range name's family the first time the name is
 * seen: 1 for a communication name (phase_comm_range()'s name part),
 * else the family's id in fam + 2.
 */
static uint32_t
ph_family_first(const struct model *m, struct strpool *fam, uint32_t name,
    char *buf, size_t size)
{
	const char	*s = model_str(m, name);
	size_t		 fl;

	if (ph_comm_name(s))
		return 1;
	fl = nvtx_family(s, buf, size);
	return strpool_intern(fam, buf, fl) + 2;
}

/* The label candidates of phase p: marker family, idle, dominant kernel
 * (p->dominant, with the kernels: phase_kernels()). */
char *
phase_label(struct phase_ctx *c, struct phase *p)
{
	const struct model	*m = c->m;
	const struct track	*tr;
	const struct lane	*l;
	struct strpool		*fam = strpool_new();
	double			*fsum = NULL;
	size_t			 fcap = 0, ns = strpool_count(m->strs) + 1;
	size_t			 t, k, n, i;
	uint32_t		 id, best = 0, kbest, kshort, *memo;
	int64_t			 s = p->start, e = p->end;
	char			*label = NULL;
	char			 fbuf[512];

	memo = xcalloc(ns, sizeof *memo);
	for (t = 0; (tr = phase_next_track(c, TRACK_NVTX, s, e, &t,
	    &n)) != NULL;) {
		l = &tr->lane;
		/* phase_comm_range() by its parts: the track's domain once,
		 * the name's prefix once a name (memo). */
		if (phase_comm_domain(m, tr))
			continue;
		for (k = 0; k < n; k++) {
			i = phase_at(c, k);
			/* phase_toplevel() reads m->nvtx: ask a few ahead. */
			if (k + PH_AHEAD < n &&
			    l->aux[phase_at(c, k + PH_AHEAD)] < m->nnvtx)
				PH_PREFETCH(&m->nvtx[l->aux[phase_at(c, k +
				    PH_AHEAD)]]);
			if (!phase_toplevel(m, l, i) || (l->flags[i] & EVF_COMM))
				continue;
			id = l->name[i] < ns ? memo[l->name[i]] : 0;
			if (id == 0) {
				id = ph_family_first(m, fam, l->name[i], fbuf,
				    sizeof fbuf);
				if (l->name[i] < ns)
					memo[l->name[i]] = id;
			}
			if (id == 1)
				continue;	/* a communication name */
			id -= 2;
			if (id >= fcap) {
				size_t old = fcap;
				XGROW(fsum, fcap, (size_t)id + 1);
				memset(fsum + old, 0, (fcap - old) *
				    sizeof *fsum);
			}
			fsum[id] += (double)iset_span_in(l->start[i],
			    l->end[i], s, e);
		}
	}
	for (id = 1; id < fcap; id++)
		if (fsum[id] > 0 && (best == 0 || fsum[id] > fsum[best]))
			best = id;
	if (best != 0 && fsum[best] >= PH_LABEL_SHARE * (double)(e - s))
		label = xstrdup(strpool_get(fam, best));
	free(fsum);
	free(memo);
	strpool_free(fam);

	kbest = phase_kernels(c, p, &kshort);
	p->dominant = kbest;
	if (label == NULL) {
		if ((double)iset_measure(&c->a->any, s, e) <
		    PH_IDLE_UTIL * (double)(e - s))
			label = xstrdup("idle");
		else if (kbest != 0)
			label = xstrdup(model_str(m, kshort != 0 ? kshort :
			    kbest));
		else
			label = xstrdup("unknown");
	}
	return label;
}

/* Suffixes repeated labels: "a", "a (2)", "a (3)". */
void
phase_label_dedup(struct phases *ph)
{
	char	**orig, *l;
	size_t	  i, j, seen;

	orig = xcalloc(ph->n, sizeof *orig);
	for (i = 0; i < ph->n; i++)
		orig[i] = xstrdup(ph->v[i].label);
	for (i = 1; i < ph->n; i++) {
		seen = 1;
		for (j = 0; j < i; j++)
			if (strcmp(orig[j], orig[i]) == 0)
				seen++;
		if (seen > 1) {
			l = xasprintf("%s (%zu)", orig[i], seen);
			free(ph->v[i].label);
			ph->v[i].label = l;
		}
	}
	for (i = 0; i < ph->n; i++)
		free(orig[i]);
	free(orig);
}
