/*
 * zfile_fuzz: plain, gzip and zstd streams (src/util/zfile.c) on hostile
 * bytes.
 *
 * The input is written to a file and read three ways: streamed with
 * zfile_read() in chunks of a size taken from the input, slurped whole
 * with zfile_slurp() under a size limit, and decompressed into another
 * file with zfile_copy_to(). All three must agree on success and on the
 * bytes, and the streamed bytes must equal what zlib's inflate (member by
 * member) or libzstd's streaming decoder make of the whole input in one
 * call (zfile feeds them in chunks and refills).
 * Decompression bombs are cut at FUZZ_OUTMAX bytes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "fuzz.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

#define FUZZ_OUTMAX	(1u << 20)	/* decompressed bytes checked */
#define FUZZ_SLURPMAX	(FUZZ_OUTMAX / 2)

static char	*in_path, *copy_path;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	in_path = fuzz_path("in");
	copy_path = fuzz_path("copy");
	return 0;
}

/*
 * The whole input decoded in one go, independently of zfile: 1 with the
 * bytes in *out and their length in *len when it decodes (up to
 * FUZZ_OUTMAX bytes), 0 when it does not, -1 when the answer is unknown
 * (too large).
 */
static int
reference(enum zfile_kind kind, const uint8_t *d, size_t n, uint8_t **out,
    size_t *len)
{
	z_stream		 z;
	ZSTD_DStream		*ds;
	ZSTD_inBuffer		 zin;
	ZSTD_outBuffer		 zout;
	size_t			 r;
	int			 rc, ok = 1;

	*out = xmalloc(FUZZ_OUTMAX + 1);
	*len = 0;
	switch (kind) {
	case ZFILE_PLAIN:
		if (n > FUZZ_OUTMAX)
			return -1;
		memcpy(*out, d, n);
		*len = n;
		return 1;
	case ZFILE_ZSTD:
		/*
		 * The streaming API in one call over the whole input: the
		 * one-shot ZSTD_decompress() accepts blocks larger than the
		 * frame's window allows, which streaming (rightly) refuses.
		 */
		if ((ds = ZSTD_createDStream()) == NULL)
			abort();
		zin.src = d;
		zin.size = n;
		zin.pos = 0;
		zout.dst = *out;
		zout.size = FUZZ_OUTMAX;
		zout.pos = 0;
		r = 1;
		while (zin.pos < zin.size) {
			r = ZSTD_decompressStream(ds, &zout, &zin);
			if (ZSTD_isError(r) || (zout.pos == zout.size &&
			    r != 0))
				break;
		}
		ZSTD_freeDStream(ds);
		*len = zout.pos;
		if (ZSTD_isError(r))
			return 0;
		if (zout.pos == zout.size && r != 0)
			return -1;	/* too large */
		return r == 0 ? 1 : 0;	/* 0: ends inside a frame */
	case ZFILE_GZIP:
		memset(&z, 0, sizeof z);
		if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
			abort();
		z.next_in = (Bytef *)(uintptr_t)d;
		z.avail_in = (uInt)n;
		z.next_out = *out;
		z.avail_out = FUZZ_OUTMAX;
		for (;;) {
			rc = inflate(&z, Z_FINISH);
			if (rc == Z_STREAM_END) {
				if (z.avail_in == 0)
					break;
				inflateReset(&z);	/* next member */
				continue;
			}
			if (rc == Z_BUF_ERROR && z.avail_out == 0)
				ok = -1;	/* too large */
			else
				ok = 0;
			break;
		}
		*len = FUZZ_OUTMAX - z.avail_out;
		inflateEnd(&z);
		return ok;
	}
	return -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zfile	*f;
	uint8_t		*got, *ref, *chunk;
	char		*cause = NULL, *s;
	size_t		 step, len = 0, rlen, slen;
	ssize_t		 n;
	int		 ok = 0, whole = 0, rok;
	FILE		*c;

	fuzz_write(in_path, data, size);
	/* The chunk size: 1..4096 from the last two bytes. */
	step = size >= 2 ? 1 + ((data[size - 1] | data[size - 2] << 8) & 4095)
	    : 4096;

	if ((f = zfile_open(in_path, &cause)) == NULL) {
		FUZZ_CHECK(cause != NULL);
		free(cause);
		return 0;
	}
	FUZZ_CHECK(zfile_raw_size(f) == size);
	got = xmalloc(FUZZ_OUTMAX + 4096);
	chunk = xmalloc(step);
	for (;;) {
		n = zfile_read(f, chunk, step, &cause);
		if (n < 0) {
			FUZZ_CHECK(cause != NULL);
			free(cause);
			cause = NULL;
			break;
		}
		FUZZ_CHECK((size_t)n <= step);
		FUZZ_CHECK(zfile_raw_offset(f) <= size);
		if (n == 0) {
			ok = whole = 1;
			/* The end stays the end. */
			FUZZ_CHECK(zfile_read(f, chunk, step, &cause) == 0);
			break;
		}
		memcpy(got + len, chunk, (size_t)n);
		len += (size_t)n;
		FUZZ_CHECK(zfile_offset(f) == len);
		if (len > FUZZ_OUTMAX)
			break;		/* a bomb: stop here */
	}
	if (ok)
		FUZZ_CHECK(zfile_raw_offset(f) == size);
	rok = reference(zfile_kind(f), data, size, &ref, &rlen);
	if (rok == 1 && whole)
		FUZZ_CHECK(rlen == len && memcmp(ref, got, len) == 0);
	else if (rok == 1 && len <= FUZZ_OUTMAX)
		FUZZ_CHECK(!"zfile failed on a stream the library decodes");
	if (rok == 0 && whole)
		FUZZ_CHECK(!"zfile accepted a stream the library rejects");
	zfile_close(f);
	free(ref);
	free(chunk);

	/* Slurping: the same bytes, or too large, or the same failure. */
	if (zfile_slurp(in_path, &s, &slen, FUZZ_SLURPMAX, &cause) == 0) {
		FUZZ_CHECK(whole && slen == len && s[slen] == '\0' &&
		    memcmp(s, got, len) == 0);
		free(s);
	} else {
		FUZZ_CHECK(!whole || len > FUZZ_SLURPMAX);
		free(cause);
		cause = NULL;
	}

	/* Copying: only streams known to end (no bombs on disk). */
	if (whole) {
		FUZZ_CHECK(zfile_copy_to(in_path, copy_path, &cause) == 0);
		FUZZ_CHECK((c = fopen(copy_path, "rb")) != NULL);
		s = xmalloc(len + 1);
		FUZZ_CHECK(fread(s, 1, len + 1, c) == len);
		FUZZ_CHECK(memcmp(s, got, len) == 0);
		fclose(c);
		free(s);
		remove(copy_path);
	}
	free(got);
	return 0;
}
