/*
 * zfile: streaming decompression of plain, gzip and zstd files.
 *
 * One input buffer of ZFILE_IN bytes is refilled from the file; gzip goes
 * through zlib's inflate (concatenated members are read one after another,
 * as gunzip does), zstd through ZSTD_decompressStream (concatenated frames
 * likewise). A stream is complete only when its last member or frame
 * ended exactly at the end of the file; anything else is reported as
 * truncated at the compressed offset where input ran out.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "util/xmalloc.h"
#include "util/tmpreg.h"
#include "util/zfile.h"

#define ZFILE_IN	(256u * 1024)

struct zfile {
	char		*path;
	int		 fd;
	enum zfile_kind	 kind;
	unsigned char	*in;		/* input buffer */
	size_t		 in_len, in_pos;
	int		 eof;		/* the file is exhausted */
	uint64_t	 raw_off;	/* file bytes read into the buffer */
	uint64_t	 raw_size;
	uint64_t	 out_off;	/* decompressed bytes returned */
	z_stream	 z;
	int		 z_init;
	int		 z_ended;	/* the last member ended */
	ZSTD_DStream	*zs;
	int		 zs_ended;	/* the last frame ended */
	int		 zs_in_frame;	/* inside a frame (its header read) */
	uint64_t	 zs_declared;	/* its declared content size, or
					   ZSTD_CONTENTSIZE_UNKNOWN */
	uint64_t	 zs_out;	/* bytes it gave so far */
};

enum zfile_kind
zfile_sniff(const unsigned char *h, size_t len)
{
	if (len >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return ZFILE_GZIP;
	if (len >= 4 && h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f &&
	    h[3] == 0xfd)
		return ZFILE_ZSTD;
	return ZFILE_PLAIN;
}

/* Refills the input buffer; returns -1 with *cause on an I/O error. */
static int
zfile_fill(struct zfile *f, char **cause)
{
	ssize_t	n;

	if (f->in_pos < f->in_len || f->eof)
		return 0;
	do
		n = read(f->fd, f->in, ZFILE_IN);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*cause = xasprintf("%s: read error: %s", f->path,
		    strerror(errno));
		return -1;
	}
	f->in_len = (size_t)n;
	f->in_pos = 0;
	f->raw_off += (uint64_t)n;
	if (n == 0)
		f->eof = 1;
	return 0;
}

struct zfile *
zfile_open(const char *path, char **cause)
{
	struct zfile	*f;
	struct stat	 st;
	int		 fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	f->fd = fd;
	f->raw_size = (uint64_t)st.st_size;
	f->in = xmalloc(ZFILE_IN);
	if (zfile_fill(f, cause) != 0) {
		zfile_close(f);
		return NULL;
	}
	f->kind = zfile_sniff(f->in, f->in_len);
	if (f->kind == ZFILE_GZIP) {
		if (inflateInit2(&f->z, 16 + MAX_WBITS) != Z_OK) {
			*cause = xasprintf("%s: cannot start gzip "
			    "decompression", path);
			zfile_close(f);
			return NULL;
		}
		f->z_init = 1;
	} else if (f->kind == ZFILE_ZSTD) {
		if ((f->zs = ZSTD_createDStream()) == NULL ||
		    ZSTD_isError(ZSTD_initDStream(f->zs))) {
			*cause = xasprintf("%s: cannot start zstd "
			    "decompression", path);
			zfile_close(f);
			return NULL;
		}
	}
	return f;
}

void
zfile_close(struct zfile *f)
{
	if (f == NULL)
		return;
	if (f->z_init)
		inflateEnd(&f->z);
	if (f->zs != NULL)
		ZSTD_freeDStream(f->zs);
	if (f->fd >= 0)
		close(f->fd);
	free(f->in);
	free(f->path);
	free(f);
}

enum zfile_kind
zfile_kind(const struct zfile *f)
{
	return f->kind;
}

uint64_t
zfile_offset(const struct zfile *f)
{
	return f->out_off;
}

uint64_t
zfile_raw_offset(const struct zfile *f)
{
	return f->raw_off - (f->in_len - f->in_pos);
}

uint64_t
zfile_raw_size(const struct zfile *f)
{
	return f->raw_size;
}

/*
 * Fills the input buffer for a decoder: 1 while input remains; at the end
 * of the file 0 if the compressed stream ended there (ended), else -1 with
 * a "truncated" *cause (what: "gzip"), as for a read error.
 */
static int
zfile_more(struct zfile *f, int ended, const char *what, char **cause)
{
	if (zfile_fill(f, cause) != 0)
		return -1;
	if (f->in_pos < f->in_len || !f->eof)
		return 1;
	if (ended)
		return 0;
	*cause = xasprintf("%s: %s stream truncated at byte %llu", f->path,
	    what, (unsigned long long)zfile_raw_offset(f));
	return -1;
}

static ssize_t
zfile_read_gzip(struct zfile *f, unsigned char *buf, size_t len, char **cause)
{
	int	rc, more;

	for (;;) {
		if ((more = zfile_more(f, f->z_ended, "gzip", cause)) <= 0)
			return more;
		if (f->z_ended) {
			/* Another member follows (gunzip reads them all). */
			if (inflateReset(&f->z) != Z_OK) {
				*cause = xasprintf("%s: gzip error", f->path);
				return -1;
			}
			f->z_ended = 0;
		}
		f->z.next_in = f->in + f->in_pos;
		f->z.avail_in = (uInt)(f->in_len - f->in_pos);
		f->z.next_out = buf;
		f->z.avail_out = (uInt)(len > (1u << 30) ? 1u << 30 : len);
		rc = inflate(&f->z, Z_NO_FLUSH);
		f->in_pos = f->in_len - f->z.avail_in;
		if (rc == Z_STREAM_END)
			f->z_ended = 1;
		else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			*cause = xasprintf("%s: corrupt gzip data near byte "
			    "%llu (%s)", f->path,
			    (unsigned long long)zfile_raw_offset(f),
			    f->z.msg != NULL ? f->z.msg : "inflate failed");
			return -1;
		}
		if (f->z.next_out != buf)
			return (ssize_t)(f->z.next_out - buf);
	}
}

/*
 * At the start of a zstd frame: notes the content size its header declares
 * (unknown when the header is split across two buffer fills: then only the
 * frame's own checksum, if it has one, guards it).
 */
static void
zfile_zstd_frame(struct zfile *f)
{
	unsigned long long	n;

	if (f->in_pos == f->in_len)
		return;
	f->zs_in_frame = 1;
	f->zs_out = 0;
	/* A skippable frame declares 0, and gives nothing. */
	n = ZSTD_getFrameContentSize(f->in + f->in_pos, f->in_len - f->in_pos);
	f->zs_declared = n == ZSTD_CONTENTSIZE_ERROR ?
	    ZSTD_CONTENTSIZE_UNKNOWN : n;
}

static ssize_t
zfile_read_zstd(struct zfile *f, unsigned char *buf, size_t len, char **cause)
{
	ZSTD_inBuffer	 in;
	ZSTD_outBuffer	 out;
	size_t		 rc;
	int		 more;

	for (;;) {
		if ((more = zfile_more(f, f->zs_ended, "zstd", cause)) <= 0)
			return more;
		if (!f->zs_in_frame)
			zfile_zstd_frame(f);
		in.src = f->in;
		in.size = f->in_len;
		in.pos = f->in_pos;
		out.dst = buf;
		out.size = len;
		out.pos = 0;
		rc = ZSTD_decompressStream(f->zs, &out, &in);
		f->in_pos = in.pos;
		if (ZSTD_isError(rc)) {
			*cause = xasprintf("%s: corrupt zstd data near byte "
			    "%llu (%s)", f->path,
			    (unsigned long long)zfile_raw_offset(f),
			    ZSTD_getErrorName(rc));
			return -1;
		}
		f->zs_out += out.pos;
		f->zs_ended = rc == 0;
		if (rc == 0) {
			/* libzstd checks the declared size only when it
			 * decodes a frame in one go: check it here too, so
			 * that buffer sizes never change the answer. */
			if (f->zs_declared != ZSTD_CONTENTSIZE_UNKNOWN &&
			    f->zs_out != f->zs_declared) {
				*cause = xasprintf("%s: corrupt zstd data near "
				    "byte %llu (a frame holds %llu bytes, its "
				    "header says %llu)", f->path,
				    (unsigned long long)zfile_raw_offset(f),
				    (unsigned long long)f->zs_out,
				    (unsigned long long)f->zs_declared);
				return -1;
			}
			f->zs_in_frame = 0;
		}
		if (out.pos > 0)
			return (ssize_t)out.pos;
	}
}

ssize_t
zfile_read(struct zfile *f, void *buf, size_t len, char **cause)
{
	ssize_t	n;
	size_t	k;

	if (len == 0)
		return 0;
	switch (f->kind) {
	case ZFILE_GZIP:
		n = zfile_read_gzip(f, buf, len, cause);
		break;
	case ZFILE_ZSTD:
		n = zfile_read_zstd(f, buf, len, cause);
		break;
	default:
		if (zfile_fill(f, cause) != 0)
			return -1;
		k = f->in_len - f->in_pos;
		if (k > len)
			k = len;
		memcpy(buf, f->in + f->in_pos, k);
		f->in_pos += k;
		n = (ssize_t)k;
		break;
	}
	if (n > 0)
		f->out_off += (uint64_t)n;
	return n;
}

int
zfile_slurp(const char *path, char **bufp, size_t *lenp, size_t max,
    char **cause)
{
	struct zfile	*f;
	char		*buf = NULL;
	size_t		 len = 0, cap = 0;
	ssize_t		 n;

	if ((f = zfile_open(path, cause)) == NULL)
		return -1;
	for (;;) {
		if (cap - len < 65536) {
			size_t want = cap < 65536 ? 131072 : cap * 2;
			if (max != 0 && want > max + 1)
				want = max + 1;
			if (want <= len + 1) {
				*cause = xasprintf("%s: larger than %zu bytes "
				    "once decompressed", path, max);
				free(buf);
				zfile_close(f);
				return -1;
			}
			buf = xrealloc(buf, want);
			cap = want;
		}
		n = zfile_read(f, buf + len, cap - len - 1, cause);
		if (n < 0) {
			free(buf);
			zfile_close(f);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	zfile_close(f);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int
zfile_copy_to(const char *src, const char *dst, char **cause)
{
	struct zfile	*f;
	struct statvfs	 vfs;
	char		*tmp, *buf;
	ssize_t		 n, w, off;
	uint64_t	 budget, free_bytes, written = 0;
	int		 fd;

	if ((f = zfile_open(src, cause)) == NULL)
		return -1;
	if ((fd = tmpreg_create(dst, &tmp)) < 0) {
		*cause = xasprintf("%s: %s", dst, strerror(errno));
		zfile_close(f);
		return -1;
	}
	/* A stream that would fill the disk (a bomb, or a database larger
	 * than the room left) stops with ZFILE_COPY_RESERVE still free. */
	budget = UINT64_MAX;
	if (fstatvfs(fd, &vfs) == 0) {
		free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		budget = free_bytes > ZFILE_COPY_RESERVE ?
		    free_bytes - ZFILE_COPY_RESERVE : 0;
	}
	buf = xmalloc(ZFILE_IN);
	for (;;) {
		if ((n = zfile_read(f, buf, ZFILE_IN, cause)) < 0)
			goto fail;
		if (n == 0)
			break;
		if ((uint64_t)n > budget - written) {
			*cause = xasprintf("%s: decompressing it would leave "
			    "less than %llu MiB free where %s goes", src,
			    (unsigned long long)(ZFILE_COPY_RESERVE >> 20),
			    dst);
			goto fail;
		}
		written += (uint64_t)n;
		for (off = 0; off < n; off += w) {
			w = write(fd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w <= 0) {
				*cause = xasprintf("%s: write error: %s", tmp,
				    strerror(errno));
				goto fail;
			}
		}
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dst) != 0) {
		*cause = xasprintf("%s: %s", dst, strerror(errno));
		goto fail;
	}
	tmpreg_forget(tmp);
	free(buf);
	free(tmp);
	zfile_close(f);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	tmpreg_discard(tmp);
	free(buf);
	free(tmp);
	zfile_close(f);
	return -1;
}
