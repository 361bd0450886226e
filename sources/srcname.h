/*
 * srcname: the name tests the readers share: a case-insensitive substring
 * test, and tables of names with the code each stands for (copy kinds,
 * memory kinds, categories), looked up by the whole name or by a part.
 */
#ifndef GPULENS_SRCNAME_H
#define GPULENS_SRCNAME_H

#include <stddef.h>

struct srcname {
	const char	*name;
	int		 code;
};

#define SRCNAME_COUNT(t)	(sizeof (t) / sizeof (t)[0])

/* Whether s[0, n) contains needle (lowercase letters), ignoring case. */
int	 srcname_has_ci(const char *s, size_t n, const char *needle);
/* The code of the entry of t (count entries) named s[0, n), ignoring
 * ASCII case; none if there is none. */
int	 srcname_code(const struct srcname *t, size_t count, const char *s,
	    size_t n, int none);
/* The code of the first entry of t whose name stands in the string s;
 * none if there is none. */
int	 srcname_within(const struct srcname *t, size_t count, const char *s,
	    int none);

#endif
