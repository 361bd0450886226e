/*
 * cache_fuzz: the cache loader (src/model/cache*.c) on hostile cache files.
 *
 * A dummy trace lives in the harness's directory; the input becomes its
 * cache file ".trace.gpulens" next to it and is loaded with cache_load(),
 * as source_load() does before parsing a trace. Input byte 0 is a mode,
 * the rest the file, in one of three shapes:
 *   bit 0 set    the file as it is: the header checks themselves;
 *   bit 1 set    structured: a 144-byte header, the number of frames in
 *                the head (one byte), then the frames decompressed, each
 *                as a 32-bit length and its bytes; the harness compresses
 *                those of the head, aligns the others (the arrays, stored
 *                as they are), writes the frame table and makes the header
 *                agree (below), so that mutations reach the decoder's own
 *                checks on the model's contents rather than stopping at
 *                zstd's;
 *   neither      the file with its header made to agree with the dummy
 *                trace and the file: its identity (size, mtime, inode,
 *                device, ctime and fingerprint: cachedir_ident),
 *                payload size, the CRC32s of the head and the header and the
 *                payload's checksum (mutations reach the frame table, the
 *                zstd frames and the arrays).
 * The header offsets below follow struct cache_hdr (cache-int.h, CACHE_VERSION
 * 8); a layout change leaves the harness working but shallower until they
 * are updated (tests/fuzz/mkseeds.sh rebuilds the seeds).
 *
 * Both loaders run on every file: cache_load() and cache_load_summary()
 * (the head only, for `gpulens info`). A hit must give a model that keeps
 * model.h's promises (fuzz_check_model) and that a verb (picked by mode
 * bits 2-7; every one in the replays) can run on, and the summary of a
 * file that loads whole must load too and agree on the counts; a miss must
 * come with a reason.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "model/cache.h"
#include "model/cache-int.h"
#include "model/cachedir.h"
#include "fuzz.h"
#include "model/model.h"
#include "util/xmalloc.h"

#define HDR_SIZE	144
#define OFF_HDR_CRC	20
#define OFF_TRACE	48	/* size, mtime (ns), inode, device */
#define OFF_TRACE2	128	/* ctime (ns), fingerprint */
#define OFF_PAYLOAD	80	/* payload size */
#define OFF_RAW_SIZE	88	/* sum of the frames' raw lengths */
#define OFF_NFRAMES	96
#define OFF_PAY_CRC	100
#define OFF_HEAD_SIZE	112	/* table, frame 0 and the string frames */
#define OFF_HEAD_CRC	120
#define MAX_FRAMES	1024

static char	*trace, *cachefile;
static uint64_t	 ident[4], ident2[2];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const uint8_t	 dummy[] = "gpulens fuzz: not a trace\n";
	struct cachedir_ident	 id;
	char			*xdg;

	(void)argc;
	(void)argv;
	fuzz_quiet_stdout();
	xdg = fuzz_path("xdg");
	setenv("XDG_CACHE_HOME", xdg, 1);
	free(xdg);
	trace = fuzz_path("trace");
	cachefile = fuzz_path(".trace.gpulens");
	fuzz_write(trace, dummy, sizeof dummy - 1);
	if (cachedir_ident(trace, &id, NULL) != 0)
		abort();
	ident[0] = id.size;
	ident[1] = (uint64_t)id.mtime;
	ident[2] = id.ino;
	ident[3] = id.dev;
	ident2[0] = (uint64_t)id.ctime;
	ident2[1] = id.fp;
	return 0;
}

static uint32_t
crc(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(crc32(0, Z_NULL, 0), p, (uInt)n);
}

/* Makes the header of f (len bytes) match the trace and the payload. */
static void
fixup(uint8_t *f, size_t len)
{
	uint64_t	psize = len - HDR_SIZE, head;
	uint32_t	c;

	memcpy(f + OFF_TRACE, ident, sizeof ident);
	memcpy(f + OFF_TRACE2, ident2, sizeof ident2);
	memcpy(f + OFF_PAYLOAD, &psize, sizeof psize);
	memcpy(&head, f + OFF_HEAD_SIZE, sizeof head);
	if (head <= psize) {
		c = crc(f + HDR_SIZE, (size_t)head);
		memcpy(f + OFF_HEAD_CRC, &c, sizeof c);
	}
	c = cache_sum(f + HDR_SIZE, len - HDR_SIZE, 0);
	memcpy(f + OFF_PAY_CRC, &c, sizeof c);
	memset(f + OFF_HDR_CRC, 0, 4);
	c = crc(f, HDR_SIZE);
	memcpy(f + OFF_HDR_CRC, &c, sizeof c);
}

/*
 * Builds a cache file from a header, the number of head frames and
 * decompressed frames (each a 32-bit length and its bytes; a length past
 * the end takes what is left). Returns the file (caller frees) and its
 * length in *len.
 */
static uint8_t *
structured(const uint8_t *in, size_t n, size_t *len)
{
	uint64_t	 table[2 * MAX_FRAMES], raw = 0, head;
	uint32_t	 rl, nf = 0;
	uint8_t		*f;
	size_t		 off = HDR_SIZE + 1, cap, bound, c, i, nhead, pad;
	const uint8_t	*p[MAX_FRAMES];

	if (n < HDR_SIZE + 1)
		return NULL;
	nhead = in[HDR_SIZE];
	while (off + 4 <= n && nf < MAX_FRAMES) {
		memcpy(&rl, in + off, 4);
		off += 4;
		if (rl > n - off)
			rl = (uint32_t)(n - off);
		p[nf] = in + off;
		table[2 * nf] = rl;
		raw += rl;
		off += rl;
		nf++;
	}
	cap = HDR_SIZE + 16 * (size_t)nf;
	for (i = 0; i < nf; i++)
		cap += ZSTD_compressBound(table[2 * i]) + CACHE_ALIGN;
	f = xcalloc(cap, 1);
	memcpy(f, in, HDR_SIZE);
	*len = HDR_SIZE + 16 * (size_t)nf;
	head = 16 * (uint64_t)nf;
	for (i = 0; i < nf; i++) {
		if (i >= nhead) {
			/* An array: aligned, stored as it is. */
			pad = (CACHE_ALIGN - *len % CACHE_ALIGN) % CACHE_ALIGN;
			memcpy(f + *len + pad, p[i], table[2 * i]);
			table[2 * i + 1] = pad + table[2 * i];
			*len += pad + table[2 * i];
			continue;
		}
		bound = ZSTD_compressBound(table[2 * i]);
		c = ZSTD_compress(f + *len, bound, p[i], table[2 * i], 1);
		if (ZSTD_isError(c))
			abort();
		table[2 * i + 1] = c;
		*len += c;
		head += c;
	}
	if (nf > 0)
		memcpy(f + HDR_SIZE, table, 16 * (size_t)nf);
	memcpy(f + OFF_RAW_SIZE, &raw, sizeof raw);
	memcpy(f + OFF_NFRAMES, &nf, sizeof nf);
	memcpy(f + OFF_HEAD_SIZE, &head, sizeof head);
	return f;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model	*m = NULL, *sm = NULL;
	uint8_t		*f, mode;
	char		*cause = NULL, *scause = NULL;
	size_t		 len;
	int		 rc, rcs;

	if (size < 1)
		return 0;
	mode = data[0];
	if ((mode & 3) == 2) {
		if ((f = structured(data + 1, size - 1, &len)) == NULL)
			return 0;
	} else {
		len = size - 1;
		f = xmalloc(len + 1);
		memcpy(f, data + 1, len);
	}
	if (!(mode & 1) && len >= HDR_SIZE)
		fixup(f, len);
	fuzz_write(cachefile, f, len);
	free(f);

	rc = cache_load(trace, &m, &cause);
	FUZZ_CHECK(rc == 0 || rc == 1);
	rcs = cache_load_summary(trace, &sm, &scause);
	FUZZ_CHECK(rcs == 0 || rcs == 1);
	if (rcs == 1) {
		FUZZ_CHECK(sm != NULL && sm->summary);
		FUZZ_CHECK(sm->track_off == NULL ||
		    sm->track_off[sm->ntracks] == sm->nevents);
	} else
		FUZZ_CHECK(sm == NULL && scause != NULL);
	free(scause);
	if (rc == 0) {
		FUZZ_CHECK(m == NULL && cause != NULL);
		if (getenv("GPULENS_FUZZ_VERBOSE") != NULL)
			fprintf(stderr, "cache miss: %s\n", cause);
		free(cause);
		model_free(sm);
		return 0;
	}
	if (getenv("GPULENS_FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "cache hit\n");
	FUZZ_CHECK(m != NULL);
	free(cause);
	/* What loads whole loads as a summary, with the same counts. */
	FUZZ_CHECK(rcs == 1 && sm->ntracks == m->ntracks &&
	    sm->nevents == m->nevents && sm->ndevices == m->ndevices);
	model_free(sm);
	fuzz_check_model(m);
	model_free(m);
	fuzz_run_verb(mode >> 2, trace, 0);
	return 0;
}
