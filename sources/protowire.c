/*
 * protowire: the protocol buffers wire format, one field at a time (see
 * protowire.h). Each read checks the bytes that remain first; groups are
 * skipped by walking their fields up to PW_MAX_GROUP_DEPTH levels deep.
 */
#include "config.h"

#include <string.h>

#include "sources/protowire.h"

void
pw_init(struct pw_reader *r, const void *p, size_t len)
{
	r->p = p;
	r->len = p != NULL ? len : 0;
	r->off = 0;
	r->err = NULL;
	r->erroff = 0;
}

size_t
pw_varint(const uint8_t *p, size_t len, uint64_t *v)
{
	uint64_t	x = 0;
	size_t		i;

	for (i = 0; i < len && i < 10; i++) {
		/* The tenth byte may only hold the top bit of 64. */
		if (i == 9 && (p[i] & 0x7e) != 0)
			return 0;
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if ((p[i] & 0x80) == 0) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
}

static int
pw_fail(struct pw_reader *r, size_t at, const char *msg)
{
	r->err = msg;
	r->erroff = at;
	r->off = r->len;	/* further calls end at once */
	return -1;
}

/* Reads a key and its value without interpreting groups. */
static int
pw_raw(struct pw_reader *r, struct pw_field *f)
{
	size_t		at = r->off, n, w;
	uint64_t	key, len;

	memset(f, 0, sizeof *f);
	if (r->off >= r->len)
		return 0;
	if ((n = pw_varint(r->p + r->off, r->len - r->off, &key)) == 0)
		return pw_fail(r, at, "truncated or overlong field key");
	r->off += n;
	if ((key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		return pw_fail(r, at, "field number out of range");
	f->num = (uint32_t)(key >> 3);
	f->wire = (int)(key & 7);
	switch (f->wire) {
	case PW_VARINT:
		if ((n = pw_varint(r->p + r->off, r->len - r->off,
		    &f->u)) == 0)
			return pw_fail(r, at, "truncated varint");
		r->off += n;
		break;
	case PW_FIXED64:
	case PW_FIXED32:
		/* Little-endian, 8 or 4 bytes. */
		w = f->wire == PW_FIXED64 ? 8 : 4;
		if (r->len - r->off < w)
			return pw_fail(r, at, w == 8 ?
			    "truncated 64-bit value" :
			    "truncated 32-bit value");
		for (n = 0; n < w; n++)
			f->u |= (uint64_t)r->p[r->off + n] << (8 * n);
		r->off += w;
		break;
	case PW_LEN:
		if ((n = pw_varint(r->p + r->off, r->len - r->off,
		    &len)) == 0)
			return pw_fail(r, at, "truncated length");
		r->off += n;
		if (len > r->len - r->off)
			return pw_fail(r, at, "length runs past the end of "
			    "the message");
		f->data = r->p + r->off;
		f->len = (size_t)len;
		r->off += (size_t)len;
		break;
	case PW_SGROUP:
	case PW_EGROUP:
		break;
	default:
		return pw_fail(r, at, "unknown wire type");
	}
	return 1;
}

int
pw_next(struct pw_reader *r, struct pw_field *f)
{
	struct pw_field	 g;
	uint32_t	 stack[PW_MAX_GROUP_DEPTH];
	size_t		 at = r->off, depth, start, before = 0;
	int		 rc;

	if ((rc = pw_raw(r, f)) <= 0)
		return rc;
	if (f->wire == PW_EGROUP)
		return pw_fail(r, at, "end of a group that was not started");
	if (f->wire != PW_SGROUP)
		return 1;
	/* A group: its bytes run to the matching end-group key. */
	start = r->off;
	depth = 0;
	stack[depth++] = f->num;
	while (depth > 0) {
		before = r->off;
		if ((rc = pw_raw(r, &g)) < 0)
			return -1;
		if (rc == 0)
			return pw_fail(r, at, "unterminated group");
		if (g.wire == PW_SGROUP) {
			if (depth == PW_MAX_GROUP_DEPTH)
				return pw_fail(r, at, "groups nested too "
				    "deeply");
			stack[depth++] = g.num;
		} else if (g.wire == PW_EGROUP) {
			if (stack[depth - 1] != g.num)
				return pw_fail(r, at, "group ends with the "
				    "wrong field number");
			depth--;
		}
	}
	/* The group's bytes, without its end key. */
	f->data = r->p + start;
	f->len = before - start;
	return 1;
}

double
pw_double(const struct pw_field *f)
{
	double	d;

	memcpy(&d, &f->u, sizeof d);
	return d;
}

float
pw_float(const struct pw_field *f)
{
	uint32_t	u = (uint32_t)f->u;
	float		x;

	memcpy(&x, &u, sizeof x);
	return x;
}

int64_t
pw_zigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

int
pw_is_len(const struct pw_field *f)
{
	return f->wire == PW_LEN;
}
