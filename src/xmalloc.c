/*
 * xmalloc: allocation wrappers that abort cleanly on failure.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static void
xmalloc_fail(size_t n)
{
	fprintf(stderr, "gpulens: out of memory (allocating %zu bytes)\n", n);
	exit(1);
}

void *
xmalloc(size_t n)
{
	void	*p;

	if (n == 0)
		abort();
	if ((p = malloc(n)) == NULL)
		xmalloc_fail(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t sz)
{
	void	*p;

	if (nmemb == 0 || sz == 0)
		abort();
	if ((p = calloc(nmemb, sz)) == NULL)
		xmalloc_fail(nmemb * sz);
	return p;
}

void *
xrealloc(void *old, size_t n)
{
	void	*p;

	if (n == 0)
		abort();
	if ((p = realloc(old, n)) == NULL)
		xmalloc_fail(n);
	return p;
}

void *
xreallocarray(void *old, size_t nmemb, size_t sz)
{
	if (nmemb == 0 || sz == 0)
		abort();
	if (nmemb > SIZE_MAX / sz)
		xmalloc_fail(SIZE_MAX);
	return xrealloc(old, nmemb * sz);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 ap2;
	int	 n;
	char	 small[256], *p;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof small, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		abort();
	p = xmalloc((size_t)n + 1);
	if ((size_t)n < sizeof small)
		memcpy(p, small, (size_t)n + 1);
	else
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void
xgrow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t	ncap;

	if (need <= *cap)
		return;
	ncap = *cap < 16 ? 16 : *cap + *cap / 2;
	if (ncap < need)
		ncap = need;
	*p = xreallocarray(*p, ncap, sz);
	*cap = ncap;
}
