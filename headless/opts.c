/*
 * opts: parsing of the shared verb options (see opts.h).
 *
 * The option table below is the single description of every shared option:
 * its name, the group that enables it, whether it takes a value, and its
 * help line. opts_help() and the man-page test are generated from it.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "headless/opts.h"
#include "util/units.h"
#include "util/xmalloc.h"

enum opt_id {
	O_JSON, O_FORMAT, O_FIELDS, O_ABSOLUTE, O_SORT, O_LIMIT, O_OFFSET,
	O_FROM, O_TO, O_UNTIL, O_NVTX, O_ITER, O_DEVICE, O_STREAM, O_PID,
	O_TID, O_NAME, O_NAME_REGEX, O_MIN_DUR, O_TYPE, O_GROUP_BY, O_SCOPE,
	O_BUCKETS, O_BUCKET, O_BY, O_RANGE, O_TOFMT, O_TREE, O_WINDOW,
	O_NVTX_DOMAIN, O_FULL_NAMES
};

/* How an option's value is stored: where off names a field of struct opts. */
enum opt_how {
	OH_FLAG,	/* int set to 1 (no value) */
	OH_STR,		/* const char *, the value as given */
	OH_CHOICE,	/* const char *: one of the '|' words of arg */
	OH_INT,		/* long long, an integer of at least 0 */
	OH_DUR,		/* int64_t, a duration of at least 0 */
	OH_SPECIAL	/* parsed by opts_special() */
};

struct opt_desc {
	enum opt_id	 id;
	const char	*name;
	unsigned	 group;
	enum opt_how	 how;
	size_t		 off;	/* the field of struct opts it sets */
	const char	*arg;	/* what the value is, "" for a flag */
	const char	*help;
};

#define OF(field)	offsetof(struct opts, field)

static const struct opt_desc opt_table[] = {
	{ O_JSON, "--json", OPT_OUTPUT, OH_SPECIAL, OF(format),
	    "", "print the JSON envelope instead of a table" },
	{ O_FORMAT, "--format", OPT_OUTPUT, OH_SPECIAL, OF(format),
	    "table|json|csv", "output format" },
	{ O_FIELDS, "--fields", OPT_OUTPUT, OH_STR, OF(fields),
	    "a,b,c", "only these row fields (key is always kept)" },
	{ O_ABSOLUTE, "--absolute", OPT_OUTPUT, OH_FLAG, OF(absolute),
	    "", "times in the source's clock instead of relative to the origin" },
	{ O_FULL_NAMES, "--full-names", OPT_OUTPUT, OH_FLAG, OF(full_names),
	    "", "kernel names whole, template arguments and all" },
	{ O_SORT, "--sort", OPT_PAGE, OH_STR, OF(sort),
	    "FIELD[:asc|desc]", "order rows by a field" },
	{ O_LIMIT, "--limit", OPT_PAGE, OH_SPECIAL, OF(limit),
	    "N", "at most N rows (default 50; 0 = all)" },
	{ O_OFFSET, "--offset", OPT_PAGE, OH_INT, OF(offset),
	    "N", "skip the first N rows" },
	{ O_TOFMT, "--to", OPT_TO, OH_STR, OF(to_format),
	    "perfetto|csv|svg|html", "export format" },
	{ O_FROM, "--from", OPT_WINDOW, OH_SPECIAL, OF(from),
	    "TIME", "window start (ns, or 12.5ms, 3s; @ for absolute)" },
	{ O_TO, "--to", OPT_WINDOW, OH_SPECIAL, OF(to),
	    "TIME", "window end" },
	{ O_UNTIL, "--until", OPT_WINDOW, OH_SPECIAL, OF(to),
	    "TIME", "window end (same as --to)" },
	{ O_NVTX, "--nvtx", OPT_WINDOW, OH_STR, OF(nvtx),
	    "RANGE[@DOMAIN]", "only inside instances of this NVTX range" },
	{ O_ITER, "--iter", OPT_WINDOW, OH_INT, OF(iter),
	    "N", "only the Nth (0-based) instance of the --nvtx range" },
	{ O_WINDOW, "--window", OPT_WINDOW, OH_CHOICE, OF(window),
	    "steady", "only the steady-state window (see the window verb)" },
	{ O_DEVICE, "--device", OPT_FILTER, OH_INT, OF(device),
	    "ID", "only this GPU" },
	{ O_STREAM, "--stream", OPT_FILTER, OH_INT, OF(stream),
	    "ID", "only this stream" },
	{ O_PID, "--pid", OPT_FILTER, OH_INT, OF(pid),
	    "PID", "only this process" },
	{ O_TID, "--tid", OPT_FILTER, OH_INT, OF(tid),
	    "TID", "only this thread" },
	{ O_NAME, "--name", OPT_FILTER, OH_STR, OF(name_glob),
	    "GLOB", "only names matching the shell pattern" },
	{ O_NAME_REGEX, "--name-regex", OPT_FILTER, OH_STR, OF(name_regex),
	    "RE", "only names matching the extended regular expression" },
	{ O_MIN_DUR, "--min-dur", OPT_FILTER, OH_DUR, OF(min_dur),
	    "DUR", "only events at least this long" },
	{ O_TYPE, "--type", OPT_TYPE, OH_SPECIAL, OF(type),
	    "KIND", "kernel, memcpy, memset, sync, api, osrt, nvtx or comm" },
	{ O_GROUP_BY, "--group-by", OPT_GROUP, OH_STR, OF(group_by),
	    "AXES",
	    "name, short-name, device, stream, pid, tid, nvtx-path, iter, kind" },
	{ O_SCOPE, "--scope", OPT_SCOPE, OH_CHOICE, OF(scope),
	    "stream|device|all", "what counts as idle" },
	{ O_BUCKETS, "--buckets", OPT_BUCKETS, OH_SPECIAL, OF(buckets),
	    "N", "number of buckets" },
	{ O_BUCKET, "--bucket", OPT_BUCKETS, OH_SPECIAL, OF(bucket_ns),
	    "DUR", "bucket width" },
	{ O_BY, "--by", OPT_BY, OH_STR, OF(by),
	    "nvtx-path", "break down by this axis" },
	{ O_RANGE, "--range", OPT_RANGE, OH_STR, OF(range),
	    "NAME", "NVTX range that marks an iteration" },
	{ O_TREE, "--tree", OPT_TREE, OH_FLAG, OF(tree),
	    "", "show the tree, not aggregates" },
	{ O_NVTX_DOMAIN, "--nvtx-domain", OPT_NVTXDOM, OH_STR, OF(nvtx_domain),
	    "DOMAIN", "innermost NVTX range only from this domain" },
};
#define NOPTS (sizeof opt_table / sizeof opt_table[0])

static int
opts_parse_int(const char *s, long long min, long long *out)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (end == s || *end != '\0' || errno != 0 || v < min)
		return -1;
	*out = v;
	return 0;
}

/* The index of val among the '|'-separated words of list, or -1. */
static int
opts_choice(const char *list, const char *val)
{
	size_t	n = strlen(val);
	int	k;

	if (strchr(val, '|') != NULL)
		return -1;
	for (k = 0;; k++) {
		if (strncmp(list, val, n) == 0 &&
		    (list[n] == '|' || list[n] == '\0'))
			return k;
		if ((list = strchr(list, '|')) == NULL)
			return -1;
		list++;
	}
}

/* The options the table cannot store alone. Returns 0, or -1: bad value. */
static int
opts_special(struct opts *o, const struct opt_desc *d, const char *val)
{
	int	k;

	switch (d->id) {
	case O_JSON:
		o->format = OUT_JSON;
		return 0;
	case O_FORMAT:
		/* Its words are in the order of enum out_format. */
		if ((k = opts_choice(d->arg, val)) < 0)
			return -1;
		o->format = (enum out_format)k;
		return 0;
	case O_FROM:
		return units_parse_time(val, &o->from, &o->from_abs);
	case O_TO:
	case O_UNTIL:
		return units_parse_time(val, &o->to, &o->to_abs);
	case O_LIMIT:
		if (opts_parse_int(val, 0, &o->limit) != 0)
			return -1;
		o->limit_set = 1;
		return 0;
	case O_BUCKETS:
		return opts_parse_int(val, 1, &o->buckets) != 0 ||
		    o->buckets > 100000 ? -1 : 0;
	case O_BUCKET:
		return units_parse_dur(val, &o->bucket_ns) != 0 ||
		    o->bucket_ns <= 0 ? -1 : 0;
	case O_TYPE:
		o->type_name = val;
		if (strcmp(val, "comm") == 0)
			o->type = -1;	/* communication */
		else if ((o->type = ev_kind_parse(val)) <= 0)
			return -1;
		return 0;
	default:
		abort();	/* not special: a bug in the table */
	}
}

/* Stores the value of option d. Returns 0, or -1: bad value. */
static int
opts_store(struct opts *o, const struct opt_desc *d, const char *val)
{
	char		*field = (char *)o + d->off;
	long long	 v;
	int64_t		 t;

	switch (d->how) {
	case OH_FLAG:
		*(int *)field = 1;
		return 0;
	case OH_CHOICE:
		if (opts_choice(d->arg, val) < 0)
			return -1;
		/* FALLTHROUGH */
	case OH_STR:
		*(const char **)field = val;
		return 0;
	case OH_INT:
		if (opts_parse_int(val, 0, &v) != 0)
			return -1;
		*(long long *)field = v;
		return 0;
	case OH_DUR:
		if (units_parse_dur(val, &t) != 0 || t < 0)
			return -1;
		*(int64_t *)field = t;
		return 0;
	case OH_SPECIAL:
		break;
	}
	return opts_special(o, d, val);
}

int
opts_parse(struct opts *o, unsigned accepted, int argc, char **argv,
    char **cause)
{
	const struct opt_desc	*d;
	const char		*a, *val;
	size_t			 k;
	int			 i, dashdash = 0;

	memset(o, 0, sizeof *o);
	o->accepted = accepted;
	o->limit = 50;
	o->from = o->to = OPT_TIME_UNSET;
	o->iter = o->device = o->stream = o->pid = o->tid = -1;
	o->args = xcalloc((size_t)argc + 1, sizeof *o->args);
	/* --json anywhere before "--" asks for JSON, also for an error
	 * found before it is reached. */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0 ||
		    (strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
		    strcmp(argv[i + 1], "json") == 0))
			o->format = OUT_JSON;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (dashdash || a[0] != '-' || strcmp(a, "-") == 0 ||
		    (a[1] >= '0' && a[1] <= '9')) {
			o->args[o->nargs++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		d = NULL;
		for (k = 0; k < NOPTS; k++) {
			if (strcmp(opt_table[k].name, a) != 0)
				continue;
			if (opt_table[k].group & accepted) {
				d = &opt_table[k];
				break;
			}
			if (d == NULL)
				d = &opt_table[k];
		}
		if (d == NULL) {
			*cause = xasprintf("unknown option: %s", a);
			return -1;
		}
		if (!(d->group & accepted)) {
			*cause = xasprintf("option %s does not apply to this "
			    "verb", a);
			return -1;
		}
		val = NULL;
		if (d->arg[0] != '\0') {
			if (i + 1 >= argc) {
				*cause = xasprintf("option %s needs a value "
				    "(%s)", a, d->arg);
				return -1;
			}
			val = argv[++i];
		}
		if (opts_store(o, d, val) != 0) {
			*cause = xasprintf("bad value for %s: '%s' (expected "
			    "%s)", a, val, d->arg);
			return -1;
		}
	}
	return 0;
}

void
opts_free(struct opts *o)
{
	free(o->args);
	o->args = NULL;
}

char *
opts_args_list(const struct opts *o, int from)
{
	char	*list, *tmp;
	int	 a;

	list = xstrdup(from < o->nargs ? o->args[from] : "");
	for (a = from + 1; a < o->nargs; a++) {
		tmp = xasprintf("%s, %s", list, o->args[a]);
		free(list);
		list = tmp;
	}
	return list;
}

void
opts_apply_out(const struct opts *o, struct out *out)
{
	out->format = o->format;
	out->fields = o->fields;
	out->absolute = o->absolute;
	out->full_names = o->full_names;
	out->sort = o->sort;
	out->limit = o->limit;
	out->offset = o->offset;
}

/* The row of table entry k is the one parsed for its name under accepted:
 * no earlier accepted row has the same name (export's --to). */
static int
opts_parsed(unsigned accepted, size_t k)
{
	size_t	j;

	if (!(opt_table[k].group & accepted))
		return 0;
	for (j = 0; j < k; j++)
		if ((opt_table[j].group & accepted) &&
		    strcmp(opt_table[j].name, opt_table[k].name) == 0)
			return 0;
	return 1;
}

void
opts_each(unsigned accepted, void (*fn)(const char *, const char *,
    const char *, void *), void *arg)
{
	size_t	k;

	for (k = 0; k < NOPTS; k++)
		if (opts_parsed(accepted, k))
			fn(opt_table[k].name, opt_table[k].arg[0] != '\0' ?
			    opt_table[k].arg : NULL, opt_table[k].help, arg);
}

const char *
opts_help(unsigned accepted)
{
	static char	buf[4096];
	char		left[64];
	size_t		k, n = 0;

	buf[0] = '\0';
	for (k = 0; k < NOPTS; k++) {
		const struct opt_desc *d = &opt_table[k];
		if (!opts_parsed(accepted, k))
			continue;
		snprintf(left, sizeof left, "%s%s%s", d->name,
		    d->arg[0] != '\0' ? " " : "", d->arg);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "  %-26s %s\n",
		    left, d->help);
		if (n >= sizeof buf)
			break;
	}
	return buf;
}
