/*
 * zfile: reading a file that may be plain, gzip- or zstd-compressed,
 * detected by its first bytes (never by its name).
 *
 * zfile_open() + zfile_read() stream the decompressed bytes in chunks, so a
 * multi-gigabyte trace never has to fit in memory; zfile_slurp() reads a
 * whole (small) file; zfile_copy_to() decompresses into another file (used
 * to hand a compressed SQLite database to SQLite). A compressed stream that
 * ends early or is corrupt is an error whose message names the compressed
 * byte offset; nothing here crashes or loops on bad input.
 *
 * Ownership: zfile_open() allocates; zfile_close() frees. Buffers from
 * zfile_slurp() are the caller's to free().
 */
#ifndef GPULENS_ZFILE_H
#define GPULENS_ZFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum zfile_kind {
	ZFILE_PLAIN = 0,
	ZFILE_GZIP,
	ZFILE_ZSTD,
};

struct zfile;

/* The compression of the bytes at the start of a file (magic numbers). */
enum zfile_kind	 zfile_sniff(const unsigned char *head, size_t len);
/* Opens path read-only. Returns NULL with *cause (caller frees). */
struct zfile	*zfile_open(const char *path, char **cause);
/*
 * Reads up to len decompressed bytes. Returns the number read, 0 at the
 * end, or -1 with *cause (truncated or corrupt stream, I/O error).
 */
ssize_t		 zfile_read(struct zfile *, void *buf, size_t len,
		    char **cause);
enum zfile_kind	 zfile_kind(const struct zfile *);
/* Decompressed bytes returned so far. */
uint64_t	 zfile_offset(const struct zfile *);
/* Bytes of the file consumed so far, and the file's size. */
uint64_t	 zfile_raw_offset(const struct zfile *);
uint64_t	 zfile_raw_size(const struct zfile *);
void		 zfile_close(struct zfile *);
/*
 * Reads the whole decompressed content into a NUL-terminated buffer
 * (*len excludes the NUL). Fails when it would exceed max bytes (0: no
 * limit). Returns 0, or -1 with *cause.
 */
int		 zfile_slurp(const char *path, char **buf, size_t *len,
		    size_t max, char **cause);
/*
 * Decompresses src into dst (written to a temporary file next to dst and
 * renamed). Stops, removing the temporary file, before it would leave less
 * than ZFILE_COPY_RESERVE bytes free on dst's file system (a bomb never
 * fills the disk). Returns 0, or -1 with *cause.
 */
#define ZFILE_COPY_RESERVE	(UINT64_C(1) << 30)
int		 zfile_copy_to(const char *src, const char *dst, char **cause);

#endif
