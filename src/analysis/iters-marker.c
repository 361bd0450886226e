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
 * process.
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

/* A PyTorch per-operator range (never a marker)? */
static int
im_per_op(const struct model *m, const char *name, const struct nvtx_info *ni)
{
	const char	*p;

	if (strncmp(name, "aten::", 6) == 0)
		return 1;
	for (p = name; (p = strchr(p, ',')) != NULL; p++)
		if (strncmp(p, ", seq = ", 8) == 0 ||
		    strncmp(p, ", op_id = ", 10) == 0)
			return 1;
	if (ni != NULL && ni->category_name != 0 &&
	    strcmp(model_str(m, ni->category_name), "cpu_op") == 0 &&
	    strncmp(name, "ProfilerStep#", 13) != 0)
		return 1;
	return 0;
}

/* Communication ranges are not iterations. */
static int
im_comm(const char *name, uint8_t flags)
{
	return (flags & EVF_COMM) || strncasecmp(name, "nccl", 4) == 0 ||
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

struct im_ctx {
	const struct model	*m;
	struct strpool		*fam;		/* family names */
	uint32_t		**of;		/* per track: family or NONE32 */
	struct hmap		 cnt;		/* (thread, family) -> count */
	uint32_t		*buf;
	size_t			 bufcap;
};

static uint32_t
im_count(const struct im_ctx *c, uint32_t thread, uint32_t f)
{
	uint32_t	v;

	if (f == NONE32 || !hmap_get(&c->cnt, hmap_key2(thread, f), &v))
		return 0;
	return v;
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

/* Pass 1: families of the eligible ranges and their counts per thread. */
static void
im_families(struct im_ctx *c)
{
	const struct model	*m = c->m;
	size_t			 t, i;
	char			 buf[1024];
	uint32_t		*slot, f;
	int			 isnew;

	c->of = xcalloc(m->ntracks + 1, sizeof *c->of);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (!im_user_track(m, t) || l->n == 0)
			continue;
		c->of[t] = xcalloc(l->n, sizeof *c->of[t]);
		for (i = 0; i < l->n; i++) {
			const char *name = model_str(m, l->name[i]);
			const struct nvtx_info *ni = l->aux[i] < m->nnvtx ?
			    &m->nvtx[l->aux[i]] : NULL;
			c->of[t][i] = NONE32;
			if (l->kind[i] != EV_NVTX || im_comm(name, l->flags[i])
			    || im_per_op(m, name, ni))
				continue;
			nvtx_family(name, buf, sizeof buf);
			if (buf[0] == '\0')
				continue;
			f = strpool_intern0(c->fam, buf);
			c->of[t][i] = f;
			slot = hmap_upsert(&c->cnt, hmap_key2(tr->thread, f), 0,
			    &isnew);
			(*slot)++;
		}
	}
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
		if (u == t || c->of[u] == NULL)
			continue;
		n = lane_stab(&m->tracks[u].lane, l->start[i], &c->buf,
		    &c->bufcap);
		for (j = 0; j < n; j++) {
			size_t x = c->buf[j];
			const struct lane *lu = &m->tracks[u].lane;
			if (lu->end[x] >= l->end[i] && im_count(c, th,
			    c->of[u][x]) >= im_need(c, c->of[u][x]))
				return 1;
		}
	}
	return 0;
}

/* Is range i of track t nested in a repeating eligible range? */
static int
im_nested(struct im_ctx *c, size_t t, size_t i)
{
	const struct model	*m = c->m;
	const struct lane	*l = &m->tracks[t].lane;
	uint32_t		 th = m->tracks[t].thread, p;
	struct evref		 r;
	int			 guard = 0;

	p = l->aux[i] < m->nnvtx ? m->nvtx[l->aux[i]].parent : NONE32;
	while (p != NONE32 && p < m->nevents && guard++ < IM_CHAIN) {
		uint32_t aux;
		r = model_ev(m, p);
		if (r.track >= m->ntracks || c->of[r.track] == NULL)
			break;
		if (im_count(c, th, c->of[r.track][r.idx]) >=
		    im_need(c, c->of[r.track][r.idx]))
			return 1;
		aux = m->tracks[r.track].lane.aux[r.idx];
		p = aux < m->nnvtx ? m->nvtx[aux].parent : NONE32;
	}
	return im_nested_across(c, t, i);
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
	uint32_t	 best_thread;	/* most on one thread */
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
im_measure(struct im_ctx *c, struct im_fam *fs, size_t nf, uint8_t **top)
{
	const struct model	*m = c->m;
	struct hmap		 per_thread;
	size_t			 t, i;
	uint32_t		*slot, f;
	int64_t			*s0, *s1;
	int			 isnew;

	s0 = xcalloc(m->nprocesses + 1, sizeof *s0);
	s1 = xcalloc(m->nprocesses + 1, sizeof *s1);
	im_spans(m, s0, s1);
	hmap_init(&per_thread);
	for (f = 0; f < nf; f++)
		fs[f].last_track = NONE32;
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (c->of[t] == NULL)
			continue;
		top[t] = xcalloc(l->n, 1);
		for (i = 0; i < l->n; i++) {
			struct im_fam *x;
			int64_t a, b;
			f = c->of[t][i];
			if (f == NONE32 || f >= nf || im_count(c, tr->thread, f) <
			    im_need(c, f) || im_nested(c, t, i))
				continue;
			top[t][i] = 1;
			x = &fs[f];
			x->top++;
			slot = hmap_upsert(&per_thread, hmap_key2(tr->thread, f),
			    0, &isnew);
			if (++*slot > x->best_thread)
				x->best_thread = *slot;
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
	}
	for (f = 0; f < nf; f++)
		im_close(m, &fs[f], s0, s1);
	hmap_free(&per_thread);
	free(s0);
	free(s1);
}

char *
iters_marker_pick(const struct model *m, uint8_t ***topp)
{
	struct im_ctx	 c;
	struct im_fam	*fs;
	uint8_t		**top;
	size_t		 nf, t;
	uint32_t	 f, best = NONE32;
	char		*res = NULL;
	double		 cov, bcov = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.fam = strpool_new();
	hmap_init(&c.cnt);
	im_families(&c);
	nf = strpool_count(c.fam);
	fs = xcalloc(nf + 1, sizeof *fs);
	top = xcalloc(m->ntracks + 1, sizeof *top);
	im_measure(&c, fs, nf, top);
	for (f = 1; f < nf; f++) {
		const char *name = strpool_get(c.fam, f);
		if (fs[f].best_thread < im_need(&c, f))
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
		/* Keep only the chosen family's top-level ranges. */
		for (t = 0; t < m->ntracks; t++) {
			size_t i;
			if (top[t] == NULL)
				continue;
			for (i = 0; i < m->tracks[t].lane.n; i++)
				if (top[t][i] && c.of[t][i] != best)
					top[t][i] = 0;
		}
	}
	for (t = 0; t < m->ntracks; t++)
		free(c.of[t]);
	free(c.of);
	free(c.buf);
	free(fs);
	hmap_free(&c.cnt);
	strpool_free(c.fam);
	if (res == NULL) {
		for (t = 0; t < m->ntracks; t++)
			free(top[t]);
		free(top);
		top = NULL;
	}
	*topp = top;
	return res;
}
