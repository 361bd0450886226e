/*
 * protowire: a decoder for the protocol buffers wire format, for readers
 * of files whose messages we know only by field number (Nsight Compute's
 * .ncu-rep).
 *
 * A message is a sequence of fields; each starts with a varint key
 * (field number << 3 | wire type) followed by a varint (type 0), 8 bytes
 * (type 1, fixed64/double), a varint length and that many bytes (type 2:
 * strings, bytes, nested messages, packed arrays) or 4 bytes (type 5,
 * fixed32/float). The obsolete groups (types 3 and 4) are skipped with a
 * nesting limit. pw_next() hands back one field at a time; the caller
 * switches on the numbers it knows and ignores the rest, so fields added
 * by a newer writer are skipped, never fatal.
 *
 * Every length is checked against the bytes that remain before anything is
 * read: a truncated or corrupt buffer gives -1 and a message, never a read
 * past the end. Nothing here allocates; PW_LEN fields point into the
 * caller's buffer.
 */
#ifndef GPULENS_PROTOWIRE_H
#define GPULENS_PROTOWIRE_H

#include <stddef.h>
#include <stdint.h>

enum pw_wire {
	PW_VARINT = 0,
	PW_FIXED64 = 1,
	PW_LEN = 2,
	PW_SGROUP = 3,
	PW_EGROUP = 4,
	PW_FIXED32 = 5,
};

#define PW_MAX_GROUP_DEPTH	32

struct pw_reader {
	const uint8_t	*p;		/* the message (borrowed) */
	size_t		 len;
	size_t		 off;		/* next byte to read */
	const char	*err;		/* static message after a -1 */
	size_t		 erroff;	/* offset of the bad field */
};

struct pw_field {
	uint32_t	 num;		/* field number (1 .. 2^29 - 1) */
	int		 wire;		/* enum pw_wire */
	uint64_t	 u;		/* PW_VARINT, PW_FIXED32, PW_FIXED64 */
	const uint8_t	*data;		/* PW_LEN: the bytes (borrowed);
					   PW_SGROUP: the group's contents */
	size_t		 len;		/* their length */
};

/* Starts reading the message p[0 .. len). */
void		 pw_init(struct pw_reader *, const void *p, size_t len);
/*
 * Reads the next field into *f. Returns 1, 0 at the end of the message,
 * or -1 with r->err and r->erroff set (truncated varint or value, length
 * past the end, bad wire type, field number 0, unbalanced group).
 */
int		 pw_next(struct pw_reader *, struct pw_field *f);
/*
 * Decodes one varint of at most 10 bytes from p[0 .. len). Returns the
 * bytes used (1 .. 10), or 0 when it is truncated or too long.
 */
size_t		 pw_varint(const uint8_t *p, size_t len, uint64_t *v);
/* Values of a field read as a given scalar type. */
double		 pw_double(const struct pw_field *);	/* PW_FIXED64 */
float		 pw_float(const struct pw_field *);	/* PW_FIXED32 */
int64_t		 pw_zigzag(uint64_t);			/* sint32/64 */
/* True if f is a PW_LEN field (strings and nested messages). */
int		 pw_is_len(const struct pw_field *);

#endif
