/*
 * nametab: the name of an enum value from a table of names, with one
 * bounds check for every such table, and the value of a name.
 *
 * NAMETAB(names, k, unknown) is names[k] where 0 <= k < the table's
 * length, else unknown. NAMETAB_FIND(names, s) is the first k with
 * names[k] equal to s, or -1 (also for s NULL). names must be an array
 * (its length is taken from its size), so a table and its check cannot
 * disagree.
 */
#ifndef GPULENS_NAMETAB_H
#define GPULENS_NAMETAB_H

#include <stddef.h>
#include <string.h>

static inline const char *
nametab_get(const char *const *names, size_t n, int k, const char *unknown)
{
	return k >= 0 && (size_t)k < n ? names[k] : unknown;
}

static inline int
nametab_find(const char *const *names, size_t n, const char *s)
{
	size_t	k;

	for (k = 0; s != NULL && k < n; k++)
		if (names[k] != NULL && strcmp(s, names[k]) == 0)
			return (int)k;
	return -1;
}

#define NAMETAB_LEN(names)	(sizeof (names) / sizeof (names)[0])
#define NAMETAB(names, k, unknown) \
	nametab_get((names), NAMETAB_LEN(names), (k), (unknown))
#define NAMETAB_FIND(names, s) \
	nametab_find((names), NAMETAB_LEN(names), (s))

#endif
