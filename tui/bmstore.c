/*
 * bmstore: bookmarks kept in the cache directory. See bmstore.h.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cachedir.h"
#include "model/model.h"
#include "tui/bmstore.h"
#include "util/xmalloc.h"

#define BMSTORE_MAGIC	"gpulens-bookmarks 1"

char *
bmstore_path(const char *const *paths, int n, int create, char **cause)
{
	char	*e, *p;
	size_t	 len, sl = strlen(CACHEDIR_SUFFIX);

	if (n < 1)
		return NULL;
	if (cachedir_get_mode() == CACHEDIR_OFF) {
		*cause = xstrdup("--no-cache");
		return NULL;
	}
	if ((e = cachedir_entry(paths[0], create, cause)) == NULL)
		return NULL;
	len = strlen(e);
	if (len > sl && strcmp(e + len - sl, CACHEDIR_SUFFIX) == 0)
		e[len - sl] = '\0';
	if (n > 1)
		p = xasprintf("%s-job%d.bookmarks", e, n);
	else
		p = xasprintf("%s.bookmarks", e);
	free(e);
	return p;
}

/* The identity line of path into buf ("" when it has none: a directory). */
static void
bmstore_ident(const char *path, char *buf, size_t len)
{
	struct cachedir_ident	 id;
	char			*cause = NULL;

	buf[0] = '\0';
	if (cachedir_ident(path, &id, &cause) != 0) {
		free(cause);
		return;
	}
	snprintf(buf, len, "ident %" PRIu64 " %" PRId64 " %" PRId64 " %"
	    PRIu64 " %" PRIu64 " %" PRIu64, id.size, id.mtime, id.ctime,
	    id.ino, id.dev, id.fp);
}

size_t
bmstore_load(struct bookmarks *bm, const char *const *paths, int n,
    uint32_t nevents)
{
	FILE		*f;
	char		*path, *cause = NULL, line[256], want[160];
	long long	 id, t0, span, cur;
	unsigned long	 gid;
	int		 i, next = 0, ok = 1;

	bookmarks_free(bm);
	if ((path = bmstore_path(paths, n, 0, &cause)) == NULL) {
		free(cause);
		return 0;
	}
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return 0;
	if (fgets(line, sizeof line, f) == NULL ||
	    strcmp(line, BMSTORE_MAGIC "\n") != 0)
		ok = 0;
	for (i = 0; ok && i < n; i++) {
		bmstore_ident(paths[i], want, sizeof want);
		if (want[0] == '\0')
			continue;
		if (fgets(line, sizeof line, f) == NULL ||
		    strcspn(line, "\n") != strlen(want) ||
		    strncmp(line, want, strlen(want)) != 0)
			ok = 0;
	}
	while (ok && fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "next %d", &next) == 1)
			continue;
		if (sscanf(line, "b %lld %lld %lld %lld %lu", &id, &t0, &span,
		    &cur, &gid) != 5 || id < 1 || id > 1000000 || span <= 0)
			continue;
		if (bm->n >= BOOKMARK_MAX)
			break;
		if (gid >= nevents)
			gid = NONE32;
		bookmarks_add(bm, t0, span, cur, (uint32_t)gid);
		bm->b[bm->n - 1].id = (int)id;
		if ((int)id > bm->next_id)
			bm->next_id = (int)id;
	}
	fclose(f);
	if (!ok) {
		bookmarks_free(bm);
		return 0;
	}
	if (next > bm->next_id && next <= 1000000)
		bm->next_id = next;
	return bm->n;
}

int
bmstore_save(const struct bookmarks *bm, const char *const *paths, int n,
    char **cause)
{
	FILE	*f;
	char	*path, *tmp, id[160];
	size_t	 i;
	int	 j, bad;

	if ((path = bmstore_path(paths, n, 1, cause)) == NULL)
		return -1;
	tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL) {
		*cause = xasprintf("cannot write %s", tmp);
		free(tmp);
		free(path);
		return -1;
	}
	fprintf(f, "%s\n", BMSTORE_MAGIC);
	for (j = 0; j < n; j++) {
		bmstore_ident(paths[j], id, sizeof id);
		if (id[0] != '\0')
			fprintf(f, "%s\n", id);
	}
	fprintf(f, "next %d\n", bm->next_id);
	for (i = 0; i < bm->n; i++)
		fprintf(f, "b %d %lld %lld %lld %lu\n", bm->b[i].id,
		    (long long)bm->b[i].t0, (long long)bm->b[i].span,
		    (long long)bm->b[i].cursor, (unsigned long)bm->b[i].gid);
	bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		unlink(tmp);
		*cause = xasprintf("cannot write %s", path);
		free(tmp);
		free(path);
		return -1;
	}
	free(tmp);
	free(path);
	return 0;
}
