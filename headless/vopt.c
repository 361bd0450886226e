/*
 * vopt: the values of verb-specific options (vopt.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headless/vopt.h"

const char *
vopt_get(const struct vopt *v, size_t nv, const char *name)
{
	const char	*value = NULL;
	size_t		 k;

	for (k = 0; k < nv; k++)
		if (strcmp(v[k].name, name) == 0 && v[k].value != NULL)
			value = v[k].value;
	return value;
}

long long
vopt_int(const struct vopt *v, size_t nv, const char *name, long long dflt)
{
	const char	*s = vopt_get(v, nv, name);
	char		*end;
	long long	 x;

	if (s == NULL)
		return dflt;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || x < 0)
		return -1;
	return x;
}
