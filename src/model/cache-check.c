/*
 * cache-check: what a decoded model must pass before it is used: every
 * index a query follows in range, the counts and sums within the model's
 * bounds (the NVTX records': cache-nvtx.c). See cache-int.h.
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

/*
 * The checks below run over every element of a warm load. They are
 * branch-free, in the compiler's generic vectors (of 16 bytes: two 64-bit
 * lanes of SSE2, NEON, or pairs of scalars elsewhere), which the -O2 loop
 * vectorizer would not make of a plain loop: twice the speed of one.
 */
typedef uint32_t	cache_vu32 __attribute__((vector_size(16)));

/* Whether every id is below lim (or NONE32 when none_ok). */
static int
cache_check_ids(const uint32_t *v, size_t n, uint64_t lim, int none_ok)
{
	cache_vu32	bad = { 0 }, bad2 = { 0 }, x, y, l, add;
	uint32_t	any = 0, lim32, add32;
	size_t		i;

	if (lim > NONE32 || (none_ok && lim == NONE32))
		return 0;	/* no id fails */
	if (!none_ok && lim == 0)
		return n > 0 ? -1 : 0;	/* every id fails */
	/* With none_ok, v + 1 wraps NONE32 to 0, below any bound: v is
	 * out of range iff v + 1 > lim; without, iff v > lim - 1. */
	lim32 = (uint32_t)lim - (none_ok ? 0 : 1);
	add32 = none_ok ? 1 : 0;
	l = (cache_vu32){ lim32, lim32, lim32, lim32 };
	add = (cache_vu32){ add32, add32, add32, add32 };
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, v + i, sizeof x);
		memcpy(&y, v + i + 4, sizeof y);
		bad |= (cache_vu32)(x + add > l);
		bad2 |= (cache_vu32)(y + add > l);
	}
	for (; i < n; i++)
		any |= (uint32_t)(v[i] + add32) > lim32;
	bad |= bad2;
	return (any | bad[0] | bad[1] | bad[2] | bad[3]) != 0 ? -1 : 0;
}

/* The length of the run of kind[0] at kind, of at most n > 0 kinds. */
static size_t
cache_kind_run(const uint8_t *kind, size_t n)
{
	uint64_t	k8 = kind[0] * UINT64_C(0x0101010101010101), w;
	size_t		i;

	for (i = 0; i + sizeof w <= n; i += sizeof w) {
		memcpy(&w, kind + i, sizeof w);
		if (w != k8)
			break;
	}
	while (i < n && kind[i] == kind[0])
		i++;
	return i;
}

/* The counts and checks of cache_check_kinds, event by event. */
static int
cache_check_mixed(struct cache_rctx *r, const uint8_t *kind,
    const uint32_t *v, size_t n, unsigned tid)
{
	uint64_t	cnt[4][256];
	size_t		i;
	int		bad = 0;

	if (n == 0)
		return 0;
	memset(cnt, 0, sizeof cnt);
	/* Four counters per kind: one counter would make every increment
	 * wait for the last. */
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
}

/*
 * Counts the n kinds at kind into the thread's counts and checks the aux
 * indices v against their kinds' bounds: 0 or -1. A lane is mostly of one
 * kind (kernels, with a copy now and then; API calls): run by run, each
 * with one bound, as long as the runs are long (CACHE_RUNLEN on average);
 * what follows many short runs, event by event.
 */
#define CACHE_RUNLEN	32

static int
cache_check_kinds(struct cache_rctx *r, const uint8_t *kind,
    const uint32_t *v, size_t n, unsigned tid)
{
	size_t	s = 0, e, runs = 0;

	while (s < n && runs <= 4 + s / CACHE_RUNLEN) {
		e = s + cache_kind_run(kind + s, n - s);
		r->kinds[tid][kind[s]] += e - s;
		if (cache_check_ids(v + s, e - s, r->auxlim[kind[s]], 1) != 0)
			return -1;
		runs++;
		s = e;
	}
	return cache_check_mixed(r, kind + s, v + s, n - s, tid);
}

/* The sum of the durations en - st of n events, saturated at INT64_MAX
 * above MODEL_DURSUM_MAX: in two unsigned halves, that do not wrap
 * whatever the bytes. */
static int64_t
cache_dursum(const int64_t *st, const int64_t *en, size_t n)
{
	uint64_t	dlo = 0, dhi = 0, d;
	size_t		i;

	for (i = 0; i < n; i++) {
		d = (uint64_t)en[i] - (uint64_t)st[i];
		dlo += d & 0xffffffff;
		dhi += d >> 32;
	}
	if (dhi > (uint64_t)MODEL_DURSUM_MAX >> 32 ||
	    dlo > (uint64_t)MODEL_DURSUM_MAX)
		return INT64_MAX;
	return (int64_t)((dhi << 32) + dlo);
}

/*
 * The loop of cache_check_times over events [1, n): whether one ends past
 * hi or before it starts, or starts before the one before it; adds their
 * durations to *sum (wrapping). Four events at a time in separate lanes,
 * which the compiler makes vector code of where the processor compares
 * 64-bit integers in vectors: built for AVX2 too (as the checksum is,
 * cache-format.c), where it takes half the time of a plain loop.
 */
static inline __attribute__((always_inline)) int
cache_times_body(const int64_t *st, const int64_t *en, size_t n,
    uint64_t hi, uint64_t *sum)
{
	uint64_t	bad[4] = { 0 }, s[4] = { 0 }, d;
	size_t		i, k;
	int		any = 0;

	for (i = 1; i + 4 <= n; i += 4)
		for (k = 0; k < 4; k++) {
			d = (uint64_t)en[i + k] - (uint64_t)st[i + k];
			bad[k] |= (uint64_t)-(uint64_t)((d > hi -
			    (uint64_t)st[i + k]) | (st[i + k] <
			    st[i + k - 1]));
			s[k] += d;
		}
	for (; i < n; i++) {
		d = (uint64_t)en[i] - (uint64_t)st[i];
		any |= (d > hi - (uint64_t)st[i]) | (st[i] < st[i - 1]);
		s[0] += d;
	}
	*sum += s[0] + s[1] + s[2] + s[3];
	return any | ((bad[0] | bad[1] | bad[2] | bad[3]) != 0);
}

#ifdef CACHE_AVX2
__attribute__((target("avx2"))) static int
cache_times_avx2(const int64_t *st, const int64_t *en, size_t n,
    uint64_t hi, uint64_t *sum)
{
	return cache_times_body(st, en, n, hi, sum);
}
#endif

static int
cache_times(const int64_t *st, const int64_t *en, size_t n, uint64_t hi,
    uint64_t *sum)
{
#ifdef CACHE_AVX2
	if (__builtin_cpu_supports("avx2"))
		return cache_times_avx2(st, en, n, hi, sum);
#endif
	return cache_times_body(st, en, n, hi, sum);
}

/*
 * Whether the n events' times are inside [lo, hi] with end >= start, and
 * their starts in order within the piece (a lane is sorted; the seams
 * between pieces: cache-pass.c); adds their durations to the thread's sum.
 */
static int
cache_check_times(struct cache_rctx *r, const int64_t *st, const int64_t *en,
    size_t n, unsigned tid)
{
	uint64_t	lo = (uint64_t)r->m->origin_ns;
	uint64_t	hi = (uint64_t)r->m->end_ns;
	uint64_t	sum, d;
	int64_t		part;
	int		bad;

	if (n == 0)
		return 0;
	/* Starts in order: all inside the span iff the first and the last
	 * are. d: the duration; end in [start, hi] iff d <= hi - start, as
	 * unsigned. */
	bad = (st[0] < r->m->origin_ns) | (st[n - 1] > r->m->end_ns);
	d = (uint64_t)en[0] - (uint64_t)st[0];
	bad |= d > hi - (uint64_t)st[0];
	sum = d;
	bad |= cache_times(st, en, n, hi, &sum);
	if (bad)
		return -1;
	/* No duration is longer than the span: the sum wraps only where n
	 * times the span would; there, summed again without wrapping. */
	if (hi - lo <= UINT64_MAX / n)
		part = sum > (uint64_t)MODEL_DURSUM_MAX ? INT64_MAX :
		    (int64_t)sum;
	else
		part = cache_dursum(st, en, n);
	r->dursum[tid] = part == INT64_MAX ? INT64_MAX :
	    sat_add64(r->dursum[tid], part);
	return 0;
}

/* Checks what the queries follow in a decoded chunk of group g. */
int
cache_check_cols(struct cache_rctx *r, const struct cache_job *job,
    const struct cache_col *cols, unsigned tid)
{
	size_t	n = job->n;

	switch (job->group) {
	case GRP_LANE:
		/* Times inside the span, end >= start, names in the pool,
		 * kinds known, aux indices in their tables. */
		if (cache_check_times(r, cols[0].p, cols[1].p, n, tid) != 0 ||
		    cache_check_ids(cols[2].p, n, r->c.nstrs, 0) != 0)
			return -1;
		return cache_check_kinds(r, cols[3].p, cols[7].p, n, tid);
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

/* A uint32_t column of a model's table: field off of each of n entries of
 * sz bytes at v; an index or string id below lim, or NONE32 with none. */
struct cache_refcol {
	const void	*v;
	size_t		 n, sz, off;
	uint64_t	 lim;
	int		 none;
};
/* (The field must be a uint32_t: the array size is -1 for another size.) */
#define CACHE_COL(v, n, type, field, lim, none) \
	{ (v), (n), sizeof (type), offsetof(type, field) + 0 * sizeof (char \
	    [sizeof ((type *)0)->field == sizeof (uint32_t) ? 1 : -1]), \
	    (lim), (none) }
/* A string id, and an index into a table of n entries or NONE32. */
#define CACHE_SCOL(v, n, type, field) \
	CACHE_COL(v, n, type, field, nstrs, 0)
#define CACHE_RCOL(v, n, type, field, lim) \
	CACHE_COL(v, n, type, field, lim, 1)

/* Whether every value of the ncols columns is in range. */
static int
cache_check_refcols(const struct cache_refcol *cols, size_t ncols)
{
	const struct cache_refcol	*c;
	uint32_t			 x;
	size_t				 i;

	for (c = cols; c < cols + ncols; c++)
		for (i = 0; i < c->n; i++) {
			memcpy(&x, (const char *)c->v + i * c->sz + c->off,
			    sizeof x);
			if (x >= c->lim && !(c->none && x == NONE32))
				return 0;
		}
	return 1;
}

/* Whether every entity reference is in range: finalize and every reader of
 * the model index with them; so are string ids (below nstrs), and the span
 * keeps the bounds model.h promises. Those of the NVTX records only with
 * nvtx (the warm load's pass checks them: cache_check_nvtx). */
int
cache_check_refs(const struct model *m, uint32_t nstrs, int nvtx)
{
	const size_t			 nnvtx = nvtx ? m->nnvtx : 0;
	const struct cache_refcol	 strs[] = {
		CACHE_SCOL(m->devices, m->ndevices, struct device, name),
		CACHE_SCOL(m->devices, m->ndevices, struct device, uuid),
		CACHE_SCOL(m->devices, m->ndevices, struct device, bus),
		CACHE_SCOL(m->devices, m->ndevices, struct device, chip),
		CACHE_SCOL(m->devices, m->ndevices, struct device, vendor),
		CACHE_SCOL(m->processes, m->nprocesses, struct process, name),
		CACHE_SCOL(m->processes, m->nprocesses, struct process, host),
		CACHE_SCOL(m->threads, m->nthreads, struct thread, name),
		CACHE_SCOL(m->streams, m->nstreams, struct stream, name),
		CACHE_SCOL(m->domains, m->ndomains, struct domain, name),
		CACHE_SCOL(m->tracks, m->ntracks, struct track, name),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info,
		    short_name),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info, mangled),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info,
		    comm_coll),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info,
		    comm_dtype),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info,
		    comm_pg_name),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info,
		    comm_pg_desc),
		CACHE_SCOL(m->kernels, m->nkernels, struct kernel_info,
		    comm_pg_ranks),
		CACHE_SCOL(m->nvtx, nnvtx, struct nvtx_info, category_name),
		CACHE_SCOL(m->meta, m->nmeta, struct meta, key),
		CACHE_SCOL(m->meta, m->nmeta, struct meta, value),
		CACHE_SCOL(m->sched_threads, m->nsched_threads,
		    struct sched_thread, name),
		CACHE_SCOL(m->sched_threads, m->nsched_threads,
		    struct sched_thread, pname),
	};
	const struct cache_refcol	 refs[] = {
		CACHE_RCOL(m->devices, m->ndevices, struct device, process,
		    m->nprocesses),
		CACHE_RCOL(m->threads, m->nthreads, struct thread, process,
		    m->nprocesses),
		CACHE_RCOL(m->streams, m->nstreams, struct stream, device,
		    m->ndevices),
		CACHE_RCOL(m->streams, m->nstreams, struct stream, process,
		    m->nprocesses),
		CACHE_RCOL(m->domains, m->ndomains, struct domain, process,
		    m->nprocesses),
		CACHE_RCOL(m->nvtx, nnvtx, struct nvtx_info, domain,
		    m->ndomains),
	};
	const struct track		*t;
	size_t				 i;

	if (!model_span_ok(m->origin_ns, m->end_ns))
		return -1;
	if (!cache_check_refcols(strs, sizeof strs / sizeof strs[0]))
		return -1;
	if (cache_check_sched(m) != 0)
		return -1;
	if (!cache_check_refcols(refs, sizeof refs / sizeof refs[0]))
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
	if (cache_check_refs(m, r->c.nstrs, 0) != 0 ||
	    atomic_load(&r->nvtx_refbad)) {
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
