/*
 * cache-pass: the one pass of a warm load over a mapped cache. Every byte
 * of the payload is summed into its checksum, and the columns the queries
 * follow are range-checked piece by piece right after the piece is summed,
 * while it is still in the processor's cache: the payload is read from
 * memory once, not once for the checksum and again for the checks. See
 * cache-int.h.
 *
 * The bytes are read with pread() into a buffer per thread, not through
 * the mapping the model's arrays point into: bringing a page of a mapping
 * in costs several times more than copying it (cache.c, cache_map), and a
 * verb reads a fraction of the model's pages. Those pages are the same
 * file's: caches are replaced by rename(), never written in place. Where
 * the image is a copy (no file descriptor), the pass reads the copy.
 *
 * The units of work, run in file order on a pool of threads:
 *   piece   the same elements of every column of a column group (about
 *           CACHE_PIECEB bytes in all): each
 *           column's bytes read and summed, then the elements checked
 *           (cache_check_cols) in the buffer;
 *   gap     at most CACHE_GAPMAX bytes no column covers (the frame
 *           table, the head, the side tables, the padding): read and
 *           summed;
 *   job     the string table and the side tables: cache_load_job().
 * A piece of a lane checks that its starts are in order; it also keeps its
 * first and last start, and once every unit ran, one serial walk over the
 * pieces checks each lane's seams (a piece's first start not before the
 * last start of the piece before it), so that a lane is sorted as a whole,
 * what the queries' binary searches rely on.
 * The columns and the gaps cover the payload exactly once (a column's
 * range is rounded down to the checksum's 32-byte groups at both ends, so
 * the ranges stay disjoint and in order). A failed check does not stop the
 * pass: damage is reported as a checksum mismatch when the checksum says
 * so, and as the first failed unit's cause otherwise.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cache-int.h"
#include "util/pool.h"
#include "util/xmalloc.h"

#define CACHE_PIECEB	(192u << 10)	/* bytes per piece, about: pieces
					   of a few hundred KiB in an L2 */
#define CACHE_PASSBUF	((size_t)512 << 10)	/* bytes per thread: a piece
						   and its columns' slack, or
						   a gap */
#define CACHE_GAPMAX	((uint64_t)256 << 10)	/* bytes per gap unit */

enum cache_unit_type {
	UNIT_PIECE,
	UNIT_GAP,
	UNIT_JOB
};

struct cache_unit {
	uint64_t	 key;		/* payload offset: the run order */
	uint64_t	 a, b;		/* piece: elements [a, b); gap: bytes
					   [a, a + b) */
	int64_t		 first, last;	/* piece of a lane: its first and
					   last start */
	uint32_t	 job;
	uint8_t		 type;
};

struct cache_pass {
	struct cache_rctx	*r;
	int			 fd;		/* or -1: read payload */
	const uint8_t		*payload;
	uint64_t		 size;
	uint8_t			*buf[CACHE_THREADS];	/* per thread */
	struct cache_sumacc	 sum;
	struct cache_unit	*u;
	size_t			 nu, ucap;
	uint64_t		*rng;		/* claimed [start, end) pairs */
	size_t			 nrng, rcap;
	pthread_mutex_t		 lock;
	size_t			 badu;		/* the first failed unit */
	char			*bad;		/* its cause */
};

static void
cache_pass_add(struct cache_pass *ps, int type, uint64_t key, uint64_t a,
    uint64_t b, size_t job)
{
	struct cache_unit	*u;

	if (ps->nu == ps->ucap) {
		ps->ucap = ps->ucap == 0 ? 256 : ps->ucap * 2;
		ps->u = xreallocarray(ps->u, ps->ucap, sizeof *ps->u);
	}
	u = &ps->u[ps->nu++];
	u->type = (uint8_t)type;
	u->key = key;
	u->a = a;
	u->b = b;
	u->first = u->last = 0;
	u->job = (uint32_t)job;
}

static void
cache_pass_claim(struct cache_pass *ps, uint64_t start, uint64_t end)
{
	if (ps->nrng == ps->rcap) {
		ps->rcap = ps->rcap == 0 ? 256 : ps->rcap * 2;
		ps->rng = xreallocarray(ps->rng, ps->rcap, 2 * sizeof *ps->rng);
	}
	ps->rng[2 * ps->nrng] = start;
	ps->rng[2 * ps->nrng + 1] = end;
	ps->nrng++;
}

static int
cache_pass_cmp_rng(const void *a, const void *b)
{
	const uint64_t	*x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int
cache_pass_cmp_unit(const void *a, const void *b)
{
	const struct cache_unit	*x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->type < y->type ? -1 : x->type > y->type;
}

/* The columns of a column-group job, bound to their frames. */
static size_t
cache_pass_cols(struct cache_rctx *r, const struct cache_job *job,
    struct cache_col *cols)
{
	return cache_group_cols(r->m, job->group, job->which,
	    job->group == GRP_LANE ? cache_lflags(&r->c.lanes[job->which]) :
	    0, 0, cols);
}

/*
 * Elements per piece of a column group of ncol columns: about CACHE_PIECEB
 * bytes in all, a multiple of 64, so that every column's piece but the
 * last is whole 32-byte groups.
 */
uint64_t
cache_piece_elems(const struct cache_col *cols, size_t ncol)
{
	uint64_t	bpe = 0, piece;
	size_t		k;

	for (k = 0; k < ncol; k++)
		bpe += cols[k].width;
	piece = bpe > 0 ? (CACHE_PIECEB / bpe) & ~(uint64_t)63 : 0;
	return piece > 0 ? piece : 64;
}

/* The units of the pass: pieces, jobs and the gaps between the columns. */
static int
cache_pass_plan(struct cache_pass *ps, char **why)
{
	struct cache_rctx	*r = ps->r;
	const struct cache_plan	*plan = r->plan;
	const struct cache_job	*job;
	struct cache_col	 cols[CACHE_MAXCOLS];
	uint64_t		 lo, pos, s, e, step, piece;
	size_t			 j, k, f, ncol, i;

	for (j = 0; j < plan->njobs; j++) {
		job = &plan->jobs[j];
		if (job->type != JOB_COLS) {
			cache_pass_add(ps, UNIT_JOB, (uint64_t)(r->frames +
			    r->off[job->frame] - ps->payload), 0, 0, j);
			continue;
		}
		ncol = cache_pass_cols(r, job, cols);
		if (ncol != job->ncols) {
			*why = xstrdup("plan mismatch");
			return -1;
		}
		for (k = 0; k < ncol; k++) {
			f = job->frame + k;
			if ((uint8_t *)cols[k].p < r->body ||
			    plan->rawlen[f] != job->n * cols[k].width) {
				*why = xstrdup("plan mismatch");
				return -1;
			}
			lo = (uint64_t)((uint8_t *)cols[k].p - ps->payload);
			cache_pass_claim(ps, lo & ~(uint64_t)31,
			    (lo + plan->rawlen[f]) & ~(uint64_t)31);
		}
		lo = ncol > 0 ? (uint64_t)((uint8_t *)cols[0].p -
		    ps->payload) : 0;
		piece = cache_piece_elems(cols, ncol);
		for (s = 0; s < job->n; s += piece)
			cache_pass_add(ps, UNIT_PIECE, lo + s * cols[0].width,
			    s, s + piece < job->n ? s + piece : job->n, j);
	}
	if (ps->nrng > 1)	/* no array at all when there is no range */
		qsort(ps->rng, ps->nrng, 2 * sizeof *ps->rng,
		    cache_pass_cmp_rng);
	for (pos = 0, i = 0; i <= ps->nrng; i++) {
		s = i < ps->nrng ? ps->rng[2 * i] : ps->size;
		e = i < ps->nrng ? ps->rng[2 * i + 1] : ps->size;
		if (s < pos || e < s || e > ps->size) {
			*why = xstrdup("frames overlap");
			return -1;
		}
		for (; pos < s; pos += step) {
			step = s - pos < CACHE_GAPMAX ? s - pos :
			    CACHE_GAPMAX;
			cache_pass_add(ps, UNIT_GAP, pos, pos, step, 0);
		}
		pos = e;
	}
	if (ps->nu > 1)
		qsort(ps->u, ps->nu, sizeof *ps->u, cache_pass_cmp_unit);
	return 0;
}

static void
cache_pass_fail(struct cache_pass *ps, size_t i, char *cause)
{
	pthread_mutex_lock(&ps->lock);
	if (ps->bad == NULL || i < ps->badu) {
		free(ps->bad);
		ps->bad = cause != NULL ? cause : xstrdup("failed");
		ps->badu = i;
	} else
		free(cause);
	pthread_mutex_unlock(&ps->lock);
}

/*
 * Bytes [off, off + len) of the payload in thread tid's buffer at boff, or
 * in place without a file: NULL with *cause if they cannot be read.
 */
static const uint8_t *
cache_pass_read(struct cache_pass *ps, unsigned tid, size_t boff,
    uint64_t off, uint64_t len, char **cause)
{
	uint8_t	*p;
	size_t	 got = 0;
	ssize_t	 n;

	if (ps->fd == -1)
		return ps->payload + off;
	if (ps->buf[tid] == NULL)
		ps->buf[tid] = xmalloc(CACHE_PASSBUF);
	p = ps->buf[tid] + boff;
	while (got < len) {
		n = pread(ps->fd, p + got, (size_t)len - got,
		    (off_t)(sizeof(struct cache_hdr) + off + got));
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			*cause = xstrdup(n < 0 ? strerror(errno) :
			    "truncated");
			return NULL;
		}
		got += (size_t)n;
	}
	return p;
}

/* One piece: its bytes read and summed, its elements checked. */
static void
cache_pass_piece(struct cache_pass *ps, struct cache_unit *u,
    unsigned tid, size_t i)
{
	struct cache_rctx	*r = ps->r;
	const struct cache_job	*job = &r->plan->jobs[u->job];
	struct cache_job	 part;
	struct cache_col	 cols[CACHE_MAXCOLS];
	const uint8_t		*p, *col;
	uint64_t		 lo, hi, s;
	size_t			 k, ncol, boff = 0;
	char			*cause = NULL;

	ncol = cache_pass_cols(r, job, cols);
	for (k = 0; k < ncol; k++) {
		col = cols[k].p;
		lo = (uint64_t)(col - ps->payload) + u->a * cols[k].width;
		hi = (uint64_t)(col - ps->payload) + u->b * cols[k].width;
		s = lo & ~(uint64_t)31;
		/* Read to the piece's end, sum to its last whole group. */
		if (boff + (hi - s) > CACHE_PASSBUF) {
			cache_pass_fail(ps, i, xstrdup("piece too large"));
			return;
		}
		if ((p = cache_pass_read(ps, tid, boff, s, hi - s,
		    &cause)) == NULL) {
			cache_pass_fail(ps, i, cause);
			return;
		}
		cache_sumacc_add(&ps->sum, s, (hi & ~(uint64_t)31) - s,
		    ps->fd == -1 ? NULL : p);
		cols[k].p = (uint8_t *)(uintptr_t)(p + (lo - s));
		boff += (size_t)((hi - s + 63) & ~(uint64_t)63);
	}
	part = *job;
	part.i0 = job->i0 + u->a;
	part.n = u->b - u->a;
	if (cache_check_cols(r, &part, cols, tid) != 0)
		cache_pass_fail(ps, i, xasprintf("frame %zu: index out of "
		    "range", job->frame));
	if (job->group == GRP_LANE && part.n > 0) {
		u->first = ((const int64_t *)cols[0].p)[0];
		u->last = ((const int64_t *)cols[0].p)[part.n - 1];
	}
}

/*
 * The seams between the pieces of every lane, once every piece ran: a
 * piece's first start not before the last start of the one before it. The
 * pieces of a lane are consecutive in the run order (their keys are in
 * its start column, which no other unit's range overlaps).
 */
static void
cache_pass_seams(struct cache_pass *ps)
{
	const struct cache_plan	*plan = ps->r->plan;
	const struct cache_unit	*u, *prev = NULL;
	size_t			 i;

	for (i = 0; i < ps->nu; i++) {
		u = &ps->u[i];
		if (u->type != UNIT_PIECE ||
		    plan->jobs[u->job].group != GRP_LANE)
			continue;
		if (u->a > 0 && (prev == NULL || prev->job != u->job ||
		    prev->b != u->a))
			cache_pass_fail(ps, i, xstrdup("plan mismatch"));
		else if (u->a > 0 && u->first < prev->last)
			cache_pass_fail(ps, i, xasprintf("frame %zu: starts "
			    "out of order", plan->jobs[u->job].frame));
		prev = u;
	}
}

static int
cache_pass_unit(void *arg, size_t i, unsigned tid, char **cause)
{
	struct cache_pass	*ps = arg;
	struct cache_unit	*u = &ps->u[i];
	const uint8_t		*p;
	char			*why = NULL;

	(void)cause;
	switch (u->type) {
	case UNIT_PIECE:
		cache_pass_piece(ps, u, tid, i);
		break;
	case UNIT_GAP:
		if ((p = cache_pass_read(ps, tid, 0, u->a, u->b, &why)) ==
		    NULL)
			cache_pass_fail(ps, i, why);
		else
			cache_sumacc_add(&ps->sum, u->a, u->b,
			    ps->fd == -1 ? NULL : p);
		break;
	case UNIT_JOB:
		if (cache_load_job(ps->r, u->job, tid, &why) != 0)
			cache_pass_fail(ps, i, why);
		break;
	}
	return 0;
}

/*
 * Runs the pass over the size bytes of payload (r bound to it), read from
 * fd (the file mapped at payload) or, with fd -1, in place: 0 if the
 * checksum is want and every check passed, else -1 with *why ("checksum
 * mismatch" before any other cause).
 */
int
cache_pass(struct cache_rctx *r, int fd, const uint8_t *payload,
    uint64_t size, uint32_t want, char **why)
{
	struct cache_pass	ps;
	size_t			i;
	int			rc = -1;

	memset(&ps, 0, sizeof ps);
	ps.r = r;
	ps.fd = fd;
	ps.payload = payload;
	ps.size = size;
	pthread_mutex_init(&ps.lock, NULL);
	if (cache_pass_plan(&ps, why) != 0)
		goto out;
	cache_sumacc_init(&ps.sum, payload, (size_t)size);
	if (ps.nu > 0)
		pool_run(ps.nu, cache_nthreads(size), cache_pass_unit, &ps,
		    NULL);
	cache_pass_seams(&ps);
	if (cache_sumacc_end(&ps.sum) != want)
		*why = xstrdup("checksum mismatch");
	else if (ps.bad != NULL) {
		*why = ps.bad;
		ps.bad = NULL;
	} else
		rc = 0;
out:
	pthread_mutex_destroy(&ps.lock);
	free(ps.bad);
	for (i = 0; i < CACHE_THREADS; i++)
		free(ps.buf[i]);
	free(ps.u);
	free(ps.rng);
	return rc;
}
