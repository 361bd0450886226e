/*
 * strpool: interned, immutable strings addressed by a 32-bit id.
 *
 * Every name in the model (kernels, API calls, NVTX text, threads, devices)
 * is stored once here. Id 0 is always the empty string. Strings are stored
 * NUL-terminated in large chunks, so a returned pointer stays valid until
 * strpool_free(). Strings may contain any bytes except NUL; they are
 * untrusted profile data and must be sanitised before reaching a terminal.
 */
#ifndef GPULENS_STRPOOL_H
#define GPULENS_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct strpool;

/*
 * The longest string kept: a longer one is cut to this many bytes (at a
 * UTF-8 character boundary) when interned or looked up, so that a name
 * of hundreds of megabytes cannot cost many times its size downstream
 * (tables, paths, keys). strpool_ncut() counts the cuts.
 */
#define STRPOOL_MAX_LEN	(1u << 20)

/* Creates an empty pool; free with strpool_free(). */
struct strpool	*strpool_new(void);
void		 strpool_free(struct strpool *);
/* Returns the id of s (len bytes), adding a copy if it is new. */
uint32_t	 strpool_intern(struct strpool *, const char *s, size_t len);
uint32_t	 strpool_intern0(struct strpool *, const char *s);
/* Returns the id of s if present, else UINT32_MAX. */
uint32_t	 strpool_find(const struct strpool *, const char *s, size_t len);
/* Borrowed pointer; valid until strpool_free(). Unknown ids give "". */
const char	*strpool_get(const struct strpool *, uint32_t id);
size_t		 strpool_len(const struct strpool *, uint32_t id);
/* Number of strings, including the empty string. */
uint32_t	 strpool_count(const struct strpool *);
/* How many strings interned were cut to STRPOOL_MAX_LEN. */
uint32_t	 strpool_ncut(const struct strpool *);

#endif
