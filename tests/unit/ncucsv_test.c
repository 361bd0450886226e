/*
 * ncucsv_test: the reader of ncu CSV exports.
 *
 * The real --page details export in $GPULENS_FIXTURES/ncu/nsightful is
 * also split here, line by line, by a deliberately plain splitter (every
 * field of that file is quoted and none holds a newline); every metric row
 * and rule row it finds must be in the report with the same value, unit,
 * type, message and speedup. Synthetic exports cover the --page raw form
 * (units row, thousands separators, unit scaling), ==PROF== lines before
 * the header, quoted newlines, and malformed files.
 */
#include "config.h"

#include <sys/stat.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sources/ncu.h"
#include "sources/ncucsv.h"
#include "report/report.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define MAXF	32

/* Splits one line of an all-quoted CSV: "a","b",...[,] */
static int
split(char *line, char **f)
{
	size_t	 len = strlen(line);
	int	 n = 0, trailing = 0;
	char	*p, *q, *w;

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (len > 0 && line[len - 1] == ',') {
		line[--len] = '\0';
		trailing = 1;
	}
	if (len < 2 || line[0] != '"' || line[len - 1] != '"')
		return -1;
	line[len - 1] = '\0';
	p = line + 1;
	for (;;) {
		q = strstr(p, "\",\"");
		if (q != NULL)
			*q = '\0';
		/* "" inside a field is a quote. */
		for (w = p; (w = strstr(w, "\"\"")) != NULL; w++)
			memmove(w, w + 1, strlen(w + 1) + 1);
		if (n < MAXF)
			f[n++] = p;
		if (q == NULL)
			break;
		p = q + 3;
	}
	if (trailing && n < MAXF)
		f[n++] = (char *)"";
	return n;
}

static int
col(char **head, int n, const char *name)
{
	int	i;

	for (i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	fail_msg("no column %s", name);
	return -1;
}

static double
plain_number(const char *s)
{
	char	buf[64];
	size_t	o = 0;

	for (; *s != '\0' && o < sizeof buf - 1; s++)
		if (*s != ',')
			buf[o++] = *s;
	buf[o] = '\0';
	return strtod(buf, NULL);
}

static const struct report_metric *
find_label(const struct report *r, uint32_t launch, const char *section,
    const char *label)
{
	const struct report_launch	*l = &r->launches[launch];
	const struct report_metric	*m;
	uint32_t			 k;

	for (k = 0; k < l->nmetrics; k++) {
		m = &r->metrics[l->metric + k];
		if (strcmp(report_str(r, m->label), label) == 0 &&
		    m->section < r->nsections &&
		    strcmp(report_str(r, r->sections[m->section].name),
		    section) == 0)
			return m;
	}
	return NULL;
}

/* Checks that metric name of launch in r is the number want. */
static void
metric_is(const struct report *r, uint32_t launch, const char *name,
    double want)
{
	double	d;

	if (report_metric_num(r, launch, name, &d) != 0)
		fail_msg("launch %u: no number %s", launch, name);
	if (d != want)
		fail_msg("launch %u: %s = %.17g, want %.17g", launch, name, d,
		    want);
}

static void
test_fixture(void **state)
{
	const struct report_metric	*m;
	const struct report_rule	*u = NULL;
	struct report			*r;
	char				*path, *cause = NULL, line[8192];
	char				*head[MAXF], *f[MAXF];
	int				 nh, n, cid, csec, cname, cunit, cval;
	int				 crule, ctype, cdesc, cst, csp;
	size_t				 nmetrics = 0, nrules = 0, k;
	FILE				*fp;

	(void)state;
	if ((path = ts_fixture("ncu/nsightful/copy_blocked.csv")) == NULL)
		ts_skip("GPULENS_FIXTURES unset or without "
		    "ncu/nsightful/copy_blocked.csv: skipping the test on the "
		    "real ncu CSV export");
	r = ncucsv_load(path, &cause);
	if (r == NULL)
		fail_msg("%s", cause);
	assert_int_equal(r->format, REPORT_NCU_CSV_DETAILS);
	assert_int_equal(ncu_detect(path), NCU_CSV);

	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof line, fp));
	nh = split(line, head);
	assert_int_equal(nh, 20);
	for (k = 0; k < (size_t)nh; k++)
		head[k] = xstrdup(head[k]);
	cid = col(head, nh, "ID");
	csec = col(head, nh, "Section Name");
	cname = col(head, nh, "Metric Name");
	cunit = col(head, nh, "Metric Unit");
	cval = col(head, nh, "Metric Value");
	crule = col(head, nh, "Rule Name");
	ctype = col(head, nh, "Rule Type");
	cdesc = col(head, nh, "Rule Description");
	cst = col(head, nh, "Estimated Speedup Type");
	csp = col(head, nh, "Estimated Speedup");
	while (fgets(line, sizeof line, fp) != NULL) {
		n = split(line, f);
		assert_true(n >= 15);
		assert_string_equal(f[cid], "0");
		if (*f[cname] != '\0') {
			m = find_label(r, 0, f[csec], f[cname]);
			if (m == NULL)
				fail_msg("metric %s / %s missing", f[csec],
				    f[cname]);
			assert_string_equal(report_str(r, m->unit), f[cunit]);
			if (m->value.type == RV_STRING)
				assert_string_equal(report_str(r,
				    m->value.v.s), f[cval]);
			else
				assert_true(report_value_num(&m->value) ==
				    plain_number(f[cval]));
			nmetrics++;
		}
		if (n > crule && *f[crule] != '\0') {
			for (k = 0; k < r->nrules; k++) {
				u = &r->rules[k];
				if (strcmp(report_str(r, u->message),
				    f[cdesc]) == 0)
					break;
			}
			assert_true(k < r->nrules);
			assert_string_equal(report_str(r, u->ident), f[crule]);
			assert_string_equal(report_str(r, u->section),
			    f[csec]);
			assert_string_equal(report_rule_type_name(u->type),
			    f[ctype]);
			if (*f[csp] != '\0') {
				assert_true(u->speedup ==
				    plain_number(f[csp]));
				assert_string_equal(report_speedup_type_name(
				    u->speedup_type), f[cst]);
			} else
				assert_true(isnan(u->speedup));
			nrules++;
		}
	}
	fclose(fp);
	assert_int_equal(nmetrics, 72);
	assert_int_equal(nrules, 11);
	assert_int_equal(r->nmetrics, nmetrics);
	assert_int_equal(r->nrules, nrules);
	/* The launch itself, and names mapped back to ncu's metrics. */
	assert_int_equal(r->nlaunches, 1);
	assert_int_equal(r->launches[0].pid, 6153);
	assert_int_equal(r->launches[0].context, 1);
	assert_int_equal(r->launches[0].stream, 7);
	assert_int_equal(r->launches[0].block[0], 256);
	assert_int_equal(r->launches[0].grid[0], 1024);
	assert_int_equal(r->launches[0].grid[1], 1);
	assert_string_equal(report_str(r, r->launches[0].process),
	    "python3.11");
	assert_int_equal(strncmp(report_str(r, r->launches[0].function),
	    "copy_blocked[v1,cw51", 20), 0);
	metric_is(r, 0, "gpu__time_duration.sum", 21058944);
	metric_is(r, 0, "sm__warps_active.avg.pct_of_peak_sustained_active",
	    96.26);
	metric_is(r, 0, "dram__bytes.sum.per_second", 196456177859.63);
	assert_true(report_value_num(report_device_attr_get(r, 0,
	    "device__attribute_compute_capability_major")) == 7);
	assert_true(report_value_num(report_device_attr_get(r, 0,
	    "device__attribute_compute_capability_minor")) == 5);
	for (k = 0; k < (size_t)nh; k++)
		free(head[k]);
	report_free(r);
	free(path);
}

static struct report *
parse(const char *text, char **cause)
{
	*cause = NULL;
	return ncucsv_parse(text, strlen(text), "test.csv", cause);
}

/* The report of text, which ncucsv_probe() must take and which must
 * parse into nlaunches launches. */
static struct report *
parse_ok(const char *text, size_t nlaunches)
{
	struct report	*r;
	char		*cause;

	assert_true(ncucsv_probe(text, strlen(text)));
	if ((r = parse(text, &cause)) == NULL)
		fail_msg("ncucsv_parse: %s", cause);
	assert_int_equal(r->nlaunches, nlaunches);
	return r;
}

/* Checks that text is refused with a cause that contains want. */
static void
refused(const char *text, const char *want)
{
	char	*cause;

	assert_null(parse(text, &cause));
	ts_cause_has(cause, want);
	free(cause);
}

static void
test_raw(void **state)
{
	static const char text[] =
	    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\","
	    "\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
	    "\"Grid Size\",\"Device\",\"CC\","
	    "\"gpu__time_duration.sum\",\"dram__bytes.sum.per_second\","
	    "\"launch__func_cache_config\",\"launch__grid_size\"\n"
	    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
	    "\"usecond\","
	    "\"Gbyte/second\",\"\",\"\"\n"
	    "\"0\",\"12\",\"app\",\"host\",\"void ns::k<int>(float *)\","
	    "\"1\","
	    "\"7\",\"(128, 1, 1)\",\"(64, 2, 1)\",\"1\",\"9.0\",\"1,234.5\","
	    "\"1.5\",\"CachePreferNone\",\"128\"\n"
	    "\"1\",\"12\",\"app\",\"host\",\"j(int)\",\"1\",\"8\","
	    "\"(32, 1, 1)\","
	    "\"(1, 1, 1)\",\"1\",\"9.0\",\"2\",\"\",\"\",\"1\"\n";
	struct report			*r;
	const struct report_metric	*m;

	(void)state;
	r = parse_ok(text, 2);
	assert_int_equal(r->format, REPORT_NCU_CSV_RAW);
	assert_string_equal(report_str(r, r->launches[0].function), "k");
	assert_string_equal(report_str(r, r->launches[1].function), "j");
	assert_int_equal(r->launches[0].grid[1], 2);
	assert_int_equal(r->launches[1].stream, 8);
	/* usecond -> ns, Gbyte/second -> byte/s. */
	metric_is(r, 0, "gpu__time_duration.sum", 1234500);
	m = report_metric(r, 0, "gpu__time_duration.sum");
	assert_string_equal(report_str(r, m->unit), "ns");
	metric_is(r, 0, "dram__bytes.sum.per_second", 1.5e9);
	m = report_metric(r, 0, "launch__func_cache_config");
	assert_int_equal(m->value.type, RV_STRING);
	assert_string_equal(report_str(r, m->value.v.s), "CachePreferNone");
	m = report_metric(r, 0, "launch__grid_size");
	assert_int_equal(m->value.type, RV_UINT);
	assert_int_equal(m->value.v.u, 128);
	/* Empty cells are no metric at all. */
	assert_null(report_metric(r, 1, "dram__bytes.sum.per_second"));
	assert_int_equal(r->launches[1].nmetrics, 2);
	assert_int_equal(r->ndevices, 1);
	assert_int_equal(r->devices[0].id, 1);
	assert_int_equal(r->launches[1].device, 0);
	report_free(r);
}

static void
test_details_quirks(void **state)
{
	static const char text[] =
	    "==PROF== Connected to process 7 (/bin/app)\n"
	    "==PROF== Profiling \"k\": 0%....50%....100% - 8 passes\n"
	    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\","
	    "\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
	    "\"Grid Size\",\"Device\",\"CC\","
	    "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\","
	    "\"Rule Name\",\"Rule Type\",\"Rule Description\","
	    "\"Estimated Speedup Type\",\"Estimated Speedup\"\n"
	    "\"3\",\"7\",\"app\",\"h\",\"k()\",\"1\",\"7\",\"(1, 1, 1)\","
	    "\"(1, 1, 1)\",\"0\",\"8.6\",\"GPU Speed Of Light Throughput\","
	    "\"Duration\",\"usecond\",\"2.50\",\"\",\"\",\"\",\"\",\"\"\n"
	    "\"3\",\"7\",\"app\",\"h\",\"k()\",\"1\",\"7\",\"(1, 1, 1)\","
	    "\"(1, 1, 1)\",\"0\",\"8.6\",\"SpeedOfLight\",\"\",\"\",\"\","
	    "\"SOLBottleneck\",\"OPT\",\"line one,\n\"\"two\"\"\",\"global\","
	    "\"33.5\"\n"
	    "\"3\",\"7\",\"app\",\"h\",\"k()\",\"1\",\"7\",\"(1, 1, 1)\","
	    "\"(1, 1, 1)\",\"0\",\"8.6\",\"Memory Workload Analysis\","
	    "\"Memory Throughput\",\"Gbyte/second\",\"1,200.5\",\"\",\"\",\"\","
	    "\"\",\"\"\n";
	struct report		*r;
	const struct report_rule *u;

	(void)state;
	r = parse_ok(text, 1);
	metric_is(r, 0, "gpu__time_duration.sum", 2500);
	metric_is(r, 0, "dram__bytes.sum.per_second", 1200.5e9);
	assert_int_equal(r->nrules, 1);
	u = &r->rules[0];
	assert_string_equal(report_str(r, u->message), "line one,\n\"two\"");
	assert_int_equal(u->type, RR_OPT);
	assert_true(u->speedup == 33.5);
	assert_int_equal(u->speedup_type, RS_GLOBAL);
	report_free(r);
}

static void
test_errors(void **state)
{
	struct report	*r;
	char		*cause;

	(void)state;
	refused("\"ID\",\"Process ID\"\n\"0\",\"1\n",
	    "line 2: a quoted field does not end");
	refused("\"ID\",\"Process ID\"\n\"x\",\"1\"\n", "bad launch ID 'x'");
	refused("\"Name\",\"Value\"\n\"a\",\"1\"\n",
	    "not an Nsight Compute CSV export");
	refused("", "");
	/* A header alone: a report with no launch and a warning. */
	r = parse("\"ID\",\"Process ID\"\n", &cause);
	assert_non_null(r);
	assert_int_equal(r->nlaunches, 0);
	assert_int_equal(r->nwarnings, 1);
	report_free(r);
	assert_false(ncucsv_probe("ID,Process ID\n", 14));
	assert_false(ncucsv_probe("==PROF== only\n", 14));
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_fixture),
	cmocka_unit_test(test_raw),
	cmocka_unit_test(test_details_quirks),
	cmocka_unit_test(test_errors))
