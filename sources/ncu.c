/*
 * ncu: detection and loading of Nsight Compute reports (see ncu.h).
 * The first bytes are read through zfile, so a .ncu-repz (zstd) or a
 * gzip-compressed CSV is recognised by what it holds once decompressed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "sources/ncu.h"
#include "sources/ncucsv.h"
#include "sources/ncurep.h"
#include "sources/refuse.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

#define NCU_HEAD	4096

enum ncu_kind
ncu_detect(const char *path)
{
	struct zfile	*z;
	char		 head[NCU_HEAD], *cause = NULL;
	size_t		 len = 0;
	ssize_t		 n;

	if ((z = zfile_open(path, &cause)) == NULL) {
		free(cause);
		return NCU_NONE;
	}
	while (len < sizeof head) {
		n = zfile_read(z, head + len, sizeof head - len, &cause);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	free(cause);
	zfile_close(z);
	if (ncurep_probe(head, len))
		return NCU_REP;
	if (ncucsv_probe(head, len))
		return NCU_CSV;
	return NCU_NONE;
}

struct report *
ncu_read(const char *path, size_t max, struct report *(*parse)(const void *,
    size_t, const char *, char **), char **cause)
{
	struct report	*r;
	char		*buf = NULL;
	size_t		 len = 0;

	if (zfile_slurp(path, &buf, &len, max, cause) != 0)
		return NULL;
	r = parse(buf, len, path, cause);
	free(buf);
	return r;
}

struct report *
ncu_load(const char *path, char **cause)
{
	switch (ncu_detect(path)) {
	case NCU_REP:
		return ncurep_load(path, cause);
	case NCU_CSV:
		return ncucsv_load(path, cause);
	default:
		*cause = refuse_not_report(path);
		return NULL;
	}
}
