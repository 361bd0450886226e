/*
 * cachedir: the cache directory, trace identity, derived copies, eviction.
 * See cachedir.h for the layout and the rules.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/cachedir.h"
#include "util/hmap.h"
#include "util/tmpreg.h"
#include "util/xmalloc.h"

#define CACHEDIR_MAGIC	"GPULENSC"	/* the model cache's first bytes */
#define CACHEDIR_NAMEMAX 96		/* bytes of the trace's name kept */

static atomic_int	cachedir_mode = CACHEDIR_ON;

void
cachedir_set_mode(enum cachedir_mode mode)
{
	atomic_store(&cachedir_mode, (int)mode);
}

enum cachedir_mode
cachedir_get_mode(void)
{
	return (enum cachedir_mode)atomic_load(&cachedir_mode);
}

/* ------------------------------------------------------------------ */
/* Identity. */

/* Reads up to n bytes at off; the count, or -1. */
static ssize_t
cachedir_pread(int fd, unsigned char *buf, size_t n, off_t off)
{
	size_t	got = 0;
	ssize_t	r;

	while (got < n) {
		r = pread(fd, buf + got, n - got, off + (off_t)got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/*
 * An SQLite database in WAL mode keeps rows in "TRACE-wal" until a
 * checkpoint: the log's size and times are part of the trace's identity,
 * so rows added there invalidate the cache too.
 */
static uint64_t
cachedir_wal(const char *trace, uint64_t h)
{
	struct stat	 st;
	char		*wal = xasprintf("%s-wal", trace);
	int64_t		 v[3];

	if (lstat(wal, &st) == 0 && S_ISREG(st.st_mode)) {
		v[0] = (int64_t)st.st_size;
		v[1] = (int64_t)st.st_mtim.tv_sec * 1000000000 +
		    st.st_mtim.tv_nsec;
		v[2] = (int64_t)st.st_ctim.tv_sec * 1000000000 +
		    st.st_ctim.tv_nsec;
		h = hmap_fnv(h, v, sizeof v);
	}
	free(wal);
	return h;
}

int
cachedir_ident(const char *trace, struct cachedir_ident *id, char **cause)
{
	struct stat	 st;
	unsigned char	*buf;
	uint64_t	 h = HMAP_FNV0;
	ssize_t		 got;
	off_t		 tail;
	int		 fd, e;

	memset(id, 0, sizeof *id);
	if ((fd = open(trace, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", trace, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		e = errno;
		if (cause != NULL)
			*cause = S_ISREG(st.st_mode) ? xasprintf("%s: %s",
			    trace, strerror(e)) : xasprintf("%s: not a "
			    "regular file", trace);
		close(fd);
		return -1;
	}
	buf = xmalloc(CACHEDIR_FP_BLOCK);
	got = cachedir_pread(fd, buf, CACHEDIR_FP_BLOCK, 0);
	if (got > 0)
		h = hmap_fnv(h, buf, (size_t)got);
	tail = st.st_size - CACHEDIR_FP_BLOCK;
	if (got >= 0 && tail > CACHEDIR_FP_BLOCK) {
		got = cachedir_pread(fd, buf, CACHEDIR_FP_BLOCK, tail);
		if (got > 0)
			h = hmap_fnv(h, buf, (size_t)got);
	}
	free(buf);
	if (got < 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", trace, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	h = cachedir_wal(trace, h);
	id->size = (uint64_t)st.st_size;
	id->mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 +
	    st.st_mtim.tv_nsec;
	id->ctime = (int64_t)st.st_ctim.tv_sec * 1000000000 +
	    st.st_ctim.tv_nsec;
	id->ino = (uint64_t)st.st_ino;
	id->dev = (uint64_t)st.st_dev;
	id->fp = h;
	id->uid = (uint32_t)st.st_uid;
	return 0;
}

int
cachedir_ident_eq(const struct cachedir_ident *a,
    const struct cachedir_ident *b)
{
	return a->size == b->size && a->mtime == b->mtime &&
	    a->ctime == b->ctime && a->ino == b->ino && a->dev == b->dev &&
	    a->fp == b->fp;
}

static uint64_t
cachedir_ident_hash(const struct cachedir_ident *id)
{
	uint64_t	h = HMAP_FNV0;

	h = hmap_fnv(h, &id->size, sizeof id->size);
	h = hmap_fnv(h, &id->mtime, sizeof id->mtime);
	h = hmap_fnv(h, &id->ctime, sizeof id->ctime);
	h = hmap_fnv(h, &id->ino, sizeof id->ino);
	h = hmap_fnv(h, &id->dev, sizeof id->dev);
	return hmap_fnv(h, &id->fp, sizeof id->fp);
}

/* ------------------------------------------------------------------ */
/* Paths. */

static const char *
cachedir_basename(const char *trace)
{
	const char	*slash = strrchr(trace, '/');

	return slash != NULL ? slash + 1 : trace;
}

/* mkdir -p; the components it creates get mode 0700. */
static int
cachedir_mkdirs(const char *dir)
{
	char	*p = xstrdup(dir), *s, c;
	int	 rc = 0;

	for (s = p + 1; rc == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (s[-1] != '/' && mkdir(p, 0700) != 0 && errno != EEXIST)
			rc = -1;
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

char *
cachedir_root(int create, char **cause)
{
	const char	*env;
	struct stat	 st;
	char		*dir;

	if ((env = getenv("XDG_CACHE_HOME")) != NULL && env[0] == '/')
		dir = xasprintf("%s/gpulens", env);
	else if ((env = getenv("HOME")) != NULL && env[0] == '/')
		dir = xasprintf("%s/.cache/gpulens", env);
	else {
		if (cause != NULL)
			*cause = xstrdup("no cache directory: neither "
			    "XDG_CACHE_HOME nor HOME is an absolute path");
		return NULL;
	}
	if (create && cachedir_mkdirs(dir) != 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (stat(dir, &st) != 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", dir, S_ISDIR(st.st_mode) ?
			    "owned by another user" : "not a directory");
		free(dir);
		return NULL;
	}
	return dir;
}

/* "NAME-H": the stem of trace's files in the cache directory, keyed by a
 * hash of its real path. */
static char *
cachedir_stem(const char *trace, char **cause)
{
	const char	*base = cachedir_basename(trace);
	char		*real, *p;
	uint64_t	 h;
	int		 len;

	if (*base == '\0') {
		if (cause != NULL)
			*cause = xasprintf("%s: not a file name", trace);
		return NULL;
	}
	if ((real = realpath(trace, NULL)) == NULL) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", trace, strerror(errno));
		return NULL;
	}
	h = hmap_fnv(HMAP_FNV0, real, strlen(real));
	free(real);
	/* Stay well under NAME_MAX, suffixes included. */
	len = (int)strlen(base);
	p = xasprintf("%.*s-%016llx", len > CACHEDIR_NAMEMAX ?
	    CACHEDIR_NAMEMAX : len, base, (unsigned long long)h);
	return p;
}

char *
cachedir_entry(const char *trace, int create, char **cause)
{
	char	*root, *stem, *p;

	if ((stem = cachedir_stem(trace, cause)) == NULL)
		return NULL;
	if ((root = cachedir_root(create, cause)) == NULL) {
		free(stem);
		return NULL;
	}
	p = xasprintf("%s/%s%s", root, stem, CACHEDIR_SUFFIX);
	free(root);
	free(stem);
	return p;
}

char *
cachedir_beside(const char *trace)
{
	const char	*base = cachedir_basename(trace);

	if (*base == '\0')
		return NULL;
	if (base == trace)
		return xasprintf(".%s%s", base, CACHEDIR_SUFFIX);
	return xasprintf("%.*s.%s%s", (int)(base - trace), trace, base,
	    CACHEDIR_SUFFIX);
}

static char *
cachedir_scratch(const struct cachedir_ident *id, const char *suffix)
{
	const char	*tmp = getenv("TMPDIR");

	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	return xasprintf("%s/gpulens-%ld-%016llx%s", tmp, (long)getpid(),
	    (unsigned long long)cachedir_ident_hash(id), suffix);
}

char *
cachedir_derived(const char *trace, const struct cachedir_ident *id,
    const char *suffix, char **cause)
{
	char	*root, *stem, *p;

	if (cachedir_get_mode() == CACHEDIR_OFF)
		return cachedir_scratch(id, suffix);
	if ((stem = cachedir_stem(trace, cause)) == NULL)
		return NULL;
	if ((root = cachedir_root(1, cause)) == NULL) {
		free(stem);
		return NULL;
	}
	p = xasprintf("%s/%s-%016llx%s", root, stem,
	    (unsigned long long)cachedir_ident_hash(id), suffix);
	free(root);
	free(stem);
	return p;
}

int
cachedir_usable(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && st.st_uid == geteuid() &&
	    (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* ------------------------------------------------------------------ */
/* Upkeep. */

/* One file of the cache directory. */
struct cachedir_file {
	char		*name;
	uint64_t	 bytes;
	int64_t		 mtime;		/* ns */
};

static int
cachedir_file_cmp(const void *a, const void *b)
{
	const struct cachedir_file	*x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The regular files of dir owned by this user, whose names start with
 * prefix (NULL: all), oldest first. Returns the count; *out is freed with
 * cachedir_files_free.
 */
static size_t
cachedir_list(const char *dir, const char *prefix, struct cachedir_file **out)
{
	DIR			*d;
	struct dirent		*de;
	struct stat		 st;
	struct cachedir_file	*v = NULL;
	size_t			 n = 0, cap = 0, plen;
	char			*p;

	*out = NULL;
	if ((d = opendir(dir)) == NULL)
		return 0;
	plen = prefix != NULL ? strlen(prefix) : 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		if (plen > 0 && strncmp(de->d_name, prefix, plen) != 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid()) {
			if (n == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[n].name = xstrdup(de->d_name);
			v[n].bytes = (uint64_t)st.st_blocks * 512;
			v[n].mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 +
			    st.st_mtim.tv_nsec;
			n++;
		}
		free(p);
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof *v, cachedir_file_cmp);
	*out = v;
	return n;
}

static void
cachedir_files_free(struct cachedir_file *v, size_t n)
{
	XFREE_EACH(v, n, name);
	free(v);
}

/* Removes dir/name, adding to the tallies. */
static int
cachedir_unlink(const char *dir, const struct cachedir_file *f, int *count,
    uint64_t *bytes)
{
	char	*p = xasprintf("%s/%s", dir, f->name);
	int	 ok = unlink(p) == 0;

	free(p);
	if (ok) {
		if (count != NULL)
			(*count)++;
		if (bytes != NULL)
			*bytes += f->bytes;
	}
	return ok;
}

uint64_t
cachedir_limit(void)
{
	const char		*env = getenv("GPULENS_CACHE_MAX");
	unsigned long long	 v;
	char			*end;
	int			 shift = 0;

	if (env == NULL || *env == '\0')
		return CACHEDIR_DEFAULT_MAX;
	errno = 0;
	v = strtoull(env, &end, 10);
	if (errno != 0 || end == env || *env == '-')
		return CACHEDIR_DEFAULT_MAX;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end != '\0' || (shift > 0 && v > (UINT64_MAX >> shift)))
		return CACHEDIR_DEFAULT_MAX;
	return (uint64_t)v << shift;
}

void
cachedir_used(const char *path)
{
	struct stat	st;

	/* Only what is ours: a cache found beside a shared trace may be a
	 * colleague's. */
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid())
		utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
}

void
cachedir_maintain(const char *keep)
{
	struct cachedir_file	*v;
	const char		*kname = NULL;
	char			*root;
	uint64_t		 limit = cachedir_limit(), total = 0;
	time_t			 now = time(NULL);
	size_t			 n, i;

	if ((root = cachedir_root(0, NULL)) == NULL)
		return;
	if (keep != NULL && strncmp(keep, root, strlen(root)) == 0 &&
	    keep[strlen(root)] == '/')
		kname = keep + strlen(root) + 1;
	n = cachedir_list(root, NULL, &v);
	for (i = 0; i < n; i++) {
		if (tmpreg_is_tmp(v[i].name)) {
			if (tmpreg_stale(v[i].name, (time_t)(v[i].mtime /
			    1000000000), now))
				cachedir_unlink(root, &v[i], NULL, NULL);
			v[i].bytes = 0;		/* a live write: not ours */
			continue;
		}
		total += v[i].bytes;
	}
	/* Least recently used first; the file just written stays. */
	for (i = 0; limit > 0 && total > limit && i < n; i++) {
		if (v[i].bytes == 0 || (kname != NULL &&
		    strcmp(v[i].name, kname) == 0))
			continue;
		if (cachedir_unlink(root, &v[i], NULL, NULL))
			total -= v[i].bytes;
	}
	cachedir_files_free(v, n);
	free(root);
}

void
cachedir_derived_made(const char *path)
{
	struct cachedir_file	*v;
	const char		*name, *dash;
	char			*dir, *prefix;
	size_t			 n, i;

	if (cachedir_get_mode() == CACHEDIR_OFF) {
		tmpreg_add(path);
		return;
	}
	/* path is "<root>/NAME-H-I.sfx": older copies share "NAME-H-". */
	if ((name = strrchr(path, '/')) == NULL ||
	    (dash = strrchr(name, '-')) == NULL)
		return;
	dir = xstrndup(path, (size_t)(name - path));
	name++;
	prefix = xstrndup(name, (size_t)(dash - name) + 1);
	n = cachedir_list(dir, prefix, &v);
	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) != 0 &&
		    !tmpreg_is_tmp(v[i].name) && strchr(v[i].name +
		    strlen(prefix), '-') == NULL)
			cachedir_unlink(dir, &v[i], NULL, NULL);
	cachedir_files_free(v, n);
	free(prefix);
	free(dir);
	cachedir_maintain(path);
}

/* 1 if path is a regular file that starts like a model cache. */
static int
cachedir_is_cache(const char *path)
{
	char	magic[sizeof CACHEDIR_MAGIC - 1];
	ssize_t	got;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    O_NONBLOCK)) == -1)
		return 0;
	got = cachedir_pread(fd, (unsigned char *)magic, sizeof magic, 0);
	close(fd);
	return got == (ssize_t)sizeof magic &&
	    memcmp(magic, CACHEDIR_MAGIC, sizeof magic) == 0;
}

/*
 * Removes, in dir, the files whose names start with prefix and that are
 * one of ours: a model cache (magic checked where check_magic), a derived
 * copy (".sqlite"), or a stale temporary.
 */
static void
cachedir_remove_prefix(const char *dir, const char *prefix, int check_magic,
    int *count, uint64_t *bytes)
{
	struct cachedir_file	*v;
	time_t			 now = time(NULL);
	size_t			 n, i, plen = strlen(prefix), len;
	const char		*rest;
	char			*p;
	int			 ours;

	n = cachedir_list(dir, prefix, &v);
	for (i = 0; i < n; i++) {
		rest = v[i].name + plen;
		len = strlen(rest);
		if (tmpreg_is_tmp(v[i].name))
			ours = tmpreg_stale(v[i].name, (time_t)(v[i].mtime /
			    1000000000), now);
		else if (strcmp(rest, CACHEDIR_SUFFIX) == 0) {
			p = xasprintf("%s/%s", dir, v[i].name);
			ours = !check_magic || cachedir_is_cache(p);
			free(p);
		} else if (strcmp(rest, ".ranksum") == 0)
			ours = 1;	/* a rank summary (analysis/ranksum.h) */
		else
			/* "-I.sqlite", or the older ".gpulens.sqlite". */
			ours = len > 7 && strcmp(rest + len - 7, ".sqlite") ==
			    0 && (rest[0] == '-' || strcmp(rest,
			    CACHEDIR_SUFFIX ".sqlite") == 0);
		if (ours)
			cachedir_unlink(dir, &v[i], count, bytes);
	}
	cachedir_files_free(v, n);
}

int
cachedir_remove_trace(const char *trace, uint64_t *bytes)
{
	const char	*base = cachedir_basename(trace);
	char		*root, *stem, *dir, *prefix;
	int		 count = 0;

	if (*base == '\0')
		return 0;
	/* In the cache directory: "NAME-H" and everything after it. */
	if ((stem = cachedir_stem(trace, NULL)) != NULL &&
	    (root = cachedir_root(0, NULL)) != NULL) {
		cachedir_remove_prefix(root, stem, 0, &count, bytes);
		free(root);
	}
	free(stem);
	/* Beside the trace: ".NAME.gpulens", what older versions left
	 * there (".NAME.gpulens.sqlite", temporaries). */
	dir = base == trace ? xstrdup(".") : xstrndup(trace,
	    (size_t)(base - trace));
	prefix = xasprintf(".%s", base);
	cachedir_remove_prefix(dir, prefix, 1, &count, bytes);
	free(prefix);
	free(dir);
	return count;
}

int
cachedir_remove_all(uint64_t *bytes)
{
	struct cachedir_file	*v;
	time_t			 now = time(NULL);
	char			*root;
	size_t			 n, i;
	int			 count = 0;

	if ((root = cachedir_root(0, NULL)) == NULL)
		return 0;
	n = cachedir_list(root, NULL, &v);
	for (i = 0; i < n; i++)
		if (!tmpreg_is_tmp(v[i].name) || tmpreg_stale(v[i].name,
		    (time_t)(v[i].mtime / 1000000000), now))
			cachedir_unlink(root, &v[i], &count, bytes);
	cachedir_files_free(v, n);
	free(root);
	return count;
}
