/*
 * cmd-metrics: `gpulens metrics REPORT GLOB...` prints the metrics whose
 * name or display label matches one of the shell patterns, for every
 * selected launch of an Nsight Compute report.
 *   long form (default)  one row per launch and metric: section, name,
 *                        label, value, unit, instance count; with --json
 *                        also the instanced values ({id, value} pairs)
 *   --by launch          wide form: one row per launch, one column per
 *                        metric name
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "report/report.h"
#include "util/xmalloc.h"

#define METRICS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_FILTER | OPT_BY)

static cmd_rmodel_t	metrics_run;

/* --by takes one value here: a row per launch. */
static const struct cmd_option metrics_vopts[] = {
	{ "--by", "launch", "one row per launch, a column per metric",
	    CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_metrics_entry = {
	.name = "metrics",
	.usage = "gpulens metrics [OPTIONS] REPORT GLOB...",
	.help =
	"Prints the metrics of an Nsight Compute report whose name or label\n"
	"matches a shell pattern ('sm__*', '*pct*', 'Duration', '*' for all),\n"
	"one row per launch and metric; --by launch gives one row per launch\n"
	"and one column per metric. --name and the other filters select\n"
	"launches. On a timeline trace, metrics --type TYPE TRACE answers\n"
	"as another verb: cpu-sampling as samples, cpu-sched as threads,\n"
	"gpu, nic and host as counters --type TYPE.",
	.args = { 2, -1, NULL },
	.input = CMD_IN_REPORT,
	.options = METRICS_OPTS,
	.vopts = metrics_vopts,
	.rmodel = metrics_run
};

/* Wide rows: a field per metric, in the order of the metrics. */
static const char *metrics_wide_columns[] = { "key", "launch_id", NULL };

static int
metrics_match(const struct report *r, const struct report_metric *m,
    const struct opts *o)
{
	const char	*name = report_str(r, m->name);
	const char	*label = report_str(r, m->label);
	int		 a;

	for (a = 1; a < o->nargs; a++) {
		if (fnmatch(o->args[a], name, 0) == 0)
			return 1;
		if (*label != '\0' && fnmatch(o->args[a], label, 0) == 0)
			return 1;
	}
	return 0;
}

static void
metrics_instances(cJSON *row, const struct report *r,
    const struct report_metric *m)
{
	cJSON	*arr = cJSON_AddArrayToObject(row, "instance_values"), *e;
	size_t	 k;

	for (k = 0; k < m->ninst; k++) {
		const struct report_instance *in = &r->instances[m->inst + k];
		e = cJSON_CreateObject();
		cmd_report_value(e, "id", r, &in->corr);
		cmd_report_value(e, "value", r, &in->value);
		cJSON_AddItemToArray(arr, e);
	}
}

/* What metrics_run's launches add up to. */
struct metrics_each {
	const struct opts	*o;
	int			 wide;	/* --by launch */
	size_t			 nmatch;
};

/* The rows of the metrics of launch i that match (one row, wide). */
static void
metrics_launch(struct out *out, const struct report *r, uint32_t i,
    void *arg)
{
	struct metrics_each		*e = arg;
	const struct report_launch	*l = &r->launches[i];
	const struct report_metric	*m;
	cJSON				*row = NULL;
	size_t				 k;

	for (k = 0; k < l->nmetrics; k++) {
		m = &r->metrics[l->metric + k];
		if (!metrics_match(r, m, e->o))
			continue;
		e->nmatch++;
		if (e->wide) {
			if (row == NULL)
				row = cmd_report_launch_row(out, l->id);
			if (cJSON_GetObjectItemCaseSensitive(row,
			    report_str(r, m->name)) == NULL)
				cmd_report_value(row, report_str(r, m->name),
				    r, &m->value);
			continue;
		}
		row = cmd_report_metric_row(out, r, l, m);
		out_str(row, "kernel", report_launch_name(r, i));
		out_str(row, "section", m->section < r->nsections ?
		    report_str(r, r->sections[m->section].name) : "");
		out_str(row, "name", report_str(r, m->name));
		out_str(row, "label", report_str(r, m->label));
		cmd_report_value(row, "value", r, &m->value);
		out_str(row, "unit", report_str(r, m->unit));
		out_int(row, "instances", m->ninst);
		if (e->o->format == OUT_JSON && m->ninst > 0)
			metrics_instances(row, r, m);
	}
	if (e->wide && row != NULL)
		out_str(row, "kernel", report_launch_name(r, i));
}

static int
metrics_run(const struct report *r, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct metrics_each		 e;
	size_t				 n;
	int				 wide = 0;

	if (o->by != NULL) {
		if (strcmp(o->by, "launch") != 0) {
			*code = "usage";
			*cause = xasprintf("--by takes 'launch' here (one row "
			    "per launch), not '%s'", o->by);
			return -1;
		}
		wide = 1;
	}
	memset(&e, 0, sizeof e);
	e.o = o;
	e.wide = wide;
	if (cmd_report_each(r, o, REPORT_NONE, metrics_launch, out, &e, &n,
	    cause) != 0)
		return -1;
	if (wide)
		out->columns = metrics_wide_columns;
	else {
		if (o->format == OUT_TABLE && o->fields == NULL)
			out->fields = "launch_id,section,label,name,value,"
			    "unit,instances";
	}
	if (e.nmatch == 0)
		out_warn(out, "no_match",
		    "no metric matches");
	return 0;
}

/* The timeline verbs `metrics --type TYPE` stands for. */
static const struct {
	const char	*type;
	const char	*verb;
	int		 keep;		/* the verb takes --type TYPE too */
} metrics_types[] = {
	{ "cpu-sampling", "samples", 0 },
	{ "cpu-sched", "threads", 0 },
	{ "gpu", "counters", 1 },
	{ "nic", "counters", 1 },
	{ "host", "counters", 1 },
};

int
cmd_metrics_alias(int ac, char **av)
{
	const char	*t;
	size_t		 k;
	int		 i, j, skip;

	if (ac < 2 || strcmp(av[0], "metrics") != 0)
		return ac;
	for (i = 1; i < ac; i++) {
		if (strcmp(av[i], "--") == 0)
			return ac;
		if (strncmp(av[i], "--type=", 7) == 0) {
			t = av[i] + 7;
			skip = 1;
		} else if (strcmp(av[i], "--type") == 0 && i + 1 < ac) {
			t = av[i + 1];
			skip = 2;
		} else
			continue;
		for (k = 0; k < sizeof metrics_types / sizeof *metrics_types;
		    k++) {
			if (strcmp(t, metrics_types[k].type) != 0)
				continue;
			av[0] = (char *)(uintptr_t)metrics_types[k].verb;
			if (metrics_types[k].keep)
				return ac;
			for (j = i; j + skip <= ac; j++)
				av[j] = av[j + skip];
			return ac - skip;
		}
		return ac;
	}
	return ac;
}
