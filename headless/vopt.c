/*
 * vopt: the values of verb-specific options (vopt.h).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "headless/vopt.h"
#include "util/xmalloc.h"

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

int
vopt_check_count(const char *name, const char *v, char **cause)
{
	char		*end;
	long long	 n;

	if (v == NULL) {
		*cause = xasprintf("%s needs a value", name);
		return -1;
	}
	n = strtoll(v, &end, 10);
	if (end == v || *end != '\0' || n < 0 || n > INT32_MAX) {
		*cause = xasprintf("bad value for %s: '%s' (expected a "
		    "non-negative integer)", name, v);
		return -1;
	}
	return 0;
}

int
vopt_choice(const char *name, const char *value, const char *const *choices,
    int *index, char **cause)
{
	char	*list;
	int	 i;

	for (i = 0; choices[i] != NULL; i++) {
		if (strcmp(value, choices[i]) == 0) {
			*index = i;
			return 0;
		}
	}
	list = xstrdup(choices[0]);
	for (i = 1; choices[i] != NULL; i++)
		xstrcatf(&list, "%s%s", choices[i + 1] != NULL ? ", " : " or ",
		    choices[i]);
	*cause = xasprintf("%s takes %s, not '%s'", name, list, value);
	free(list);
	return -1;
}
