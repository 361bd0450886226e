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
#include <stdlib.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
/*
 * xcalloc() for a large table that is read before it is written (a memo):
 * zeroed by writing, so that each page faults once. calloc() hands out
 * fresh pages that a first read maps to the shared zero page; the first
 * write then faults again, and in a process with threads that second
 * fault makes every CPU flush its TLB (10% of the CPU of a memo's first
 * pass, seen at 1e8 events).
 */
void	*xcalloc_rw(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* Returns a newly allocated formatted string; free() it. */
char	*xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list);
/* Appends formatted text to the malloc'd string *s (NULL starts one),
 * which it replaces. */
void	 xstrcatf(char **s, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Caps the memory the process may allocate from now on at limit bytes
 * (on top of what it has mapped already), through the address-space
 * limit, so that SQLite's and zlib's allocations are capped too. Past it,
 * allocations fail with a message naming the limit and exit status 2.
 * Returns 0, or -1 if the limit cannot be set.
 */
int	 xmalloc_set_limit(unsigned long long limit);
/*
 * What the program is doing now ("reading the trace"), for the message
 * of an allocation that fails: "memory limit (--max-memory 50M) reached
 * while reading the trace". what must outlive the next call.
 */
void	 xmalloc_doing(const char *what);
/*
 * Ends the program for a failed allocation of n bytes: the memory-limit
 * message and exit status 2 under --max-memory, else "out of memory" and
 * exit status 1. For code that allocates without these wrappers.
 */
void	 xmalloc_fail(size_t n) __attribute__((noreturn));
/* Parses "512M", "2G", "1.5GiB", "1000000" into bytes; 0 on error. */
unsigned long long xmalloc_parse_size(const char *);

/*
 * Grow *p (of *cap elements of size sz) so that it holds at least need.
 * XGROW() makes the call only when it must grow (a statement; need is read
 * twice), so that loops appending an element at a time pay one compare.
 */
void	 xgrow(void **p, size_t *cap, size_t need, size_t sz);
#define XGROW(p, cap, need) do {					\
	if ((size_t)(need) > (cap))					\
		xgrow((void **)&(p), &(cap), (need), sizeof *(p));	\
} while (0)
/*
 * Grows *p (of *cap elements) to hold element n and returns that element,
 * zeroed; the caller counts it (n++). For arrays that gain one element at a
 * time: XAPPEND(v, cap, n) then fill the fields.
 */
void	*xappend(void **p, size_t *cap, size_t n, size_t sz);
#define XAPPEND(p, cap, n) \
	xappend((void **)&(p), &(cap), (n), sizeof *(p))
/*
 * Appends a copy of e to *p (of *n elements, *cap allocated), counts it
 * and returns its index: XPUSH(v, cap, n, value) for v[n++] = value with
 * the growth. e must be an lvalue of v's element type (of its size and
 * assignable to it: the macro refuses to compile otherwise).
 */
size_t	 xpush(void **p, size_t *cap, size_t *n, const void *e, size_t sz);
#define XPUSH(p, cap, n, e) \
	((void)sizeof ((p)[0] = (e)), \
	(void)sizeof (char [sizeof *(p) == sizeof (e) ? 1 : -1]), \
	xpush((void **)&(p), &(cap), &(n), &(e), sizeof *(p)))
/*
 * Frees the member m of each of the n elements of the array p (not p
 * itself): XFREE_EACH(v, n, name) is the loop a free function runs over
 * the strings or arrays its elements own before free(v). A statement; n
 * is read once per element and must not be negative.
 */
#define XFREE_EACH(p, n, m) do {					\
	size_t	xfree_i_;						\
									\
	for (xfree_i_ = 0; xfree_i_ < (size_t)(n); xfree_i_++)		\
		free((p)[xfree_i_].m);					\
} while (0)
/*
 * The array (pointer) member at byte offset off of the struct at base: for
 * a table of a struct's arrays by offsetof(), which the functions that
 * free or forget them all walk. An lvalue of type void *.
 */
#define XARRAY_AT(base, off)	(*(void **)((char *)(base) + (off)))
/* Frees the n strings of v, then v (NULL with n 0 is fine). */
void	 xfree_strv(char **v, size_t n);

#endif
