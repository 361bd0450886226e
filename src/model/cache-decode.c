/*
 * cache-decode: a checked file image decoded into a model on a pool of
 * threads (or its head into a summary model). See cache-int.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "model/cache-int.h"
#include "util/pool.h"
#include "util/timing.h"
#include "util/xmalloc.h"

int
cache_decompress(struct cache_rctx *r, unsigned tid, size_t frame, void *dst,
    char **cause)
{
	size_t	 len = r->plan->rawlen[frame], res;
	uint8_t	 dummy;

	if (r->dctx[tid] == NULL && (r->dctx[tid] = ZSTD_createDCtx()) ==
	    NULL) {
		*cause = xstrdup("zstd: cannot create a context");
		return -1;
	}
	res = ZSTD_decompressDCtx(r->dctx[tid], len > 0 ? dst : &dummy, len,
	    r->frames + r->off[frame], r->clen[frame]);
	if (ZSTD_isError(res)) {
		*cause = xasprintf("frame %zu: %s", frame,
		    ZSTD_getErrorName(res));
		return -1;
	}
	if (res != len) {
		*cause = xasprintf("frame %zu: %zu bytes, expected %zu", frame,
		    res, len);
		return -1;
	}
	return 0;
}

static int
cache_load_strings(struct cache_rctx *r, unsigned tid, size_t f,
    char **cause)
{
	uint32_t	 n = r->c.nstrs, *lens, i;
	uint8_t		*packed;
	char		*data;
	uint64_t	 off = 0, bytes = r->c.strbytes;
	int		 rc = -1;

	packed = xreallocarray(NULL, n - 1, sizeof *lens);
	lens = xreallocarray(NULL, n - 1, sizeof *lens);
	data = xmalloc(bytes + 1);
	if (cache_decompress(r, tid, f, packed, cause) != 0 ||
	    cache_decompress(r, tid, f + 1, data, cause) != 0)
		goto out;
	cache_unpack32(lens, packed, n - 1, XF_NONE);
	for (i = 1; i < n; i++) {
		if (lens[i - 1] > bytes - off || strpool_intern(r->m->strs,
		    data + off, lens[i - 1]) != i)
			break;
		off += lens[i - 1];
	}
	if (i != n || off != bytes) {
		*cause = xasprintf("string table inconsistent at id %u", i);
		goto out;
	}
	rc = 0;
out:
	free(packed);
	free(lens);
	free(data);
	return rc;
}

static int
cache_load_cols(struct cache_rctx *r, const struct cache_job *job,
    unsigned tid, char **cause)
{
	const struct model	*m = r->m;
	struct cache_col	 cols[CACHE_MAXCOLS];
	uint8_t			*sc = r->scratch[tid];
	size_t			 f = job->frame, n = job->n, k, ncol;

	ncol = cache_group_cols(m, job->group, job->which,
	    job->group == GRP_LANE ? cache_lflags(&r->c.lanes[job->which]) : 0,
	    job->i0, cols);
	if (ncol != job->ncols) {
		*cause = xstrdup("plan mismatch");
		return -1;
	}
	for (k = 0; k < ncol; k++)
		cache_prefault(cols[k].p, n * cols[k].width);
	for (k = 0; k < ncol; k++) {
		if (cols[k].width == 1) {
			if (cache_decompress(r, tid, f + k, cols[k].p,
			    cause) != 0)
				return -1;
			continue;
		}
		if (cache_decompress(r, tid, f + k, sc, cause) != 0)
			return -1;
		cache_unpack_col(&cols[k], cols, sc, n);
	}
	if (cache_check_cols(r, job, cols, tid) != 0) {
		*cause = xasprintf("frame %zu: index out of range", f);
		return -1;
	}
	return 0;
}

static int
cache_load_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_rctx	*r = arg;
	const struct cache_job	*job = &r->plan->jobs[j];
	const struct nvtx_info	*ni;
	size_t			 wd, i, last;
	int			 rc = 0;

	if (r->scratch[tid] == NULL)
		r->scratch[tid] = xmalloc(CACHE_SCRATCH);
	switch (job->type) {
	case JOB_STRINGS:
		rc = cache_load_strings(r, tid, job->frame, cause);
		break;
	case JOB_TABLE:
		wd = cache_tab_width[job->which];
		if (cache_decompress(r, tid, job->frame, r->scratch[tid],
		    cause) != 0)
			return -1;
		cache_prefault(cache_table(r->m, job->which) + job->i0 * wd,
		    job->n * wd);
		cache_unshuffle(cache_table(r->m, job->which) + job->i0 * wd,
		    r->scratch[tid], job->n, wd);
		if (job->which == TAB_OPS) {
			for (i = 0; i < job->n; i++)
				if (r->m->ops[job->i0 + i].nvtx >=
				    r->c.ntab[TAB_NVTX] ||
				    r->m->ops[job->i0 + i].dtype >=
				    r->c.nstrs) {
					*cause = xstrdup("operator record out "
					    "of range");
					return -1;
				}
			break;
		}
		if (job->which != TAB_NVTX)
			break;
		ni = r->m->nvtx + job->i0;
		for (i = 0; i < job->n; i++) {
			if (ni[i].parent != NONE32 &&
			    ni[i].parent >= r->c.nevents) {
				*cause = xstrdup("NVTX parent out of range");
				return -1;
			}
		}
		break;
	case JOB_COLS:
		rc = cache_load_cols(r, job, tid, cause);
		break;
	default:
		return -1;
	}
	if (rc == 0 && r->drop) {
		last = job->frame + (job->type == JOB_COLS ? job->ncols :
		    job->type == JOB_STRINGS ? 2 : 1) - 1;
		cache_buf_drop(r->frames + r->off[job->frame],
		    r->off[last] + r->clen[last] - r->off[job->frame]);
	}
	return rc;
}

/* n elements of size sz, or NULL for none. */
static void *
cache_alloc(size_t n, size_t sz)
{
	void	*p;

	if (n == 0)
		return NULL;
	p = xreallocarray(NULL, n, sz);
	return p;
}

/* The CPU samples' arrays (callchain.h); with no arrays (a summary), the
 * counts only. */
static void
cache_count_cpusamp(struct cpusamp *cs, const struct cache_counts *c)
{
	cs->nframes = c->ntab[TAB_CFRAMES];
	cs->nchains = c->ntab[TAB_CHOFF] > 0 ? c->ntab[TAB_CHOFF] - 1 : 0;
	cs->nfr = c->ntab[TAB_CHFR];
	cs->nth = c->ntab[TAB_STHREADS];
	cs->ns = c->ntab[TAB_SAMPLES];
}

static void
cache_alloc_cpusamp(struct cpusamp *cs, const struct cache_counts *c)
{
	cs->frame = cache_alloc(c->ntab[TAB_CFRAMES], sizeof *cs->frame);
	cs->off = cache_alloc(c->ntab[TAB_CHOFF], sizeof *cs->off);
	cs->fr = cache_alloc(c->ntab[TAB_CHFR], sizeof *cs->fr);
	cs->th = cache_alloc(c->ntab[TAB_STHREADS], sizeof *cs->th);
	cs->s = cache_alloc(c->ntab[TAB_SAMPLES], sizeof *cs->s);
	cache_count_cpusamp(cs, c);
}

/* Allocates the final arrays of m from the counts (checked against the
 * file): every array the decode jobs fill. */
static void
cache_alloc_model(struct model *m, const struct cache_counts *c)
{
	const struct cache_lanedim	*ld;
	struct iset			*dc;
	struct lane			*l;
	size_t				 t, n;

	m->kernels = cache_alloc(c->ntab[TAB_KERNELS], sizeof *m->kernels);
	m->nkernels = c->ntab[TAB_KERNELS];
	m->copies = cache_alloc(c->ntab[TAB_COPIES], sizeof *m->copies);
	m->ncopies = c->ntab[TAB_COPIES];
	m->nvtx = cache_alloc(c->ntab[TAB_NVTX], sizeof *m->nvtx);
	m->nnvtx = c->ntab[TAB_NVTX];
	m->counters = cache_alloc(c->ntab[TAB_COUNTERS], sizeof *m->counters);
	m->ncounters = c->ntab[TAB_COUNTERS];
	m->ops = cache_alloc(c->ntab[TAB_OPS], sizeof *m->ops);
	m->nops = c->ntab[TAB_OPS];
	cache_alloc_cpusamp(&m->cs, c);
	m->sched_threads = cache_alloc(c->ntab[TAB_SCHEDTHR],
	    sizeof *m->sched_threads);
	m->nsched_threads = c->ntab[TAB_SCHEDTHR];
	m->sched_runs = cache_alloc(c->ntab[TAB_SCHED],
	    sizeof *m->sched_runs);
	m->nsched_runs = c->ntab[TAB_SCHED];
	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		ld = &c->lanes[t];
		n = ld->n;
		l->start = cache_alloc(n, sizeof *l->start);
		l->end = cache_alloc(n, sizeof *l->end);
		l->name = cache_alloc(n, sizeof *l->name);
		l->kind = cache_alloc(n, sizeof *l->kind);
		l->flags = cache_alloc(n, sizeof *l->flags);
		if (ld->wide)
			l->rowid64 = cache_alloc(n, sizeof *l->rowid64);
		else
			l->rowid32 = cache_alloc(n, sizeof *l->rowid32);
		l->corr = cache_alloc(n, sizeof *l->corr);
		l->aux = cache_alloc(n, sizeof *l->aux);
		l->n = l->cap = n;
		if (ld->overlaps) {
			l->depth = cache_alloc(n, sizeof *l->depth);
			l->maxend = cache_alloc(n, sizeof *l->maxend);
			l->ends_sorted = cache_alloc(n, sizeof *l->ends_sorted);
			l->cov.n = ld->cov_n;
			l->cov.start = cache_alloc(ld->cov_n,
			    sizeof *l->cov.start);
			l->cov.end = cache_alloc(ld->cov_n, sizeof *l->cov.end);
			l->cov.cap = ld->cov_n;
			l->cov.view = 0;
		}
		l->cov.pre = xreallocarray(NULL, lane_cov_nsums(n,
		    ld->overlaps, ld->cov_n), sizeof *l->cov.pre);
		l->pyr = cache_alloc(lane_pyr_size(n), sizeof *l->pyr);
	}
	if (c->has_launch) {
		m->launch = cache_alloc(c->nlaunch, sizeof *m->launch);
		m->nlaunch = c->nlaunch;
		m->gpu_of_api = cache_alloc(c->nlinks, sizeof *m->gpu_of_api);
		m->ngpu_of_api = c->nlinks;
		m->gpu_of_api_idx = cache_alloc((c->nlinks + CORR_IDX_STEP -
		    1) / CORR_IDX_STEP, sizeof *m->gpu_of_api_idx);
	}
	if (c->ndcov > 0) {
		m->device_cov = xcalloc(c->ndcov, sizeof *m->device_cov);
		for (t = 0; t < c->ndcov; t++) {
			dc = &m->device_cov[t];
			dc->n = c->dcov_n[t];
			dc->start = cache_alloc(dc->n, sizeof *dc->start);
			dc->end = cache_alloc(dc->n, sizeof *dc->end);
			dc->cap = dc->n;
			dc->shift = ISET_SHIFT;
			dc->pre = xreallocarray(NULL, iset_npre(dc),
			    sizeof *dc->pre);
		}
	}
}

static void
cache_rctx_free(struct cache_rctx *r)
{
	size_t	i;

	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeDCtx(r->dctx[i]);
		free(r->scratch[i]);
	}
	cache_counts_free(&r->c);
	free(r->off);
	free(r->clen);
}

/* Moves the saved warnings into m: they already include those finalize
 * adds. */
static void
cache_set_warnings(struct model *m, char ***warn, size_t *nwarn)
{
	size_t	i;

	for (i = 0; i < m->nwarnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	m->warnings = *warn;
	m->nwarnings = *nwarn;
	*warn = NULL;
	*nwarn = 0;
}

/* What decoding one file holds until it ends. */
struct cache_dec {
	struct cache_plan	 plan;
	struct cache_rctx	 r;
	struct model		*m;
	char			**warn;
	size_t			 nwarn;
};

/* Starts decoding: a new model and the head of the file read into it. */
static int
cache_dec_begin(struct cache_dec *d, const struct cache_hdr *h,
    const uint8_t *payload, char **why)
{
	memset(d, 0, sizeof *d);
	d->m = xcalloc(1, sizeof *d->m);
	d->m->strs = strpool_new();
	d->r.m = d->m;
	return cache_read_head(h, payload, &d->r, &d->plan, &d->warn,
	    &d->nwarn, why);
}

/* Ends decoding: on success (rc 0) the model with its warnings goes to
 * *out, else it is freed; returns rc. */
static int
cache_dec_end(struct cache_dec *d, int rc, struct model **out)
{
	size_t	i;

	if (rc == 0) {
		cache_set_warnings(d->m, &d->warn, &d->nwarn);
		*out = d->m;
		d->m = NULL;
	}
	for (i = 0; i < d->nwarn; i++)
		free(d->warn[i]);
	free(d->warn);
	cache_rctx_free(&d->r);
	cache_plan_free(&d->plan);
	model_free(d->m);
	return rc;
}

/*
 * Decodes a CRC-checked payload (an anonymous mapping of len bytes that it
 * gives back page by page as frames are decoded) into a model. Returns 0,
 * or -1 with *why.
 */
int
cache_decode(const struct cache_hdr *h, uint8_t *payload,
    struct model **out, char **why)
{
	struct cache_dec	 d;
	double			 t0;

	if (cache_dec_begin(&d, h, payload, why) != 0)
		return cache_dec_end(&d, -1, out);
	t0 = timing_now();
	cache_alloc_model(d.m, &d.r.c);
	cache_auxlim(&d.r);
	d.r.drop = 1;
	if (pool_run(d.plan.njobs, cache_nthreads(h->raw_size),
	    cache_load_job, &d.r, why) != 0)
		return cache_dec_end(&d, -1, out);
	timing_report("cache-decode", t0);
	if (cache_check_whole(&d.r, why) != 0)
		return cache_dec_end(&d, -1, out);
	t0 = timing_now();
	if (model_adopt(d.m, why) != 0 ||
	    cache_check_nvtx_forest(d.m, why) != 0)
		return cache_dec_end(&d, -1, out);
	timing_report("cache-adopt", t0);
	return cache_dec_end(&d, 0, out);
}

/* Decodes the CRC-checked head of a cache into a summary model. */
int
cache_decode_summary(const struct cache_hdr *h, const uint8_t *head,
    struct model **out, char **why)
{
	struct cache_dec	 d;
	struct model		*m;
	uint64_t		*lane_n = NULL;
	size_t			 i;
	int			 rc = -1;

	if (cache_dec_begin(&d, h, head, why) != 0)
		return cache_dec_end(&d, -1, out);
	m = d.m;
	if (d.plan.njobs > 0 && d.plan.jobs[0].type == JOB_STRINGS &&
	    cache_load_job(&d.r, 0, 0, why) != 0)
		return cache_dec_end(&d, -1, out);
	if (cache_check_refs(m, d.r.c.nstrs) != 0) {
		*why = xstrdup("entity reference out of range");
		return cache_dec_end(&d, -1, out);
	}
	if (m->ntracks > 0)
		lane_n = xcalloc(m->ntracks, sizeof *lane_n);
	for (i = 0; i < m->ntracks; i++) {
		lane_n[i] = d.r.c.lanes[i].n;
		m->tracks[i].lane.overlaps = 0;
		m->tracks[i].lane.max_depth = 0;
		m->tracks[i].lane.maxdur = 0;
	}
	/* Counts only: `info` reports them; nothing reads the arrays. */
	cache_count_cpusamp(&m->cs, &d.r.c);
	if (model_summary(m, lane_n, why) == 0)
		rc = 0;
	free(lane_n);
	return cache_dec_end(&d, rc, out);
}
