/*
 * xmalloc: allocation wrappers that never return NULL.
 *
 * On allocation failure they print one line and exit(1): a profile reader
 * that runs out of memory cannot do anything useful, and call sites stay free
 * of NULL checks (the tmux/htop convention). Zero-size requests are a bug and
 * abort.
 */
#ifndef GPULENS_XMALLOC_H
#define GPULENS_XMALLOC_H

#include <stddef.h>
#include <stdarg.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* Returns a newly allocated formatted string; free() it. */
char	*xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list);

/* Grow *p (of *cap elements of size sz) so that it holds at least need. */
void	 xgrow(void **p, size_t *cap, size_t need, size_t sz);
#define XGROW(p, cap, need) \
	xgrow((void **)&(p), &(cap), (need), sizeof *(p))

#endif
