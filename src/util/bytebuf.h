/*
 * bytebuf: a growable output buffer of bytes and a bounded input cursor
 * over bytes, for the binary files written field by field (the model
 * cache's head, the rank summaries). Values are copied in host byte
 * order; a string is a u32 length then its bytes, an array a u64 count
 * then its elements.
 *
 * A read past the end sets the cursor's bad flag, after which every read
 * gives zeros (NULL, "") and the cursor does not move: the caller checks
 * bad once at the end.
 *
 * Ownership: bytebuf_free frees an output buffer's bytes; a cursor only
 * borrows its bytes.
 */
#ifndef GPULENS_BYTEBUF_H
#define GPULENS_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

struct bytebuf {
	uint8_t		*p;
	size_t		 len, cap;
};

struct bytebuf_rd {
	const uint8_t	*p;
	size_t		 len, pos;
	int		 bad;		/* a read ran past the end */
};

#define BYTEBUF_INIT	{ NULL, 0, 0 }

void	 bytebuf_put(struct bytebuf *, const void *, size_t);
void	 bytebuf_put8(struct bytebuf *, uint8_t);
void	 bytebuf_put32(struct bytebuf *, uint32_t);
void	 bytebuf_put64(struct bytebuf *, uint64_t);
void	 bytebuf_putdbl(struct bytebuf *, double);
/* A u32 length then the string's bytes. */
void	 bytebuf_putstr(struct bytebuf *, const char *);
/* A u64 count n then n elements of size sz. */
void	 bytebuf_putarray(struct bytebuf *, const void *, size_t n,
	    size_t sz);
void	 bytebuf_free(struct bytebuf *);

void		 bytebuf_rd_init(struct bytebuf_rd *, const void *, size_t);
/* The next n bytes, or NULL (bad set) when fewer are left. */
const uint8_t	*bytebuf_get(struct bytebuf_rd *, size_t);
uint8_t		 bytebuf_get8(struct bytebuf_rd *);
uint32_t	 bytebuf_get32(struct bytebuf_rd *);
uint64_t	 bytebuf_get64(struct bytebuf_rd *);
double		 bytebuf_getdbl(struct bytebuf_rd *);
/* A string of bytebuf_putstr, malloc'd ("" when bad). */
char		*bytebuf_getstr(struct bytebuf_rd *);
/* A u64 count of elements of at least sz bytes each, that must fit what
 * is left; 0 with bad set otherwise. */
size_t		 bytebuf_getcount(struct bytebuf_rd *, size_t sz);
/* An array of bytebuf_putarray into a new allocation (NULL when empty). */
void		*bytebuf_getarray(struct bytebuf_rd *, size_t *, size_t sz);

#endif
