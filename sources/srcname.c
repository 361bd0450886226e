/*
 * srcname: name tests and name tables of the readers. See srcname.h.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "sources/srcname.h"
#include "util/xmalloc.h"

uint8_t *
srcname_slot(uint8_t **v, size_t *cap, uint32_t sid)
{
	size_t	old = *cap;

	if (sid >= *cap) {
		xgrow((void **)v, cap, (size_t)sid + 1, 1);
		memset(*v + old, 0, *cap - old);
	}
	return *v + sid;
}

uint8_t
srcname_flags(const char *s, size_t n, int rccl)
{
	uint8_t	f = SF_KNOWN;

	if (srcname_has_ci(s, n, "nccl") || (rccl && srcname_has_ci(s, n,
	    "rccl")))
		f |= SF_NCCL;
	if (s[0] == 'c' && s[1] == 'u' && strncmp(s, "cuda", 4) != 0)
		f |= SF_DRIVER;
	return f;
}

int
srcname_has_ci(const char *s, size_t n, const char *needle)
{
	size_t	i, j, nl = strlen(needle);

	for (i = 0; i + nl <= n; i++) {
		for (j = 0; j < nl; j++) {
			char c = s[i + j];
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[j])
				break;
		}
		if (j == nl)
			return 1;
	}
	return 0;
}

int
srcname_code(const struct srcname *t, size_t count, const char *s, size_t n,
    int none)
{
	size_t	i;

	for (i = 0; i < count; i++)
		if (strlen(t[i].name) == n && strncasecmp(s, t[i].name, n) == 0)
			return t[i].code;
	return none;
}

int
srcname_within(const struct srcname *t, size_t count, const char *s,
    int none)
{
	size_t	i;

	for (i = 0; i < count; i++)
		if (strstr(s, t[i].name) != NULL)
			return t[i].code;
	return none;
}
