/*
 * synth: the trace writers' shared helpers (synth.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>

#include "sources/synth/synth.h"
#include "util/xmalloc.h"

const char *
synth_us(char *buf, size_t len, int64_t ns)
{
	snprintf(buf, len, "%lld.%03lld", (long long)(ns / 1000),
	    (long long)(ns % 1000));
	return (buf);
}

int
synth_tmpfile(const char *path, char **tmp)
{
	mode_t	mask;
	int	fd;

	*tmp = xasprintf("%s.tmpXXXXXX", path);
	if ((fd = mkstemp(*tmp)) == -1)
		return (-1);
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	return (fd);
}
