/*
 * cache: locating, opening, mapping and checking cache files, and the
 * API of cache.h. The file format and the other files: cache-int.h.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "model/cache.h"
#include "model/cache-int.h"
#include "model/cachedir.h"
#include "util/timing.h"
#include "util/xmalloc.h"

char *
cache_path(const char *trace, int for_write, char **cause)
{
	struct stat	 st;
	char		*beside;

	if ((beside = cachedir_beside(trace)) == NULL) {
		if (cause != NULL)
			*cause = xasprintf("%s: not a file name", trace);
		return NULL;
	}
	if (for_write ? cachedir_get_mode() == CACHEDIR_BESIDE :
	    lstat(beside, &st) == 0)
		return beside;
	free(beside);
	return cachedir_entry(trace, for_write, cause);
}

/*
 * The file is mapped (cache_map), or read into an anonymous mapping of its
 * own; either way the model keeps the mapping (m->map).
 */
static uint8_t *
cache_buf_new(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void
cache_buf_free(uint8_t *p, size_t len)
{
	if (p != NULL)
		munmap(p, len);
}

static int
cache_read_all(int fd, void *buf, size_t n, size_t *got)
{
	uint8_t	*p = buf;
	ssize_t	 r;

	*got = 0;
	while (*got < n) {
		r = read(fd, p + *got, n - *got > (1u << 30) ? (1u << 30) :
		    n - *got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		*got += (size_t)r;
	}
	return 0;
}

/*
 * Opens one cache file and reads and checks its header: the descriptor, or
 * -1 with *why.
 */
static int
cache_open(const char *path, const struct cache_ident *id,
    struct cache_hdr *h, char **why)
{
	struct stat	 st;
	const char	*bad;
	size_t		 got;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		*why = xstrdup(errno == ELOOP ? "a symlink" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0)
		bad = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		bad = "not a regular file";
	else if (st.st_uid != geteuid() && st.st_uid != 0 &&
	    st.st_uid != id->uid)
		bad = "owned by another user";
	else if (cache_read_all(fd, h, sizeof *h, &got) != 0)
		bad = strerror(errno);
	else if (got < sizeof *h)
		bad = "truncated header";
	else
		bad = cache_check_hdr(h, id, (uint64_t)st.st_size);
	if (bad != NULL) {
		*why = xstrdup(bad);
		close(fd);
		return -1;
	}
	return fd;
}

/* CACHE_DROPMIN; tests lower it (cache_set_dropmin). */
static uint64_t	cache_dropmin = CACHE_DROPMIN;

void
cache_set_dropmin(uint64_t bytes)
{
	cache_dropmin = bytes;
}

/* Whether to read caches into a copy rather than map them (tests). */
static int	cache_copy;

void
cache_set_copy(int on)
{
	cache_copy = on;
}

/*
 * The file's bytes: a private mapping of the whole file where that works
 * (the pages come straight from the page cache: no copy, no zeroing;
 * writable, so that a page written is copied and the file never changes),
 * else an anonymous mapping read() into. Either way *base, *len are what to
 * munmap, and the payload starts sizeof header in. Our caches are only
 * ever replaced by rename(), never truncated in place, so the mapping
 * stays backed.
 *
 * The mapping is not populated (*mapped is set): the load checks the file
 * through pread() into small buffers (cache-pass.c), not through the
 * mapping, so that a page of the mapping is faulted in only when a verb
 * reads it. Bringing in a page costs far more than copying it (a fault,
 * and under a hypervisor that shadows page tables an exit, per 4 KiB:
 * three to four times the copy and the checksum together), and a verb
 * reads a fraction of the model, so there is nothing to give back once
 * checked (*drop, set at CACHE_DROPMIN bytes and above, is kept for the
 * model's own use). With a copy (the read() fallback), the checks read the
 * copy, whose pages are never given back: they are its only copy.
 */
static int
cache_map(int fd, const struct cache_hdr *h, uint8_t **base, size_t *len,
    int *drop, int *mapped, char **why)
{
	size_t	got;
	void	*p;

	*len = sizeof *h + h->payload_size;
	*drop = h->payload_size >= cache_dropmin;
	p = cache_copy ? MAP_FAILED : mmap(NULL, *len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE, fd, 0);
	if (p != MAP_FAILED) {
		*base = p;
		*mapped = 1;
		return 0;
	}
	*drop = 0;
	if ((*base = cache_buf_new(*len)) == NULL) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	memcpy(*base, h, sizeof *h);
	if (cache_read_all(fd, *base + sizeof *h, h->payload_size, &got) !=
	    0) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	if (got != h->payload_size) {
		*why = xstrdup("truncated");
		return -1;
	}
	return 0;
}

/* Tries one cache file: 1 with *out on a hit, else 0 with *why. */
static int
cache_try(const char *path, const struct cache_ident *id,
    struct model **out, char **why)
{
	struct cache_hdr	 h;
	uint8_t			*base = NULL;
	size_t			 len = 0;
	double			 t0;
	int			 fd, rc = 0, drop = 0, mapped = 0;

	if ((fd = cache_open(path, id, &h, why)) == -1)
		return 0;
	t0 = timing_now();
	if (cache_map(fd, &h, &base, &len, &drop, &mapped, why) != 0)
		goto out;
	timing_report("cache-file-read", t0);
	rc = cache_decode(&h, mapped ? fd : -1, base, len, drop, out, why) ==
	    0;
	base = NULL;		/* the model's, or gone */

out:
	cache_buf_free(base, len);
	close(fd);
	return rc;
}

/* Tries the head of one cache file: 1 with *out on a hit, else 0. */
static int
cache_try_summary(const char *path, const struct cache_ident *id,
    struct model **out, char **why)
{
	struct cache_hdr	 h;
	uint8_t			*head = NULL;
	size_t			 got;
	int			 fd, rc = 0;

	if ((fd = cache_open(path, id, &h, why)) == -1)
		return 0;
	head = xmalloc(h.head_size + 1);
	if (cache_read_all(fd, head, h.head_size, &got) != 0) {
		*why = xstrdup(strerror(errno));
		goto out;
	}
	if (got != h.head_size) {
		*why = xstrdup("truncated");
		goto out;
	}
	if ((uint32_t)cache_crc32(crc32(0, Z_NULL, 0), head, h.head_size) !=
	    h.head_crc) {
		*why = xstrdup("head checksum mismatch");
		goto out;
	}
	if (cache_decode_summary(&h, head, out, why) == 0)
		rc = 1;

out:
	free(head);
	close(fd);
	return rc;
}

/*
 * Tries trace's cache with try(): the one beside the trace (prep --beside)
 * first, then the cache directory's.
 */
static int
cache_load_with(const char *trace, const struct cache_ident *id,
    struct model **out, char **cause,
    int (*try)(const char *, const struct cache_ident *, struct model **,
    char **))
{
	struct stat		 st;
	char			*path[2], *why[2] = { NULL, NULL };
	size_t			 i, n = 0;
	int			 rc = 0;

	*out = NULL;
	if (cachedir_get_mode() == CACHEDIR_OFF) {
		if (cause != NULL)
			*cause = xstrdup("caching is off (--no-cache)");
		return 0;
	}
	if ((path[n] = cachedir_beside(trace)) != NULL)
		n++;
	/* prep --beside makes the cache beside the trace even when the
	 * cache directory holds one. */
	if (cachedir_get_mode() != CACHEDIR_BESIDE &&
	    (path[n] = cachedir_entry(trace, 0, NULL)) != NULL)
		n++;
	for (i = 0; i < n && rc == 0; i++)
		if (lstat(path[i], &st) == 0) {
			rc = try(path[i], id, out, &why[i]);
			if (rc == 1)
				cachedir_used(path[i]);
		}
	if (rc == 0 && cause != NULL) {
		for (i = 0; i < n && why[i] == NULL; i++)
			;
		if (i == n)
			*cause = xstrdup("no cache");
		else if (i + 1 < n && why[i + 1] != NULL)
			*cause = xasprintf("%s: %s; %s: %s", path[i], why[i],
			    path[i + 1], why[i + 1]);
		else
			*cause = xasprintf("%s: %s", path[i], why[i]);
	}
	for (i = 0; i < n; i++) {
		free(path[i]);
		free(why[i]);
	}
	return rc;
}

int
cache_load_ident(const char *trace, const struct cache_ident *id,
    struct model **out, char **cause)
{
	return cache_load_with(trace, id, out, cause, cache_try);
}

int
cache_load(const char *trace, struct model **out, char **cause)
{
	struct cache_ident	id;

	*out = NULL;
	if (cachedir_ident(trace, &id, cause) != 0)
		return -1;
	return cache_load_ident(trace, &id, out, cause);
}

int
cache_load_summary(const char *trace, struct model **out, char **cause)
{
	struct cache_ident	id;

	*out = NULL;
	if (cachedir_ident(trace, &id, cause) != 0)
		return -1;
	return cache_load_with(trace, &id, out, cause, cache_try_summary);
}

int
cache_remove(const char *trace)
{
	return cachedir_remove_trace(trace, NULL);
}
