/*
 * iters-marker: which NVTX range family marks the iterations (the rules
 * are in iters.h).
 *
 * One pass over the NVTX tracks gives every eligible range its family
 * (interned in a local pool) and counts the ranges of each (thread,
 * family). A second pass keeps the top-level ones: a range is nested when
 * an eligible ancestor on its track (the nvtx_build() parent chain), or an
 * eligible range of another track of its thread that contains it, belongs
 * to a family repeating on that thread. A third sums, per family, its
 * top-level ranges per thread, and per track the union of their time,
 * their extent (first start to last end) and the span of the track's
 * process, marking each top-level range in a bitmap. A last pass appends
 * the chosen family's top-level ranges, reading only the marked ones.
 * A family is worked out once per distinct range name, not per range.
 * O(ranges x (depth + tracks of the thread x log n)).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/iters.h"
#include "analysis/iters-int.h"
#include "model/lane.h"
#include "model/nvtxfam.h"
#include "util/hmap.h"
#include "util/xmalloc.h"

#define IM_CHAIN	4096	/* guards the parent walks */
#define IM_AHEAD	16	/* ranges read ahead */
#if defined(__GNUC__)
#define IM_PREFETCH(p)	__builtin_prefetch(p)
#define IM_CTZ(w)	((size_t)__builtin_ctzll(w))
#else
#define IM_PREFETCH(p)	((void)(p))
#define IM_CTZ(w)	im_ctz(w)

/* The index of the lowest bit set in w (not 0). */
static size_t
im_ctz(uint64_t w)
{
	size_t	n = 0;

	while (!(w & 1)) {
		w >>= 1;
		n++;
	}
	return n;
}
#endif

static const char *const iters_libraries[] = {
	"CCCL", "CUB", "Thrust", "libcu++", "NCCL", "RCCL", "NVSHMEM",
	"cuBLAS", "cuBLASLt", "cuDNN", "cuFFT", "cuRAND", "cuSPARSE",
	"cuSOLVER", "cuTENSOR", "cuDSS", "nvJPEG", "NPP", "TensorRT",
	"MPI", "UCX", "UCC", "OpenSHMEM", "gloo", "oneCCL", "MIOpen",
	"rocBLAS", "hipBLAS", "hipBLASLt", "rocFFT", "rocSPARSE",
	"rocSOLVER", "rocRAND", "rocPRIM", "hipCUB", "python_function",
	NULL
};

int
iters_library_domain(const char *name)
{
	size_t	i;

	for (i = 0; iters_libraries[i] != NULL; i++)
		if (strcasecmp(name, iters_libraries[i]) == 0)
			return 1;
	return 0;
}

/* A PyTorch per-operator range by its name alone (never a marker)? */
static int
im_per_op(const char *name)
{
	const char	*p;

	if (strncmp(name, "aten::", 6) == 0)
		return 1;
	for (p = name; (p = strchr(p, ',')) != NULL; p++)
		if (strncmp(p, ", seq = ", 8) == 0 ||
		    strncmp(p, ", op_id = ", 10) == 0)
			return 1;
	return 0;
}

/* Communication by its name alone (flagged ranges are too). */
static int
im_comm(const char *name)
{
	return strncasecmp(name, "nccl", 4) == 0 ||
	    strncasecmp(name, "rccl", 4) == 0 ||
	    strncasecmp(name, "gloo", 4) == 0;
}

/* Is track t an NVTX track of a user (non-library) domain? */
static int
im_user_track(const struct model *m, size_t t)
{
	const struct track	*tr = &m->tracks[t];

	if (tr->type != TRACK_NVTX)
		return 0;
	return tr->domain >= m->ndomains ||
	    !iters_library_domain(model_str(m, m->domains[tr->domain].name));
}

/*
 * A range's family depends on its name but for two flags of the range
 * (EVF_COMM, a Kineto cpu_op category), so it is worked out once per
 * distinct name (memo) and per range only those are checked. Whether a
 * family repeats on a thread is looked up once per (track, family) while
 * that track is swept (stamp, rep).
 */
struct im_ctx {
	const struct model	*m;
	struct strpool		*fam;		/* family names */
	uint32_t		*memo;		/* per string id: 0 not yet, 1
						   never a marker, else its
						   family + 2 */
	size_t			 nmemo;
	uint32_t		 cpu_op;	/* string id of "cpu_op" or NONE32 */
	uint8_t			*user;		/* per track: im_user_track() */
	struct hmap		 cnt;		/* (thread, family) -> count */
	uint32_t		*need;		/* per family: im_need() */
	uint32_t		*stamp;		/* per family: cur when rep set */
	uint8_t			*rep;		/* per family: repeats on the
						   thread of the swept track */
	uint32_t		*most;		/* per family: top-level ranges
						   on one thread, at most */
	uint32_t		 cur;		/* 1 + the track swept */
	uint32_t		*buf;
	size_t			 bufcap;
	size_t			*toff;		/* per user track: its first
						   word in top */
	uint64_t		*top;		/* per range of a user track, a
						   bit: im_top() held in
						   im_measure() */
};

/* The family of a range named id, by its name alone, or NONE32, the
 * first time (im_name_family() reads the memo). */
static uint32_t
im_name_first(struct im_ctx *c, uint32_t id)
{
	const char	*name;
	char		 buf[1024];
	uint32_t	 f;

	name = model_str(c->m, id);
	if (im_comm(name) || im_per_op(name) ||
	    nvtx_family(name, buf, sizeof buf) == 0)
		f = NONE32;
	else
		f = strpool_intern0(c->fam, buf);
	if (id < c->nmemo)
		c->memo[id] = f == NONE32 ? 1 : f + 2;
	return f;
}

static inline uint32_t
im_name_family(struct im_ctx *c, uint32_t id)
{
	uint32_t	v = id < c->nmemo ? c->memo[id] : 0;

	if (v == 0)
		return im_name_first(c, id);
	return v == 1 ? NONE32 : v - 2;
}

/* The family of range i of track t when it is eligible, else NONE32. */
static inline uint32_t
im_family(struct im_ctx *c, size_t t, size_t i)
{
	const struct model	*m = c->m;
	const struct lane	*l = &m->tracks[t].lane;

	if (!c->user[t] || l->kind[i] != EV_NVTX || (l->flags[i] & EVF_COMM))
		return NONE32;
	/* Kineto's operators, but for PyTorch's early steps. */
	if (c->cpu_op != NONE32 && l->aux[i] < m->nnvtx &&
	    m->nvtx[l->aux[i]].category_name == c->cpu_op &&
	    strncmp(model_str(m, l->name[i]), "ProfilerStep#", 13) != 0)
		return NONE32;
	return im_name_family(c, l->name[i]);
}

/*
 * Instances one thread must hold for a family to repeat. PyTorch's own step
 * annotation marks iterations by definition: a profiler schedule often
 * records only one or two active steps, so it needs no repeats.
 */
static uint32_t
im_need(const struct im_ctx *c, uint32_t f)
{
	if (f != NONE32 && f < strpool_count(c->fam) &&
	    strcmp(strpool_get(c->fam, f), "ProfilerStep#*") == 0)
		return 1;
	return ITERS_MIN_REPEAT;
}

/* Does family f repeat on thread th, that of the swept track? */
static int
im_rep(struct im_ctx *c, uint32_t th, uint32_t f)
{
	uint32_t	v;

	if (f == NONE32)
		return 0;
	if (c->stamp[f] != c->cur) {
		c->stamp[f] = c->cur;
		c->rep[f] = hmap_get(&c->cnt, hmap_key2(th, f), &v) &&
		    v >= c->need[f];
	}
	return c->rep[f];
}

/*
 * Per-family counts of one track, added to the (thread, family) map when
 * the track is done: a map operation per family a track holds rather
 * than per range.
 */
struct im_tally {
	uint32_t	*n;		/* per family */
	size_t		 cap;
	uint32_t	*seen;		/* families counted */
	size_t		 nseen, scap;
};

static void
im_tally_add(struct im_tally *y, uint32_t f)
{
	size_t	old = y->cap;

	if (f >= y->cap) {
		XGROW(y->n, y->cap, (size_t)f + 1);
		memset(y->n + old, 0, (y->cap - old) * sizeof *y->n);
	}
	if (y->n[f]++ == 0)
		*(uint32_t *)XAPPEND(y->seen, y->scap, y->nseen++) = f;
}

/* Adds the track's counts into map under thread th, raising most[f] (when
 * given) to each family's new sum. */
static void
im_tally_flush(struct im_tally *y, struct hmap *map, uint32_t th,
    uint32_t *most)
{
	uint32_t	*slot, f;
	size_t		 k;
	int		 isnew;

	for (k = 0; k < y->nseen; k++) {
		f = y->seen[k];
		slot = hmap_upsert(map, hmap_key2(th, f), 0, &isnew);
		*slot += y->n[f];
		if (most != NULL && *slot > most[f])
			most[f] = *slot;
		y->n[f] = 0;
	}
	y->nseen = 0;
}

static void
im_tally_free(struct im_tally *y)
{
	free(y->n);
	free(y->seen);
}

/* Pass 1: families of the eligible ranges and their counts per thread. */
static void
im_families(struct im_ctx *c)
{
	const struct model	*m = c->m;
	struct im_tally		 y;
	size_t			 t, i;
	uint32_t		 f;

	memset(&y, 0, sizeof y);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (!c->user[t])
			continue;
		for (i = 0; i < l->n; i++)
			if ((f = im_family(c, t, i)) != NONE32)
				im_tally_add(&y, f);
		im_tally_flush(&y, &c->cnt, m->tracks[t].thread, NULL);
	}
	im_tally_free(&y);
}

/* Does a repeating eligible range on another track of the thread contain
 * range i of track t? */
static int
im_nested_across(struct im_ctx *c, size_t t, size_t i)
{
	const struct model	*m = c->m;
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	size_t			 k, j, n;
	uint32_t		 u, th = tr->thread;

	if (m->nvtx_off == NULL || th >= m->nthreads ||
	    m->nvtx_off[th + 1] - m->nvtx_off[th] < 2)
		return 0;
	for (k = m->nvtx_off[th]; k < m->nvtx_off[th + 1]; k++) {
		u = m->nvtx_trk[k];
		if (u == t || !c->user[u])
			continue;
		n = lane_stab(&m->tracks[u].lane, l->start[i], &c->buf,
		    &c->bufcap);
		for (j = 0; j < n; j++) {
			size_t x = c->buf[j];
			const struct lane *lu = &m->tracks[u].lane;
			if (lu->end[x] >= l->end[i] &&
			    im_rep(c, th, im_family(c, u, x)))
				return 1;
		}
	}
	return 0;
}

/* Is range i of track t (the swept one) nested in a repeating eligible
 * range? */
static int
im_nested(struct im_ctx *c, size_t t, size_t i)
{
	const struct model	*m = c->m;
	const struct lane	*l = &m->tracks[t].lane;
	uint32_t		 th = m->tracks[t].thread, p, near;
	struct evref		 r;
	int			 guard = 0;

	/* A parent is mostly on the range's own track. */
	near = (uint32_t)t;
	p = l->aux[i] < m->nnvtx ? m->nvtx[l->aux[i]].parent : NONE32;
	while (p != NONE32 && p < m->nevents && guard++ < IM_CHAIN) {
		uint32_t aux;
		r = model_ev_near(m, p, &near);
		if (r.track >= m->ntracks || !c->user[r.track])
			break;
		if (im_rep(c, th, im_family(c, r.track, r.idx)))
			return 1;
		aux = m->tracks[r.track].lane.aux[r.idx];
		p = aux < m->nnvtx ? m->nvtx[aux].parent : NONE32;
	}
	return im_nested_across(c, t, i);
}

/* Is range i of track t (the swept one) a top-level range of family f? */
static int
im_top(struct im_ctx *c, size_t t, size_t i, uint32_t f)
{
	return f != NONE32 && im_rep(c, c->m->tracks[t].thread, f) &&
	    !im_nested(c, t, i);
}

/* Span of each process (first to last event of its tracks). */
static void
im_spans(const struct model *m, int64_t *s0, int64_t *s1)
{
	size_t	t, p;

	for (p = 0; p < m->nprocesses; p++) {
		s0[p] = INT64_MAX;
		s1[p] = INT64_MIN;
	}
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		int64_t e;
		if (tr->process >= m->nprocesses || l->n == 0)
			continue;
		e = l->overlaps && l->ends_sorted != NULL ?
		    l->ends_sorted[l->n - 1] : l->end[l->n - 1];
		if (l->start[0] < s0[tr->process])
			s0[tr->process] = l->start[0];
		if (e > s1[tr->process])
			s1[tr->process] = e;
	}
}

struct im_fam {
	uint32_t	 top;		/* top-level ranges */
	int64_t		 covered;	/* union time, summed per track */
	int64_t		 extent;	/* first start to last end, summed
					   per track */
	int64_t		 pspan;		/* the spans of those tracks'
					   processes, summed */
	uint32_t	 last_track;	/* for the sweep of one track */
	int64_t		 first, last_end;
};

/* The family's time on its last track into extent and pspan. */
static void
im_close(const struct model *m, struct im_fam *x, const int64_t *s0,
    const int64_t *s1)
{
	uint32_t	p;

	if (x->last_track == NONE32)
		return;
	if (x->last_end > x->first)
		x->extent += x->last_end - x->first;
	p = m->tracks[x->last_track].process;
	if (p < m->nprocesses && s1[p] > s0[p])
		x->pspan += s1[p] - s0[p];
	else
		x->pspan += x->last_end - x->first;
	x->last_track = NONE32;
}

/* Pass 2 and 3: top-level ranges, counted and covered per family. */
static void
im_measure(struct im_ctx *c, struct im_fam *fs, size_t nf)
{
	const struct model	*m = c->m;
	struct hmap		 per_thread;
	struct im_tally		 y;
	size_t			 t, i;
	uint32_t		 f;
	int64_t			*s0, *s1;

	s0 = xcalloc(m->nprocesses + 1, sizeof *s0);
	s1 = xcalloc(m->nprocesses + 1, sizeof *s1);
	im_spans(m, s0, s1);
	/* A word-aligned run of bits per user track. */
	c->toff = xcalloc(m->ntracks + 1, sizeof *c->toff);
	for (t = 0; t < m->ntracks; t++)
		c->toff[t + 1] = c->toff[t] + (c->user[t] ?
		    (m->tracks[t].lane.n + 63) / 64 : 0);
	c->top = xcalloc(c->toff[m->ntracks] + 1, sizeof *c->top);
	hmap_init(&per_thread);
	memset(&y, 0, sizeof y);
	for (f = 0; f < nf; f++)
		fs[f].last_track = NONE32;
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (!c->user[t])
			continue;
		c->cur = (uint32_t)t + 1;
		for (i = 0; i < l->n; i++) {
			struct im_fam *x;
			int64_t a, b;
			/* im_top() reads the parent of each range: ask for
			 * it a few ranges ahead. */
			if (i + IM_AHEAD < l->n && l->aux[i + IM_AHEAD] < m->nnvtx)
				IM_PREFETCH(&m->nvtx[l->aux[i + IM_AHEAD]]);
			f = im_family(c, t, i);
			if (f >= nf || !im_top(c, t, i, f))
				continue;
			c->top[c->toff[t] + i / 64] |= (uint64_t)1 << (i % 64);
			x = &fs[f];
			x->top++;
			im_tally_add(&y, f);
			/* The union over the track, in start order. */
			a = l->start[i];
			b = l->end[i];
			if (x->last_track != (uint32_t)t) {
				im_close(m, x, s0, s1);
				x->last_track = (uint32_t)t;
				x->first = a;
				x->last_end = a;
			}
			if (a < x->last_end)
				a = x->last_end;
			if (b > a)
				x->covered += b - a;
			if (b > x->last_end)
				x->last_end = b;
		}
		/* c->most: the most on one thread. */
		im_tally_flush(&y, &per_thread, tr->thread, c->most);
	}
	for (f = 0; f < nf; f++)
		im_close(m, &fs[f], s0, s1);
	im_tally_free(&y);
	hmap_free(&per_thread);
	free(s0);
	free(s1);
}

/* Appends the top-level ranges of family best, the iterations: those
 * im_measure() marked top-level, of that family. */
static void
im_emit(struct im_ctx *c, uint32_t best, struct iters *it, size_t *cap)
{
	const struct model	*m = c->m;
	size_t			 t, i, w;
	uint64_t		 bits;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (w = c->toff[t]; w < c->toff[t + 1]; w++)
			for (bits = c->top[w]; bits != 0; bits &= bits - 1) {
				i = (w - c->toff[t]) * 64 + IM_CTZ(bits);
				if (im_family(c, t, i) == best)
					iters_add(it, cap,
					    m->tracks[t].process,
					    model_gid(m, (uint32_t)t,
					    (uint32_t)i), l->name[i],
					    l->start[i], l->end[i]);
			}
	}
}

static void
im_init(struct im_ctx *c, const struct model *m)
{
	size_t	t;

	memset(c, 0, sizeof *c);
	c->m = m;
	c->fam = strpool_new();
	hmap_init(&c->cnt);
	c->nmemo = strpool_count(m->strs);
	c->memo = xcalloc(c->nmemo + 1, sizeof *c->memo);
	c->cpu_op = strpool_find(m->strs, "cpu_op", 6);
	if (c->cpu_op == UINT32_MAX)
		c->cpu_op = NONE32;
	c->user = xcalloc(m->ntracks + 1, 1);
	for (t = 0; t < m->ntracks; t++)
		c->user[t] = m->tracks[t].lane.n > 0 && im_user_track(m, t);
}

/* Per family: what im_measure() and im_rep() need, once the families
 * are known. */
static void
im_size(struct im_ctx *c, size_t nf)
{
	uint32_t	f;

	c->need = xcalloc(nf + 1, sizeof *c->need);
	c->stamp = xcalloc(nf + 1, sizeof *c->stamp);
	c->rep = xcalloc(nf + 1, 1);
	c->most = xcalloc(nf + 1, sizeof *c->most);
	for (f = 0; f < nf; f++)
		c->need[f] = im_need(c, f);
}

static void
im_free(struct im_ctx *c)
{
	free(c->memo);
	free(c->user);
	free(c->need);
	free(c->stamp);
	free(c->rep);
	free(c->most);
	free(c->buf);
	free(c->toff);
	free(c->top);
	hmap_free(&c->cnt);
	strpool_free(c->fam);
}

char *
iters_marker_pick(const struct model *m, struct iters *it, size_t *cap)
{
	struct im_ctx	 c;
	struct im_fam	*fs;
	size_t		 nf;
	uint32_t	 f, best = NONE32;
	char		*res = NULL;
	double		 cov, bcov = 0;

	im_init(&c, m);
	im_families(&c);
	nf = strpool_count(c.fam);
	im_size(&c, nf);
	fs = xcalloc(nf + 1, sizeof *fs);
	im_measure(&c, fs, nf);
	for (f = 1; f < nf; f++) {
		const char *name = strpool_get(c.fam, f);
		if (c.most[f] < c.need[f])
			continue;
		cov = fs[f].extent > 0 ? (double)fs[f].covered /
		    (double)fs[f].extent : 0.0;
		if (cov < ITERS_MIN_COVER || (double)fs[f].extent <
		    ITERS_MIN_EXTENT * (double)fs[f].pspan)
			continue;
		if (best != NONE32 && strcmp(strpool_get(c.fam, best),
		    "ProfilerStep#*") == 0)
			continue;
		if (best == NONE32 || strcmp(name, "ProfilerStep#*") == 0 ||
		    fs[f].top > fs[best].top || (fs[f].top == fs[best].top &&
		    (cov > bcov || (cov == bcov &&
		    strcmp(name, strpool_get(c.fam, best)) < 0)))) {
			best = f;
			bcov = cov;
		}
	}
	if (best != NONE32) {
		res = xstrdup(strpool_get(c.fam, best));
		im_emit(&c, best, it, cap);
	}
	free(fs);
	im_free(&c);
	return res;
}
