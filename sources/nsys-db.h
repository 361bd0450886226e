/*
 * nsys-db: tolerant access to an Nsight Systems SQLite export, for the nsys
 * reader (sources/nsys.c) only.
 *
 * An export's tables exist only when they hold data, and their columns
 * drift between nsys releases. nsys_db_select() therefore never assumes a
 * column: it reads the table's columns with PRAGMA table_info, selects the
 * wanted ones that exist and NULL in place of the others, and gives every
 * row its rowid (or -1 for WITHOUT ROWID tables). Only tables are read:
 * nsys_db_open() refuses a file where a relation the reader reads (a
 * CUPTI_ACTIVITY_KIND_*, ENUM_* or TARGET_INFO_* name, NVTX_EVENTS,
 * StringIds, ...) is a view, whose query could run without end, and the
 * other views are invisible to nsys_db_has(). StringIds is
 * read once into one buffer; nsys_db_str() interns a string into the
 * model's pool only the first time an event refers to it.
 *
 * Errors: the first SQLite or format error is kept in d->err as one line
 * "PATH: what went wrong" (the caller takes it as its *cause); functions
 * that can fail return -1 or NULL once it is set.
 *
 * Ownership: nsys_db_open() opens the file and owns everything in the
 * struct; nsys_db_close() frees it all except err, which the caller takes
 * (or frees).
 */
#ifndef GPULENS_NSYS_DB_H
#define GPULENS_NSYS_DB_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/srcerr.h"
#include "util/hmap.h"
#include "util/progress.h"

struct nsys_db {
	const char	 *path;		/* for messages; borrowed */
	sqlite3		 *db;
	struct builder	 *b;		/* interning and warnings */
	char		 *err;		/* first error, one line */

	/* Tables and views of sqlite_master. */
	char		**tables;
	uint8_t		 *isview;
	size_t		  ntables, tablescap;

	/* StringIds: entries in read order, their text in one buffer. */
	char		 *sbuf;
	size_t		  sbuflen, sbufcap;
	size_t		 *soff;
	uint32_t	 *slen;
	uint32_t	 *ssid;		/* pool id, or NONE32: not yet */
	size_t		  nstr, strcap;
	uint32_t	 *sdense;	/* id -> entry + 1 (dense ids) */
	size_t		  nsdense;
	struct hmap	  ssparse;	/* id -> entry (sparse ids) */
	uint64_t	  nbadstr;	/* references to missing ids */
};

struct nsys_db_enum_row {
	int64_t		 id;
	char		*name, *label;
};

/* Opens path (source_sqlite_open) and lists its tables. 0, or -1 with
 * *cause. d->b may be set afterwards, before any other call. */
int		 nsys_db_open(struct nsys_db *, const char *path, char **cause);
void		 nsys_db_close(struct nsys_db *);

/* Records the first error as "PATH: message": nsys_db_error(d, fmt, ...). */
#define nsys_db_error(d, ...)	srcerr_setf(&(d)->err, (d)->path, __VA_ARGS__)
void		 nsys_db_sqlerr(struct nsys_db *, int rc, const char *what);
/* Steps: 1 a row, 0 done, -1 error (recorded). */
int		 nsys_db_step(struct nsys_db *, sqlite3_stmt *,
		    const char *what);
sqlite3_stmt	*nsys_db_prepare(struct nsys_db *, const char *sql,
		    const char *what);

/* Whether the export has table t (never a view), in any letter case. */
int		 nsys_db_has(const struct nsys_db *, const char *t);
/*
 * Prepares "SELECT rowid, c1, ... FROM table [tail]". Result column i + 1
 * is cols[i]; a column the table lacks reads as NULL and have[i] (when have
 * is not NULL) is 0. A column name starting with '!' is required: if it is
 * missing the table is skipped with a warning, and NULL is returned with
 * d->err still NULL. NULL with d->err set is an error.
 */
sqlite3_stmt	*nsys_db_select(struct nsys_db *, const char *table,
		    const char *const *cols, size_t ncols, int *have,
		    const char *tail);
/* The query of nsys_db_select(), not prepared (sqlite3_free() it), and
 * whether the table has rowids (else the first column is -1). */
char		*nsys_db_query(struct nsys_db *, const char *table,
		    const char *const *cols, size_t ncols, int *have,
		    const char *tail, int *hasrowid);
/* A cheap row estimate for progress: max(rowid), 0 if unknown. */
uint64_t	 nsys_db_estimate(struct nsys_db *, const char *table);

/* Reads StringIds (absent: every name is ""). 0 or -1. */
int		 nsys_db_strings(struct nsys_db *, struct progress *);
/* Pool id of StringIds[id], interned on first use; 0 (and counted in
 * nbadstr) when id is missing. */
uint32_t	 nsys_db_str(struct nsys_db *, int64_t id);
/* Text of StringIds[id] (borrowed, valid until close) or NULL. */
const char	*nsys_db_str_text(const struct nsys_db *, int64_t id);

/* Reads an ENUM_* table (id, name, label). Returns its row count (0 when
 * absent) with *out allocated, or -1. Free with nsys_db_enum_free(). */
ssize_t		 nsys_db_enum(struct nsys_db *, const char *table,
		    struct nsys_db_enum_row **out);
void		 nsys_db_enum_free(struct nsys_db_enum_row *, ssize_t);

#endif
