/*
 * verb-id: parsing the row ids the verbs take back (see verb-id.h).
 */
#include "config.h"

#include <string.h>

#include "headless/verb-id.h"

/* The length of prefix when s starts with it, else 0. */
static size_t
verb_id_prefix(const char *s, const char *kind, const char *sep)
{
	size_t	k = strlen(kind), n = strlen(sep);

	if (strncmp(s, kind, k) != 0 || strncmp(s + k, sep, n) != 0)
		return 0;
	return k + n;
}

int
verb_parse_id(const char *s, const char *kind, int bare, uint32_t *id)
{
	const char	*p = s;
	uint64_t	 v = 0;
	size_t		 k;

	if ((k = verb_id_prefix(s, kind, "|id=")) != 0 ||
	    (k = verb_id_prefix(s, kind, ":")) != 0)
		p += k;
	else if (!bare)
		return -1;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v >= UINT32_MAX)
			return -1;
	}
	if (*p != '\0')
		return -1;
	*id = (uint32_t)v;
	return 0;
}
