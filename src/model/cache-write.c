/*
 * cache-write: compressing a model's frames on a pool of threads and
 * streaming them, in order, into a temporary file renamed over the cache
 * path. See cache.h and cache-int.h.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "model/cache.h"
#include "model/cache-int.h"
#include "model/cachedir.h"
#include "util/pool.h"
#include "util/timing.h"
#include "util/tmpreg.h"
#include "util/xmalloc.h"

struct cache_wframe {
	uint8_t		*buf;
	size_t		 len;		/* compressed */
};

/*
 * The writer streams: the frames of job j go to the file as soon as those
 * of every earlier job are there, so only the frames of the jobs still out
 * of order are held, never the whole file, while the model is resident.
 */
struct cache_wctx {
	const struct model	*m;
	struct cache_plan	*plan;
	struct cache_wframe	*frames;	/* compressed, until written */
	ZSTD_CCtx		*cctx[CACHE_THREADS];
	uint8_t			*scratch[CACHE_THREADS];
	int			 fd;
	pthread_mutex_t		 lock;
	uint8_t			*done;		/* per job: compressed */
	size_t			 nextjob;	/* the next job to write */
	size_t			 nout;		/* frames written */
	uLong			 crc, hcrc;	/* of the frames written, and of
						   the head's frames */
	uint64_t		 len, hlen;	/* their bytes */
	int			 err;		/* errno of a failed write */
};

static int
cache_compress(struct cache_wctx *w, unsigned tid, size_t frame,
    const void *src, char **cause)
{
	size_t	len = w->plan->rawlen[frame], bound, r;

	if (w->cctx[tid] == NULL) {
		if ((w->cctx[tid] = ZSTD_createCCtx()) == NULL) {
			*cause = xstrdup("zstd: cannot create a context");
			return -1;
		}
		ZSTD_CCtx_setParameter(w->cctx[tid], ZSTD_c_compressionLevel,
		    CACHE_LEVEL);
		ZSTD_CCtx_setParameter(w->cctx[tid], ZSTD_c_checksumFlag, 1);
	}
	bound = ZSTD_compressBound(len);
	w->frames[frame].buf = xmalloc(bound);
	r = ZSTD_compress2(w->cctx[tid], w->frames[frame].buf, bound, src, len);
	if (ZSTD_isError(r)) {
		*cause = xasprintf("zstd: %s", ZSTD_getErrorName(r));
		return -1;
	}
	w->frames[frame].len = r;
	/* Keep what is written, not the bound, until the file is. */
	w->frames[frame].buf = xreallocarray(w->frames[frame].buf,
	    r > 0 ? r : 1, 1);
	return 0;
}

static int
cache_save_strings(struct cache_wctx *w, unsigned tid, size_t f,
    char **cause)
{
	const struct strpool	*sp = w->m->strs;
	uint32_t		*lens, n = strpool_count(sp), i;
	uint8_t			*packed, *data;
	size_t			 off = 0, len;
	int			 rc;

	lens = xreallocarray(NULL, n - 1, sizeof *lens);
	packed = xreallocarray(NULL, n - 1, sizeof *lens);
	data = xmalloc(w->plan->rawlen[f + 1] + 1);
	for (i = 1; i < n; i++) {
		len = strpool_len(sp, i);
		lens[i - 1] = (uint32_t)len;
		memcpy(data + off, strpool_get(sp, i), len);
		off += len;
	}
	cache_pack32(packed, lens, n - 1, XF_NONE);
	rc = cache_compress(w, tid, f, packed, cause);
	if (rc == 0)
		rc = cache_compress(w, tid, f + 1, data, cause);
	free(lens);
	free(packed);
	free(data);
	return rc;
}

static int
cache_save_frames(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job = &w->plan->jobs[j];
	struct cache_col	 cols[CACHE_MAXCOLS];
	const void		*src;
	uint8_t			*sc;
	size_t			 f = job->frame, n = job->n, i0 = job->i0, wd;
	size_t			 k, ncol;

	if (w->scratch[tid] == NULL)
		w->scratch[tid] = xmalloc(CACHE_SCRATCH);
	sc = w->scratch[tid];
	switch (job->type) {
	case JOB_STRINGS:
		return cache_save_strings(w, tid, f, cause);
	case JOB_TABLE:
		wd = cache_tab_width[job->which];
		cache_shuffle(sc, cache_table(w->m, job->which) + i0 * wd, n,
		    wd);
		return cache_compress(w, tid, f, sc, cause);
	case JOB_COLS:
		ncol = cache_group_cols(w->m, job->group, job->which,
		    job->group == GRP_LANE ?
		    cache_lane_lflags(&w->m->tracks[job->which].lane) : 0, i0,
		    cols);
		for (k = 0; k < ncol; k++) {
			src = cache_pack_col(sc, &cols[k], cols, n);
			if (cache_compress(w, tid, f + k, src, cause) != 0)
				return -1;
		}
		return 0;
	}
	return -1;
}

static int
cache_write_all(int fd, const void *buf, size_t n)
{
	const uint8_t	*p = buf;
	ssize_t		 r;

	while (n > 0) {
		r = write(fd, p, n > (1u << 30) ? (1u << 30) : n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int
cache_pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	const uint8_t	*p = buf;
	ssize_t		 r;

	while (n > 0) {
		r = pwrite(fd, p, n > (1u << 30) ? (1u << 30) : n, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		off += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Writes frame f (the next one) to the file and lets its bytes go. With
 * the lock held, or before the workers start. */
static void
cache_emit(struct cache_wctx *w, size_t f)
{
	struct cache_wframe	*fr = &w->frames[f];

	if (w->err == 0 && cache_write_all(w->fd, fr->buf, fr->len) != 0)
		w->err = errno != 0 ? errno : EIO;
	w->crc = cache_crc32(w->crc, fr->buf, fr->len);
	w->len += fr->len;
	if (++w->nout == w->plan->nhead) {
		w->hcrc = w->crc;
		w->hlen = w->len;
	}
	free(fr->buf);
	fr->buf = NULL;
}

/* A job: compress its frames, then write every job now in order. */
static int
cache_save_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job;
	size_t			 f, nf;

	if (cache_save_frames(arg, j, tid, cause) != 0)
		return -1;
	pthread_mutex_lock(&w->lock);
	w->done[j] = 1;
	while (w->nextjob < w->plan->njobs && w->done[w->nextjob]) {
		job = &w->plan->jobs[w->nextjob++];
		nf = job->type == JOB_COLS ? job->ncols :
		    job->type == JOB_STRINGS ? 2 : 1;
		for (f = 0; f < nf; f++)
			cache_emit(w, job->frame + f);
	}
	pthread_mutex_unlock(&w->lock);
	return 0;
}

/*
 * Writes the cache of m to path through a mkstemp() file in the same
 * directory and rename(): header and frame table last (pwrite), frames
 * streamed in between as they are compressed. Refuses to replace the trace
 * itself or anything that is not a regular file or a symlink.
 */
static int
cache_write_file(const char *path, const struct cache_ident *id,
    struct cache_wctx *w, const struct cache_wbuf *small, char **cause)
{
	struct cache_plan	*plan = w->plan;
	struct cache_hdr	 h;
	struct stat		 st;
	uint64_t		*table = NULL;
	size_t			 f, tablen = plan->nframes * 16;
	char			*tmp, *why = NULL;
	uLong			 tcrc;
	int			 e;

	if (lstat(path, &st) == 0) {
		if ((uint64_t)st.st_dev == id->dev &&
		    (uint64_t)st.st_ino == id->ino) {
			*cause = xasprintf("%s: is the trace itself", path);
			return -1;
		}
		if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			*cause = xasprintf("%s: not a regular file", path);
			return -1;
		}
	}
	if ((w->fd = tmpreg_create(path, &tmp)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	w->nextjob = w->nout = 0;
	w->len = w->hlen = 0;
	w->crc = w->hcrc = crc32(0, Z_NULL, 0);
	w->err = 0;
	free(w->done);
	w->done = xcalloc(plan->njobs + 1, 1);
	if (lseek(w->fd, (off_t)(sizeof h + tablen), SEEK_SET) == -1)
		goto fail;
	if (cache_compress(w, 0, 0, small->p, &why) != 0)
		goto fail;
	cache_emit(w, 0);
	if (pool_run(plan->njobs, cache_nthreads(plan->raw_size),
	    cache_save_job, w, &why) != 0)
		goto fail;
	if (w->err != 0) {
		errno = w->err;
		goto fail;
	}

	table = xreallocarray(NULL, plan->nframes, 2 * sizeof *table);
	for (f = 0; f < plan->nframes; f++) {
		table[2 * f] = plan->rawlen[f];
		table[2 * f + 1] = w->frames[f].len;
	}
	tcrc = cache_crc32(crc32(0, Z_NULL, 0), (const uint8_t *)table,
	    tablen);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, CACHE_MAGIC, sizeof h.magic);
	h.version = CACHE_VERSION;
	h.bom = CACHE_BOM;
	h.hdr_size = sizeof h;
	memcpy(h.sz, cache_sizes, sizeof h.sz);
	h.trace_size = id->size;
	h.trace_mtime = id->mtime;
	h.trace_ino = id->ino;
	h.trace_dev = id->dev;
	h.trace_ctime = id->ctime;
	h.trace_fp = id->fp;
	h.payload_size = tablen + w->len;
	h.raw_size = plan->raw_size;
	h.nframes = (uint32_t)plan->nframes;
	h.payload_crc = (uint32_t)crc32_combine(tcrc, w->crc,
	    (z_off_t)w->len);
	h.head_size = tablen + w->hlen;
	h.head_crc = (uint32_t)crc32_combine(tcrc, w->hcrc,
	    (z_off_t)w->hlen);
	h.chunk = CACHE_CHUNK;
	h.level = (uint32_t)CACHE_LEVEL;
	h.hdr_crc = cache_hdr_crc(&h);
	if (cache_pwrite_all(w->fd, table, tablen, (off_t)sizeof h) != 0 ||
	    cache_pwrite_all(w->fd, &h, sizeof h, 0) != 0)
		goto fail;
	free(table);
	table = NULL;
	e = close(w->fd);
	w->fd = -1;
	if (e != 0 || rename(tmp, path) != 0)
		goto fail;
	tmpreg_forget(tmp);
	free(tmp);
	return 0;

fail:
	e = errno;
	if (w->fd != -1)
		close(w->fd);
	w->fd = -1;
	tmpreg_discard(tmp);
	if (why != NULL)
		*cause = xasprintf("%s: %s", path, why);
	else
		*cause = xasprintf("%s: %s", path, strerror(e));
	free(why);
	free(table);
	free(tmp);
	for (f = 0; f < plan->nframes; f++) {
		free(w->frames[f].buf);
		w->frames[f].buf = NULL;
	}
	return -1;
}

int
cache_save(const char *trace, const struct model *m, char **cause)
{
	struct cache_ident	 id;

	if (cachedir_ident(trace, &id, cause) != 0)
		return -1;
	return cache_save_ident(trace, &id, m, cause);
}

int
cache_save_ident(const char *trace, const struct cache_ident *idp,
    const struct model *m, char **cause)
{
	struct cache_ident	 id = *idp;
	struct cache_counts	 c;
	struct cache_plan	 plan;
	struct cache_wctx	 w;
	struct cache_wbuf	 small = { NULL, 0, 0 };
	char			*path, *why = NULL;
	double			 t0 = timing_now();
	size_t			 i;
	int			 rc = -1;

	if (m->summary) {
		if (cause != NULL)
			*cause = xstrdup("a summary model cannot be cached");
		return -1;
	}
	if (cachedir_get_mode() == CACHEDIR_OFF) {
		if (cause != NULL)
			*cause = xstrdup("caching is off (--no-cache)");
		return -1;
	}
	memset(&w, 0, sizeof w);
	memset(&plan, 0, sizeof plan);
	cache_counts_of(m, &c);
	if (cache_plan_build(&plan, &c) != 0) {
		why = xstrdup("model too large for the cache");
		goto out;
	}
	cache_small_write(&small, m, &c);
	plan.rawlen[0] = small.n;
	plan.raw_size += small.n;
	w.m = m;
	w.plan = &plan;
	w.fd = -1;
	w.frames = xcalloc(plan.nframes, sizeof *w.frames);
	pthread_mutex_init(&w.lock, NULL);

	/* The cache directory; beside the trace only when asked. */
	if ((path = cache_path(trace, 1, &why)) != NULL) {
		rc = cache_write_file(path, &id, &w, &small, &why);
		if (rc == 0 && cachedir_get_mode() != CACHEDIR_BESIDE)
			cachedir_maintain(path);
		free(path);
	}
	pthread_mutex_destroy(&w.lock);
	timing_report("cache-encode", t0);

out:
	for (i = 0; i < CACHE_THREADS; i++) {
		ZSTD_freeCCtx(w.cctx[i]);
		free(w.scratch[i]);
	}
	if (w.frames != NULL)
		for (i = 0; i < plan.nframes; i++)
			free(w.frames[i].buf);
	free(w.frames);
	free(w.done);
	cache_counts_free(&c);
	free(small.p);
	cache_plan_free(&plan);
	if (rc != 0 && cause != NULL)
		*cause = why != NULL ? why : xstrdup("cannot write the cache");
	else
		free(why);
	return rc;
}
