/*
 * nvtxfam: NVTX name families. See nvtxfam.h.
 */
#include "config.h"

#include <string.h>

#include "model/nvtxfam.h"

/* Length of the PyTorch counter ", seq = N" or ", op_id = N" at p, or 0. */
static size_t
nvtx_family_counter(const char *p)
{
	const char	*q;

	if (strncmp(p, ", op_id = ", 10) == 0)
		q = p + 10;
	else if (strncmp(p, ", seq = ", 8) == 0)
		q = p + 8;
	else
		return 0;
	if (*q < '0' || *q > '9')
		return 0;
	while (*q >= '0' && *q <= '9')
		q++;
	return (size_t)(q - p);
}

/*
 * Length of a number standing as a word of its own at p ("Step 10 to 20"),
 * or 0; s is the start of the name.
 */
static size_t
nvtx_family_word(const char *s, const char *p)
{
	const char	*q;

	if (*p < '0' || *p > '9' || (p != s && p[-1] != ' '))
		return 0;
	for (q = p; *q >= '0' && *q <= '9'; q++)
		;
	if (*q != '\0' && *q != ' ')
		return 0;
	return (size_t)(q - p);
}

size_t
nvtx_family(const char *in, char *out, size_t len)
{
	size_t		 o = 0, k;
	const char	*p = in;

	if (len == 0)
		return 0;
	while (*p != '\0' && o + 1 < len) {
		if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
			if (o + 2 >= len)
				break;
			out[o++] = '#';
			out[o++] = '*';
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
			continue;
		}
		if (*p == ',' && (k = nvtx_family_counter(p)) != 0) {
			p += k;
			continue;
		}
		if ((k = nvtx_family_word(in, p)) != 0) {
			out[o++] = '*';
			p += k;
			continue;
		}
		out[o++] = *p++;
	}
	out[o] = '\0';
	return o;
}

int
nvtx_family_folds(const char *name)
{
	const char	*p;

	for (p = name; *p != '\0'; p++) {
		if (nvtx_family_word(name, p) != 0)
			return 1;
		if (*p == '#' && p[1] >= '0' && p[1] <= '9')
			return 1;
		if (*p == ',' && nvtx_family_counter(p) != 0)
			return 1;
	}
	return 0;
}

/*
 * Compares the family of name with spec without a buffer: walks both,
 * folding name on the way.
 */
static int
nvtx_family_eq(const char *p, const char *s, int legacy)
{
	const char	*name = p;
	size_t		 k;

	for (;;) {
		if ((k = nvtx_family_word(name, p)) != 0 && *s == '*') {
			p += k;
			s++;
			continue;
		}
		if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
			if (*s++ != '#')
				return 0;
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
			if (*s == '*')
				s++;
			else if (!(legacy && *s == '\0' && *p == '\0'))
				return 0;
			continue;
		}
		if (*p == ',' && (k = nvtx_family_counter(p)) != 0) {
			p += k;
			continue;
		}
		if (*p != *s)
			return 0;
		if (*p == '\0')
			return 1;
		p++;
		s++;
	}
}

int
nvtx_family_match(const char *name, const char *spec)
{
	size_t	n = strlen(spec);

	if (strcmp(name, spec) == 0)
		return 1;
	return nvtx_family_eq(name, spec, n > 0 && spec[n - 1] == '#');
}
