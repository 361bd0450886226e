/*
 * jobfilter: the job overview's rank filter (jobfilter.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/jobfilter.h"

/* Whether t[0, n) is part of s, ignoring case. */
static int
jobfilter_in(const char *s, const char *t, size_t n)
{
	size_t	i;

	if (s == NULL)
		return 0;
	for (; *s != '\0'; s++) {
		for (i = 0; i < n && s[i] != '\0'; i++)
			if (tolower((unsigned char)s[i]) !=
			    tolower((unsigned char)t[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

/* Reads digits from t[0, n) at *i into *v; returns 0 when there are none
 * or they overflow. */
static int
jobfilter_num(const char *t, size_t n, size_t *i, long *v)
{
	size_t	start = *i;

	*v = 0;
	while (*i < n && isdigit((unsigned char)t[*i])) {
		if (*v > 100000000L)
			return 0;
		*v = *v * 10 + (t[*i] - '0');
		(*i)++;
	}
	return *i > start;
}

/* Whether term t[0, n) matches r. */
static int
jobfilter_term(const char *t, size_t n, const struct jobrank_rank *r)
{
	size_t	i = 0;
	long	lo, hi;

	if (jobfilter_num(t, n, &i, &lo)) {
		hi = lo;
		if (i < n && t[i] == '-') {
			i++;
			if (!jobfilter_num(t, n, &i, &hi))
				i = n + 1;
		}
		if (i == n)
			return r->rank >= lo && r->rank <= hi;
	}
	if (jobfilter_in(r->name, t, n) || jobfilter_in(r->host, t, n))
		return 1;
	for (i = 0; i < r->nfiles; i++)
		if (jobfilter_in(r->files[i], t, n))
			return 1;
	return jobfilter_in(r->file, t, n);
}

int
jobfilter_match(const char *f, const struct jobrank_rank *r)
{
	size_t	n;
	int	terms = 0;

	for (;;) {
		f += strspn(f, ", \t");
		if (*f == '\0')
			return terms == 0;
		n = strcspn(f, ", \t");
		terms++;
		if (jobfilter_term(f, n, r))
			return 1;
		f += n;
	}
}
