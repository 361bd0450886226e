/*
 * sqlz: a plain copy of a compressed SQLite database in the cache, made
 * with zfile_copy_to() and reused while it is at least as new as the
 * compressed file. See sqlz.h.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "sqlz.h"
#include "xmalloc.h"
#include "zfile.h"

#define SQLZ_MAGIC	"SQLite format 3"	/* with its NUL: 16 bytes */

/* The compression of path's first bytes, or -1 if it cannot be read. */
static int
sqlz_kind(const char *path)
{
	unsigned char	 head[8];
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	do
		n = read(fd, head, sizeof head);
	while (n == -1 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	return (int)zfile_sniff(head, (size_t)n);
}

int
sqlz_is_sqlite(const char *path)
{
	struct zfile	*f;
	char		 buf[16], *cause = NULL;
	size_t		 got = 0;
	ssize_t		 n;
	int		 k;

	if ((k = sqlz_kind(path)) != ZFILE_GZIP && k != ZFILE_ZSTD)
		return 0;
	if ((f = zfile_open(path, &cause)) == NULL) {
		free(cause);
		return 0;
	}
	while (got < sizeof buf) {
		if ((n = zfile_read(f, buf + got, sizeof buf - got,
		    &cause)) <= 0)
			break;
		got += (size_t)n;
	}
	free(cause);
	zfile_close(f);
	return got == sizeof buf && memcmp(buf, SQLZ_MAGIC, sizeof buf) == 0;
}

/* Whether the copy at plain is usable for the compressed file src. */
static int
sqlz_fresh(const struct stat *src, const char *plain)
{
	struct stat	sb;

	if (lstat(plain, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size == 0 || sb.st_uid != geteuid())
		return 0;
	if (sb.st_mtim.tv_sec != src->st_mtim.tv_sec)
		return sb.st_mtim.tv_sec > src->st_mtim.tv_sec;
	return sb.st_mtim.tv_nsec >= src->st_mtim.tv_nsec;
}

char *
sqlz_plain(const char *path, char **cause)
{
	struct stat	 sb;
	char		*cpath, *plain, *why = NULL;
	int		 k;

	if ((k = sqlz_kind(path)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (k == ZFILE_PLAIN)
		return xstrdup(path);
	if (!sqlz_is_sqlite(path)) {
		*cause = xasprintf("%s: %s-compressed, but not an SQLite "
		    "database (or a corrupt one)", path, k == ZFILE_GZIP ?
		    "gzip" : "zstd");
		return NULL;
	}
	if (stat(path, &sb) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((cpath = cache_path(path, 1, &why)) == NULL) {
		*cause = xasprintf("%s: compressed SQLite database and no "
		    "place to decompress it (%s)", path, why != NULL ? why :
		    "no cache directory");
		free(why);
		return NULL;
	}
	plain = xasprintf("%s.sqlite", cpath);
	free(cpath);
	if (sqlz_fresh(&sb, plain))
		return plain;
	if (zfile_copy_to(path, plain, &why) != 0) {
		/* zfile's messages name the file and the offset. */
		*cause = why != NULL ? why : xasprintf("%s: cannot decompress "
		    "the SQLite database", path);
		free(plain);
		return NULL;
	}
	return plain;
}
