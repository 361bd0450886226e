/*
 * cache-decode: a checked file image made a model, its arrays pointing
 * into the image and checked on a pool of threads (or its head decoded
 * into a summary model). See cache-int.h.
 */
#include "config.h"

#include <sys/mman.h>

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

/* Checks what the queries follow in the arrays of a job (a column group's
 * are checked piece by piece by the pass: cache-pass.c). */
int
cache_load_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_rctx	*r = arg;
	const struct cache_job	*job = &r->plan->jobs[j];
	const struct op_info	*op;
	size_t			 i;

	switch (job->type) {
	case JOB_STRINGS:
		return cache_load_strings(r, tid, job->frame, cause);
	case JOB_TABLE:
		if (job->which == TAB_OPS) {
			op = r->m->ops;
			for (i = 0; i < job->n; i++)
				if (op[i].nvtx >= r->c.ntab[TAB_NVTX] ||
				    op[i].dtype >= r->c.nstrs) {
					*cause = xstrdup("operator record out "
					    "of range");
					return -1;
				}
		} else if (job->which == TAB_NVTX &&
		    cache_check_nvtx(r, job->n) != 0) {
			*cause = xstrdup("NVTX parent out of range");
			return -1;
		}
		return 0;
	case JOB_COLS:
		/* Checked piece by piece as they are read: cache-pass.c. */
		return 0;
	}
	return -1;
}

/* The array of body frame f in the file image, or NULL if its padding is
 * wrong or it is not aligned. */
static uint8_t *
cache_frame_at(struct cache_rctx *r, size_t f)
{
	uint64_t	 raw = r->plan->rawlen[f], pad;
	uint8_t		*p;

	if (r->clen[f] < raw || (pad = r->clen[f] - raw) >= CACHE_ALIGN)
		return NULL;
	p = r->body + r->off[f] + pad;
	if ((uintptr_t)p % CACHE_ALIGN != 0)
		return NULL;
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

/* Points every array of the body jobs at its frame. */
static int
cache_bind_jobs(struct cache_rctx *r, char **why)
{
	const struct cache_job	*job;
	uint8_t			*fp[CACHE_MAXCOLS] = { NULL };
	size_t			 j, k;

	for (j = 0; j < r->plan->njobs; j++) {
		job = &r->plan->jobs[j];
		if (job->type == JOB_STRINGS)
			continue;
		for (k = 0; k < (job->type == JOB_COLS ? job->ncols : 1); k++)
			if ((fp[k] = cache_frame_at(r, job->frame + k)) ==
			    NULL) {
				*why = xasprintf("frame %zu: misplaced",
				    job->frame + k);
				return -1;
			}
		if (job->type == JOB_TABLE)
			cache_table_bind(r->m, (int)job->which, fp[0]);
		else if (cache_group_bind(r->m, job->group, job->which,
		    job->group == GRP_LANE ?
		    cache_lflags(&r->c.lanes[job->which]) : 0, fp) !=
		    job->ncols) {
			*why = xstrdup("plan mismatch");
			return -1;
		}
	}
	return 0;
}

/* Sets the sizes of m's arrays from the counts (checked against the
 * file); the arrays themselves are bound to their frames (cache_bind_jobs). */
static void
cache_size_model(struct model *m, const struct cache_counts *c)
{
	const struct cache_lanedim	*ld;
	struct iset			*dc;
	struct lane			*l;
	size_t				 t;

	m->nkernels = c->ntab[TAB_KERNELS];
	m->ncopies = c->ntab[TAB_COPIES];
	m->nnvtx = c->ntab[TAB_NVTX];
	m->ncounters = c->ntab[TAB_COUNTERS];
	m->nops = c->ntab[TAB_OPS];
	cache_count_cpusamp(&m->cs, c);
	m->nsched_threads = c->ntab[TAB_SCHEDTHR];
	m->nsched_runs = c->ntab[TAB_SCHED];
	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		ld = &c->lanes[t];
		l->n = l->cap = ld->n;
		if (ld->overlaps) {
			l->cov.n = ld->cov_n;
			l->cov.cap = ld->cov_n;
			l->cov.view = 0;
		}
	}
	if (c->has_launch) {
		m->nlaunch = c->nlaunch;
		m->ngpu_of_api = c->nlinks;
	}
	if (c->ndcov > 0) {
		m->device_cov = xcalloc(c->ndcov, sizeof *m->device_cov);
		for (t = 0; t < c->ndcov; t++) {
			dc = &m->device_cov[t];
			dc->n = c->dcov_n[t];
			dc->cap = dc->n;
			dc->shift = ISET_SHIFT;
		}
	}
}

static void
cache_rctx_free(struct cache_rctx *r)
{
	size_t	i;

	for (i = 0; i < CACHE_THREADS; i++)
		ZSTD_freeDCtx(r->dctx[i]);
	cache_counts_free(&r->c);
	free(r->evoff);
	free(r->evbucket);
	free(r->off);
	free(r->clen);
}

/* Moves the saved warnings into m: they already include those finalize
 * adds. */
static void
cache_set_warnings(struct model *m, char ***warn, size_t *nwarn)
{
	xfree_strv(m->warnings, m->nwarnings);
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
	if (rc == 0) {
		cache_set_warnings(d->m, &d->warn, &d->nwarn);
		*out = d->m;
		d->m = NULL;
	}
	xfree_strv(d->warn, d->nwarn);
	cache_rctx_free(&d->r);
	cache_plan_free(&d->plan);
	model_free(d->m);
	return rc;
}

/* A failure before the pass: a checksum mismatch if the payload's checksum
 * says so (damage, rather than what it broke), else *why as it is. */
static void
cache_dec_why(const struct cache_hdr *h, const uint8_t *payload, char **why)
{
	if (cache_sum(payload, h->payload_size, 0) != h->payload_crc) {
		free(*why);
		*why = xstrdup("checksum mismatch");
	}
}

/*
 * Decodes a file image whose header is checked (the mapping base, len
 * bytes, of the file fd, or -1 where the image is a copy, of which it
 * takes charge: the model's arrays point into it, and
 * model_free() unmaps it, also when decoding fails; drop: a mapping of the
 * file whose pages are to be given back once checked) into a model: the
 * head read, the arrays bound, then one pass (cache_pass) sums the payload
 * against the header's checksum and checks the arrays. Returns 0, or -1
 * with *why.
 */
int
cache_decode(const struct cache_hdr *h, int fd, uint8_t *base, size_t len,
    int drop, struct model **out, char **why)
{
	struct cache_dec	 d;
	uint8_t			*payload = base + sizeof *h;
	double			 t0;

	if (cache_dec_begin(&d, h, payload, why) != 0) {
		cache_dec_why(h, payload, why);
		munmap(base, len);
		return cache_dec_end(&d, -1, out);
	}
	d.m->map = base;
	d.m->maplen = len;
	d.r.drop = drop;
	t0 = timing_now();
	cache_size_model(d.m, &d.r.c);
	d.r.body = payload + 16 * (size_t)h->nframes;
	if (cache_bind_jobs(&d.r, why) != 0) {
		cache_dec_why(h, payload, why);
		return cache_dec_end(&d, -1, out);
	}
	cache_auxlim(&d.r);
	cache_nvtx_index(&d.r);
	if (cache_pass(&d.r, fd, payload, h->payload_size, h->payload_crc,
	    why) != 0)
		return cache_dec_end(&d, -1, out);
	timing_report("cache-pass", t0);
	if (cache_check_whole(&d.r, why) != 0)
		return cache_dec_end(&d, -1, out);
	t0 = timing_now();
	if (model_adopt(d.m, why) != 0 ||
	    cache_check_nvtx_forest(d.m, atomic_load(&d.r.nvtx_tangled),
	    why) != 0)
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
	if (cache_check_refs(m, d.r.c.nstrs, 1) != 0) {
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
