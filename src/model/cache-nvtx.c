/*
 * cache-nvtx: the checks of a warm load on the NVTX records: their
 * references in range, their parents events, the parent links a forest.
 * See cache-int.h.
 */
#include "config.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/cache-int.h"
#include "util/xmalloc.h"

/*
 * The NVTX parent links must form a forest (cache_check_nvtx_forest). The
 * pass checks the common shape on its way through the records: every
 * parent an NVTX event whose own parent, if any, has a lower global id.
 * Then every chain of parents descends and ends. nvtx_build() only ever
 * makes a range the parent of a later event of its lane, so a cache it
 * wrote passes; one that does not is walked after the pass, which finds
 * what is wrong, if anything. A parent's track is found from a table of
 * the track at every 2^CACHE_EVSHIFT-th global id (the records of several
 * threads interleave, so their parents hop between tracks: a binary
 * search per record cost more than the rest of the check).
 */
#define CACHE_EVSHIFT	12

/* The tables of cache_check_nvtx, from the lanes' counts (checked: fewer
 * than NONE32 events in all). */
void
cache_nvtx_index(struct cache_rctx *r)
{
	size_t		nt = r->m->ntracks, t, b, nb;
	uint32_t	total = 0;

	r->evoff = xreallocarray(NULL, nt + 1, sizeof *r->evoff);
	for (t = 0; t < nt; t++) {
		r->evoff[t] = total;
		total += (uint32_t)r->c.lanes[t].n;
	}
	r->evoff[nt] = total;
	nb = ((size_t)total >> CACHE_EVSHIFT) + 1;
	r->evbucket = xreallocarray(NULL, nb, sizeof *r->evbucket);
	for (t = 0, b = 0; b < nb; b++) {
		/* The last track whose first id is at most b's. */
		while (t + 1 < nt && r->evoff[t + 1] <= (uint64_t)b <<
		    CACHE_EVSHIFT)
			t++;
		r->evbucket[b] = (uint32_t)t;
	}
}

/*
 * Checks the n NVTX records (the model's, bound to the image), read once
 * for all their checks: 0 if every parent is an event, else -1. Sets
 * r->nvtx_refbad where a category name or a domain is out of range
 * (cache_check_whole reports it, with the other entity references), and
 * r->nvtx_tangled where the links are not surely a forest.
 */
int
cache_check_nvtx(struct cache_rctx *r, size_t n)
{
	const struct nvtx_info	*ni = r->m->nvtx;
	const struct lane	*l;
	uint32_t		 p, q, pp, t, nstrs = r->c.nstrs;
	uint32_t		 ndom = r->m->ndomains < NONE32 ?
				    (uint32_t)r->m->ndomains : NONE32;
	size_t			 i;
	int			 tangled = 0, refbad = 0;

	for (i = 0; i < n; i++) {
		/* A domain of NONE32 (none) + 1 wraps to 0: in range. */
		refbad |= (ni[i].category_name >= nstrs) |
		    ((uint32_t)(ni[i].domain + 1) > ndom);
		if ((p = ni[i].parent) == NONE32)
			continue;
		if (p >= r->c.nevents)
			return -1;
		if (tangled)
			continue;
		for (t = r->evbucket[p >> CACHE_EVSHIFT]; r->evoff[t + 1] <= p;
		    t++)
			;
		l = &r->m->tracks[t].lane;
		q = l->aux[p - r->evoff[t]];
		/* q's own parent is checked (below nevents) in its turn. */
		tangled = l->kind[p - r->evoff[t]] != EV_NVTX || q >= n ||
		    ((pp = ni[q].parent) != NONE32 && pp >= p);
	}
	if (refbad)
		atomic_store(&r->nvtx_refbad, 1);
	if (tangled)
		atomic_store(&r->nvtx_tangled, 1);
	return 0;
}

/*
 * The NVTX parent links must form a forest: every parent an NVTX event,
 * and no chain that comes back to where it started (a forged cache could
 * make a range its own ancestor, and every walk up the tree would never
 * end). Nothing to do unless tangled (the pass found links it could not
 * vouch for: cache_check_nvtx); else one walk over the NVTX records (every
 * record an event can reach, and the others: nvtx_build() gives those no
 * parent), each visited once: 0 or -1 with *why.
 */
int
cache_check_nvtx_forest(const struct model *m, int tangled, char **why)
{
	struct evref	 r;
	uint8_t		*state;		/* 0 new, 1 on the walk, 2 done */
	uint32_t	*walk, k, p, aux;
	size_t		 i, nw, w;
	int		 rc = 0;

	if (m->nnvtx == 0 || !tangled)
		return 0;
	state = xcalloc(m->nnvtx, 1);
	walk = xreallocarray(NULL, m->nnvtx, sizeof *walk);
	for (i = 0; i < m->nnvtx && rc == 0; i++) {
		nw = 0;
		for (k = (uint32_t)i; state[k] == 0; k = aux) {
			state[k] = 1;
			walk[nw++] = k;
			if ((p = m->nvtx[k].parent) == NONE32)
				break;
			r = model_ev(m, p);
			aux = m->tracks[r.track].lane.aux[r.idx];
			if (aux >= m->nnvtx || m->tracks[r.track].lane.
			    kind[r.idx] != EV_NVTX) {
				*why = xstrdup("NVTX parent is not an NVTX "
				    "range");
				rc = -1;
				break;
			}
			if (state[aux] == 1) {
				*why = xstrdup("NVTX parents form a cycle");
				rc = -1;
				break;
			}
		}
		for (w = 0; w < nw; w++)
			state[walk[w]] = 2;
	}
	free(walk);
	free(state);
	return rc;
}
