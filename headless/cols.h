/*
 * cols: the one column description of each verb's answer.
 *
 * A verb's rows and its data.auxiliary are described once, field by field
 * (name, JSON type, nullable or optional, unit, a one-line description and
 * any further JSON Schema keywords). From that description come
 * `gpulens schema VERB` (and so the MCP tools' output schemas), the
 * table's column order and the units a table prints a cell in.
 * headless/cols/VERB.c holds each verb's description; a column that
 * several verbs answer with (pid, device, stream, total_ns, count, key,
 * the report object, ...) is described once in headless/cols/common.c and
 * named there with COLUSE().
 */
#ifndef GPULENS_COLS_H
#define GPULENS_COLS_H

#include <cjson/cJSON.h>

/* JSON types of a field (any of them), and flags. */
#define COL_STR		0x01
#define COL_INT		0x02
#define COL_NUM		0x04
#define COL_BOOL	0x08
#define COL_ARR		0x10
#define COL_OBJ		0x20
#define COL_NULL	0x40	/* may be null */
#define COL_OPT		0x80	/* may be absent */
#define COL_NAME	0x100	/* a (kernel) name: shown with its template
				   arguments elided unless --full-names */
#define COL_COMMON	0x200	/* described in headless/cols/common.c */
#define COL_TYPES	(COL_STR|COL_INT|COL_NUM|COL_BOOL|COL_ARR|COL_OBJ)

struct col {
	const char		*name;	/* NULL ends a list */
	unsigned		 type;	/* COL_* */
	const char		*unit;	/* "ns" (a duration), "ns-time" (a
					   time), "bytes", "pct", ... or NULL */
	const char		*desc;	/* one line */
	const char		*more;	/* more JSON Schema keywords (a JSON
					   object's members), or NULL */
	const struct col	*sub;	/* COL_OBJ: its fields; COL_ARR: the
					   fields of its items (objects) */
};

/*
 * A column of the common dictionary (cols_common, headless/cols/common.c),
 * named by a verb's description: type holds the flags added to the common
 * column's type (COL_NULL, COL_OPT, ...), or a type of its own when it
 * names a JSON type; COLUSEX also gives its own schema keywords (more, ""
 * for none; NULL keeps the common ones) and fields (sub).
 */
#define COLUSE(name, type) \
	{ (name), COL_COMMON|(type), NULL, NULL, NULL, NULL }
#define COLUSEX(name, type, more, sub) \
	{ (name), COL_COMMON|(type), NULL, NULL, (more), (sub) }
#define COL_END		{ NULL, 0, NULL, NULL, NULL, NULL }

/*
 * A row shape when a verb's rows have several: the fields it may hold and
 * those it must (NULL: all it may hold), space-separated, and a
 * field=value that tells it apart (its "const"), or NULL.
 */
struct colvar {
	const char	*when;
	const char	*fields;
	const char	*required;
};

struct coldesc {
	const char		*verb;
	const struct col	*rows;	/* every row field, in table order */
	const struct colvar	*variants; /* NULL-ended, or NULL: one shape,
					   every field required unless
					   COL_OPT */
	const char		*rows_more; /* more keywords of a row (the
					   fields of a row that are data:
					   additionalProperties) */
	const struct col	*aux;	/* the fields of data.auxiliary */
	const char		*aux_more; /* more keywords of auxiliary */
};

extern const struct coldesc *const cols_table[];
extern const struct col cols_common[];
/* Field lists that several descriptions name (headless/cols/common.c). */
extern const struct col cols_aux_report[];	/* auxiliary: the report */
extern const struct col cols_aux_report_opt[];	/* the same, optional */
extern const struct col cols_span_or_null[];	/* start_ns, end_ns, or
						   null */

/* A verb's description, its common columns filled in, or NULL. */
const struct coldesc	*cols_find(const char *verb);
/* The description of a row field, or NULL. */
const struct col	*cols_field(const struct coldesc *, const char *name);
/* JSON Schemas (new trees) of one row and of data.auxiliary. */
cJSON			*cols_rows_schema(const struct coldesc *);
cJSON			*cols_aux_schema(const struct coldesc *);

#endif
