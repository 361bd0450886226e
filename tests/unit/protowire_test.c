/*
 * protowire_test: the wire-format decoder on hand-encoded messages:
 * varints at their limits, every wire type, nested messages, groups,
 * unknown fields, and every way a buffer can be short or lie about a
 * length.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sources/protowire.h"

#include "tsupport.h"

#define B(...)	((const uint8_t[]){ __VA_ARGS__ })

static void
test_varint(void **state)
{
	uint64_t	v = 7;

	(void)state;
	assert_int_equal(pw_varint(B(0x00), 1, &v), 1);
	assert_int_equal(v, 0);
	assert_int_equal(pw_varint(B(0x7f), 1, &v), 1);
	assert_int_equal(v, 127);
	assert_int_equal(pw_varint(B(0x80, 0x01), 2, &v), 2);
	assert_int_equal(v, 128);
	assert_int_equal(pw_varint(B(0xac, 0x02), 2, &v), 2);
	assert_int_equal(v, 300);
	/* UINT64_MAX takes ten bytes, the last one holding bit 63. */
	assert_int_equal(pw_varint(B(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0x01), 10, &v), 10);
	assert_true(v == UINT64_MAX);
	/* Bits beyond 64 in the tenth byte, an eleventh byte, a cut. */
	assert_int_equal(pw_varint(B(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0x02), 10, &v), 0);
	assert_int_equal(pw_varint(B(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x80, 0x80, 0x00), 11, &v), 0);
	assert_int_equal(pw_varint(B(0x80, 0x80), 2, &v), 0);
	assert_int_equal(pw_varint(B(0x01), 0, &v), 0);
}

/* 1: varint 150; 2: "hi"; 3: double 2.5; 4: float 1.5; 5: nested {1: 7}
 * (the last FIELD5_SIZE bytes). */
static const uint8_t fields_msg[] = {
	0x08, 0x96, 0x01,
	0x12, 0x02, 'h', 'i',
	0x19, 0, 0, 0, 0, 0, 0, 0x04, 0x40,
	0x25, 0, 0, 0xc0, 0x3f,
	0x2a, 0x02, 0x08, 0x07,
};
#define FIELD5_SIZE	4

/* Reads the next field of r into f, which must be field num of wire
 * type wire. */
static void
next_field(struct pw_reader *r, struct pw_field *f, uint32_t num, int wire)
{
	assert_int_equal(pw_next(r, f), 1);
	assert_int_equal(f->num, num);
	assert_int_equal(f->wire, wire);
}

/* Reads the next field of r into f, which must be the varint u of field
 * num. */
static void
next_varint(struct pw_reader *r, struct pw_field *f, uint32_t num, uint64_t u)
{
	next_field(r, f, num, PW_VARINT);
	assert_int_equal(f->u, u);
}

/* Starts r on the n bytes b; its first field must fail with an error. */
static void
fails(struct pw_reader *r, const uint8_t *b, size_t n)
{
	struct pw_field	f;

	pw_init(r, b, n);
	assert_int_equal(pw_next(r, &f), -1);
	assert_non_null(r->err);
}

static void
test_fields(void **state)
{
	struct pw_reader	r, n;
	struct pw_field		f;

	(void)state;
	pw_init(&r, fields_msg, sizeof fields_msg);
	next_varint(&r, &f, 1, 150);
	next_field(&r, &f, 2, PW_LEN);
	assert_true(pw_is_len(&f));
	assert_int_equal(f.len, 2);
	assert_memory_equal(f.data, "hi", 2);
	next_field(&r, &f, 3, PW_FIXED64);
	assert_true(pw_double(&f) == 2.5);
	next_field(&r, &f, 4, PW_FIXED32);
	assert_true(pw_float(&f) == 1.5f);
	next_field(&r, &f, 5, PW_LEN);
	pw_init(&n, f.data, f.len);
	assert_int_equal(pw_next(&r, &f), 0);	/* the outer message ends */
	next_varint(&n, &f, 1, 7);
	assert_int_equal(pw_next(&n, &f), 0);
	assert_null(r.err);
}

static void
test_large_field_numbers(void **state)
{
	/* Field 536870911 (the largest), varint 1; field 200, varint 2. */
	static const uint8_t msg[] = {
		0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01,
		0xc0, 0x0c, 0x02,
	};
	struct pw_reader	r;
	struct pw_field		f;

	(void)state;
	pw_init(&r, msg, sizeof msg);
	next_varint(&r, &f, 536870911, 1);
	next_varint(&r, &f, 200, 2);
}

static void
test_groups(void **state)
{
	/* 1: start group { 2: varint 5, 3: start group { } end 3 } end 1;
	 * then 4: varint 9. */
	static const uint8_t msg[] = {
		0x0b, 0x10, 0x05, 0x1b, 0x1c, 0x0c,
		0x20, 0x09,
	};
	struct pw_reader	r;
	struct pw_field		f;

	(void)state;
	pw_init(&r, msg, sizeof msg);
	next_field(&r, &f, 1, PW_SGROUP);
	assert_int_equal(f.len, 4);		/* 0x10 0x05 0x1b 0x1c */
	next_varint(&r, &f, 4, 9);
	assert_int_equal(pw_next(&r, &f), 0);
}

static void
test_bad_groups(void **state)
{
	struct pw_reader	r;
	uint8_t			deep[2 * (PW_MAX_GROUP_DEPTH + 1)];
	size_t			i;

	(void)state;
	/* An end without a start. */
	fails(&r, B(0x0c), 1);
	/* A start without an end. */
	fails(&r, B(0x0b, 0x10, 0x01), 3);
	/* Ended by the wrong field number. */
	fails(&r, B(0x0b, 0x14), 2);
	/* Nested one level deeper than the limit. */
	for (i = 0; i < sizeof deep / 2; i++)
		deep[i] = 0x0b;
	for (; i < sizeof deep; i++)
		deep[i] = 0x0c;
	fails(&r, deep, sizeof deep);
	assert_string_equal(r.err, "groups nested too deeply");
}

static void
test_truncated(void **state)
{
	/* The four scalar fields of fields_msg. */
	const size_t		size = sizeof fields_msg - FIELD5_SIZE;
	struct pw_reader	r;
	struct pw_field		f;
	size_t			len, nfields;
	int			rc;

	(void)state;
	/* Every prefix either ends on a field boundary or fails cleanly. */
	for (len = 0; len <= size; len++) {
		pw_init(&r, fields_msg, len);
		nfields = 0;
		while ((rc = pw_next(&r, &f)) > 0)
			nfields++;
		if (len == 0 || len == 3 || len == 7 || len == 16 ||
		    len == size) {
			assert_int_equal(rc, 0);
			assert_null(r.err);
		} else {
			assert_int_equal(rc, -1);
			assert_non_null(r.err);
			assert_true(r.erroff <= len);
			/* After an error the reader stays at the end. */
			assert_int_equal(pw_next(&r, &f), 0);
		}
		assert_true(nfields <= 4);
	}
}

static void
test_huge_lengths(void **state)
{
	struct pw_reader	r;
	struct pw_field		f;

	(void)state;
	/* Length 2^63 with three bytes left. */
	fails(&r, B(0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x01, 'a', 'b', 'c'), 14);
	assert_string_equal(r.err, "length runs past the end of the message");
	assert_int_equal(r.erroff, 0);
	/* Length one past the end. */
	pw_init(&r, B(0x08, 0x01, 0x0a, 0x03, 'a', 'b'), 6);
	assert_int_equal(pw_next(&r, &f), 1);
	assert_int_equal(pw_next(&r, &f), -1);
	assert_int_equal(r.erroff, 2);
	/* Exactly to the end is fine. */
	pw_init(&r, B(0x0a, 0x02, 'a', 'b'), 4);
	next_field(&r, &f, 1, PW_LEN);
	assert_int_equal(f.len, 2);
	assert_int_equal(pw_next(&r, &f), 0);
}

static void
test_bad_keys(void **state)
{
	struct pw_reader	r;
	struct pw_field		f;

	(void)state;
	/* Wire types 6 and 7 do not exist. */
	fails(&r, B(0x0e, 0x00), 2);
	assert_string_equal(r.err, "unknown wire type");
	fails(&r, B(0x0f), 1);
	/* Field number 0. */
	fails(&r, B(0x00, 0x01), 2);
	assert_string_equal(r.err, "field number out of range");
	/* A key cut in the middle. */
	fails(&r, B(0x80), 1);
	/* An empty or NULL buffer is an empty message. */
	pw_init(&r, NULL, 5);
	assert_int_equal(pw_next(&r, &f), 0);
}

static void
test_unknown_fields_skip(void **state)
{
	/* Fields 1..3 of every type, the reader of field 2 skips the rest. */
	static const uint8_t msg[] = {
		0x09, 1, 2, 3, 4, 5, 6, 7, 8,		/* 1: fixed64 */
		0x10, 0x2a,				/* 2: varint 42 */
		0x1a, 0x03, 0x08, 0x01, 0x00,		/* 3: bytes */
		0x3d, 1, 2, 3, 4,			/* 7: fixed32 */
		0x10, 0x2b,				/* 2: again, 43 */
	};
	struct pw_reader	r;
	struct pw_field		f;
	uint64_t		sum = 0;
	int			n = 0;

	(void)state;
	pw_init(&r, msg, sizeof msg);
	while (pw_next(&r, &f) > 0)
		if (f.num == 2 && f.wire == PW_VARINT) {
			sum += f.u;
			n++;
		}
	assert_null(r.err);
	assert_int_equal(n, 2);
	assert_int_equal(sum, 85);
}

static void
test_zigzag(void **state)
{
	(void)state;
	assert_int_equal(pw_zigzag(0), 0);
	assert_int_equal(pw_zigzag(1), -1);
	assert_int_equal(pw_zigzag(2), 1);
	assert_int_equal(pw_zigzag(3), -2);
	assert_true(pw_zigzag(UINT64_MAX) == INT64_MIN);
	assert_true(pw_zigzag(UINT64_MAX - 1) == INT64_MAX);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_varint),
	cmocka_unit_test(test_fields),
	cmocka_unit_test(test_large_field_numbers),
	cmocka_unit_test(test_groups),
	cmocka_unit_test(test_bad_groups),
	cmocka_unit_test(test_truncated),
	cmocka_unit_test(test_huge_lengths),
	cmocka_unit_test(test_bad_keys),
	cmocka_unit_test(test_unknown_fields_skip),
	cmocka_unit_test(test_zigzag))
