/*
 * col: reading the columns of the current row of an SQLite statement, as
 * the SQLite readers (nsys, rocpd, RPD) do: NULL tests, integers and text
 * that is never NULL.
 */
#ifndef GPULENS_COL_H
#define GPULENS_COL_H

#include <stdint.h>

#include <sqlite3.h>

static inline int
col_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

static inline int64_t
col_i64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

static inline uint32_t
col_u32(sqlite3_stmt *st, int i)
{
	return (uint32_t)sqlite3_column_int64(st, i);
}

/* Text of column i, or "" when NULL. */
static inline const char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char	*s = sqlite3_column_text(st, i);

	return s != NULL ? (const char *)s : "";
}

#endif
