/*
 * nametab: the name of an enum value from a table of names, with one
 * bounds check for every such table.
 *
 * NAMETAB(names, k, unknown) is names[k] where 0 <= k < the table's
 * length, else unknown. names must be an array (its length is taken from
 * its size), so a table and its check cannot disagree.
 */
#ifndef GPULENS_NAMETAB_H
#define GPULENS_NAMETAB_H

#include <stddef.h>

static inline const char *
nametab_get(const char *const *names, size_t n, int k, const char *unknown)
{
	return k >= 0 && (size_t)k < n ? names[k] : unknown;
}

#define NAMETAB(names, k, unknown) \
	nametab_get((names), sizeof (names) / sizeof (names)[0], (k), (unknown))

#endif
