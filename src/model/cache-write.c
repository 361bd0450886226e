/*
 * cache-write: a model's head compressed and its arrays written in place
 * on a pool of threads into a temporary file renamed over the cache path.
 * See cache.h and cache-int.h.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
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
 * The head's frames are compressed and written in order; every further
 * frame is an array of the model written where the plan puts it (off),
 * by the job that owns it, straight from the model.
 */
struct cache_wctx {
	const struct model	*m;
	struct cache_plan	*plan;
	struct cache_wframe	*frames;	/* the head's, compressed */
	uint64_t		*off;		/* file offset of each array */
	ZSTD_CCtx		*cctx[CACHE_THREADS];
	int			 fd;
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

/* A job of the body: its arrays written in place. */
static int
cache_save_job(void *arg, size_t j, unsigned tid, char **cause)
{
	struct cache_wctx	*w = arg;
	const struct cache_job	*job = &w->plan->jobs[j];
	struct cache_col	 cols[CACHE_MAXCOLS];
	const void		*src;
	size_t			 f = job->frame, k, ncol;

	(void)tid;
	if (f < w->plan->nhead)
		return 0;
	if (job->type == JOB_TABLE) {
		cols[0].p = cache_table(w->m, job->which);
		ncol = 1;
	} else
		ncol = cache_group_cols(w->m, job->group, job->which,
		    job->group == GRP_LANE ?
		    cache_lane_lflags(&w->m->tracks[job->which].lane) : 0, 0,
		    cols);
	for (k = 0; k < ncol; k++) {
		src = cols[k].p;
		if (cache_pwrite_all(w->fd, src, w->plan->rawlen[f + k],
		    (off_t)w->off[f + k]) != 0) {
			*cause = xstrdup(strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * The checksum of the payload of the file written to fd (len bytes in
 * all), read back through a mapping whose pages are given back as they are
 * summed (cache_drop; they stay in the page cache): kept, they counted
 * towards the process's resident memory on top of the model, and a cold
 * load peaked at the model plus the whole cache. Reading with pread()
 * instead took longer here.
 */
static int
cache_sum_file(int fd, uint64_t len, uint32_t *sum)
{
	void	*p;

	p = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	*sum = cache_sum((const uint8_t *)p + sizeof(struct cache_hdr),
	    (size_t)len - sizeof(struct cache_hdr), 1);
	munmap(p, (size_t)len);
	return 0;
}

/*
 * Writes the cache of m to path through a mkstemp() file in the same
 * directory and rename(): the head's frames compressed, then the arrays
 * written in place by the threads, the frame table, the payload's checksum
 * (read back from the page cache) and the header last. Refuses to replace the trace
 * itself or anything that is not a regular file or a symlink.
 */
static int
cache_write_file(const char *path, const struct cache_ident *id,
    struct cache_wctx *w, const struct bytebuf *small, char **cause)
{
	struct cache_plan	*plan = w->plan;
	struct cache_hdr	 h;
	struct stat		 st;
	uint64_t		*table = NULL, *stored = NULL, pos, hlen;
	size_t			 f, tablen = plan->nframes * 16;
	char			*tmp, *why = NULL;
	uLong			 tcrc, hcrc;
	uint32_t		 sum;
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
	stored = xcalloc(plan->nframes, sizeof *stored);
	w->off = xcalloc(plan->nframes, sizeof *w->off);

	/* The head: frame 0 and the strings, compressed, in order. */
	pos = sizeof h + tablen;
	if (cache_compress(w, 0, 0, small->p, &why) != 0 ||
	    (plan->nhead > 1 && cache_save_strings(w, 0, 1, &why) != 0))
		goto fail;
	hcrc = crc32(0, Z_NULL, 0);
	for (f = 0; f < plan->nhead; f++) {
		if (cache_pwrite_all(w->fd, w->frames[f].buf, w->frames[f].len,
		    (off_t)pos) != 0)
			goto fail;
		hcrc = cache_crc32(hcrc, w->frames[f].buf, w->frames[f].len);
		stored[f] = w->frames[f].len;
		pos += stored[f];
		free(w->frames[f].buf);
		w->frames[f].buf = NULL;
	}
	hlen = pos - sizeof h - tablen;

	/* The body: every array at an aligned offset, the gaps zeros. */
	for (f = plan->nhead; f < plan->nframes; f++) {
		w->off[f] = (pos + CACHE_ALIGN - 1) & ~(uint64_t)(CACHE_ALIGN - 1);
		stored[f] = w->off[f] - pos + plan->rawlen[f];
		pos = w->off[f] + plan->rawlen[f];
	}
	if (pool_run(plan->njobs, cache_nthreads(plan->raw_size),
	    cache_save_job, w, &why) != 0)
		goto fail;
	if (ftruncate(w->fd, (off_t)pos) != 0)
		goto fail;

	table = xreallocarray(NULL, plan->nframes, 2 * sizeof *table);
	for (f = 0; f < plan->nframes; f++) {
		table[2 * f] = plan->rawlen[f];
		table[2 * f + 1] = stored[f];
	}
	tcrc = cache_crc32(crc32(0, Z_NULL, 0), (const uint8_t *)table,
	    tablen);
	if (cache_pwrite_all(w->fd, table, tablen, (off_t)sizeof h) != 0 ||
	    cache_sum_file(w->fd, pos, &sum) != 0)
		goto fail;
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
	h.payload_size = pos - sizeof h;
	h.raw_size = plan->raw_size;
	h.nframes = (uint32_t)plan->nframes;
	h.payload_crc = sum;
	h.head_size = tablen + hlen;
	h.head_crc = (uint32_t)crc32_combine(tcrc, hcrc, (z_off_t)hlen);
	h.chunk = CACHE_CHUNK;
	h.level = (uint32_t)CACHE_LEVEL;
	h.hdr_crc = cache_hdr_crc(&h);
	if (cache_pwrite_all(w->fd, &h, sizeof h, 0) != 0)
		goto fail;
	free(table);
	table = NULL;
	free(stored);
	stored = NULL;
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
	free(stored);
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
	struct bytebuf		 small = BYTEBUF_INIT;
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
	plan.rawlen[0] = small.len;
	plan.raw_size += small.len;
	w.m = m;
	w.plan = &plan;
	w.fd = -1;
	w.frames = xcalloc(plan.nframes, sizeof *w.frames);

	/* The cache directory; beside the trace only when asked. */
	if ((path = cache_path(trace, 1, &why)) != NULL) {
		rc = cache_write_file(path, &id, &w, &small, &why);
		if (rc == 0 && cachedir_get_mode() != CACHEDIR_BESIDE)
			cachedir_maintain(path);
		free(path);
	}
	timing_report("cache-encode", t0);

out:
	for (i = 0; i < CACHE_THREADS; i++)
		ZSTD_freeCCtx(w.cctx[i]);
	if (w.frames != NULL)
		for (i = 0; i < plan.nframes; i++)
			free(w.frames[i].buf);
	free(w.frames);
	free(w.off);
	cache_counts_free(&c);
	free(small.p);
	cache_plan_free(&plan);
	if (rc != 0 && cause != NULL)
		*cause = why != NULL ? why : xstrdup("cannot write the cache");
	else
		free(why);
	return rc;
}
