/*
 * sqlz: a plain copy of a compressed SQLite database in the cache
 * directory, made with zfile_copy_to() and reused while the compressed
 * file keeps the identity it had (cachedir.h). See sqlz.h.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cachedir.h"
#include "sources/sqlz.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

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

size_t
sqlz_head(const char *path, void *buf, size_t len)
{
	struct zfile	*f;
	char		*cause = NULL;
	size_t		 got = 0;
	ssize_t		 n;

	if ((f = zfile_open(path, &cause)) == NULL) {
		free(cause);
		return 0;
	}
	while (got < len) {
		if ((n = zfile_read(f, (char *)buf + got, len - got,
		    &cause)) <= 0)
			break;
		got += (size_t)n;
	}
	free(cause);
	zfile_close(f);
	return got;
}

int
sqlz_is_sqlite(const char *path)
{
	char	buf[16];
	int	k;

	if ((k = sqlz_kind(path)) != ZFILE_GZIP && k != ZFILE_ZSTD)
		return 0;
	return sqlz_head(path, buf, sizeof buf) == sizeof buf &&
	    memcmp(buf, SQLZ_MAGIC, sizeof buf) == 0;
}

char *
sqlz_plain(const char *path, char **cause)
{
	struct cachedir_ident	 id;
	char			*plain, *why = NULL;
	int			 k;

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
	if (cachedir_ident(path, &id, cause) != 0)
		return NULL;
	/* The copy's name carries the compressed file's identity: another
	 * capture at the same path never gets this one's copy. */
	if ((plain = cachedir_derived(path, &id, ".sqlite", &why)) == NULL) {
		*cause = xasprintf("%s: compressed SQLite database and no "
		    "place to decompress it (%s)", path, why != NULL ? why :
		    "no cache directory");
		free(why);
		return NULL;
	}
	if (cachedir_usable(plain))
		return plain;
	if (zfile_copy_to(path, plain, &why) != 0) {
		/* zfile's messages name the file and the offset. */
		*cause = why != NULL ? why : xasprintf("%s: cannot decompress "
		    "the SQLite database", path);
		free(plain);
		return NULL;
	}
	cachedir_derived_made(plain);
	return plain;
}
