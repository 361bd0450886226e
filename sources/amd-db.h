/*
 * amd-db: SQLite access shared by the two AMD database readers, rocpd.c
 * (rocprofv3 rocpd, schema 3) and rpd.c (rocmProfileData).
 *
 * amd_db_open() takes the user's path, plain or compressed (sqlz.h), and
 * opens the database read-only and immutable through source_sqlite_open(),
 * so nothing is ever written next to the trace. The other functions keep
 * the first error in d->err as one line "PATH: what went wrong", which the
 * reader hands back as its *cause; once it is set, functions that can fail
 * return -1 or NULL.
 *
 * Schema probing: amd_db_has() says whether a table exists (a view of the
 * file never counts: its query could run without end),
 * amd_db_col() whether a relation has a column; both read sqlite_master or
 * PRAGMA table_info once per call and never fail (a relation that cannot
 * be inspected has nothing).
 *
 * Ownership: amd_db_open() allocates; amd_db_close() frees everything but
 * d->err, which the caller takes or frees.
 */
#ifndef GPULENS_AMD_DB_H
#define GPULENS_AMD_DB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "sources/col.h"
#include "sources/srcerr.h"

struct builder;
struct model;
struct progress;
struct source_times;

struct amd_db {
	const char	*path;		/* the user's path (borrowed) */
	char		*plain;		/* the file opened (a cache copy when
					   path is compressed) */
	sqlite3		*db;
	char		*err;		/* first error, one line */
};

/* Opens path (plain, gzip or zstd SQLite). 0, or -1 with *cause. */
int		 amd_db_open(struct amd_db *, const char *path, char **cause);
void		 amd_db_close(struct amd_db *);
/* Hands the error recorded (NULL if none) to *cause, or frees it when
 * cause is NULL; d->err is cleared. */
void		 amd_db_cause(struct amd_db *, char **cause);

/*
 * A reader's own steps, for amd_db_load(). r is the reader's state, which
 * holds its struct amd_db.
 */
struct amd_db_reader {
	int		 source;		/* SOURCE_ROCPD, SOURCE_RPD */
	const char	*timing;		/* timing_report()'s name */
	int		(*probe)(sqlite3 *);	/* whether it is this format */
	const char	*not_it;		/* the error when it is not */
	/* Readies r once the database is open (its maps, prog). */
	void		(*init)(void *r, struct progress *prog);
	/* Reads the database into b: 0, or -1 with the error recorded. */
	int		(*read)(void *r, struct builder *b);
	/* Frees r's own data, the database included (amd_db_close()). */
	void		(*free)(void *r);
};
/*
 * Loads path with the reader rd, whose state r holds d: opens d, refuses a
 * database that rd->probe() does not know, then reads it into a new
 * builder and frees r, the progress shown done, either way. The model, or
 * NULL with *cause.
 */
struct model	*amd_db_load(const struct amd_db_reader *rd, void *r,
		    struct amd_db *d, const char *path, struct progress *prog,
		    char **cause);

/* Records the first error as "PATH: message": amd_db_error(d, fmt, ...). */
#define amd_db_error(d, ...)	srcerr_setf(&(d)->err, (d)->path, __VA_ARGS__)
/* Prepares sql; NULL (error recorded) on failure. what names the data. */
sqlite3_stmt	*amd_db_prepare(struct amd_db *, const char *sql,
		    const char *what);
/* Steps: 1 a row, 0 done, -1 error (recorded). */
int		 amd_db_step(struct amd_db *, sqlite3_stmt *, const char *what);

/*
 * What name is (exact name): 1 a table, or a TEMP view the reader made; -1
 * a view of the file, which the readers never query (its query may run
 * without end); 0 nothing.
 */
int		 amd_db_kind(struct amd_db *, const char *name);
/* Whether a table (or a TEMP view of the reader) named name exists. */
int		 amd_db_has(struct amd_db *, const char *name);
/* Refuses the file (-1, error recorded, naming it) when one of the n
 * relations is a view of the file; 0 otherwise. */
int		 amd_db_no_views(struct amd_db *, const char *const *names,
		    size_t n);
/* Whether relation rel (a table or view) has column col. */
int		 amd_db_col(struct amd_db *, const char *rel, const char *col);
/*
 * SQL assembly (with xstrcatf() for the rest). amd_db_colx() appends
 * ", ALIAS.\"COL\"" to the malloc'd string *sql when relation rel (NULL:
 * none) has column col, else ", NULL", so that a query reads an absent
 * column as NULL.
 */
void		 amd_db_colx(struct amd_db *, char **sql, const char *rel,
		    const char *alias, const char *col);
/* The verdict on the times read from table (source_times_verdict()): a
 * warning added to b and 0, or the refusal recorded and -1. */
int		 amd_db_times(struct amd_db *, struct builder *b,
		    const struct source_times *, const char *table);
/* The row count of rel for progress (0 if unknown). */
uint64_t	 amd_db_estimate(struct amd_db *, const char *rel);

#endif
