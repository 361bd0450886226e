/*
 * xmalloc: allocation wrappers that abort cleanly on failure.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <sys/resource.h>

#include <cjson/cJSON.h>

#include "util/xmalloc.h"

static unsigned long long	xmalloc_limit;	/* 0: none set */
static const char		*xmalloc_what = "running";

void
xmalloc_doing(const char *what)
{
	xmalloc_what = what != NULL ? what : "running";
}

/* The limit as --max-memory takes it: "50M", "2G", "1536K" or bytes. */
static void
xmalloc_limit_text(char *buf, size_t len)
{
	static const char	units[] = "TGMK";
	int			i;

	for (i = 0; i < 4; i++) {
		unsigned long long u = 1ULL << (10 * (4 - i));
		if (xmalloc_limit % u == 0) {
			snprintf(buf, len, "%llu%c", xmalloc_limit / u,
			    units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", xmalloc_limit);
}

void
xmalloc_fail(size_t n)
{
	char	lim[32];

	if (xmalloc_limit != 0) {
		xmalloc_limit_text(lim, sizeof lim);
		fprintf(stderr, "gpulens: memory limit (--max-memory %s) "
		    "reached while %s (allocating %zu bytes)\n", lim,
		    xmalloc_what, n);
		exit(2);
	}
	fprintf(stderr, "gpulens: out of memory while %s (allocating %zu "
	    "bytes)\n", xmalloc_what, n);
	exit(1);
}

/*
 * cJSON's allocator once a limit is set: a failed allocation there is the
 * limit reached (ending as every other one does), never a NULL that a
 * parser would report as invalid JSON or a writer would drop.
 */
static void *
xmalloc_cjson(size_t n)
{
	void	*p;

	if ((p = malloc(n != 0 ? n : 1)) == NULL)
		xmalloc_fail(n);
	return p;
}

/* Bytes of address space mapped now (VmSize), 0 if unknown. */
static unsigned long long
xmalloc_mapped(void)
{
	FILE			*f = fopen("/proc/self/statm", "r");
	unsigned long long	 pages = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return pages * 4096ULL;
}

/* AddressSanitizer reserves terabytes of address space and hangs when an
 * address-space limit stops it: a limit is refused in such builds. */
#if defined(__SANITIZE_ADDRESS__)
#define XMALLOC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XMALLOC_ASAN 1
#endif
#endif

int
xmalloc_set_limit(unsigned long long limit)
{
	struct rlimit	rl;
	cJSON_Hooks	hooks;

	if (limit == 0)
		return -1;
#ifdef XMALLOC_ASAN
	return -1;
#endif
	/*
	 * Room for what is mapped already and for two worker thread stacks;
	 * one malloc arena, since each extra arena reserves 64 MiB of
	 * address space up front.
	 */
	mallopt(M_ARENA_MAX, 1);
	rl.rlim_cur = rl.rlim_max = (rlim_t)(limit + xmalloc_mapped() +
	    (20ULL << 20));
	if (setrlimit(RLIMIT_AS, &rl) != 0)
		return -1;
	xmalloc_limit = limit;
	hooks.malloc_fn = xmalloc_cjson;
	hooks.free_fn = free;
	cJSON_InitHooks(&hooks);
	return 0;
}

unsigned long long
xmalloc_parse_size(const char *s)
{
	char		*end;
	double		 v;
	unsigned long long mul = 1;

	v = strtod(s, &end);
	if (end == s || v != v || v <= 0 || strpbrk(s, "xX") != NULL)
		return 0;
	switch (*end) {
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	case 't': case 'T': mul = 1ULL << 40; end++; break;
	}
	if (mul != 1 && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0))
		end += strlen(end);
	if (*end != '\0' || v * (double)mul > 1e18)
		return 0;
	return (unsigned long long)(v * (double)mul);
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
xcalloc_rw(size_t nmemb, size_t sz)
{
	void	*p;

	p = xreallocarray(NULL, nmemb, sz);
	memset(p, 0, nmemb * sz);
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
xstrcatf(char **s, const char *fmt, ...)
{
	va_list	 ap;
	char	*t, *u;

	va_start(ap, fmt);
	t = xvasprintf(fmt, ap);
	va_end(ap);
	if (*s == NULL) {
		*s = t;
		return;
	}
	u = xasprintf("%s%s", *s, t);
	free(t);
	free(*s);
	*s = u;
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

void *
xappend(void **p, size_t *cap, size_t n, size_t sz)
{
	char	*e;

	xgrow(p, cap, n + 1, sz);
	e = (char *)*p + n * sz;
	memset(e, 0, sz);
	return e;
}

size_t
xpush(void **p, size_t *cap, size_t *n, const void *e, size_t sz)
{
	xgrow(p, cap, *n + 1, sz);
	memcpy((char *)*p + *n * sz, e, sz);
	return (*n)++;
}

void
xfree_strv(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
