/*
 * out: envelope, table and CSV output for the headless verbs.
 *
 * Integers are stored as cJSON "raw" items holding their decimal text, so
 * 64-bit nanosecond times survive exactly (a cJSON number is a double and
 * would round anything above 2^53). Sorting reads them back with strtoll.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "headless/cmd.h"
#include "headless/cols.h"
#include "headless/out.h"
#include "headless/warncode.h"
#include "util/rowkey.h"
#include "util/sanitize.h"
#include "util/shquote.h"
#include "util/kelide.h"
#include "util/units.h"
#include "util/sort.h"
#include "util/xmalloc.h"

void
out_init(struct out *o, const char *verb)
{
	memset(o, 0, sizeof *o);
	o->verb = verb;
	o->rows = cJSON_CreateArray();
	o->aux = cJSON_CreateObject();
	o->warnings = cJSON_CreateArray();
	o->warn_codes = cJSON_CreateArray();
	o->next = cJSON_CreateArray();
	o->quoted = cJSON_CreateArray();
	o->limit = 50;
	o->total_matched = -1;
}

void
out_free(struct out *o)
{
	cJSON	**trees[] = { &o->rows, &o->aux, &o->warnings, &o->warn_codes,
	    &o->next, &o->inputs, &o->quoted };
	size_t	  i;

	for (i = 0; i < sizeof trees / sizeof trees[0]; i++) {
		cJSON_Delete(*trees[i]);
		*trees[i] = NULL;
	}
	free(o->src_version);
	o->src_version = NULL;
}

void
out_inputs(struct out *o, char *const *files, size_t n)
{
	size_t	i;

	if (o->inputs == NULL)
		o->inputs = cJSON_CreateArray();
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(o->inputs, cJSON_CreateString(files[i]));
}

cJSON *
out_row(struct out *o)
{
	cJSON	*r = cJSON_CreateObject();

	cJSON_AddItemToArray(o->rows, r);
	return r;
}

static void	out_vpush(cJSON *, const char *, va_list)
		    __attribute__((format(printf, 2, 0)));

/* Appends the formatted string to array a. */
static void
out_vpush(cJSON *a, const char *fmt, va_list ap)
{
	char	*s;

	s = xvasprintf(fmt, ap);
	cJSON_AddItemToArray(a, cJSON_CreateString(s));
	free(s);
}

void
out_warn(struct out *o, const char *code, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	out_vpush(o->warnings, fmt, ap);
	va_end(ap);
	cJSON_AddItemToArray(o->warn_codes, cJSON_CreateString(code));
}

void
out_next(struct out *o, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	out_vpush(o->next, fmt, ap);
	va_end(ap);
}

const char *
out_q(struct out *o, const char *s)
{
	char	*q = shquote(s != NULL ? s : "");
	cJSON	*it = cJSON_CreateString(q);

	free(q);
	cJSON_AddItemToArray(o->quoted, it);
	return it->valuestring;
}

/* The text of field of the first row from index from on that has it
 * (a non-empty string or a number), or NULL. */
static const char *
out_row_field(const struct out *o, long long from, const char *field)
{
	const cJSON	*r, *f;
	long long	 i = 0;

	cJSON_ArrayForEach(r, o->rows) {
		if (i++ < from)
			continue;
		f = cJSON_GetObjectItemCaseSensitive(r, field);
		if ((cJSON_IsString(f) || cJSON_IsRaw(f)) &&
		    f->valuestring != NULL && *f->valuestring != '\0')
			return f->valuestring;
	}
	return NULL;
}

/* Fills the OUT_ROWF marks of the hints from the rows (sorted, before
 * paging and projection); drops a hint whose field no shown row has. */
static void
out_fill_next(struct out *o)
{
	cJSON		*next = cJSON_CreateArray(), *h;
	const char	*s, *a, *b, *v;
	char		*field, *q, *acc;
	int		 ok;

	cJSON_ArrayForEach(h, o->next) {
		s = h->valuestring;
		acc = xstrdup("");
		ok = 1;
		while ((a = strchr(s, '\001')) != NULL &&
		    (b = strchr(a, '\002')) != NULL) {
			field = xstrndup(a + 1, (size_t)(b - a - 1));
			v = out_row_field(o, o->offset, field);
			free(field);
			if (v == NULL) {
				ok = 0;
				break;
			}
			q = shquote(v);
			xstrcatf(&acc, "%.*s%s", (int)(a - s), s, q);
			free(q);
			s = b + 1;
		}
		if (ok) {
			xstrcatf(&acc, "%s", s);
			cJSON_AddItemToArray(next, cJSON_CreateString(acc));
		}
		free(acc);
	}
	cJSON_Delete(o->next);
	o->next = next;
}

void
out_str(cJSON *row, const char *key, const char *value)
{
	cJSON_AddItemToObject(row, key, cJSON_CreateString(value != NULL ?
	    value : ""));
}

void
out_int(cJSON *row, const char *key, int64_t value)
{
	char	buf[32];

	snprintf(buf, sizeof buf, "%lld", (long long)value);
	cJSON_AddItemToObject(row, key, cJSON_CreateRaw(buf));
}

void
out_num(cJSON *row, const char *key, double value)
{
	char	buf[64], *p;

	if (value != value || value > 1e300 || value < -1e300) {
		cJSON_AddItemToObject(row, key, cJSON_CreateNull());
		return;
	}
	/*
	 * Three decimals (sub-nanosecond for times, 0.001 for percentages),
	 * trailing zeros dropped; exponent form only for huge values.
	 */
	if (value > -1e15 && value < 1e15) {
		snprintf(buf, sizeof buf, "%.3f", value);
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
		if (strcmp(buf, "-0") == 0)
			strcpy(buf, "0");
	} else
		snprintf(buf, sizeof buf, "%.17g", value);
	cJSON_AddItemToObject(row, key, cJSON_CreateRaw(buf));
}

void
out_bool(cJSON *row, const char *key, int value)
{
	cJSON_AddItemToObject(row, key, cJSON_CreateBool(value));
}

void
out_key(cJSON *row, const char *kind, const char *fmt, ...)
{
	va_list	 ap;
	char	*key;

	va_start(ap, fmt);
	key = rowkey_v(kind, fmt, ap);
	va_end(ap);
	out_str(row, "key", key);
	free(key);
}

void
out_str_or_null(cJSON *row, const char *key, const char *value)
{
	if (value != NULL)
		out_str(row, key, value);
	else
		cJSON_AddNullToObject(row, key);
}

void
out_int_or_null(cJSON *row, const char *key, int have, int64_t value)
{
	if (have)
		out_int(row, key, value);
	else
		cJSON_AddNullToObject(row, key);
}

void
out_num_or_null(cJSON *row, const char *key, int have, double value)
{
	out_num(row, key, have ? value : NAN);	/* NaN is written as null */
}

/* Numeric value of an item (raw integers, numbers, bools); 0 otherwise. */
static double
out_item_num(const cJSON *it, int *isnum)
{
	*isnum = 1;
	if (cJSON_IsRaw(it))
		return strtod(it->valuestring, NULL);
	if (cJSON_IsNumber(it))
		return it->valuedouble;
	if (cJSON_IsBool(it))
		return cJSON_IsTrue(it);
	*isnum = 0;
	return 0;
}

/*
 * Sorting: the key field of every row is extracted once (a number, or a
 * string), then rows are ordered by it, ties by their "key" field, so the
 * comparator never searches a row's fields.
 */
struct out_sortent {
	cJSON		*row;
	const char	*str;		/* string value, or NULL */
	const char	*key;		/* the row's "key", or "" */
	double		 num;
	long long	 inum;
	int		 kind;		/* 0 missing, 1 integer, 2 number,
					   3 string, 4 other */
};

/* ctx: an int, non-zero for descending. */
static int
out_cmp(const void *a, const void *b, void *ctx)
{
	const struct out_sortent	*x = a, *y = b;
	int				 r = 0;

	/* Rows without the value (null or missing) come last, whichever
	 * the direction. */
	if (x->kind == 0 || y->kind == 0) {
		r = (x->kind == 0) - (y->kind == 0);
		return r != 0 ? r : strcmp(x->key, y->key);
	}
	if (x->kind == 3 && y->kind == 3)
		r = strcmp(x->str, y->str);
	else if (x->kind == 1 && y->kind == 1)
		r = (x->inum > y->inum) - (x->inum < y->inum);
	else if (x->kind <= 2 && y->kind <= 2)
		r = (x->num > y->num) - (x->num < y->num);
	else
		r = (x->kind > y->kind) - (x->kind < y->kind);
	if (*(const int *)ctx)
		r = -r;
	if (r == 0)
		r = strcmp(x->key, y->key);	/* stable, deterministic */
	return r;
}

static void
out_sortent_fill(struct out_sortent *e, cJSON *row, const char *field)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(row, field);
	const cJSON	*k = cJSON_GetObjectItemCaseSensitive(row, "key");
	int		 isnum;

	memset(e, 0, sizeof *e);
	e->row = row;
	e->key = cJSON_IsString(k) ? k->valuestring : "";
	if (it == NULL || cJSON_IsNull(it))
		return;
	if (cJSON_IsString(it)) {
		e->kind = 3;
		e->str = it->valuestring;
		return;
	}
	e->num = out_item_num(it, &isnum);
	if (!isnum) {
		e->kind = 4;
		return;
	}
	e->kind = 2;
	if (cJSON_IsRaw(it) && strchr(it->valuestring, '.') == NULL &&
	    strchr(it->valuestring, 'e') == NULL) {
		e->kind = 1;
		e->inum = strtoll(it->valuestring, NULL, 10);
	}
}

static int
out_has_field(const cJSON *rows, const char *f)
{
	const cJSON	*r;

	cJSON_ArrayForEach(r, rows)
		if (cJSON_GetObjectItemCaseSensitive(r, f) != NULL)
			return 1;
	return 0;
}

/* Sorts o->rows; returns -1 (with *bad set) for an unknown sort field. */
static int
out_sort(struct out *o, char **bad)
{
	const char	*spec = o->sort != NULL ? o->sort : o->default_sort;
	char			*field, *colon;
	struct out_sortent	*v;
	cJSON			*r;
	size_t			 n, i;
	int			 desc;

	if (spec == NULL || cJSON_GetArraySize(o->rows) == 0)
		return 0;
	field = xstrdup(spec);
	desc = 1;
	if ((colon = strchr(field, ':')) != NULL) {
		*colon++ = '\0';
		if (strcmp(colon, "asc") == 0)
			desc = 0;
		else if (strcmp(colon, "desc") != 0) {
			*bad = xasprintf("sort order must be asc or desc, "
			    "not '%s'", colon);
			free(field);
			return -1;
		}
	}
	if (!out_has_field(o->rows, field)) {
		*bad = xasprintf("cannot sort by unknown field '%s'", field);
		free(field);
		return -1;
	}
	n = (size_t)cJSON_GetArraySize(o->rows);
	v = xcalloc(n, sizeof *v);
	i = 0;
	while ((r = cJSON_DetachItemFromArray(o->rows, 0)) != NULL)
		out_sortent_fill(&v[i++], r, field);
	sort_stable(v, n, sizeof *v, out_cmp, &desc);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(o->rows, v[i].row);
	free(v);
	free(field);
	return 0;
}

/* Applies --fields; "key" always stays. */
static int
out_project(struct out *o, char **bad)
{
	char		*list, *f, *save = NULL;
	cJSON		*r, *it, *nr, *nrows;

	if (o->fields == NULL || *o->fields == '\0')
		return 0;
	list = xstrdup(o->fields);
	for (f = strtok_r(list, ",", &save); f != NULL;
	    f = strtok_r(NULL, ",", &save)) {
		if (cJSON_GetArraySize(o->rows) > 0 &&
		    !out_has_field(o->rows, f)) {
			*bad = xasprintf("unknown field '%s'", f);
			free(list);
			return -1;
		}
	}
	free(list);
	nrows = cJSON_CreateArray();
	cJSON_ArrayForEach(r, o->rows) {
		nr = cJSON_CreateObject();
		if ((it = cJSON_GetObjectItemCaseSensitive(r, "key")) != NULL)
			cJSON_AddItemToObject(nr, "key", cJSON_Duplicate(it, 1));
		list = xstrdup(o->fields);
		save = NULL;
		for (f = strtok_r(list, ",", &save); f != NULL;
		    f = strtok_r(NULL, ",", &save)) {
			if (strcmp(f, "key") == 0)
				continue;
			if ((it = cJSON_GetObjectItemCaseSensitive(r, f)) !=
			    NULL)
				cJSON_AddItemToObject(nr, f,
				    cJSON_Duplicate(it, 1));
		}
		free(list);
		cJSON_AddItemToArray(nrows, nr);
	}
	cJSON_Delete(o->rows);
	o->rows = nrows;
	return 0;
}

static void
out_page(struct out *o, long long *total, int *truncated)
{
	cJSON		*it, *next, *kept;
	long long	 n = 0, i = 0, stop;

	/* One pass: cJSON arrays are linked lists, so deleting by index in a
	 * loop would be quadratic. */
	for (it = o->rows->child; it != NULL; it = it->next)
		n++;
	*total = o->total_matched >= 0 ? o->total_matched : n;
	*truncated = o->limit > 0 && *total - o->offset > o->limit;
	if (o->offset <= 0 && !*truncated)
		return;
	/* offset + limit saturates: --limit 9223372036854775807 is "all". */
	stop = o->limit > 0 && o->offset <= LLONG_MAX - o->limit ?
	    o->offset + o->limit : LLONG_MAX;
	kept = cJSON_CreateArray();
	for (it = o->rows->child; it != NULL; it = next, i++) {
		next = it->next;
		if (i < o->offset || i >= stop)
			continue;
		cJSON_DetachItemViaPointer(o->rows, it);
		cJSON_AddItemToArray(kept, it);
	}
	cJSON_Delete(o->rows);
	o->rows = kept;
}

static cJSON *
out_envelope(const struct out *o, const struct model *m, const char *path)
{
	cJSON	*env = cJSON_CreateObject(), *src, *tr, *sp, *in;

	cJSON_AddStringToObject(env, "schema", OUT_SCHEMA);
	cJSON_AddStringToObject(env, "command", o->verb);
	src = cJSON_AddObjectToObject(env, "source");
	tr = cJSON_CreateObject();
	sp = cJSON_CreateObject();
	if (m != NULL) {
		cJSON_AddStringToObject(src, "kind", source_kind_name(m->source));
		cJSON_AddStringToObject(src, "version",
		    model_str(m, m->source_version));
		out_int(sp, "origin_ns", m->origin_ns);
		out_int(sp, "span_ns", m->end_ns - m->origin_ns);
	} else {
		if (o->src_kind != NULL)
			cJSON_AddStringToObject(src, "kind", o->src_kind);
		else
			cJSON_AddNullToObject(src, "kind");
		if (o->src_version != NULL)
			cJSON_AddStringToObject(src, "version",
			    o->src_version);
		else
			cJSON_AddNullToObject(src, "version");
		cJSON_AddNullToObject(sp, "origin_ns");
		cJSON_AddNullToObject(sp, "span_ns");
	}
	if (path != NULL)
		cJSON_AddStringToObject(tr, "path", path);
	else
		cJSON_AddNullToObject(tr, "path");
	if (m != NULL)
		cJSON_AddStringToObject(tr, "kind", source_kind_name(m->source));
	else if (o->src_kind != NULL)
		cJSON_AddStringToObject(tr, "kind", o->src_kind);
	else
		cJSON_AddNullToObject(tr, "kind");
	/* Every trace file read (path is the first argument, kept for
	 * compatibility; a directory stands for its files). */
	if (o->inputs != NULL)
		cJSON_AddItemToObject(tr, "inputs",
		    cJSON_Duplicate(o->inputs, 1));
	else {
		in = cJSON_AddArrayToObject(tr, "inputs");
		if (path != NULL)
			cJSON_AddItemToArray(in, cJSON_CreateString(path));
	}
	cJSON_AddItemToObject(env, "trace", tr);
	cJSON_AddItemToObject(env, "trace_span", sp);
	return env;
}

static void
out_meta(const struct out *o, const struct model *m, cJSON *env)
{
	cJSON		*meta = cJSON_AddObjectToObject(env, "meta");
	cJSON		*w = cJSON_Duplicate(o->warnings, 1);
	cJSON		*wc = cJSON_Duplicate(o->warn_codes, 1);
	const char	*code;
	size_t		 i;

	/*
	 * The load warnings of the trace. "tables not loaded" (tables of
	 * the export no verb reads) is said once, by info, not by every
	 * verb's answer.
	 */
	if (m != NULL)
		for (i = 0; i < m->nwarnings; i++) {
			code = warncode_of(m->warnings[i]);
			if (strcmp(code, "tables_not_loaded") == 0 &&
			    (o->verb == NULL || strcmp(o->verb, "info") != 0))
				continue;
			cJSON_AddItemToArray(w,
			    cJSON_CreateString(m->warnings[i]));
			cJSON_AddItemToArray(wc, cJSON_CreateString(code));
		}
	cJSON_AddItemToObject(meta, "warnings", w);
	cJSON_AddItemToObject(meta, "warning_codes", wc);
	cJSON_AddItemToObject(meta, "next", cJSON_Duplicate(o->next, 1));
}

/*
 * JSON text must be UTF-8: profile strings that are not (a broken exporter,
 * a truncated name) get U+FFFD for each bad byte, in values and keys.
 */
static void
out_fix_utf8(cJSON *it)
{
	char	*fixed;

	for (; it != NULL; it = it->next) {
		if (it->string != NULL && !sanitize_utf8_valid(it->string)) {
			fixed = sanitize_utf8_dup(it->string);
			if (!(it->type & cJSON_StringIsConst))
				cJSON_free(it->string);
			it->string = fixed;
			it->type &= ~cJSON_StringIsConst;
		}
		if (cJSON_IsString(it) && it->valuestring != NULL &&
		    !sanitize_utf8_valid(it->valuestring)) {
			fixed = sanitize_utf8_dup(it->valuestring);
			cJSON_free(it->valuestring);
			it->valuestring = fixed;
		}
		if (it->child != NULL)
			out_fix_utf8(it->child);
	}
}

static void
out_print_json(cJSON *env)
{
	char	*s;

	out_fix_utf8(env);
	s = cJSON_PrintUnformatted(env);
	sanitize_json_fputs(s, stdout);
	fputc('\n', stdout);
	free(s);
}

/* Whether the answer shows field name: the key is for joining JSON;
 * tables show it only when --fields asks for it. */
static int
out_shows(const struct out *o, const char *name)
{
	return o->format != OUT_TABLE || strcmp(name, "key") != 0 ||
	    (o->fields != NULL && strstr(o->fields, "key") != NULL);
}

/* Adds field name to cols if some row has it. */
static void
out_column(const struct out *o, const char ***cols, size_t *cap, size_t *n,
    const char *name)
{
	if (!out_has_field(o->rows, name) || !out_shows(o, name))
		return;
	XGROW(*cols, *cap, *n + 1);
	(*cols)[(*n)++] = name;
}

/*
 * Column list: the order of the verb's column description (or of the
 * shape o->shape of it, or o->columns), then any other keys in row order.
 */
static size_t
out_columns(const struct out *o, const char ***colsp)
{
	const struct coldesc	 *d = cols_find(o->verb);
	const struct col	 *c;
	const char		**cols = NULL, *p, *q;
	size_t			  n = 0, cap = 0, i, k;
	const cJSON		 *r, *it;

	if (o->columns != NULL) {
		for (i = 0; o->columns[i] != NULL; i++)
			out_column(o, &cols, &cap, &n, o->columns[i]);
	} else if (d != NULL && o->shape > 0 && d->variants != NULL) {
		/* The shape's fields, in its order (the names are those of
		 * the description, which outlive the out). */
		p = d->variants[o->shape - 1].fields;
		while (p != NULL && *p != '\0') {
			q = strchr(p, ' ');
			k = q != NULL ? (size_t)(q - p) : strlen(p);
			for (c = d->rows; c->name != NULL; c++)
				if (strlen(c->name) == k &&
				    strncmp(c->name, p, k) == 0)
					out_column(o, &cols, &cap, &n, c->name);
			p = q != NULL ? q + 1 : NULL;
		}
	} else if (d != NULL) {
		for (c = d->rows; c->name != NULL; c++)
			out_column(o, &cols, &cap, &n, c->name);
	}
	cJSON_ArrayForEach(r, o->rows) {
		cJSON_ArrayForEach(it, r) {
			if (!out_shows(o, it->string))
				continue;
			for (i = 0; i < n; i++)
				if (strcmp(cols[i], it->string) == 0)
					break;
			if (i < n)
				continue;
			XGROW(cols, cap, n + 1);
			cols[n++] = it->string;
		}
	}
	*colsp = cols;
	return n;
}

static int
ends_with(const char *s, const char *suf)
{
	size_t	a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/*
 * The unit a table prints field col of verb's rows in: that of the verb's
 * column description; a field it does not name (a metric's) by its name's
 * suffix.
 */
static const char *
out_unit(const char *verb, const char *col)
{
	const struct col	*c;

	if (verb != NULL && (c = cols_field(cols_find(verb), col)) != NULL)
		return c->unit;
	if (ends_with(col, "_ns"))
		return "ns";
	if (ends_with(col, "_bytes"))
		return "bytes";
	if (ends_with(col, "_pct"))
		return "pct";
	return NULL;
}

/*
 * A number with a long fraction and no unit (a ratio, an intensity, as a
 * computation left it) as a table shows it: four significant digits, at
 * most six decimals, no trailing zeros, never in exponent form ("0.7257",
 * "10.38", "323"); the JSON keeps every digit. Numbers of three decimals
 * or fewer (rounded on purpose) are shown as they are.
 */
static int
out_cell_long(const char *raw)
{
	const char	*dot = strchr(raw, '.');

	return dot != NULL && strspn(dot + 1, "0123456789") > 3 &&
	    strpbrk(raw, "eE") == NULL;
}

static char *
out_cell_frac(double d, char *buf, size_t len)
{
	double	a = d < 0 ? -d : d;
	size_t	n;
	int	dec = 3;

	for (; a >= 10 && dec > 0; a /= 10)
		dec--;
	for (; a > 0 && a < 1 && dec < 6; a *= 10)
		dec++;
	snprintf(buf, len, "%.*f", dec, d);
	if (strchr(buf, '.') != NULL) {
		for (n = strlen(buf); n > 0 && buf[n - 1] == '0'; n--)
			buf[n - 1] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[n - 1] = '\0';
	}
	return buf;
}

/* Formats one cell in unit (NULL: none) for humans (sanitised). */
static char *
out_cell(const char *unit, const cJSON *it)
{
	char	 buf[64];
	double	 d;
	int	 isnum;

	if (it == NULL || cJSON_IsNull(it))
		return xstrdup("-");
	if (cJSON_IsString(it))
		return sanitize_dup(it->valuestring, 0);
	if (cJSON_IsBool(it))
		return xstrdup(cJSON_IsTrue(it) ? "yes" : "no");
	if (cJSON_IsArray(it) || cJSON_IsObject(it)) {
		char *s = cJSON_PrintUnformatted(it), *r;
		r = sanitize_dup(s, 0);
		free(s);
		return r;
	}
	d = out_item_num(it, &isnum);
	/* Durations and sizes with units where they fit an integer (a
	 * value no trace can hold, NaN included, is printed as it is). */
	if (unit == NULL)
		unit = "";
	if (strcmp(unit, "ns") == 0 && d > -9.2e18 && d < 9.2e18)
		return xstrdup(units_dur((int64_t)d, buf, sizeof buf));
	if (strcmp(unit, "bytes") == 0 && d > -9.2e18 && d < 1.8e19)
		return xstrdup(units_bytes((uint64_t)(d < 0 ? 0 : d), buf,
		    sizeof buf));
	if (strcmp(unit, "pct") == 0) {
		snprintf(buf, sizeof buf, "%.1f%%", d);
		return xstrdup(buf);
	}
	/* Rates in decimal units, three significant digits. */
	if (strcmp(unit, "bytes/s") == 0 && d >= 0 && d < 1e300)
		return xstrdup(units_rate(d, buf, sizeof buf));
	if (strcmp(unit, "flop/s") == 0 && d >= 0 && d < 1e300)
		return xstrdup(units_flops(d, buf, sizeof buf));
	if (cJSON_IsRaw(it) && out_cell_long(it->valuestring) && isnum &&
	    d > -1e15 && d < 1e15)
		return xstrdup(out_cell_frac(d, buf, sizeof buf));
	if (cJSON_IsRaw(it))
		return xstrdup(it->valuestring);
	snprintf(buf, sizeof buf, "%g", d);
	return xstrdup(buf);
}

static int
out_is_numeric_col(const cJSON *rows, const char *col)
{
	const cJSON	*r, *it;

	cJSON_ArrayForEach(r, rows) {
		it = cJSON_GetObjectItemCaseSensitive(r, col);
		if (it != NULL && (cJSON_IsString(it) || cJSON_IsArray(it) ||
		    cJSON_IsObject(it)))
			return 0;
	}
	return 1;
}

static int
out_term_width(void)
{
	struct winsize	 ws;
	const char	*c;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0
	    && ws.ws_col > 20)
		return ws.ws_col;
	if ((c = getenv("COLUMNS")) != NULL && atoi(c) > 20)
		return atoi(c);
	return 0;	/* unlimited */
}

static void
out_print_table(const struct out *o)
{
	const char	**cols;
	size_t		  ncol, nrow, i, j;
	char		***cells;
	size_t		 *w;
	int		 *num, width = out_term_width(), total, widest;
	const cJSON	 *r;

	ncol = out_columns(o, &cols);
	nrow = (size_t)cJSON_GetArraySize(o->rows);
	if (ncol == 0 || nrow == 0) {
		printf("(no rows)\n");
		free(cols);
		return;
	}
	cells = xcalloc(nrow, sizeof *cells);
	w = xcalloc(ncol, sizeof *w);
	num = xcalloc(ncol, sizeof *num);
	for (j = 0; j < ncol; j++) {
		w[j] = sanitize_width(cols[j]);
		num[j] = out_is_numeric_col(o->rows, cols[j]);
	}
	i = 0;
	cJSON_ArrayForEach(r, o->rows) {
		cells[i] = xcalloc(ncol, sizeof **cells);
		for (j = 0; j < ncol; j++) {
			cells[i][j] = out_cell(out_unit(o->verb, cols[j]),
			    cJSON_GetObjectItemCaseSensitive(r, cols[j]));
			if (sanitize_width(cells[i][j]) > w[j])
				w[j] = sanitize_width(cells[i][j]);
		}
		i++;
	}
	/* Fit the terminal by shrinking the widest text column. */
	if (width > 0) {
		for (;;) {
			total = 0;
			for (j = 0; j < ncol; j++)
				total += (int)w[j] + 2;
			if (total - 2 <= width)
				break;
			widest = -1;
			for (j = 0; j < ncol; j++)
				if (!num[j] && w[j] > 12 &&
				    (widest < 0 || w[j] > w[widest]))
					widest = (int)j;
			if (widest < 0)
				break;
			w[widest] -= (size_t)(total - 2 - width) < w[widest] - 12 ?
			    (size_t)(total - 2 - width) : w[widest] - 12;
		}
	}
	for (j = 0; j < ncol; j++)
		sanitize_print_cell(stdout, cols[j], w[j], num[j],
		    j + 1 == ncol);
	for (i = 0; i < nrow; i++) {
		for (j = 0; j < ncol; j++)
			sanitize_print_cell(stdout, cells[i][j], w[j], num[j],
			    j + 1 == ncol);
		for (j = 0; j < ncol; j++)
			free(cells[i][j]);
		free(cells[i]);
	}
	free(cells);
	free(w);
	free(num);
	free(cols);
}

void
out_csv_field(FILE *fp, const char *s, int tty)
{
	const char	*p;
	char		*safe = NULL;

	if (tty)
		s = safe = sanitize_dup(s, 0);
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		free(safe);
		return;
	}
	fputc('"', fp);
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
	free(safe);
}

static void
out_print_csv(const struct out *o)
{
	const char	**cols;
	size_t		  ncol, j;
	const cJSON	 *r, *it;
	char		 *s;
	int		  tty = isatty(STDOUT_FILENO);

	ncol = out_columns(o, &cols);
	for (j = 0; j < ncol; j++) {
		if (j != 0)
			fputc(',', stdout);
		out_csv_field(stdout, cols[j], tty);
	}
	fputc('\n', stdout);
	cJSON_ArrayForEach(r, o->rows) {
		for (j = 0; j < ncol; j++) {
			if (j != 0)
				fputc(',', stdout);
			it = cJSON_GetObjectItemCaseSensitive(r, cols[j]);
			if (it == NULL || cJSON_IsNull(it))
				continue;
			if (cJSON_IsString(it))
				out_csv_field(stdout, it->valuestring, tty);
			else if (cJSON_IsRaw(it))
				fputs(it->valuestring, stdout);
			else {
				s = cJSON_PrintUnformatted(it);
				out_csv_field(stdout, s, tty);
				free(s);
			}
		}
		fputc('\n', stdout);
	}
	free(cols);
}

/*
 * Elides the (kernel) names among obj's fields that cols marks COL_NAME,
 * down into its objects and arrays of objects (util/kelide.h).
 */
static void
out_elide(const struct col *cols, cJSON *obj)
{
	const struct col	*c;
	cJSON			*it, *el;
	char			*buf;
	size_t			 n;

	if (cols == NULL || !cJSON_IsObject(obj))
		return;
	for (c = cols; c->name != NULL; c++) {
		if ((it = cJSON_GetObjectItemCaseSensitive(obj, c->name)) ==
		    NULL)
			continue;
		if ((c->type & COL_NAME) && cJSON_IsString(it) &&
		    it->valuestring != NULL &&
		    strchr(it->valuestring, '<') != NULL) {
			/* "<...>" may be longer than what it replaces. */
			n = 3 * strlen(it->valuestring) + 1;
			buf = xmalloc(n);
			kname_elide(it->valuestring, buf, n);
			cJSON_ReplaceItemInObjectCaseSensitive(obj, c->name,
			    cJSON_CreateString(buf));
			free(buf);
			continue;
		}
		if (c->sub != NULL && cJSON_IsArray(it)) {
			cJSON_ArrayForEach(el, it)
				out_elide(c->sub, el);
		} else if (c->sub != NULL)
			out_elide(c->sub, it);
	}
}

/* The description of field name among cols, or NULL. */
static const struct col *
out_col(const struct col *cols, const char *name)
{
	for (; cols != NULL && cols->name != NULL; cols++)
		if (strcmp(cols->name, name) == 0)
			return cols;
	return NULL;
}

/*
 * An auxiliary field: a scalar as it is; an array of objects (summary's
 * top_kernels) one line per item, its fields in their units.
 */
static void
out_print_aux(const struct out *o)
{
	const struct coldesc	*d = cols_find(o->verb);
	const struct col	*c, *f;
	const cJSON		*it, *el, *v;
	char			*s, *t;

	cJSON_ArrayForEach(it, o->aux) {
		c = d != NULL ? out_col(d->aux, it->string) : NULL;
		if (cJSON_IsArray(it) && cJSON_GetArraySize(it) > 0 &&
		    cJSON_IsObject(it->child)) {
			printf("%s:\n", sanitize_tmp(it->string));
			cJSON_ArrayForEach(el, it) {
				fputs(" ", stdout);
				cJSON_ArrayForEach(v, el) {
					f = out_col(c != NULL ? c->sub : NULL,
					    v->string);
					t = out_cell(f != NULL ? f->unit :
					    out_unit(NULL, v->string), v);
					printf(" %s %s", sanitize_tmp(v->string),
					    t);
					free(t);
				}
				fputc('\n', stdout);
			}
			continue;
		}
		if (cJSON_IsString(it))
			s = xstrdup(it->valuestring);
		else
			s = cJSON_PrintUnformatted(it);
		t = sanitize_dup(s, 0);
		printf("%s: %s\n", sanitize_tmp(it->string), t);
		free(t);
		free(s);
	}
}

int
out_emit(struct out *o, const struct model *m, const char *path)
{
	cJSON			*env, *data, *r;
	char			*bad = NULL;
	long long		 total;
	int			 truncated, rc;
	const cJSON		*w;
	const struct coldesc	*d;

	if (out_sort(o, &bad) == 0) {
		out_fill_next(o);
		(void)out_project(o, &bad);
	}
	if (bad != NULL) {
		rc = out_error(o, m, path, "usage", "%s", bad);
		free(bad);
		return rc;
	}
	out_page(o, &total, &truncated);
	if (!o->full_names && (d = cols_find(o->verb)) != NULL) {
		cJSON_ArrayForEach(r, o->rows)
			out_elide(d->rows, r);
		out_elide(d->aux, o->aux);
	}
	switch (o->format) {
	case OUT_JSON:
		env = out_envelope(o, m, path);
		data = cJSON_AddObjectToObject(env, "data");
		cJSON_AddNumberToObject(data, "count",
		    cJSON_GetArraySize(o->rows));
		cJSON_AddNumberToObject(data, "total_matched", (double)total);
		cJSON_AddBoolToObject(data, "truncated", truncated);
		cJSON_AddItemToObject(data, "rows", o->rows);
		cJSON_AddItemToObject(data, "auxiliary", o->aux);
		o->rows = o->aux = NULL;
		out_meta(o, m, env);
		out_print_json(env);
		cJSON_Delete(env);
		break;
	case OUT_CSV:
		out_print_csv(o);
		break;
	case OUT_TABLE:
		out_print_table(o);
		if (truncated)
			printf("(%lld of %lld rows; --limit 0 shows all)\n",
			    (long long)cJSON_GetArraySize(o->rows), total);
		out_print_aux(o);
		cJSON_ArrayForEach(w, o->warnings) {
			char *c = sanitize_dup(w->valuestring, 0);
			fprintf(stderr, "warning: %s\n", c);
			free(c);
		}
		break;
	}
	fflush(stdout);
	return 0;
}

int
out_error(struct out *o, const struct model *m, const char *path,
    const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *c;
	cJSON	*env, *err;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (o->format == OUT_JSON) {
		env = out_envelope(o, m, path);
		err = cJSON_AddObjectToObject(env, "error");
		cJSON_AddStringToObject(err, "code", code);
		cJSON_AddStringToObject(err, "message", msg);
		out_meta(o, m, env);
		out_print_json(env);
		cJSON_Delete(env);
	} else {
		c = sanitize_dup(msg, 0);
		fprintf(stderr, "gpulens %s: %s\n", o->verb, c);
		free(c);
	}
	free(msg);
	fflush(stdout);
	return strcmp(code, "internal") == 0 ? EXIT_INTERNAL : EXIT_USAGE;
}
