/*
 * shard: this process's share of a list of files (shard.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "headless/shard.h"
#include "util/xmalloc.h"

#define SHARD_MAX	1000000L	/* tasks of one array, at most */

/* A non-negative decimal integer at most SHARD_MAX: 0, or -1. */
static int
shard_num(const char *s, const char *end, long *v)
{
	char	*ep;
	long	 n;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtol(s, &ep, 10);
	if (errno != 0 || ep != end || n < 0 || n > SHARD_MAX)
		return -1;
	*v = n;
	return 0;
}

int
shard_parse(const char *arg, struct shard *s, char **cause)
{
	const char	*slash = arg != NULL ? strchr(arg, '/') : NULL;

	if (slash == NULL || shard_num(arg, slash, &s->index) != 0 ||
	    shard_num(slash + 1, slash + strlen(slash), &s->count) != 0 ||
	    s->count < 1 || s->index >= s->count) {
		*cause = xasprintf("--shard: '%s' is not I/N with 0 <= I < N",
		    arg != NULL ? arg : "");
		return -1;
	}
	s->from_env = 0;
	return 0;
}

int
shard_env(struct shard *s, char **cause)
{
	const char	*id = getenv("SLURM_ARRAY_TASK_ID");
	const char	*count = getenv("SLURM_ARRAY_TASK_COUNT");
	const char	*min = getenv("SLURM_ARRAY_TASK_MIN");
	long		 i, n, lo = 0;

	s->index = 0;
	s->count = 1;
	s->from_env = 0;
	if (id == NULL || count == NULL || *id == '\0' || *count == '\0')
		return 0;
	if (shard_num(id, id + strlen(id), &i) != 0 ||
	    shard_num(count, count + strlen(count), &n) != 0 ||
	    (min != NULL && *min != '\0' &&
	    shard_num(min, min + strlen(min), &lo) != 0) ||
	    n < 1 || i < lo || i - lo >= n) {
		*cause = xasprintf("SLURM_ARRAY_TASK_ID=%s with "
		    "SLURM_ARRAY_TASK_COUNT=%s and SLURM_ARRAY_TASK_MIN=%s make "
		    "no shard (the array's task ids must be consecutive; "
		    "--shard I/N overrides them)", id, count,
		    min != NULL ? min : "");
		return -1;
	}
	s->index = i - lo;
	s->count = n;
	s->from_env = 1;
	return 0;
}

int
shard_has(const struct shard *s, unsigned long i)
{
	return (long)(i % (unsigned long)s->count) == s->index;
}
