/*
 * answers: the store of computed verb answers (answers.h).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "headless/answers.h"
#include "headless/cmd.h"
#include "headless/out.h"
#include "model/cache-stamp.h"
#include "model/cachedir.h"
#include "util/binid.h"
#include "util/bytebuf.h"
#include "util/hmap.h"
#include "util/timing.h"
#include "util/tmpreg.h"
#include "util/xmalloc.h"

extern char	**environ;

#define ANSWERS_HDR	48	/* bytes of the file header */
#define ANSWERS_CHUNK	65536	/* bytes per read of a capture */

/*
 * The capture of a descriptor (stdout or stderr) while a verb computes: the
 * descriptor is the write end of a pipe that a thread drains into memory,
 * up to ANSWERS_MAX bytes; past that the thread writes what it holds and
 * the rest to the real descriptor, and nothing is kept.
 */
struct answers_cap {
	FILE		*stream;	/* stdout or stderr */
	int		 fd;		/* its descriptor */
	int		 saved;		/* the real one (-1: no capture) */
	int		 rd;		/* the pipe's read end */
	pthread_t	 th;
	char		*b;		/* what it captured */
	size_t		 len, cap;
	int		 over;		/* more than ANSWERS_MAX: gone
					   through */
	int		 bad;		/* a read failed: not kept */
};

struct answers {
	const struct cmd_entry	*e;
	int			 argc;
	char			**argv;
	char			*trace;
	int			 format;
	struct cache_stamp	 st;		/* at open (id: the trace's) */
	int			 have;		/* st names a cache */
	double			 t0;
	struct answers_cap	 out;		/* stdout's capture */
	struct answers_cap	 err;		/* stderr's, once begun */
	int			 err_begun;
	int			 whole;		/* all of the output captured
						   (so far) */
};

/* Locale and time zone: nothing prints by them today. */
static const char *answers_env_keyed[] = {
	"TZ", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", NULL
};
static const char *answers_env_free[] = { ANSWERS_ENV_FREE, NULL };

/* ------------------------------------------------------------------ */
/* The key and the file format (pure). */

static void
answers_put(struct bytebuf *b, const char *tag, const char *s, size_t n)
{
	char	num[32];

	bytebuf_put(b, tag, strlen(tag));
	snprintf(num, sizeof num, " %zu:", n);
	bytebuf_put(b, num, strlen(num));
	bytebuf_put(b, s, n);
	bytebuf_put(b, "\n", 1);
}

static int
answers_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 if the variable NAME=... of envp is one the key holds. */
static int
answers_env_in_key(const char *kv)
{
	const char	**p;
	size_t		  n = strcspn(kv, "=");

	if (strncmp(kv, "GPULENS_", 8) != 0)
		return 0;
	for (p = answers_env_free; *p != NULL; p++)
		if (strlen(*p) == n && strncmp(kv, *p, n) == 0)
			return 0;
	return 1;
}

/* The value of name in envp, or NULL. */
static const char *
answers_getenv(char *const *envp, const char *name)
{
	size_t	n = strlen(name);

	for (; envp != NULL && *envp != NULL; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

char *
answers_key(const char *binid, const struct cache_stamp *st, int argc,
    char *const *argv, int format, char *const *envp, size_t *len)
{
	struct bytebuf	  b = BYTEBUF_INIT;
	const char	**p, *v;
	char		  buf[256], **sel = NULL;
	size_t		  nsel = 0, cap = 0, i;
	int		  k;

	snprintf(buf, sizeof buf, "gpulens answer %d", ANSWERS_VERSION);
	answers_put(&b, "version", buf, strlen(buf));
	answers_put(&b, "binary", binid, strlen(binid));
	snprintf(buf, sizeof buf, "%016llx %llu", (unsigned long long)st->hdr,
	    (unsigned long long)st->size);
	answers_put(&b, "cache", buf, strlen(buf));
	snprintf(buf, sizeof buf, "%llu %lld %lld %llu %llu %016llx",
	    (unsigned long long)st->id.size, (long long)st->id.mtime,
	    (long long)st->id.ctime, (unsigned long long)st->id.ino,
	    (unsigned long long)st->id.dev, (unsigned long long)st->id.fp);
	answers_put(&b, "trace", buf, strlen(buf));
	for (k = 0; k < argc; k++)
		answers_put(&b, "arg", argv[k], strlen(argv[k]));
	snprintf(buf, sizeof buf, "%d", format);
	answers_put(&b, "format", buf, strlen(buf));
	if (format == OUT_TABLE) {
		v = answers_getenv(envp, "COLUMNS");
		answers_put(&b, v != NULL ? "env COLUMNS" : "unset COLUMNS",
		    v != NULL ? v : "", v != NULL ? strlen(v) : 0);
	}
	for (p = answers_env_keyed; *p != NULL; p++) {
		v = answers_getenv(envp, *p);
		snprintf(buf, sizeof buf, "%s %s", v != NULL ? "env" :
		    "unset", *p);
		answers_put(&b, buf, v != NULL ? v : "", v != NULL ?
		    strlen(v) : 0);
	}
	for (i = 0; envp != NULL && envp[i] != NULL; i++)
		if (answers_env_in_key(envp[i])) {
			XGROW(sel, cap, nsel + 1);
			sel[nsel++] = envp[i];
		}
	if (nsel > 1)
		qsort(sel, nsel, sizeof *sel, answers_strcmp);
	for (i = 0; i < nsel; i++)
		answers_put(&b, "env", sel[i], strlen(sel[i]));
	free(sel);
	*len = b.len;
	bytebuf_put(&b, "", 1);
	return (char *)b.p;
}

static void
answers_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void
answers_le64(uint8_t *p, uint64_t v)
{
	answers_le32(p, (uint32_t)v);
	answers_le32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t
answers_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
answers_rd64(const uint8_t *p)
{
	return (uint64_t)answers_rd32(p) | (uint64_t)answers_rd32(p + 4) << 32;
}

/* CRC32 of n bytes at p, from crc. */
static uint32_t
answers_crc(uint32_t crc, const void *p, size_t n)
{
	const uint8_t	*s = p;
	uInt		 step;

	while (n > 0) {
		step = n > (1u << 30) ? (1u << 30) : (uInt)n;
		crc = (uint32_t)crc32(crc, s, step);
		s += step;
		n -= step;
	}
	return crc;
}

/*
 * The header, little-endian: magic[8], version u32, status i32, the
 * lengths of key, stdout and stderr (u64 each), CRC32 of the three as
 * they follow, CRC32 of the 44 bytes before it.
 */
uint8_t *
answers_encode(const char *key, size_t keylen, const char *out,
    size_t outlen, const char *err, size_t errlen, int status, size_t *len)
{
	uint8_t		*b;
	uint32_t	 crc;

	*len = ANSWERS_HDR + keylen + outlen + errlen;
	b = xmalloc(*len);
	memcpy(b, ANSWERS_MAGIC, 8);
	answers_le32(b + 8, ANSWERS_VERSION);
	answers_le32(b + 12, (uint32_t)status);
	answers_le64(b + 16, keylen);
	answers_le64(b + 24, outlen);
	answers_le64(b + 32, errlen);
	memcpy(b + ANSWERS_HDR, key, keylen);
	if (outlen > 0)
		memcpy(b + ANSWERS_HDR + keylen, out, outlen);
	if (errlen > 0)
		memcpy(b + ANSWERS_HDR + keylen + outlen, err, errlen);
	crc = answers_crc((uint32_t)crc32(0, Z_NULL, 0), b + ANSWERS_HDR,
	    keylen + outlen + errlen);
	answers_le32(b + 40, crc);
	answers_le32(b + 44, answers_crc((uint32_t)crc32(0, Z_NULL, 0), b,
	    44));
	return b;
}

int
answers_decode(const uint8_t *buf, size_t len, const char *key,
    size_t keylen, const char **out, size_t *outlen, const char **err,
    size_t *errlen, int *status)
{
	uint64_t	kl, ol, el;

	if (len < ANSWERS_HDR || memcmp(buf, ANSWERS_MAGIC, 8) != 0 ||
	    answers_rd32(buf + 8) != ANSWERS_VERSION ||
	    answers_rd32(buf + 44) != answers_crc((uint32_t)crc32(0, Z_NULL,
	    0), buf, 44))
		return -1;
	kl = answers_rd64(buf + 16);
	ol = answers_rd64(buf + 24);
	el = answers_rd64(buf + 32);
	if (kl > len || ol > len || el > len ||
	    kl + ol + el != len - ANSWERS_HDR || kl != keylen ||
	    memcmp(buf + ANSWERS_HDR, key, keylen) != 0 ||
	    answers_rd32(buf + 40) != answers_crc((uint32_t)crc32(0, Z_NULL,
	    0), buf + ANSWERS_HDR, len - ANSWERS_HDR))
		return -1;
	*status = (int)answers_rd32(buf + 12);
	*out = (const char *)buf + ANSWERS_HDR + kl;
	*outlen = (size_t)ol;
	*err = *out + ol;
	*errlen = (size_t)el;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Files. */

/* "<root>/NAME-H": the stem of trace's files (the cache directory made
 * when create), or NULL. */
static char *
answers_stem(const char *trace, int create)
{
	char	*p;
	size_t	 n, s = strlen(CACHEDIR_SUFFIX);

	if ((p = cachedir_entry(trace, create, NULL)) == NULL)
		return NULL;
	n = strlen(p);
	if (n <= s || strcmp(p + n - s, CACHEDIR_SUFFIX) != 0) {
		free(p);
		return NULL;
	}
	p[n - s] = '\0';
	return p;
}

static uint64_t
answers_stamp_hash(const struct cache_stamp *st)
{
	uint64_t	h = HMAP_FNV0;

	h = hmap_fnv(h, &st->hdr, sizeof st->hdr);
	h = hmap_fnv(h, &st->size, sizeof st->size);
	h = hmap_fnv(h, &st->id.size, sizeof st->id.size);
	h = hmap_fnv(h, &st->id.mtime, sizeof st->id.mtime);
	h = hmap_fnv(h, &st->id.ctime, sizeof st->id.ctime);
	h = hmap_fnv(h, &st->id.ino, sizeof st->id.ino);
	h = hmap_fnv(h, &st->id.dev, sizeof st->id.dev);
	return hmap_fnv(h, &st->id.fp, sizeof st->id.fp);
}

/* The file of the answer with key under stem (malloc'd). */
static char *
answers_path(const char *stem, const struct cache_stamp *st, const char *key,
    size_t keylen)
{
	return xasprintf("%s.%016llx.%016llx%s", stem,
	    (unsigned long long)answers_stamp_hash(st),
	    (unsigned long long)hmap_fnv(HMAP_FNV0, key, keylen),
	    ANSWERS_SUFFIX);
}

/*
 * Removes the answers under stem ("<root>/NAME-H"): all of them, or those
 * of another stamp than keep. Returns the count, bytes added to *bytes.
 */
static int
answers_sweep(const char *stem, const struct cache_stamp *keep,
    uint64_t *bytes)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	const char	*base = strrchr(stem, '/') + 1, *rest;
	char		*dir, *p, want[17];
	size_t		 blen = strlen(base), slen = strlen(ANSWERS_SUFFIX);
	int		 n = 0;

	if (keep != NULL)
		snprintf(want, sizeof want, "%016llx",
		    (unsigned long long)answers_stamp_hash(keep));
	dir = xstrndup(stem, (size_t)(base - stem - 1));
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		/* "NAME-H." 16 hex "." 16 hex ".answer" */
		if (strncmp(de->d_name, base, blen) != 0)
			continue;
		rest = de->d_name + blen;
		if (strlen(rest) != 1 + 16 + 1 + 16 + slen || rest[0] != '.' ||
		    rest[17] != '.' || strcmp(rest + 34, ANSWERS_SUFFIX) != 0 ||
		    strspn(rest + 1, "0123456789abcdef") != 16 ||
		    strspn(rest + 18, "0123456789abcdef") != 16)
			continue;
		if (keep != NULL && strncmp(rest + 1, want, 16) == 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    sb.st_uid == geteuid() && unlink(p) == 0) {
			n++;
			if (bytes != NULL)
				*bytes += (uint64_t)sb.st_blocks * 512;
		}
		free(p);
	}
	closedir(d);
	free(dir);
	return n;
}

int
answers_remove(const char *trace, uint64_t *bytes)
{
	char	*stem;
	int	 n;

	if ((stem = answers_stem(trace, 0)) == NULL)
		return 0;
	n = answers_sweep(stem, NULL, bytes);
	free(stem);
	return n;
}

/* Reads path whole if it is one of ours and not too large: the bytes
 * (malloc'd, *len), or NULL. */
static uint8_t *
answers_read(const char *path, size_t *len)
{
	struct stat	 sb;
	uint8_t		*b;
	size_t		 got = 0;
	ssize_t		 r;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_uid != geteuid() || sb.st_size < ANSWERS_HDR ||
	    (uint64_t)sb.st_size > 2 * (uint64_t)ANSWERS_MAX + (1u << 20)) {
		close(fd);
		return NULL;
	}
	*len = (size_t)sb.st_size;
	b = xmalloc(*len);
	while (got < *len) {
		r = read(fd, b + got, *len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got != *len) {
		free(b);
		return NULL;
	}
	return b;
}

/* Writes buf to path through a temporary renamed into place: 0 or -1. */
static int
answers_write(const char *path, const uint8_t *buf, size_t len)
{
	char	*tmp = NULL;
	size_t	 off = 0;
	ssize_t	 w;
	int	 fd;

	if ((fd = tmpreg_create(path, &tmp)) == -1)
		return -1;
	while (off < len) {
		w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	if (close(fd) != 0 || off != len || rename(tmp, path) != 0) {
		tmpreg_discard(tmp);
		free(tmp);
		return -1;
	}
	tmpreg_forget(tmp);
	free(tmp);
	return 0;
}

/* Writes n bytes to fd, whatever it takes (errors dropped). */
static void
answers_write_fd(int fd, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Writes n bytes to f (stdout or stderr) and flushes it. */
static void
answers_emit(FILE *f, const char *p, size_t n)
{
	if (n > 0)
		fwrite(p, 1, n, f);
	fflush(f);
}

/* ------------------------------------------------------------------ */
/* Requests. */

/* 1 if answers may be kept or read in this process for e. */
static int
answers_on(const struct cmd_entry *e)
{
	const char	*env = getenv("GPULENS_ANSWERS");

	if (e == NULL || !(e->flags & CMD_ANSWER))
		return 0;
	if (env != NULL && strcmp(env, "0") == 0)
		return 0;
	if (cachedir_get_mode() == CACHEDIR_OFF)
		return 0;
	return binid_get() != NULL;
}

/* The key of a's request on stamp st (malloc'd, *len). */
static char *
answers_key_of(const struct answers *a, const struct cache_stamp *st,
    size_t *len)
{
	return answers_key(binid_get(), st, a->argc, a->argv, a->format,
	    environ, len);
}

struct answers *
answers_open(const struct cmd_entry *e, int argc, char **argv,
    const char *trace, int format)
{
	struct answers	*a;
	struct stat	 sb;
	int		 rc;

	if (!answers_on(e) || isatty(STDOUT_FILENO))
		return NULL;
	if (stat(trace, &sb) != 0 || !S_ISREG(sb.st_mode))
		return NULL;
	a = xcalloc(1, sizeof *a);
	if ((rc = cache_stamp(trace, &a->st)) < 0) {
		cache_stamp_clear(&a->st);
		free(a);
		return NULL;
	}
	a->have = rc == 1;
	a->e = e;
	a->argc = argc;
	a->argv = argv;
	a->trace = xstrdup(trace);
	a->format = format;
	a->out.saved = a->err.saved = -1;
	a->out.rd = a->err.rd = -1;
	a->t0 = timing_now();
	return a;
}

/* The stored answer of a on its stamp: the file's bytes, or NULL. */
static uint8_t *
answers_lookup(const struct answers *a, char **pathp, size_t *len,
    const char **out, size_t *outlen, const char **err, size_t *errlen,
    int *status)
{
	char		*key, *stem, *path;
	uint8_t		*buf = NULL;
	size_t		 keylen;

	if (!a->have || (stem = answers_stem(a->trace, 0)) == NULL)
		return NULL;
	key = answers_key_of(a, &a->st, &keylen);
	path = answers_path(stem, &a->st, key, keylen);
	free(stem);
	if ((buf = answers_read(path, len)) != NULL &&
	    answers_decode(buf, *len, key, keylen, out, outlen, err, errlen,
	    status) != 0) {
		free(buf);
		buf = NULL;
	}
	free(key);
	if (buf != NULL && pathp != NULL)
		*pathp = path;
	else
		free(path);
	return buf;
}

/*
 * The thread of a capture: reads the pipe to its end, into memory while
 * the bytes fit ANSWERS_MAX, then through to the real descriptor (the pipe
 * is always drained: the verb never waits on a full one).
 */
static void *
answers_drain(void *arg)
{
	struct answers_cap	*c = arg;
	char			 buf[ANSWERS_CHUNK];
	ssize_t			 n;

	for (;;) {
		if (!c->over && c->cap - c->len < ANSWERS_CHUNK) {
			/* Twice as much, up to one read past ANSWERS_MAX. */
			c->cap = c->cap == 0 ? ANSWERS_CHUNK : 2 * c->cap;
			if (c->cap > ANSWERS_MAX + ANSWERS_CHUNK)
				c->cap = ANSWERS_MAX + ANSWERS_CHUNK;
			c->b = xrealloc(c->b, c->cap);
		}
		if (!c->over)
			n = read(c->rd, c->b + c->len, c->cap - c->len);
		else
			n = read(c->rd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (c->over) {
			answers_write_fd(c->saved, buf, (size_t)n);
			continue;
		}
		c->len += (size_t)n;
		if (c->len > ANSWERS_MAX) {
			c->over = 1;
			answers_write_fd(c->saved, c->b, c->len);
			free(c->b);
			c->b = NULL;
			c->len = c->cap = 0;
		}
	}
	if (n < 0)
		c->bad = 1;
	return NULL;
}

/* Starts capturing stream (stdout or stderr): 0, or -1 and no capture. */
static int
answers_cap_begin(struct answers_cap *c, FILE *stream)
{
	int	p[2];

	memset(c, 0, sizeof *c);
	c->stream = stream;
	c->fd = fileno(stream);
	c->saved = c->rd = -1;
	fflush(stream);
	if (pipe(p) != 0)
		return -1;
	(void)fcntl(p[0], F_SETFD, FD_CLOEXEC);
	if ((c->saved = fcntl(c->fd, F_DUPFD_CLOEXEC, 0)) == -1)
		goto fail;
	c->rd = p[0];
	if (pthread_create(&c->th, NULL, answers_drain, c) != 0)
		goto fail;
	if (dup2(p[1], c->fd) == -1) {
		/* Not redirected: the thread sees the end at once. */
		close(p[1]);
		pthread_join(c->th, NULL);
		p[1] = -1;
		goto fail;
	}
	close(p[1]);
	return 0;
fail:
	if (p[1] != -1)
		close(p[1]);
	close(p[0]);
	if (c->saved != -1)
		close(c->saved);
	free(c->b);
	memset(c, 0, sizeof *c);
	c->saved = c->rd = -1;
	return -1;
}

/*
 * Ends a capture: the real descriptor back, the thread done. The bytes
 * stay in c->b (c->len; none with c->over: they went through).
 */
static void
answers_cap_end(struct answers_cap *c)
{
	if (c->saved == -1)
		return;
	fflush(c->stream);
	dup2(c->saved, c->fd);		/* closes the pipe's write end */
	pthread_join(c->th, NULL);
	close(c->saved);
	close(c->rd);
	c->saved = c->rd = -1;
	if (c->over) {
		free(c->b);
		c->b = NULL;
		c->len = 0;
	}
}

int
answers_serve(struct answers *a)
{
	const char	*out, *err;
	size_t		 len, outlen, errlen;
	uint8_t		*buf;
	char		*path = NULL;
	double		 t0 = timing_now();
	int		 status;

	if (a == NULL)
		return -1;
	if ((buf = answers_lookup(a, &path, &len, &out, &outlen, &err,
	    &errlen, &status)) != NULL) {
		answers_emit(stdout, out, outlen);
		answers_emit(stderr, err, errlen);
		/* The model cache is in use too: eviction keeps both. */
		cachedir_used(path);
		if (a->st.path != NULL)
			cachedir_used(a->st.path);
		free(path);
		free(buf);
		timing_report("answer-read", t0);
		return status;
	}
	a->whole = answers_cap_begin(&a->out, stdout) == 0;
	return -1;
}

void
answers_err_begin(struct answers *a)
{
	if (a != NULL && a->whole && !a->err_begun) {
		a->err_begun = 1;
		if (answers_cap_begin(&a->err, stderr) != 0)
			a->whole = 0;
	}
}

void
answers_err_end(struct answers *a)
{
	/* Kept until answers_close prints it after stdout. */
	if (a != NULL && a->err_begun)
		answers_cap_end(&a->err);
}

/* Stores the answer of a (outputs out and err, exit status rc). */
static void
answers_store(struct answers *a, const char *out, size_t outlen,
    const char *err, size_t errlen, int rc)
{
	struct cache_stamp	 st;
	const char		*env = getenv("GPULENS_ANSWER_MIN_MS");
	char			*stem, *key, *path, *end;
	uint8_t			*buf;
	size_t			 keylen, len;
	long			 min = ANSWERS_MIN_MS;

	if (env != NULL && *env != '\0') {
		min = strtol(env, &end, 10);
		if (*end != '\0' || min < 0)
			min = ANSWERS_MIN_MS;
	}
	/* The trace is the one it was before the load: it was read whole
	 * between the two identities. */
	if (cache_stamp(a->trace, &st) != 1 ||
	    !cachedir_ident_eq(&st.id, &a->st.id) ||
	    (stem = answers_stem(a->trace, 1)) == NULL) {
		cache_stamp_clear(&st);
		return;
	}
	/* A rebuilt cache: the old one's answers are unreachable. */
	answers_sweep(stem, &st, NULL);
	if ((timing_now() - a->t0) * 1000.0 < (double)min) {
		cache_stamp_clear(&st);
		free(stem);
		return;
	}
	key = answers_key_of(a, &st, &keylen);
	path = answers_path(stem, &st, key, keylen);
	free(stem);
	buf = answers_encode(key, keylen, out, outlen, err, errlen, rc, &len);
	if (answers_write(path, buf, len) == 0)
		cachedir_maintain(path);
	free(buf);
	free(key);
	free(path);
	cache_stamp_clear(&st);
}

int
answers_close(struct answers *a, int rc, int keep)
{
	int	over;

	if (a == NULL)
		return rc;
	answers_err_end(a);
	answers_cap_end(&a->out);
	/* Not captured whole: nothing to keep. */
	over = !a->whole || a->out.over || a->err.over || a->out.bad ||
	    a->err.bad;
	answers_emit(stdout, a->out.b, a->out.len);
	answers_emit(stderr, a->err.b, a->err.len);
	if (keep && !over && (rc == 0 || rc == 1))
		answers_store(a, a->out.b != NULL ? a->out.b : "", a->out.len,
		    a->err.b != NULL ? a->err.b : "", a->err.len, rc);
	free(a->out.b);
	free(a->err.b);
	cache_stamp_clear(&a->st);
	free(a->trace);
	free(a);
	return rc;
}

int
answers_have(const struct cmd_entry *e, int argc, char **argv,
    const char *trace, int format)
{
	struct answers	 a;
	const char	*out, *err;
	size_t		 len, outlen, errlen;
	uint8_t		*buf;
	int		 status, rc;

	if (!answers_on(e))
		return 0;
	memset(&a, 0, sizeof a);
	if ((rc = cache_stamp(trace, &a.st)) != 1) {
		cache_stamp_clear(&a.st);
		return 0;
	}
	a.have = 1;
	a.e = e;
	a.argc = argc;
	a.argv = argv;
	a.trace = (char *)trace;
	a.format = format;
	buf = answers_lookup(&a, NULL, &len, &out, &outlen, &err, &errlen,
	    &status);
	cache_stamp_clear(&a.st);
	rc = buf != NULL;
	free(buf);
	return rc;
}

/* Runs `gpulens --no-progress VERB trace --json` with stdout and stderr
 * on /dev/null and every answer kept: its exit status, or -1. */
static int
answers_child(const char *verb, const char *trace)
{
	pid_t	 pid;
	int	 st, fd;
	char	*av[6];

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		setenv("GPULENS_ANSWER_MIN_MS", "0", 1);
		av[0] = (char *)"gpulens";
		av[1] = (char *)"--no-progress";
		av[2] = (char *)verb;
		av[3] = (char *)trace;
		av[4] = (char *)"--json";
		av[5] = NULL;
		execv("/proc/self/exe", av);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int
answers_prep(const char *trace)
{
	const struct cmd_entry	*e;
	char			*av[3];
	size_t			 i;
	int			 n = 0;

	for (i = 0; cmd_table[i] != NULL; i++) {
		e = cmd_table[i];
		if (!answers_on(e) || e->args.min > 1 || e->args.max == 0)
			continue;
		av[0] = (char *)e->name;
		av[1] = (char *)trace;
		av[2] = (char *)"--json";
		if (answers_have(e, 3, av, trace, OUT_JSON) ||
		    (answers_child(e->name, trace) >= 0 &&
		    answers_have(e, 3, av, trace, OUT_JSON)))
			n++;
	}
	return n;
}
