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
 *               their bytes, doubles as their 8 bytes (util/bytebuf.h)
 * A file is read only when all of it is there, the hash matches, the
 * identity is the trace's now and every count fits what is left. A file
 * of another version (version 3 had no host name) is not read: the trace
 * is summarised again.
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
#include "util/bytebuf.h"
#include "util/hmap.h"
#include "util/tmpreg.h"
#include "util/xmalloc.h"

#define RANKSUM_MAGIC	"GPULRSUM"
#define RANKSUM_BOM	0x01020304u
#define RANKSUM_HDR	(8 + 4 + 4 + 6 * 8 + 8 + 8)
#define RANKSUM_MAXLEN	(UINT64_C(1) << 32)	/* a summary is small */

/* The least bytes a communication group takes (empty strings). */
#define RS_COMM_MIN	176

static void
rs_put_comm(struct bytebuf *b, const struct commgrp *g)
{
	bytebuf_put32(b, g->kind);
	bytebuf_putstr(b, g->coll);
	bytebuf_put64(b, (uint64_t)g->device);
	bytebuf_put64(b, (uint64_t)g->stream);
	bytebuf_put64(b, (uint64_t)g->pid);
	bytebuf_put64(b, (uint64_t)(int64_t)g->rank);
	bytebuf_put64(b, g->count);
	bytebuf_put64(b, (uint64_t)g->total);
	bytebuf_put64(b, (uint64_t)g->min);
	bytebuf_put64(b, (uint64_t)g->max);
	bytebuf_putdbl(b, g->mean);
	bytebuf_putdbl(b, g->median);
	bytebuf_put64(b, (uint64_t)g->clipped);
	bytebuf_put64(b, (uint64_t)g->device_busy);
	bytebuf_put64(b, g->nsized);
	bytebuf_put64(b, (uint64_t)g->bytes);
	bytebuf_put64(b, (uint64_t)g->sized_ns);
	bytebuf_putdbl(b, g->busbytes);
	bytebuf_put32(b, (uint32_t)g->nofactor);
	bytebuf_put32(b, g->group_size);
	bytebuf_put32(b, g->pg != NULL);
	bytebuf_putstr(b, g->pg != NULL ? g->pg : "");
	bytebuf_put64(b, g->nbw);
	bytebuf_putdbl(b, g->median_algbw);
	bytebuf_putdbl(b, g->median_busbw);
}

static void
rs_get_comm(struct bytebuf_rd *b, struct commgrp *g)
{
	int	has_pg;

	g->kind = (uint8_t)bytebuf_get32(b);
	g->coll = bytebuf_getstr(b);
	g->device = (int64_t)bytebuf_get64(b);
	g->stream = (int64_t)bytebuf_get64(b);
	g->pid = (int64_t)bytebuf_get64(b);
	g->rank = (int32_t)(int64_t)bytebuf_get64(b);
	g->count = bytebuf_get64(b);
	g->total = (int64_t)bytebuf_get64(b);
	g->min = (int64_t)bytebuf_get64(b);
	g->max = (int64_t)bytebuf_get64(b);
	g->mean = bytebuf_getdbl(b);
	g->median = bytebuf_getdbl(b);
	g->clipped = (int64_t)bytebuf_get64(b);
	g->device_busy = (int64_t)bytebuf_get64(b);
	g->nsized = bytebuf_get64(b);
	g->bytes = (int64_t)bytebuf_get64(b);
	g->sized_ns = (int64_t)bytebuf_get64(b);
	g->busbytes = bytebuf_getdbl(b);
	g->nofactor = bytebuf_get32(b) != 0;
	g->group_size = bytebuf_get32(b);
	has_pg = bytebuf_get32(b) != 0;
	g->pg = bytebuf_getstr(b);
	if (!has_pg) {
		free(g->pg);
		g->pg = NULL;
	}
	g->nbw = bytebuf_get64(b);
	g->median_algbw = bytebuf_getdbl(b);
	g->median_busbw = bytebuf_getdbl(b);
	if (g->kind >= EV_KIND_COUNT)
		b->bad = 1;
}

static void
rs_put_kerns(struct bytebuf *b, const struct ranksum_kern *k, size_t n)
{
	size_t	i;

	bytebuf_put64(b, n);
	for (i = 0; i < n; i++) {
		bytebuf_put32(b, k[i].name);
		bytebuf_put64(b, k[i].count);
		bytebuf_put64(b, (uint64_t)k[i].total_ns);
	}
}

static struct ranksum_kern *
rs_get_kerns(struct bytebuf_rd *b, size_t *np)
{
	struct ranksum_kern	*k;
	size_t			 i, n = bytebuf_getcount(b, 20);

	k = xcalloc(n + 1, sizeof *k);
	for (i = 0; i < n; i++) {
		k[i].name = bytebuf_get32(b);
		k[i].count = bytebuf_get64(b);
		k[i].total_ns = (int64_t)bytebuf_get64(b);
	}
	*np = n;
	return k;
}

static void
rs_payload(struct bytebuf *b, const struct ranksum *s)
{
	size_t	i;

	bytebuf_put32(b, s->source);
	bytebuf_put64(b, (uint64_t)s->origin_ns);
	bytebuf_put64(b, (uint64_t)s->end_ns);
	bytebuf_put64(b, (uint64_t)s->utc_epoch_ns);
	bytebuf_put64(b, s->nevents);
	bytebuf_put64(b, (uint64_t)s->stated_rank);
	bytebuf_put32(b, (uint32_t)s->several);
	bytebuf_put32(b, s->nprocs);
	bytebuf_put32(b, s->pid);
	bytebuf_putstr(b, s->pname);
	bytebuf_put32(b, (uint32_t)s->has_pname);
	bytebuf_putstr(b, s->host != NULL ? s->host : "");
	bytebuf_put64(b, (uint64_t)s->nvtx_rank);
	bytebuf_putstr(b, s->parallel);
	bytebuf_put32(b, s->gpus);
	bytebuf_put64(b, (uint64_t)s->first);
	bytebuf_put64(b, (uint64_t)s->last);
	bytebuf_put64(b, (uint64_t)s->busy);
	bytebuf_put64(b, (uint64_t)s->kernel_ns);
	bytebuf_put64(b, (uint64_t)s->comm_ns);
	bytebuf_put64(b, s->kernels);
	bytebuf_put64(b, s->comm);
	bytebuf_put64(b, (uint64_t)s->mpi_ns);
	bytebuf_put64(b, s->mpi_calls);
	bytebuf_putstr(b, s->marker);
	bytebuf_put64(b, s->niter);
	for (i = 0; i < 2 * s->niter; i++)
		bytebuf_put64(b, (uint64_t)s->iter[i]);
	bytebuf_put64(b, s->nc);
	for (i = 0; i < s->nc; i++) {
		bytebuf_put32(b, s->c[i].coll);
		bytebuf_put64(b, (uint64_t)s->c[i].start);
		bytebuf_put64(b, (uint64_t)s->c[i].end);
		bytebuf_put64(b, (uint64_t)s->c[i].bytes);
	}
	bytebuf_put64(b, s->ndev);
	for (i = 0; i < s->ndev; i++) {
		bytebuf_put32(b, s->dev[i].id);
		bytebuf_put64(b, (uint64_t)s->dev[i].busy);
		bytebuf_put64(b, (uint64_t)s->dev[i].idle);
	}
	bytebuf_put64(b, s->ntop);
	for (i = 0; i < s->ntop; i++) {
		bytebuf_put32(b, s->top[i].name);
		bytebuf_put64(b, s->top[i].count);
		bytebuf_put64(b, (uint64_t)s->top[i].total_ns);
	}
	bytebuf_put64(b, s->nnames);
	for (i = 0; i < s->nnames; i++)
		bytebuf_putstr(b, s->names[i]);
	bytebuf_putarray(b, s->gpu, s->ngpu, sizeof *s->gpu);
	bytebuf_put64(b, s->cg.n);
	for (i = 0; i < s->cg.n; i++)
		rs_put_comm(b, &s->cg.g[i]);
	rs_put_kerns(b, s->kall, s->nkall);
	rs_put_kerns(b, s->kcomm, s->nkcomm);
	bytebuf_put64(b, s->ncopy);
	for (i = 0; i < s->ncopy; i++) {
		bytebuf_put32(b, s->copy[i].kind);
		bytebuf_put64(b, s->copy[i].count);
		bytebuf_put64(b, (uint64_t)s->copy[i].total_ns);
	}
	bytebuf_put32(b, s->act_ndev);
	bytebuf_put64(b, (uint64_t)s->act_busy);
	bytebuf_put64(b, (uint64_t)s->act_compute);
	bytebuf_put64(b, (uint64_t)s->act_comm);
	bytebuf_put64(b, (uint64_t)s->act_exposed);
}

static int
rs_unpayload(struct bytebuf_rd *b, struct ranksum *s)
{
	size_t	i, n;

	memset(s, 0, sizeof *s);
	s->source = (uint8_t)bytebuf_get32(b);
	s->origin_ns = (int64_t)bytebuf_get64(b);
	s->end_ns = (int64_t)bytebuf_get64(b);
	s->utc_epoch_ns = (int64_t)bytebuf_get64(b);
	s->nevents = bytebuf_get64(b);
	s->stated_rank = (int32_t)(int64_t)bytebuf_get64(b);
	s->several = bytebuf_get32(b) != 0;
	s->nprocs = bytebuf_get32(b);
	s->pid = bytebuf_get32(b);
	s->pname = bytebuf_getstr(b);
	s->has_pname = bytebuf_get32(b) != 0;
	s->host = bytebuf_getstr(b);
	s->nvtx_rank = (int32_t)(int64_t)bytebuf_get64(b);
	s->parallel = bytebuf_getstr(b);
	s->gpus = bytebuf_get32(b);
	s->first = (int64_t)bytebuf_get64(b);
	s->last = (int64_t)bytebuf_get64(b);
	s->busy = (int64_t)bytebuf_get64(b);
	s->kernel_ns = (int64_t)bytebuf_get64(b);
	s->comm_ns = (int64_t)bytebuf_get64(b);
	s->kernels = bytebuf_get64(b);
	s->comm = bytebuf_get64(b);
	s->mpi_ns = (int64_t)bytebuf_get64(b);
	s->mpi_calls = bytebuf_get64(b);
	s->marker = bytebuf_getstr(b);
	s->niter = bytebuf_getcount(b, 16);
	s->iter = xcalloc(2 * s->niter + 1, sizeof *s->iter);
	for (i = 0; i < 2 * s->niter; i++)
		s->iter[i] = (int64_t)bytebuf_get64(b);
	s->nc = bytebuf_getcount(b, 28);
	s->c = xcalloc(s->nc + 1, sizeof *s->c);
	for (i = 0; i < s->nc; i++) {
		s->c[i].coll = bytebuf_get32(b);
		s->c[i].start = (int64_t)bytebuf_get64(b);
		s->c[i].end = (int64_t)bytebuf_get64(b);
		s->c[i].bytes = (int64_t)bytebuf_get64(b);
	}
	s->ndev = bytebuf_getcount(b, 20);
	s->dev = xcalloc(s->ndev + 1, sizeof *s->dev);
	for (i = 0; i < s->ndev; i++) {
		s->dev[i].id = bytebuf_get32(b);
		s->dev[i].busy = (int64_t)bytebuf_get64(b);
		s->dev[i].idle = (int64_t)bytebuf_get64(b);
	}
	s->ntop = bytebuf_getcount(b, 20);
	s->top = xcalloc(s->ntop + 1, sizeof *s->top);
	for (i = 0; i < s->ntop; i++) {
		s->top[i].name = bytebuf_get32(b);
		s->top[i].count = bytebuf_get64(b);
		s->top[i].total_ns = (int64_t)bytebuf_get64(b);
	}
	s->nnames = bytebuf_getcount(b, 4);
	s->names = xcalloc(s->nnames + 1, sizeof *s->names);
	for (i = 0; i < s->nnames; i++)
		s->names[i] = bytebuf_getstr(b);
	s->gpu = bytebuf_getarray(b, &s->ngpu, sizeof *s->gpu);
	n = bytebuf_getcount(b, RS_COMM_MIN);
	s->cg.g = xcalloc(n + 1, sizeof *s->cg.g);
	s->cg.cap = n;
	for (i = 0; i < n; i++) {
		rs_get_comm(b, &s->cg.g[s->cg.n++]);
		s->cg.total += s->cg.g[i].total;
	}
	s->kall = rs_get_kerns(b, &s->nkall);
	s->kcomm = rs_get_kerns(b, &s->nkcomm);
	s->ncopy = bytebuf_getcount(b, 20);
	s->copy = xcalloc(s->ncopy + 1, sizeof *s->copy);
	for (i = 0; i < s->ncopy; i++) {
		s->copy[i].kind = bytebuf_get32(b);
		s->copy[i].count = bytebuf_get64(b);
		s->copy[i].total_ns = (int64_t)bytebuf_get64(b);
	}
	s->act_ndev = bytebuf_get32(b);
	s->act_busy = (int64_t)bytebuf_get64(b);
	s->act_compute = (int64_t)bytebuf_get64(b);
	s->act_comm = (int64_t)bytebuf_get64(b);
	s->act_exposed = (int64_t)bytebuf_get64(b);
	for (i = 0; i < s->nkall && !b->bad; i++)
		if (s->kall[i].name >= s->nnames)
			b->bad = 1;
	for (i = 0; i < s->nkcomm && !b->bad; i++)
		if (s->kcomm[i].name >= s->nnames)
			b->bad = 1;
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
rs_ident(struct bytebuf *b, const struct cachedir_ident *id)
{
	bytebuf_put64(b, id->size);
	bytebuf_put64(b, (uint64_t)id->mtime);
	bytebuf_put64(b, (uint64_t)id->ctime);
	bytebuf_put64(b, id->ino);
	bytebuf_put64(b, id->dev);
	bytebuf_put64(b, id->fp);
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
	struct bytebuf	 pay = BYTEBUF_INIT, head = BYTEBUF_INIT;
	char		*path, *tmp = NULL;
	int		 fd, e;

	if ((path = ranksum_path(trace, 1)) == NULL) {
		*cause = xasprintf("%s: no cache directory for its summary",
		    trace);
		return -1;
	}
	rs_payload(&pay, s);
	bytebuf_put(&head, RANKSUM_MAGIC, 8);
	bytebuf_put32(&head, RANKSUM_VERSION);
	bytebuf_put32(&head, RANKSUM_BOM);
	rs_ident(&head, id);
	bytebuf_put64(&head, pay.len);
	bytebuf_put64(&head, hmap_fnv(HMAP_FNV0, pay.p, pay.len));
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

/* Reads all of fd (at most RANKSUM_MAXLEN) into *p (malloc'd), *len;
 * 0 or -1. */
static int
rs_slurp(int fd, uint8_t **p, size_t *len)
{
	struct stat	sb;
	ssize_t		r;
	size_t		cap;

	*len = 0;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size < RANKSUM_HDR || (uint64_t)sb.st_size > RANKSUM_MAXLEN)
		return -1;
	cap = (size_t)sb.st_size;
	*p = xmalloc(cap);
	while (*len < cap) {
		if ((r = read(fd, *p + *len, cap - *len)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			return -1;
		*len += (size_t)r;
	}
	return 0;
}

int
ranksum_read(const char *trace, struct ranksum *s)
{
	struct cachedir_ident	 now;
	struct bytebuf		 want = BYTEBUF_INIT;
	struct bytebuf_rd	 b;
	const uint8_t		*magic, *ident;
	uint8_t			*file = NULL;
	char			*path, *cause = NULL;
	uint64_t		 len, hash;
	size_t			 flen;
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
	if (rs_slurp(fd, &file, &flen) != 0)
		goto done;
	bytebuf_rd_init(&b, file, flen);
	magic = bytebuf_get(&b, 8);
	if (magic == NULL || memcmp(magic, RANKSUM_MAGIC, 8) != 0 ||
	    bytebuf_get32(&b) != RANKSUM_VERSION ||
	    bytebuf_get32(&b) != RANKSUM_BOM)
		goto done;
	rs_ident(&want, &now);
	if ((ident = bytebuf_get(&b, want.len)) == NULL ||
	    memcmp(ident, want.p, want.len) != 0)
		goto done;
	len = bytebuf_get64(&b);
	hash = bytebuf_get64(&b);
	if (b.bad || len != b.len - b.pos ||
	    hash != hmap_fnv(HMAP_FNV0, b.p + b.pos, (size_t)len))
		goto done;
	ok = rs_unpayload(&b, s) == 0;
done:
	close(fd);
	free(file);
	bytebuf_free(&want);
	return ok;
}
