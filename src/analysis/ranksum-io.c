/*
 * ranksum-io: the file of a rank summary (ranksum.h).
 *
 * Layout, in host byte order (the cache directory is per user and host):
 *   "GPULRSUM"  magic (8 bytes)
 *   u32         RANKSUM_VERSION
 *   u32         byte-order mark 0x01020304
 *   u64 x 6     the trace's identity: size, mtime, ctime, inode, device,
 *               fingerprint (cachedir.h)
 *   u64         payload length
 *   u64         FNV-1a hash of the payload
 *   payload     the summary's fields in struct order; arrays as a u64
 *               count then their elements, strings as a u32 length then
 *               their bytes
 * A file is read only when all of it is there, the hash matches, the
 * identity is the trace's now and every count fits what is left.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/ranksum.h"
#include "util/hmap.h"
#include "util/tmpreg.h"
#include "util/xmalloc.h"

#define RANKSUM_MAGIC	"GPULRSUM"
#define RANKSUM_BOM	0x01020304u
#define RANKSUM_HDR	(8 + 4 + 4 + 6 * 8 + 8 + 8)
#define RANKSUM_MAXLEN	(UINT64_C(1) << 32)	/* a summary is small */

struct rsbuf {
	unsigned char	*p;
	size_t		 len, cap, pos;
	int		 bad;
};

static void
rs_put(struct rsbuf *b, const void *v, size_t n)
{
	XGROW(b->p, b->cap, b->len + n);
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void
rs_u32(struct rsbuf *b, uint32_t v)
{
	rs_put(b, &v, sizeof v);
}

static void
rs_u64(struct rsbuf *b, uint64_t v)
{
	rs_put(b, &v, sizeof v);
}

static void
rs_i64(struct rsbuf *b, int64_t v)
{
	rs_put(b, &v, sizeof v);
}

static void
rs_str(struct rsbuf *b, const char *s)
{
	size_t	n = strlen(s);

	rs_u32(b, (uint32_t)n);
	rs_put(b, s, n);
}

static void
rs_get(struct rsbuf *b, void *v, size_t n)
{
	if (b->bad || b->len - b->pos < n) {
		b->bad = 1;
		memset(v, 0, n);
		return;
	}
	memcpy(v, b->p + b->pos, n);
	b->pos += n;
}

static uint32_t
rs_gu32(struct rsbuf *b)
{
	uint32_t	v;

	rs_get(b, &v, sizeof v);
	return v;
}

static uint64_t
rs_gu64(struct rsbuf *b)
{
	uint64_t	v;

	rs_get(b, &v, sizeof v);
	return v;
}

static int64_t
rs_gi64(struct rsbuf *b)
{
	int64_t	v;

	rs_get(b, &v, sizeof v);
	return v;
}

static char *
rs_gstr(struct rsbuf *b)
{
	uint32_t	 n = rs_gu32(b);
	char		*s;

	if (b->bad || b->len - b->pos < n) {
		b->bad = 1;
		return xstrdup("");
	}
	s = xmalloc((size_t)n + 1);
	memcpy(s, b->p + b->pos, n);
	s[n] = '\0';
	b->pos += n;
	return s;
}

/* A count of elements of size each, that must fit what is left. */
static size_t
rs_gcount(struct rsbuf *b, size_t each)
{
	uint64_t	n = rs_gu64(b);

	if (b->bad || n > (b->len - b->pos) / each) {
		b->bad = 1;
		return 0;
	}
	return (size_t)n;
}

static void
rs_payload(struct rsbuf *b, const struct ranksum *s)
{
	size_t	i;

	rs_u32(b, s->source);
	rs_i64(b, s->origin_ns);
	rs_i64(b, s->end_ns);
	rs_i64(b, s->utc_epoch_ns);
	rs_u64(b, s->nevents);
	rs_i64(b, s->stated_rank);
	rs_u32(b, (uint32_t)s->several);
	rs_u32(b, s->nprocs);
	rs_u32(b, s->pid);
	rs_str(b, s->pname);
	rs_u32(b, (uint32_t)s->has_pname);
	rs_i64(b, s->nvtx_rank);
	rs_str(b, s->parallel);
	rs_u32(b, s->gpus);
	rs_i64(b, s->first);
	rs_i64(b, s->last);
	rs_i64(b, s->busy);
	rs_i64(b, s->kernel_ns);
	rs_i64(b, s->comm_ns);
	rs_u64(b, s->kernels);
	rs_u64(b, s->comm);
	rs_i64(b, s->mpi_ns);
	rs_u64(b, s->mpi_calls);
	rs_str(b, s->marker);
	rs_u64(b, s->niter);
	for (i = 0; i < 2 * s->niter; i++)
		rs_i64(b, s->iter[i]);
	rs_u64(b, s->nc);
	for (i = 0; i < s->nc; i++) {
		rs_u32(b, s->c[i].coll);
		rs_i64(b, s->c[i].start);
		rs_i64(b, s->c[i].end);
		rs_i64(b, s->c[i].bytes);
	}
	rs_u64(b, s->ndev);
	for (i = 0; i < s->ndev; i++) {
		rs_u32(b, s->dev[i].id);
		rs_i64(b, s->dev[i].busy);
		rs_i64(b, s->dev[i].idle);
	}
	rs_u64(b, s->ntop);
	for (i = 0; i < s->ntop; i++) {
		rs_u32(b, s->top[i].name);
		rs_u64(b, s->top[i].count);
		rs_i64(b, s->top[i].total_ns);
	}
	rs_u64(b, s->nnames);
	for (i = 0; i < s->nnames; i++)
		rs_str(b, s->names[i]);
}

static int
rs_unpayload(struct rsbuf *b, struct ranksum *s)
{
	size_t	i;

	memset(s, 0, sizeof *s);
	s->source = (uint8_t)rs_gu32(b);
	s->origin_ns = rs_gi64(b);
	s->end_ns = rs_gi64(b);
	s->utc_epoch_ns = rs_gi64(b);
	s->nevents = rs_gu64(b);
	s->stated_rank = (int32_t)rs_gi64(b);
	s->several = rs_gu32(b) != 0;
	s->nprocs = rs_gu32(b);
	s->pid = rs_gu32(b);
	s->pname = rs_gstr(b);
	s->has_pname = rs_gu32(b) != 0;
	s->nvtx_rank = (int32_t)rs_gi64(b);
	s->parallel = rs_gstr(b);
	s->gpus = rs_gu32(b);
	s->first = rs_gi64(b);
	s->last = rs_gi64(b);
	s->busy = rs_gi64(b);
	s->kernel_ns = rs_gi64(b);
	s->comm_ns = rs_gi64(b);
	s->kernels = rs_gu64(b);
	s->comm = rs_gu64(b);
	s->mpi_ns = rs_gi64(b);
	s->mpi_calls = rs_gu64(b);
	s->marker = rs_gstr(b);
	s->niter = rs_gcount(b, 16);
	s->iter = xcalloc(2 * s->niter + 1, sizeof *s->iter);
	for (i = 0; i < 2 * s->niter; i++)
		s->iter[i] = rs_gi64(b);
	s->nc = rs_gcount(b, 28);
	s->c = xcalloc(s->nc + 1, sizeof *s->c);
	for (i = 0; i < s->nc; i++) {
		s->c[i].coll = rs_gu32(b);
		s->c[i].start = rs_gi64(b);
		s->c[i].end = rs_gi64(b);
		s->c[i].bytes = rs_gi64(b);
	}
	s->ndev = rs_gcount(b, 20);
	s->dev = xcalloc(s->ndev + 1, sizeof *s->dev);
	for (i = 0; i < s->ndev; i++) {
		s->dev[i].id = rs_gu32(b);
		s->dev[i].busy = rs_gi64(b);
		s->dev[i].idle = rs_gi64(b);
	}
	s->ntop = rs_gcount(b, 20);
	s->top = xcalloc(s->ntop + 1, sizeof *s->top);
	for (i = 0; i < s->ntop; i++) {
		s->top[i].name = rs_gu32(b);
		s->top[i].count = rs_gu64(b);
		s->top[i].total_ns = rs_gi64(b);
	}
	s->nnames = rs_gcount(b, 4);
	s->names = xcalloc(s->nnames + 1, sizeof *s->names);
	for (i = 0; i < s->nnames; i++)
		s->names[i] = rs_gstr(b);
	if (b->pos != b->len)
		b->bad = 1;
	for (i = 0; i < s->nc && !b->bad; i++)
		if (s->c[i].coll >= s->nnames)
			b->bad = 1;
	for (i = 0; i < s->ntop && !b->bad; i++)
		if (s->top[i].name >= s->nnames)
			b->bad = 1;
	if (b->bad) {
		ranksum_free(s);
		return -1;
	}
	return 0;
}

static void
rs_ident(struct rsbuf *b, const struct cachedir_ident *id)
{
	rs_u64(b, id->size);
	rs_i64(b, id->mtime);
	rs_i64(b, id->ctime);
	rs_u64(b, id->ino);
	rs_u64(b, id->dev);
	rs_u64(b, id->fp);
}

char *
ranksum_path(const char *trace, int create)
{
	char	*p, *cause = NULL;
	size_t	 n, k = strlen(CACHEDIR_SUFFIX);

	if ((p = cachedir_entry(trace, create, &cause)) == NULL) {
		free(cause);
		return NULL;
	}
	n = strlen(p);
	if (n > k && strcmp(p + n - k, CACHEDIR_SUFFIX) == 0)
		p[n - k] = '\0';
	p = xrealloc(p, strlen(p) + sizeof RANKSUM_SUFFIX);
	strcat(p, RANKSUM_SUFFIX);
	return p;
}

static int
rs_write_all(int fd, const void *p, size_t n)
{
	const unsigned char	*c = p;
	ssize_t			 w;

	while (n > 0) {
		if ((w = write(fd, c, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int
ranksum_write(const char *trace, const struct cachedir_ident *id,
    const struct ranksum *s, char **cause)
{
	struct rsbuf	 pay, head;
	char		*path, *tmp = NULL;
	int		 fd, e;

	if ((path = ranksum_path(trace, 1)) == NULL) {
		*cause = xasprintf("%s: no cache directory for its summary",
		    trace);
		return -1;
	}
	memset(&pay, 0, sizeof pay);
	memset(&head, 0, sizeof head);
	rs_payload(&pay, s);
	rs_put(&head, RANKSUM_MAGIC, 8);
	rs_u32(&head, RANKSUM_VERSION);
	rs_u32(&head, RANKSUM_BOM);
	rs_ident(&head, id);
	rs_u64(&head, pay.len);
	rs_u64(&head, hmap_fnv(HMAP_FNV0, pay.p, pay.len));
	if ((fd = tmpreg_create(path, &tmp)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (rs_write_all(fd, head.p, head.len) != 0 ||
	    rs_write_all(fd, pay.p, pay.len) != 0) {
		e = errno;
		close(fd);
		tmpreg_discard(tmp);
		*cause = xasprintf("%s: %s", path, strerror(e));
		goto fail;
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		e = errno;
		tmpreg_discard(tmp);
		*cause = xasprintf("%s: %s", path, strerror(e));
		goto fail;
	}
	tmpreg_forget(tmp);
	free(tmp);
	free(path);
	free(pay.p);
	free(head.p);
	return 0;
fail:
	free(tmp);
	free(path);
	free(pay.p);
	free(head.p);
	return -1;
}

/* Reads all of fd into b (at most RANKSUM_MAXLEN); 0 or -1. */
static int
rs_slurp(int fd, struct rsbuf *b)
{
	struct stat	sb;
	ssize_t		r;

	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size < RANKSUM_HDR || (uint64_t)sb.st_size > RANKSUM_MAXLEN)
		return -1;
	b->cap = (size_t)sb.st_size;
	b->p = xmalloc(b->cap);
	while (b->len < b->cap) {
		if ((r = read(fd, b->p + b->len, b->cap - b->len)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			return -1;
		b->len += (size_t)r;
	}
	return 0;
}

int
ranksum_read(const char *trace, struct ranksum *s)
{
	struct cachedir_ident	 now;
	struct rsbuf		 b, want;
	char			*path, *cause = NULL, magic[8];
	uint64_t		 len, hash;
	int			 fd, ok = 0;

	if (cachedir_ident(trace, &now, &cause) != 0) {
		free(cause);
		return 0;
	}
	if ((path = ranksum_path(trace, 0)) == NULL)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	free(path);
	if (fd == -1)
		return 0;
	memset(&b, 0, sizeof b);
	memset(&want, 0, sizeof want);
	if (rs_slurp(fd, &b) != 0)
		goto done;
	rs_get(&b, magic, sizeof magic);
	if (memcmp(magic, RANKSUM_MAGIC, sizeof magic) != 0 ||
	    rs_gu32(&b) != RANKSUM_VERSION || rs_gu32(&b) != RANKSUM_BOM)
		goto done;
	rs_ident(&want, &now);
	if (b.len - b.pos < want.len ||
	    memcmp(b.p + b.pos, want.p, want.len) != 0)
		goto done;
	b.pos += want.len;
	len = rs_gu64(&b);
	hash = rs_gu64(&b);
	if (b.bad || len != b.len - b.pos ||
	    hash != hmap_fnv(HMAP_FNV0, b.p + b.pos, (size_t)len))
		goto done;
	ok = rs_unpayload(&b, s) == 0;
done:
	close(fd);
	free(b.p);
	free(want.p);
	return ok;
}
