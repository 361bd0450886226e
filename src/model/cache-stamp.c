/*
 * cache-stamp: the header of the cache a load would read (cache-stamp.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cache-int.h"
#include "model/cache-stamp.h"
#include "model/cachedir.h"
#include "util/hmap.h"

/* Reads and checks the header of one candidate: 1 with st, else 0. */
static int
cache_stamp_try(const char *path, struct cache_stamp *st)
{
	struct cache_hdr	 h;
	struct stat		 sb;
	size_t			 got = 0;
	ssize_t			 r;
	int			 fd, ok = 0;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return 0;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (sb.st_uid != geteuid() && sb.st_uid != 0 &&
	    sb.st_uid != st->id.uid))
		goto out;
	while (got < sizeof h) {
		r = read(fd, (char *)&h + got, sizeof h - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto out;
		got += (size_t)r;
	}
	if (cache_check_hdr(&h, &st->id, (uint64_t)sb.st_size) != NULL)
		goto out;
	st->hdr = hmap_fnv(HMAP_FNV0, &h, sizeof h);
	st->size = (uint64_t)sb.st_size;
	ok = 1;
out:
	close(fd);
	return ok;
}

int
cache_stamp(const char *trace, struct cache_stamp *st)
{
	struct stat	 sb;
	char		*path;
	int		 rc = 0;

	memset(st, 0, sizeof *st);
	if (cachedir_get_mode() == CACHEDIR_OFF)
		return 0;
	if (cachedir_ident(trace, &st->id, NULL) != 0)
		return -1;
	if ((path = cachedir_beside(trace)) != NULL && lstat(path, &sb) == 0)
		rc = cache_stamp_try(path, st);
	if (rc == 0) {
		free(path);
		path = NULL;
		if (cachedir_get_mode() != CACHEDIR_BESIDE &&
		    (path = cachedir_entry(trace, 0, NULL)) != NULL &&
		    (rc = cache_stamp_try(path, st)) == 0) {
			free(path);
			path = NULL;
		}
	}
	st->path = path;
	return rc;
}

void
cache_stamp_clear(struct cache_stamp *st)
{
	free(st->path);
	st->path = NULL;
}
