/*
 * sqlz: SQLite databases that arrive compressed (a gzip- or
 * zstd-compressed .rpd, .db or .sqlite, as rocmProfileData publishes its
 * example traces).
 *
 * SQLite reads only plain files, so a compressed database is decompressed
 * once into the cache directory (cachedir_derived(): a name that carries
 * the compressed file's identity, so a replaced file never gets the old
 * copy) and that copy is reused. Under --no-cache the copy is a temporary
 * file removed at exit. The copy is written to a temporary file and
 * renamed, so a reader never sees half of it. Nothing is ever written next
 * to the trace.
 *
 * Detection is by content (zfile_sniff() on the first bytes, then the
 * SQLite header of the decompressed stream), never by the file's name.
 */
#ifndef GPULENS_SQLZ_H
#define GPULENS_SQLZ_H

#include <stddef.h>

/*
 * 1 if path is gzip- or zstd-compressed and its decompressed content
 * starts with the SQLite header, else 0 (also when it cannot be read).
 */
int	 sqlz_is_sqlite(const char *path);
/*
 * Reads the first len bytes of path's content into buf, decompressed when
 * the file is gzip- or zstd-compressed (zfile). Returns how many bytes it
 * read: fewer at the end of the content, 0 when it cannot be read.
 */
size_t	 sqlz_head(const char *path, void *buf, size_t len);
/*
 * The path of a plain SQLite file holding path's database: a copy of path
 * when path is itself plain, else the decompressed copy in the cache (made
 * or refreshed here). Returns a string the caller frees, or NULL with
 * *cause (caller frees).
 */
char	*sqlz_plain(const char *path, char **cause);

#endif
