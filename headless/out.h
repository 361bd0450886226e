/*
 * out: the one output path of every headless verb.
 *
 * A verb collects its answer as rows (cJSON objects whose keys are the
 * snake_case, unit-suffixed field names) plus optional auxiliary data, then
 * calls out_emit(), which applies --sort, --offset, --limit and --fields and
 * writes exactly one of:
 *   --json         the versioned envelope (schema "gpulens/v1"):
 *                  {"schema","command","source":{"kind","version"},
 *                   "trace":{"path","kind"},"trace_span":{"origin_ns",
 *                   "span_ns"},"data":{"count","total_matched","truncated",
 *                   "rows":[...],"auxiliary":{...}},"meta":{"warnings":[...],
 *                   "warning_codes":[...],"next":[...]}}
 *   --format csv   a header line and one line per row (RFC 4180 quoting)
 *   otherwise      an aligned table sized to the terminal, in the column
 *                  order and with the units of the verb's column
 *                  description (headless/cols.h): durations and byte
 *                  counts in human units; then auxiliary lines
 * Errors go through out_error(): with --json the same envelope with
 * "error":{"code","message"} instead of "data"; otherwise one line on
 * stderr. Profile strings are sanitised for the terminal in table output and
 * escaped as JSON requires in JSON output.
 *
 * Ownership: struct out owns its cJSON trees; out_free() releases them.
 */
#ifndef GPULENS_OUT_H
#define GPULENS_OUT_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "model/model.h"

#define OUT_SCHEMA	"gpulens/v1"

enum out_format {
	OUT_TABLE = 0,
	OUT_JSON,
	OUT_CSV,
};

struct out {
	const char	*verb;
	enum out_format	 format;
	cJSON		*rows;		/* array of row objects */
	cJSON		*aux;		/* object (auxiliary data) */
	cJSON		*warnings;	/* array of strings */
	cJSON		*warn_codes;	/* their codes (strings) */
	cJSON		*next;		/* array of suggested commands */
	cJSON		*quoted;	/* strings out_q returned (owned) */
	cJSON		*inputs;	/* trace.inputs (strings), or NULL:
					   [path] */
	const char	*sort;		/* "field[:asc|desc]" or NULL */
	const char	*fields;	/* "a,b,c" or NULL */
	long long	 limit;		/* 0 = no limit */
	long long	 offset;
	int		 absolute;	/* times are absolute, not relative */
	int		 full_names;	/* names as they are, not elided */
	const char	*default_sort;	/* used when sort is NULL */
	int		 shape;		/* 0: the table shows the fields in the
					   order of the verb's column
					   description (headless/cols.h); n:
					   in that of its n-th row shape */
	const char	**columns;	/* NULL, or a column order of its own
					   (NULL-ended): an answer whose
					   fields are data */
	long long	 total_matched;	/* -1: the number of rows; a verb that
					   builds only the requested page sets
					   the true count here */
	/* Without a model (an Nsight Compute report): source.kind and
	   trace.kind, and source.version; NULL prints null. */
	const char	*src_kind;
	char		*src_version;	/* owned */
};

void	 out_init(struct out *, const char *verb);
void	 out_free(struct out *);
/* Adds trace files the answer reads to trace.inputs in the envelope
 * (without any, trace.inputs is the path given to out_emit/out_error). */
void	 out_inputs(struct out *, char *const *files, size_t n);
/* A new row object appended to o->rows (borrowed). */
cJSON	*out_row(struct out *);
/* A warning in meta.warnings, its stable code (snake_case) at the same
 * index of meta.warning_codes. */
void	 out_warn(struct out *, const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 out_next(struct out *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * A hint names a field of the answer with OUT_ROWF("field"): out_emit
 * replaces it with that field of the first shown row that has it (shell-
 * quoted), or drops the hint when no row has it, so every hint in
 * meta.next runs as printed.
 */
#define OUT_ROWF(f)	"\001" f "\002"
/* s as one shell word (see shquote), owned by the out: for paths and
 * names in meta.next. */
const char *out_q(struct out *, const char *s);
/*
 * Sorts, pages, projects and prints. m and path describe the trace (m may
 * be NULL for verbs without one). Returns 0, or EXIT_USAGE via out_error
 * when --sort or --fields names an unknown field.
 */
int	 out_emit(struct out *, const struct model *m, const char *path);
/*
 * Reports an error (code: "bad_input", "usage", "not_found", "internal")
 * in the selected format and returns the exit status (2, or 1 for
 * "internal").
 */
int	 out_error(struct out *, const struct model *m, const char *path,
	    const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));

/* Helpers to add typed fields. */
void	 out_str(cJSON *row, const char *key, const char *value);
void	 out_int(cJSON *row, const char *key, int64_t value);
void	 out_num(cJSON *row, const char *key, double value);
void	 out_bool(cJSON *row, const char *key, int value);
/* The row's key, as rowkey() builds it (util/rowkey.h). */
void	 out_key(cJSON *row, const char *kind, const char *fmt, ...);
/*
 * The same, or null where the value is not known: a NULL string, or have 0
 * (value is then left out; it must still be safe to compute).
 */
void	 out_str_or_null(cJSON *row, const char *key, const char *value);
void	 out_int_or_null(cJSON *row, const char *key, int have,
	    int64_t value);
void	 out_num_or_null(cJSON *row, const char *key, int have,
	    double value);

/*
 * Writes s to fp as one CSV field, RFC 4180 quoted where it must be. To a
 * terminal (tty), control characters and bidi overrides are shown as
 * escapes (sanitize.h); to a file or a pipe the bytes are kept.
 */
void	 out_csv_field(FILE *fp, const char *s, int tty);

#endif
