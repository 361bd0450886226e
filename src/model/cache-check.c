/*
 * cache-check: what a decoded model must pass before it is used: every
 * index a query follows in range, the counts and sums within the model's
 * bounds, the NVTX parents a forest. See cache-int.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache-int.h"
#include "util/xmalloc.h"

static uint32_t
cache_lim32(size_t n)
{
	return n < NONE32 ? (uint32_t)n : NONE32;
}

/* The bound of aux indices per event kind: the size of the side table of
 * the kind, or none (aux unused) for the others. */
void
cache_auxlim(struct cache_rctx *r)
{
	const struct model	*m = r->m;
	size_t			 k;

	for (k = 0; k < 256; k++)
		r->auxlim[k] = NONE32;
	r->auxlim[EV_KERNEL] = cache_lim32(m->nkernels);
	r->auxlim[EV_MEMCPY] = cache_lim32(m->ncopies);
	r->auxlim[EV_MEMSET] = cache_lim32(m->ncopies);
	r->auxlim[EV_NVTX] = cache_lim32(m->nnvtx);
	r->auxlim[EV_MARK] = cache_lim32(m->nnvtx);
	r->auxlim[EV_COUNTER] = cache_lim32(m->ncounters);
	r->auxlim[EV_API] = cache_lim32(m->cs.nchains);
	r->auxlim[EV_OSRT] = cache_lim32(m->cs.nchains);
}

/* Whether every id is below lim (or NONE32 when none_ok). */
static int
cache_check_ids(const uint32_t *v, size_t n, uint64_t lim, int none_ok)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (v[i] >= lim && !(none_ok && v[i] == NONE32))
			return -1;
	return 0;
}

/* Checks what the queries follow in a decoded chunk of group g. */
int
cache_check_cols(struct cache_rctx *r, const struct cache_job *job,
    const struct cache_col *cols, unsigned tid)
{
	const uint8_t	*kind;
	const uint32_t	*v;
	const int64_t	*st, *en;
	int64_t		 lo, hi;
	uint64_t	 cnt[4][256], dlo, dhi, d, a, span;
	uint32_t	 nstrs;
	size_t		 i, n = job->n;
	int		 bad = 0;

	switch (job->group) {
	case GRP_LANE:
		/* Times inside the span, end >= start, names in the pool. */
		st = cols[0].p;
		en = cols[1].p;
		v = cols[2].p;
		lo = r->m->origin_ns;
		hi = r->m->end_ns;
		nstrs = r->c.nstrs;
		/* The durations' sum in two unsigned halves: no branch and no
		 * overflow whatever the bytes (this runs over every event of a
		 * warm load). */
		dlo = dhi = 0;
		span = (uint64_t)hi - (uint64_t)lo;
		for (i = 0; i < n; i++) {
			/* a: start - origin; d: the duration; in range iff
			 * a <= span and d <= span - a (end <= hi). Starts in
			 * order within the piece (a lane is sorted; the seams
			 * between pieces: cache-pass.c). */
			a = (uint64_t)st[i] - (uint64_t)lo;
			d = (uint64_t)en[i] - (uint64_t)st[i];
			bad |= (a > span) | (d > span - a) | (v[i] >= nstrs) |
			    (i > 0 && st[i] < st[i - 1]);
			dlo += d & 0xffffffff;
			dhi += d >> 32;
		}
		if (bad)
			return -1;
		if (dhi > (uint64_t)MODEL_DURSUM_MAX >> 32 ||
		    dlo > (uint64_t)MODEL_DURSUM_MAX)
			r->dursum[tid] = INT64_MAX;
		else
			r->dursum[tid] = sat_add64(r->dursum[tid],
			    (int64_t)((dhi << 32) + dlo));
		kind = cols[3].p;
		v = cols[7].p;
		memset(cnt, 0, sizeof cnt);
		/* Four counters per kind: a lane is mostly one kind, and one
		 * counter would make every increment wait for the last. */
		for (i = 0; i + 4 <= n; i += 4) {
			cnt[0][kind[i]]++;
			cnt[1][kind[i + 1]]++;
			cnt[2][kind[i + 2]]++;
			cnt[3][kind[i + 3]]++;
			bad |= (v[i] != NONE32) & (v[i] >= r->auxlim[kind[i]]);
			bad |= (v[i + 1] != NONE32) &
			    (v[i + 1] >= r->auxlim[kind[i + 1]]);
			bad |= (v[i + 2] != NONE32) &
			    (v[i + 2] >= r->auxlim[kind[i + 2]]);
			bad |= (v[i + 3] != NONE32) &
			    (v[i + 3] >= r->auxlim[kind[i + 3]]);
		}
		for (; i < n; i++) {
			cnt[0][kind[i]]++;
			bad |= (v[i] != NONE32) & (v[i] >= r->auxlim[kind[i]]);
		}
		for (i = 0; i < 256; i++)
			r->kinds[tid][i] += cnt[0][i] + cnt[1][i] + cnt[2][i] +
			    cnt[3][i];
		return bad ? -1 : 0;
	case GRP_LAUNCH:
		return cache_check_ids(cols[0].p, n, r->c.nevents, 1);
	case GRP_GPU:
		/* correlate_gpu() reads launch[] at every one of them. */
		return cache_check_ids(cols[0].p, n, r->c.nlaunch, 0);
	}
	return 0;
}

#define CACHE_REF(v, n)	((v) == NONE32 || (v) < (n))

/* Whether the scheduling runs are where their threads say, each within the
 * time bound and not ending before it starts. */
static int
cache_check_sched(const struct model *m)
{
	const struct sched_thread	*th;
	const struct sched_run		*r;
	size_t				 i, k;

	for (i = 0; i < m->nsched_threads; i++) {
		th = &m->sched_threads[i];
		if ((uint64_t)th->run0 + th->nrun > m->nsched_runs)
			return -1;
		for (k = th->run0; k < (size_t)th->run0 + th->nrun; k++) {
			r = &m->sched_runs[k];
			if (r->thread != i || r->start > r->end ||
			    r->start < -MODEL_TIME_MAX ||
			    r->end > MODEL_TIME_MAX ||
			    (k > th->run0 && r->start < r[-1].start))
				return -1;
		}
	}
	for (i = 0; i < m->nsched_runs; i++)
		if (m->sched_runs[i].thread >= m->nsched_threads)
			return -1;
	return 0;
}

/* Whether every entity reference is in range: finalize and every reader of
 * the model index with them; so are string ids (below nstrs), and the span
 * keeps the bounds model.h promises. */
int
cache_check_refs(const struct model *m, uint32_t nstrs)
{
	const struct track	*t;
	size_t			 i;

#define CACHE_STR(v)	((v) < nstrs)
	if (!model_span_ok(m->origin_ns, m->end_ns))
		return -1;
	for (i = 0; i < m->ndevices; i++)
		if (!CACHE_STR(m->devices[i].name) ||
		    !CACHE_STR(m->devices[i].uuid) ||
		    !CACHE_STR(m->devices[i].bus) ||
		    !CACHE_STR(m->devices[i].chip) ||
		    !CACHE_STR(m->devices[i].vendor))
			return -1;
	for (i = 0; i < m->nprocesses; i++)
		if (!CACHE_STR(m->processes[i].name) ||
		    !CACHE_STR(m->processes[i].host))
			return -1;
	for (i = 0; i < m->nthreads; i++)
		if (!CACHE_STR(m->threads[i].name))
			return -1;
	for (i = 0; i < m->nstreams; i++)
		if (!CACHE_STR(m->streams[i].name))
			return -1;
	for (i = 0; i < m->ndomains; i++)
		if (!CACHE_STR(m->domains[i].name))
			return -1;
	for (i = 0; i < m->ntracks; i++)
		if (!CACHE_STR(m->tracks[i].name))
			return -1;
	for (i = 0; i < m->nkernels; i++)
		if (!CACHE_STR(m->kernels[i].short_name) ||
		    !CACHE_STR(m->kernels[i].mangled) ||
		    !CACHE_STR(m->kernels[i].comm_coll) ||
		    !CACHE_STR(m->kernels[i].comm_dtype) ||
		    !CACHE_STR(m->kernels[i].comm_pg_name) ||
		    !CACHE_STR(m->kernels[i].comm_pg_desc) ||
		    !CACHE_STR(m->kernels[i].comm_pg_ranks))
			return -1;
	for (i = 0; i < m->nnvtx; i++)
		if (!CACHE_STR(m->nvtx[i].category_name))
			return -1;
	for (i = 0; i < m->nmeta; i++)
		if (!CACHE_STR(m->meta[i].key) || !CACHE_STR(m->meta[i].value))
			return -1;
	for (i = 0; i < m->nsched_threads; i++)
		if (!CACHE_STR(m->sched_threads[i].name) ||
		    !CACHE_STR(m->sched_threads[i].pname))
			return -1;
#undef CACHE_STR
	if (cache_check_sched(m) != 0)
		return -1;
	for (i = 0; i < m->ndevices; i++)
		if (!CACHE_REF(m->devices[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->nthreads; i++)
		if (!CACHE_REF(m->threads[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->nstreams; i++)
		if (!CACHE_REF(m->streams[i].device, m->ndevices) ||
		    !CACHE_REF(m->streams[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->ndomains; i++)
		if (!CACHE_REF(m->domains[i].process, m->nprocesses))
			return -1;
	for (i = 0; i < m->ntracks; i++) {
		t = &m->tracks[i];
		if (t->type >= TRACK_TYPE_COUNT ||
		    !CACHE_REF(t->device, m->ndevices) ||
		    !CACHE_REF(t->stream, m->nstreams) ||
		    !CACHE_REF(t->process, m->nprocesses) ||
		    !CACHE_REF(t->thread, m->nthreads) ||
		    !CACHE_REF(t->domain, m->ndomains) ||
		    (t->type == TRACK_GPU && t->stream == NONE32))
			return -1;
	}
	for (i = 0; i < m->nnvtx; i++)
		if (!CACHE_REF(m->nvtx[i].domain, m->ndomains))
			return -1;
	return 0;
}

/*
 * Whether the sizes of all copies and sets add up within MODEL_BYTESUM_MAX
 * (model.h): at once when the largest times their number does, else by
 * adding them up (model_copy_bytes(), a pass over every event).
 */
static int
cache_check_bytes(const struct model *m)
{
	uint64_t	max = 0, n;
	size_t		i;

	for (i = 0; i < m->ncopies; i++)
		if (m->copies[i].bytes > max)
			max = m->copies[i].bytes;
	n = m->kind_count[EV_MEMCPY] + m->kind_count[EV_MEMSET];
	if (max == 0 || n <= (uint64_t)MODEL_BYTESUM_MAX / max)
		return 0;
	return model_copy_bytes(m) > (uint64_t)MODEL_BYTESUM_MAX ? -1 : 0;
}

/* Checks, after every job ran, what no single job could: the per-kind
 * counts against frame 0's, and the entity references. */
int
cache_check_whole(struct cache_rctx *r, char **why)
{
	const struct model	*m = r->m;
	uint64_t		 cnt;
	int64_t			 dsum;
	size_t			 i, k;

	/* No event of no kind or of a kind this build does not know. */
	for (k = 0; k < 256; k++) {
		for (cnt = 0, i = 0; i < CACHE_THREADS; i++)
			cnt += r->kinds[i][k];
		if (cnt != (k > EV_NONE && k < EV_KIND_COUNT ?
		    m->kind_count[k] : 0)) {
			*why = xstrdup("event counts inconsistent");
			return -1;
		}
	}
	for (dsum = 0, i = 0; i < CACHE_THREADS; i++)
		dsum = sat_add64(dsum, r->dursum[i]);
	if (dsum > MODEL_DURSUM_MAX) {
		*why = xstrdup("durations add up past the model's bound");
		return -1;
	}
	if (cache_check_bytes(m) != 0) {
		*why = xstrdup("copy sizes add up past the model's bound");
		return -1;
	}
	if (cache_check_refs(m, r->c.nstrs) != 0) {
		*why = xstrdup("entity reference out of range");
		return -1;
	}
	if ((r->c.ntab[TAB_CHOFF] == 1) ||
	    cpusamp_check(&m->cs, r->c.nstrs, m->nthreads) != 0) {
		*why = xstrdup("CPU samples or call chains out of range");
		return -1;
	}
	return 0;
}

/*
 * The NVTX parent links must form a forest: every parent an NVTX event,
 * and no chain that comes back to where it started (a forged cache could
 * make a range its own ancestor, and every walk up the tree would never
 * end). One pass over the NVTX records (every record an event can reach,
 * and the others: nvtx_build() gives those no parent), each visited once:
 * 0 or -1 with *why.
 */
int
cache_check_nvtx_forest(const struct model *m, char **why)
{
	struct evref	 r;
	uint8_t		*state;		/* 0 new, 1 on the walk, 2 done */
	uint32_t	*walk, k, p, aux;
	size_t		 i, nw, w;
	int		 rc = 0;

	if (m->nnvtx == 0)
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
