/*
 * out_fuzz: the output path of every verb (headless/out.c) on hostile
 * profile strings: rows with arbitrary keys and values (escape sequences,
 * control characters, bidi overrides, invalid UTF-8, long strings,
 * extreme numbers), sorted, projected and paged, printed as the JSON
 * envelope, a CSV file or a table, or reported as an error.
 *
 * Input: a header of three bytes (format, limit class, offset class), then
 * operations, one byte each followed by their operands: a new row, a
 * string, integer, number or boolean field, a warning, a suggested
 * command, an auxiliary value, --sort, --fields, an error. Strings are a
 * length byte and the bytes; the first length 255 of an input makes a long
 * string of a repeated byte (one more byte: the length in 256-byte units,
 * up to 64 KiB; tests/badinput.py covers 1 MB names end to end).
 *
 * stdout is captured into a file and checked:
 *   JSON   one line that parses, valid UTF-8, no raw control bytes; with
 *          no paging, sorting or projection the rows are exactly the rows
 *          built (invalid UTF-8 replaced by U+FFFD, as documented);
 *   table  valid UTF-8 without C0/C1 controls (other than newlines), DEL
 *          or bidi controls: nothing that a terminal would interpret;
 *   CSV    parses back (RFC 4180) into the same number of records and
 *          fields, string fields byte for byte.
 */
#include "config.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "headless/out.h"
#include "util/sanitize.h"
#include "util/xmalloc.h"

#define FUZZ_MAXSTRS	256

static const char *const keys[] = {
	"key", "name", "total_ns", "start_ns", "count", "total_bytes",
	"share_pct", "x"
};
#define NKEYS	(sizeof keys / sizeof keys[0])

static const long long limits[] = {
	0, 1, 2, 3, 50, LLONG_MAX, LLONG_MAX - 1, 1LL << 62
};
static const long long offsets[] = {
	0, 0, 0, 1, 2, LLONG_MAX, LLONG_MAX - 1, 1LL << 62
};

static char	*capture;
static int	 capfd = -1;
static int	 fixed_keys;	/* table: keys are the verb's, not data */

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	capture = fuzz_path("stdout");
	fflush(stdout);
	capfd = open(capture, O_RDWR | O_CREAT | O_TRUNC | O_APPEND |
	    O_CLOEXEC, 0600);
	if (capfd == -1 || dup2(capfd, STDOUT_FILENO) == -1)
		abort();
	return 0;
}

struct rd {
	const uint8_t	*p;
	size_t		 n, off;
	char		*strs[FUZZ_MAXSTRS];	/* kept until the end */
	size_t		 nstrs;
	int		 long_done;	/* one long string per input */
};

static int
rd_byte(struct rd *r)
{
	return r->off < r->n ? r->p[r->off++] : -1;
}

static uint64_t
rd_u64(struct rd *r)
{
	uint64_t	v = 0;
	int		i, b;

	for (i = 0; i < 8; i++) {
		if ((b = rd_byte(r)) < 0)
			break;
		v |= (uint64_t)b << (8 * i);
	}
	return v;
}

/* A string operand (NULL at the end of the input); owned by r. */
static const char *
rd_str(struct rd *r)
{
	size_t	len, k;
	char	*s;
	int	b, c;

	if ((b = rd_byte(r)) < 0 || r->nstrs == FUZZ_MAXSTRS)
		return NULL;
	if (b == 255 && !r->long_done) {
		r->long_done = 1;
		len = (size_t)(rd_byte(r) & 0xff) * 256;
		c = rd_byte(r);
		s = xmalloc(len + 1);
		memset(s, c > 0 ? c : 'x', len);
		s[len] = '\0';
	} else {
		len = (size_t)b;
		if (len > r->n - r->off)
			len = r->n - r->off;
		s = xmalloc(len + 1);
		memcpy(s, r->p + r->off, len);
		s[len] = '\0';
		r->off += len;
		/* Embedded NULs end C strings early; keep them visible. */
		for (k = 0; k < len; k++)
			if (s[k] == '\0')
				s[k] = '\x01';
	}
	return r->strs[r->nstrs++] = s;
}

static const char *
rd_key(struct rd *r)
{
	int	b = rd_byte(r);

	if (b < 0)
		return NULL;
	if (b == 255 && !fixed_keys)
		return rd_str(r);
	return keys[(size_t)b % NKEYS];
}

/* The captured output (NUL-terminated; caller frees). */
static char *
captured(size_t *len)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 r;

	fflush(stdout);
	if (fstat(capfd, &st) != 0)
		abort();
	buf = xmalloc((size_t)st.st_size + 1);
	r = pread(capfd, buf, (size_t)st.st_size, 0);
	FUZZ_CHECK(r == st.st_size);
	buf[r] = '\0';
	*len = (size_t)r;
	return buf;
}

/* Nothing a terminal would interpret: C0 but newline, DEL, C1, bidi. */
static void
check_terminal_safe(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	FUZZ_CHECK(strlen(s) == len);
	FUZZ_CHECK(sanitize_utf8_valid(s));
	for (i = 0; i < len; i++) {
		FUZZ_CHECK(p[i] >= 0x20 || p[i] == '\n');
		FUZZ_CHECK(p[i] != 0x7f);
		if (p[i] == 0xc2)
			FUZZ_CHECK(p[i + 1] < 0x80 || p[i + 1] > 0x9f);
		if (p[i] == 0xe2 && p[i + 1] == 0x80)
			FUZZ_CHECK(p[i + 2] < 0xaa || p[i + 2] > 0xae);
		if (p[i] == 0xe2 && p[i + 1] == 0x81)
			FUZZ_CHECK(p[i + 2] < 0xa6 || p[i + 2] > 0xa9);
	}
}

/* The rows as JSON would carry them: invalid UTF-8 repaired. */
static void
repair(cJSON *it)
{
	char	*f;

	for (; it != NULL; it = it->next) {
		if (it->string != NULL && !sanitize_utf8_valid(it->string)) {
			f = sanitize_utf8_dup(it->string);
			cJSON_free(it->string);
			it->string = f;
		}
		if (cJSON_IsString(it) && !sanitize_utf8_valid(
		    it->valuestring)) {
			f = sanitize_utf8_dup(it->valuestring);
			cJSON_free(it->valuestring);
			it->valuestring = f;
		}
		if (it->child != NULL)
			repair(it->child);
	}
}

static void
check_json(const char *s, size_t len, cJSON *expect, int error)
{
	cJSON	*env, *data, *rows, *re, *c;
	char	*t, *u;
	size_t	 i;

	FUZZ_CHECK(len > 0 && s[len - 1] == '\n');
	FUZZ_CHECK(strlen(s) == len && sanitize_utf8_valid(s));
	for (i = 0; i + 1 < len; i++)
		FUZZ_CHECK((unsigned char)s[i] >= 0x20);
	FUZZ_CHECK((env = cJSON_ParseWithLength(s, len)) != NULL);
	FUZZ_CHECK(cJSON_IsString(cJSON_GetObjectItem(env, "schema")) &&
	    strcmp(cJSON_GetObjectItem(env, "schema")->valuestring,
	    OUT_SCHEMA) == 0);
	if (error) {
		FUZZ_CHECK(cJSON_IsObject(cJSON_GetObjectItem(env, "error")));
		cJSON_Delete(env);
		return;
	}
	data = cJSON_GetObjectItem(env, "data");
	rows = cJSON_GetObjectItem(data, "rows");
	FUZZ_CHECK(cJSON_IsArray(rows));
	c = cJSON_GetObjectItem(data, "count");
	FUZZ_CHECK(cJSON_IsNumber(c) && c->valueint ==
	    cJSON_GetArraySize(rows));
	if (expect != NULL) {
		repair(expect->child);
		/*
		 * Both sides parsed from text and printed again: equal text
		 * is equal rows, duplicate keys included (cJSON_Compare
		 * looks keys up by name and so cannot tell those apart).
		 */
		t = cJSON_PrintUnformatted(expect);
		re = cJSON_Parse(t);
		free(t);
		FUZZ_CHECK(re != NULL);
		t = cJSON_PrintUnformatted(re);
		u = cJSON_PrintUnformatted(rows);
		FUZZ_CHECK(strcmp(t, u) == 0);
		free(t);
		free(u);
		cJSON_Delete(re);
	}
	cJSON_Delete(env);
}

/* One CSV field from *p; returns it (caller frees), *end set when the
 * record ended. */
static char *
csv_field(const char **p, const char *lim, int *end)
{
	const char	*s = *p;
	char		*f = xmalloc((size_t)(lim - s) + 1), *o = f;

	*end = 0;
	if (s < lim && *s == '"') {
		for (s++; s < lim; s++) {
			if (*s == '"') {
				if (s + 1 < lim && s[1] == '"') {
					*o++ = '"';
					s++;
					continue;
				}
				s++;
				break;
			}
			*o++ = *s;
		}
	} else
		while (s < lim && *s != ',' && *s != '\n')
			*o++ = *s++;
	*o = '\0';
	FUZZ_CHECK(s < lim && (*s == ',' || *s == '\n'));
	*end = *s == '\n';
	*p = s + 1;
	return f;
}

static void
check_csv(const char *s, size_t len, const cJSON *rows)
{
	const char	*p = s, *lim = s + len;
	const cJSON	*r;
	char		*f, **hdr = NULL;
	size_t		 nh = 0, cap = 0, j;
	int		 end;

	do {
		f = csv_field(&p, lim, &end);
		XGROW(hdr, cap, nh + 1);
		hdr[nh++] = f;
	} while (!end);
	cJSON_ArrayForEach(r, rows) {
		for (j = 0; j < nh; j++) {
			const cJSON *it = cJSON_GetObjectItemCaseSensitive(r,
			    hdr[j]);

			FUZZ_CHECK(p < lim);
			f = csv_field(&p, lim, &end);
			FUZZ_CHECK(end == (j + 1 == nh));
			if (cJSON_IsString(it))
				FUZZ_CHECK(strcmp(f, it->valuestring) == 0);
			free(f);
		}
	}
	FUZZ_CHECK(p == lim);
	for (j = 0; j < nh; j++)
		free(hdr[j]);
	free(hdr);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct out	 o;
	struct rd	 r;
	cJSON		*row = NULL, *expect = NULL;
	const char	*k, *v, *path = "trace.sqlite", *errmsg = NULL;
	char		*s;
	uint64_t	 u;
	double		 d;
	size_t		 len, i;
	int		 op, simple, rc;

	if (size < 3)
		return 0;
	memset(&r, 0, sizeof r);
	r.p = data;
	r.n = size;
	out_init(&o, "fuzz");
	o.format = (enum out_format)(rd_byte(&r) % 3);
	o.limit = limits[rd_byte(&r) % 8];
	o.offset = offsets[rd_byte(&r) % 8];
	/*
	 * Row and auxiliary keys are the verb's own names; table output
	 * prints them as they are, so only JSON and CSV get arbitrary ones.
	 */
	fixed_keys = o.format == OUT_TABLE;

	while ((op = rd_byte(&r)) >= 0) {
		switch (op % 12) {
		case 0:
			row = out_row(&o);
			break;
		case 1:
			if (row == NULL || (k = rd_key(&r)) == NULL ||
			    (v = rd_str(&r)) == NULL)
				break;
			out_str(row, k, v);
			break;
		case 2:
			if (row == NULL || (k = rd_key(&r)) == NULL)
				break;
			u = rd_u64(&r);
			out_int(row, k, (int64_t)u);
			break;
		case 3:
			if (row == NULL || (k = rd_key(&r)) == NULL)
				break;
			u = rd_u64(&r);
			memcpy(&d, &u, sizeof d);
			out_num(row, k, d);
			break;
		case 4:
			if (row == NULL || (k = rd_key(&r)) == NULL)
				break;
			out_bool(row, k, rd_byte(&r) & 1);
			break;
		case 5:
			/* Warnings go to stderr in a table: JSON only. */
			if ((v = rd_str(&r)) != NULL && o.format == OUT_JSON)
				out_warn(&o, "fuzz", "%s", v);
			break;
		case 6:
			if ((v = rd_str(&r)) != NULL)
				out_next(&o, "%s", v);
			break;
		case 7:
			if ((k = rd_key(&r)) != NULL && (v = rd_str(&r)) !=
			    NULL)
				cJSON_AddStringToObject(o.aux, k, v);
			break;
		case 8:
			o.sort = rd_str(&r);
			break;
		case 9:
			o.fields = rd_str(&r);
			break;
		case 10:
			errmsg = rd_str(&r);
			break;
		case 11:
			if ((v = rd_str(&r)) != NULL)
				path = v;
			break;
		}
	}

	simple = o.sort == NULL && (o.fields == NULL || *o.fields == '\0') &&
	    o.limit == 0 && o.offset == 0;
	if (simple || o.format == OUT_CSV)
		expect = cJSON_Duplicate(o.rows, 1);
	ftruncate(capfd, 0);
	if (errmsg != NULL && o.format == OUT_JSON) {
		rc = out_error(&o, NULL, path, "bad_input", "%s", errmsg);
		FUZZ_CHECK(rc == 2);
	} else
		rc = out_emit(&o, NULL, path);
	s = captured(&len);
	switch (o.format) {
	case OUT_JSON:
		check_json(s, len, rc == 0 && simple ? expect : NULL,
		    rc != 0);
		break;
	case OUT_TABLE:
		check_terminal_safe(s, len);
		break;
	case OUT_CSV:
		/* With --sort, --fields or paging the rows differ. */
		if (rc == 0 && simple)
			check_csv(s, len, expect);
		break;
	}
	free(s);
	cJSON_Delete(expect);
	out_free(&o);
	for (i = 0; i < r.nstrs; i++)
		free(r.strs[i]);
	return 0;
}
