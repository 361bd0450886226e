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

struct opt_desc {
	enum opt_id	 id;
	const char	*name;
	unsigned	 group;
	int		 hasarg;
	const char	*arg;
	const char	*help;
};

static const struct opt_desc opt_table[] = {
	{ O_JSON, "--json", OPT_OUTPUT, 0, NULL,
	    "print the JSON envelope instead of a table" },
	{ O_FORMAT, "--format", OPT_OUTPUT, 1, "table|json|csv",
	    "output format" },
	{ O_FIELDS, "--fields", OPT_OUTPUT, 1, "a,b,c",
	    "only these row fields (key is always kept)" },
	{ O_ABSOLUTE, "--absolute", OPT_OUTPUT, 0, NULL,
	    "times in the source's clock instead of relative to the origin" },
	{ O_FULL_NAMES, "--full-names", OPT_OUTPUT, 0, NULL,
	    "kernel names whole, template arguments and all" },
	{ O_SORT, "--sort", OPT_PAGE, 1, "FIELD[:asc|desc]",
	    "order rows by a field" },
	{ O_LIMIT, "--limit", OPT_PAGE, 1, "N",
	    "at most N rows (default 50; 0 = all)" },
	{ O_OFFSET, "--offset", OPT_PAGE, 1, "N", "skip the first N rows" },
	{ O_TOFMT, "--to", OPT_TO, 1, "perfetto|csv|svg|html", "export format" },
	{ O_FROM, "--from", OPT_WINDOW, 1, "TIME",
	    "window start (ns, or 12.5ms, 3s; @ for absolute)" },
	{ O_TO, "--to", OPT_WINDOW, 1, "TIME", "window end" },
	{ O_UNTIL, "--until", OPT_WINDOW, 1, "TIME",
	    "window end (same as --to)" },
	{ O_NVTX, "--nvtx", OPT_WINDOW, 1, "RANGE[@DOMAIN]",
	    "only inside instances of this NVTX range" },
	{ O_ITER, "--iter", OPT_WINDOW, 1, "N",
	    "only the Nth (0-based) instance of the --nvtx range" },
	{ O_WINDOW, "--window", OPT_WINDOW, 1, "steady",
	    "only the steady-state window (see the window verb)" },
	{ O_DEVICE, "--device", OPT_FILTER, 1, "ID", "only this GPU" },
	{ O_STREAM, "--stream", OPT_FILTER, 1, "ID", "only this stream" },
	{ O_PID, "--pid", OPT_FILTER, 1, "PID", "only this process" },
	{ O_TID, "--tid", OPT_FILTER, 1, "TID", "only this thread" },
	{ O_NAME, "--name", OPT_FILTER, 1, "GLOB",
	    "only names matching the shell pattern" },
	{ O_NAME_REGEX, "--name-regex", OPT_FILTER, 1, "RE",
	    "only names matching the extended regular expression" },
	{ O_MIN_DUR, "--min-dur", OPT_FILTER, 1, "DUR",
	    "only events at least this long" },
	{ O_TYPE, "--type", OPT_TYPE, 1, "KIND",
	    "kernel, memcpy, memset, sync, api, osrt, nvtx or comm" },
	{ O_GROUP_BY, "--group-by", OPT_GROUP, 1, "AXES",
	    "name, short-name, device, stream, pid, tid, nvtx-path, iter, kind" },
	{ O_SCOPE, "--scope", OPT_SCOPE, 1, "stream|device|all",
	    "what counts as idle" },
	{ O_BUCKETS, "--buckets", OPT_BUCKETS, 1, "N", "number of buckets" },
	{ O_BUCKET, "--bucket", OPT_BUCKETS, 1, "DUR", "bucket width" },
	{ O_BY, "--by", OPT_BY, 1, "nvtx-path", "break down by this axis" },
	{ O_RANGE, "--range", OPT_RANGE, 1, "NAME",
	    "NVTX range that marks an iteration" },
	{ O_TREE, "--tree", OPT_TREE, 0, NULL, "show the tree, not aggregates" },
	{ O_NVTX_DOMAIN, "--nvtx-domain", OPT_NVTXDOM, 1, "DOMAIN",
	    "innermost NVTX range only from this domain" },
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
		if (d->hasarg) {
			if (i + 1 >= argc) {
				*cause = xasprintf("option %s needs a value "
				    "(%s)", a, d->arg);
				return -1;
			}
			val = argv[++i];
		}
		switch (d->id) {
		case O_JSON:
			o->format = OUT_JSON;
			break;
		case O_FORMAT:
			if (strcmp(val, "json") == 0)
				o->format = OUT_JSON;
			else if (strcmp(val, "csv") == 0)
				o->format = OUT_CSV;
			else if (strcmp(val, "table") == 0)
				o->format = OUT_TABLE;
			else
				goto bad;
			break;
		case O_FIELDS:
			o->fields = val;
			break;
		case O_ABSOLUTE:
			o->absolute = 1;
			break;
		case O_FULL_NAMES:
			o->full_names = 1;
			break;
		case O_SORT:
			o->sort = val;
			break;
		case O_LIMIT:
			if (opts_parse_int(val, 0, &o->limit) != 0)
				goto bad;
			o->limit_set = 1;
			break;
		case O_OFFSET:
			if (opts_parse_int(val, 0, &o->offset) != 0)
				goto bad;
			break;
		case O_FROM:
			if (units_parse_time(val, &o->from, &o->from_abs) != 0)
				goto bad;
			break;
		case O_TO:
		case O_UNTIL:
			if (units_parse_time(val, &o->to, &o->to_abs) != 0)
				goto bad;
			break;
		case O_NVTX:
			o->nvtx = val;
			break;
		case O_ITER:
			if (opts_parse_int(val, 0, &o->iter) != 0)
				goto bad;
			break;
		case O_DEVICE:
			if (opts_parse_int(val, 0, &o->device) != 0)
				goto bad;
			break;
		case O_STREAM:
			if (opts_parse_int(val, 0, &o->stream) != 0)
				goto bad;
			break;
		case O_PID:
			if (opts_parse_int(val, 0, &o->pid) != 0)
				goto bad;
			break;
		case O_TID:
			if (opts_parse_int(val, 0, &o->tid) != 0)
				goto bad;
			break;
		case O_NAME:
			o->name_glob = val;
			break;
		case O_NAME_REGEX:
			o->name_regex = val;
			break;
		case O_MIN_DUR:
			if (units_parse_dur(val, &o->min_dur) != 0 ||
			    o->min_dur < 0)
				goto bad;
			break;
		case O_TYPE:
			o->type_name = val;
			if (strcmp(val, "comm") == 0)
				o->type = -1;	/* communication */
			else if ((o->type = ev_kind_parse(val)) <= 0)
				goto bad;
			break;
		case O_GROUP_BY:
			o->group_by = val;
			break;
		case O_SCOPE:
			if (strcmp(val, "stream") != 0 &&
			    strcmp(val, "device") != 0 &&
			    strcmp(val, "all") != 0)
				goto bad;
			o->scope = val;
			break;
		case O_BUCKETS:
			if (opts_parse_int(val, 1, &o->buckets) != 0 ||
			    o->buckets > 100000)
				goto bad;
			break;
		case O_BUCKET:
			if (units_parse_dur(val, &o->bucket_ns) != 0 ||
			    o->bucket_ns <= 0)
				goto bad;
			break;
		case O_BY:
			o->by = val;
			break;
		case O_RANGE:
			o->range = val;
			break;
		case O_TOFMT:
			o->to_format = val;
			break;
		case O_TREE:
			o->tree = 1;
			break;
		case O_NVTX_DOMAIN:
			o->nvtx_domain = val;
			break;
		case O_WINDOW:
			if (strcmp(val, "steady") != 0)
				goto bad;
			o->window = val;
			break;
		}
		continue;
bad:
		*cause = xasprintf("bad value for %s: '%s' (expected %s)", a,
		    val, d->arg);
		return -1;
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
			fn(opt_table[k].name, opt_table[k].hasarg ?
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
		    d->hasarg ? " " : "", d->hasarg ? d->arg : "");
		n += (size_t)snprintf(buf + n, sizeof buf - n, "  %-26s %s\n",
		    left, d->help);
		if (n >= sizeof buf)
			break;
	}
	return buf;
}
