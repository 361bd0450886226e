/*
 * cachedir: where gpulens keeps what it derives from a trace, and how it
 * knows a trace is still the one it derived it from.
 *
 * Nothing is written beside a user's trace unless asked. Everything lives
 * in one directory, $XDG_CACHE_HOME/gpulens (else ~/.cache/gpulens), made
 * with mode 0700 and used only while it is a directory owned by this user:
 *   NAME-HHHHHHHHHHHHHHHH.gpulens         the model cache of the trace
 *                                          whose real path hashes to H
 *   NAME-HHHHHHHHHHHHHHHH-IIIIIIIIIIIIIIII.sqlite
 *                                          a derived copy (a decompressed
 *                                          database, an nsys export) of the
 *                                          trace with identity hash I
 *   NAME-HHHHHHHHHHHHHHHH.ranksum          the rank summary of the trace
 *                                          (analysis/ranksum.h)
 *   *.tmp-PID-HOST-XXXXXX                  a file being written (tmpreg.h)
 * `gpulens prep --beside` writes the model cache as ".NAME.gpulens" next to
 * the trace instead, for a team that shares a directory; a cache found
 * there is read first, from this user or the trace's owner.
 *
 * A trace's identity is what fstat() says of the descriptor that was read
 * (size, mtime, ctime, inode, device) plus a fingerprint of its first and
 * last 64 KiB (and, for an SQLite database in WAL mode, the size and times
 * of its "-wal" log): a trace replaced by another capture, even one with an older
 * mtime (cp -p, rsync -a, tar x), has another identity, so no cache and no
 * derived copy of the old one is ever served for it. A derived copy carries
 * the identity in its name.
 *
 * The directory is bounded: GPULENS_CACHE_MAX (a size, default 10G; 0 for
 * no bound). After each write the least recently used files go until the
 * rest fit; a cache hit counts as a use (its mtime is set to now). Stale
 * temporaries (their writer gone, or idle an hour) are swept then too.
 *
 * The mode is the process's policy, set once from the command line:
 * CACHEDIR_OFF (--no-cache) reads and writes no cache, and a derived copy
 * that a reader cannot do without goes to a temporary file under $TMPDIR
 * (else /tmp) removed at exit.
 */
#ifndef GPULENS_CACHEDIR_H
#define GPULENS_CACHEDIR_H

#include <stdint.h>

enum cachedir_mode {
	CACHEDIR_ON = 0,	/* caches under the cache directory */
	CACHEDIR_OFF,		/* --no-cache: nothing written, nothing read */
	CACHEDIR_BESIDE		/* prep --beside: the model cache next to
				   the trace */
};

#define CACHEDIR_SUFFIX		".gpulens"
#define CACHEDIR_DEFAULT_MAX	(UINT64_C(10) << 30)
#define CACHEDIR_FP_BLOCK	65536	/* bytes fingerprinted at each end */

/* The identity of a trace file (see above). */
struct cachedir_ident {
	uint64_t	 size;
	int64_t		 mtime;		/* ns */
	int64_t		 ctime;		/* ns */
	uint64_t	 ino, dev;
	uint64_t	 fp;		/* fingerprint of the end blocks */
	uint32_t	 uid;		/* owner (not part of the identity) */
};

void		 cachedir_set_mode(enum cachedir_mode);
enum cachedir_mode cachedir_get_mode(void);

/*
 * Opens trace read-only and takes its identity from the descriptor.
 * Refuses what is not a regular file. Returns 0, or -1 with *cause
 * (caller frees; cause may be NULL).
 */
int		 cachedir_ident(const char *trace, struct cachedir_ident *,
		    char **cause);
/* 1 if a and b name the same unchanged file. */
int		 cachedir_ident_eq(const struct cachedir_ident *a,
		    const struct cachedir_ident *b);

/* The cache directory (malloc'd), created when create; NULL with *cause
 * if there is none usable. */
char		*cachedir_root(int create, char **cause);
/* "<root>/NAME-H.gpulens": trace's model cache in the cache directory. */
char		*cachedir_entry(const char *trace, int create, char **cause);
/* "<dir of trace>/.NAME.gpulens": the cache written by prep --beside. */
char		*cachedir_beside(const char *trace);
/*
 * Where a copy derived from trace (identity id) goes: the cache directory,
 * or under CACHEDIR_OFF a per-process temporary path that is removed at
 * exit. suffix names the kind (".sqlite"). Older copies of the same trace
 * path are removed when the new one is made (cachedir_derived_made).
 * Returns a malloc'd path or NULL with *cause.
 */
char		*cachedir_derived(const char *trace,
		    const struct cachedir_ident *id, const char *suffix,
		    char **cause);
/* After path (from cachedir_derived) was written: forgets older copies of
 * the same trace and keeps the directory within its bound. */
void		 cachedir_derived_made(const char *path);
/*
 * 1 if path is a derived copy that can be used: a regular file (not a
 * symlink), non-empty, owned by this user, writable by nobody else.
 */
int		 cachedir_usable(const char *path);

/* A cache hit on path: it becomes the most recently used. */
void		 cachedir_used(const char *path);
/* Sweeps stale temporaries and evicts least recently used files beyond
 * GPULENS_CACHE_MAX, never keep (may be NULL). */
void		 cachedir_maintain(const char *keep);
/* GPULENS_CACHE_MAX in bytes (0: no bound). */
uint64_t	 cachedir_limit(void);

/*
 * Removes what gpulens keeps for trace: its cache in the cache directory
 * and beside it, its derived copies (also those of older versions), and
 * stale temporaries. Adds the bytes freed to *bytes. Returns the number of
 * files removed.
 */
int		 cachedir_remove_trace(const char *trace, uint64_t *bytes);
/* Removes every file gpulens keeps in the cache directory. */
int		 cachedir_remove_all(uint64_t *bytes);

#endif
