/*
 * zfile_test: plain, gzip and zstd files read back byte for byte, in small
 * and large chunks; concatenated members; truncated and corrupt streams
 * fail with the offset; slurp limits; decompressing to a file.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <zlib.h>
#include <zstd.h>

#include "tsupport.h"
#include "util/zfile.h"

static char	*data;
static size_t	 ndata = 3u << 20;

static size_t
zstd_of(const void *b, size_t n, char **out)
{
	size_t	cap = ZSTD_compressBound(n), r;

	*out = malloc(cap);
	r = ZSTD_compress(*out, cap, b, n, 1);
	assert_false(ZSTD_isError(r));
	return r;
}

static int
setup(void **state)
{
	size_t		 i;
	uint64_t	 x = 42;

	(void)state;
	assert_int_equal(ts_tmp_init(), 0);
	data = malloc(ndata);
	for (i = 0; i < ndata; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* Compressible but not trivial. */
		data[i] = (char)("abcdefgh{}[],:\"0123456789"[(x >> 33) % 26]);
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	assert_int_equal(ts_tmp_free(), 0);
	free(data);
	return 0;
}

static void
check_stream(const char *p, enum zfile_kind kind, size_t chunk)
{
	struct zfile	*f;
	char		*cause = NULL, *buf = malloc(chunk);
	size_t		 got = 0;
	ssize_t		 n;

	f = zfile_open(p, &cause);
	assert_non_null(f);
	assert_int_equal(zfile_kind(f), kind);
	while ((n = zfile_read(f, buf, chunk, &cause)) > 0) {
		assert_true(got + (size_t)n <= ndata);
		assert_memory_equal(buf, data + got, (size_t)n);
		got += (size_t)n;
	}
	assert_int_equal(n, 0);
	assert_int_equal(got, ndata);
	assert_int_equal(zfile_offset(f), ndata);
	assert_int_equal(zfile_raw_offset(f), zfile_raw_size(f));
	zfile_close(f);
	free(buf);
}

static void
test_three_kinds(void **state)
{
	char	*z;
	size_t	 nz;

	(void)state;
	ts_write(ts_path("plain"), data, ndata);
	ts_write_gz(ts_path("gz"), data, ndata);
	nz = zstd_of(data, ndata, &z);
	ts_write(ts_path("zst"), z, nz);
	free(z);
	check_stream(ts_path("plain"), ZFILE_PLAIN, 7);
	check_stream(ts_path("plain"), ZFILE_PLAIN, 1u << 20);
	check_stream(ts_path("gz"), ZFILE_GZIP, 13);
	check_stream(ts_path("gz"), ZFILE_GZIP, 1u << 20);
	check_stream(ts_path("zst"), ZFILE_ZSTD, 5);
	check_stream(ts_path("zst"), ZFILE_ZSTD, 1u << 20);
}

static void
test_concatenated(void **state)
{
	char	*a, *b, *both, *cause = NULL, *buf;
	size_t	 na, nb, len;
	FILE	*f;

	(void)state;
	/* Two gzip members: gunzip yields both. */
	ts_write_gz(ts_path("m1"), data, ndata / 2);
	ts_write_gz(ts_path("m2"), data + ndata / 2, ndata - ndata / 2);
	assert_int_equal(zfile_slurp(ts_path("m1"), &a, &na, 0, &cause), 0);
	free(a);
	{
		char cmd[600];
		snprintf(cmd, sizeof cmd, "cat %s %s > %s", ts_path("m1"),
		    ts_path("m2"), ts_path("m12"));
		assert_int_equal(system(cmd), 0);
	}
	check_stream(ts_path("m12"), ZFILE_GZIP, 4096);
	/* Two zstd frames. */
	na = zstd_of(data, ndata / 3, &a);
	nb = zstd_of(data + ndata / 3, ndata - ndata / 3, &b);
	both = malloc(na + nb);
	memcpy(both, a, na);
	memcpy(both + na, b, nb);
	ts_write(ts_path("z12"), both, na + nb);
	check_stream(ts_path("z12"), ZFILE_ZSTD, 4096);
	free(a);
	free(b);
	free(both);
	/* slurp NUL-terminates and honours the limit. */
	assert_int_equal(zfile_slurp(ts_path("z12"), &buf, &len, 0, &cause), 0);
	assert_int_equal(len, ndata);
	assert_int_equal(buf[len], '\0');
	free(buf);
	assert_int_equal(zfile_slurp(ts_path("z12"), &buf, &len, 1000, &cause),
	    -1);
	assert_non_null(strstr(cause, "larger than"));
	free(cause);
	f = fopen(ts_path("empty"), "w");
	fclose(f);
	assert_int_equal(zfile_slurp(ts_path("empty"), &buf, &len, 0, &cause),
	    0);
	assert_int_equal(len, 0);
	free(buf);
}

static void
expect_error(const char *p, const char *needle)
{
	char	*buf = NULL, *cause = NULL;
	size_t	 len;

	assert_int_equal(zfile_slurp(p, &buf, &len, 0, &cause), -1);
	assert_null(buf);
	ts_cause_has(cause, needle);
	free(cause);
}

static void
test_truncated_and_corrupt(void **state)
{
	char	*z, *g;
	size_t	 nz, ng, cut;

	(void)state;
	ts_write_gz(ts_path("t.gz"), data, ndata);
	assert_int_equal(zfile_slurp(ts_path("t.gz"), &g, &ng, 0, &(char *){0}),
	    0);
	free(g);
	{
		FILE *f = fopen(ts_path("t.gz"), "rb");
		g = malloc(ndata);
		ng = fread(g, 1, ndata, f);
		fclose(f);
	}
	/* From 2 bytes on, the gzip magic is there and the rest is missing. */
	for (cut = 2; cut < ng; cut += ng / 7) {
		ts_write(ts_path("cut.gz"), g, cut);
		expect_error(ts_path("cut.gz"), "byte");
	}
	/* Flip bytes in the middle of the deflate data. */
	g[ng / 2] ^= 0x55;
	g[ng / 2 + 1] ^= 0xaa;
	ts_write(ts_path("bad.gz"), g, ng);
	expect_error(ts_path("bad.gz"), "gzip");
	free(g);

	nz = zstd_of(data, ndata, &z);
	for (cut = 4; cut < nz; cut += nz / 5) {
		ts_write(ts_path("cut.zst"), z, cut);
		expect_error(ts_path("cut.zst"), "zstd");
	}
	free(z);
	/* Not a file at all. */
	expect_error(ts_tmp(), "not a regular file");
	expect_error(ts_path("does-not-exist"), "No such file");
}

static void
test_copy_to(void **state)
{
	char	*cause = NULL, *a, *b;
	size_t	 na, nb;

	(void)state;
	ts_write_gz(ts_path("c.gz"), data, ndata);
	assert_int_equal(zfile_copy_to(ts_path("c.gz"), ts_path("c.out"),
	    &cause), 0);
	assert_int_equal(zfile_slurp(ts_path("c.out"), &a, &na, 0, &cause), 0);
	assert_int_equal(na, ndata);
	assert_memory_equal(a, data, ndata);
	free(a);
	/* A failed copy leaves nothing behind. */
	ts_write(ts_path("d.gz"), "\x1f\x8b\x08\x00garbage", 12);
	assert_int_equal(zfile_copy_to(ts_path("d.gz"), ts_path("d.out"),
	    &cause), -1);
	free(cause);
	assert_int_not_equal(access(ts_path("d.out"), F_OK), 0);
	(void)b;
	(void)nb;
}

TS_MAIN(setup, teardown,
	cmocka_unit_test(test_three_kinds),
	cmocka_unit_test(test_concatenated),
	cmocka_unit_test(test_truncated_and_corrupt),
	cmocka_unit_test(test_copy_to))
