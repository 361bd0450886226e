/*
 * cmd-ncu-graphs: `gpulens graphs` and `gpulens ranges` on Nsight Compute
 * reports: the workloads ncu profiled as a whole CUDA graph
 * (--graph-profiling graph) or as a range (--replay-mode range or
 * app-range).
 *
 * ranges: a row per range result the report holds (the container counts
 * them apart from kernel results; their messages are not decoded: the
 * row gives their index and size). graphs: a row per result whose metrics
 * name a graph (launch__graph_* or graph__* metrics; inferred: no report
 * with graph profiling was at hand). Either is empty, with a warning that
 * says how to capture them, when the report has none.
 *
 * The verbs' descriptors are thin: for a timeline they refuse (graph and
 * range workloads of traces are another verb's business); the report
 * forms are ncu_graphs_run() and ncu_ranges_run().
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "report/report.h"
#include "util/xmalloc.h"

int	ncu_graphs_run(const struct cmd_ctx *, struct out *, const char **,
	    char **);
int	ncu_ranges_run(const struct cmd_ctx *, struct out *, const char **,
	    char **);

static int
ncu_timeline_refuse(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	(void)out;
	*code = "usage";
	*cause = xasprintf("%s reads Nsight Compute reports here (graph and "
	    "range workloads); %s is a timeline", ctx->entry->name,
	    ctx->o->args[0]);
	return -1;
}

/* The report form of the graphs verb (cmd-graphs.c has the timeline's). */
const struct cmd_form ncu_graphs_form = {
	.command = "report-graphs",
	.args = { 1, 1, NULL },
	.run = ncu_graphs_run
};

static const struct cmd_form ncu_ranges_form = {
	.command = "ranges",
	.args = { 1, 1, NULL },
	.run = ncu_ranges_run
};


const struct cmd_entry cmd_ranges_entry = {
	.name = "ranges",
	.usage = "gpulens ranges [OPTIONS] REPORT",
	.help =
	"The range results of an Nsight Compute report (range replay), a row\n"
	"each with its size; none, with a warning, when the report profiled\n"
	"kernels one by one.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.options = OPT_OUTPUT | OPT_PAGE,
	.run = ncu_timeline_refuse,
	.report = &ncu_ranges_form
};

static int
ncu_graph_metric(const char *n)
{
	return strncmp(n, "launch__graph", 13) == 0 ||
	    strncmp(n, "graph__", 7) == 0;
}

int
ncu_graphs_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct report		*r = ctx->in->r;
	const struct report_launch	*l;
	const struct report_metric	*m;
	cJSON				*row;
	size_t				 i, k, n;
	double				 d;

	(void)code;
	(void)cause;
	for (i = 0; i < r->nlaunches; i++) {
		l = &r->launches[i];
		n = 0;
		for (k = 0; k < l->nmetrics; k++) {
			m = &r->metrics[l->metric + k];
			if (ncu_graph_metric(report_str(r, m->name)))
				n++;
		}
		if (n == 0)
			continue;
		row = cmd_report_launch_row(out, (uint32_t)i);
		out_str(row, "name", report_launch_name(r, (uint32_t)i));
		out_int(row, "graph_metrics", (int64_t)n);
		if (report_metric_num(r, (uint32_t)i,
		    "gpu__time_duration.sum", &d) != 0)
			d = NAN;
		cmd_report_num(row, "duration_ns", d);
	}
	if (out->rows == NULL || cJSON_GetArraySize(out->rows) == 0)
		out_warn(out, "no_graphs", "the report holds no graph "
		    "workloads (capture them with ncu --graph-profiling "
		    "graph)");
	return 0;
}

int
ncu_ranges_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct report	*r = ctx->in->r;
	cJSON			*row;
	size_t			 i;

	(void)code;
	(void)cause;
	for (i = 0; i < r->nranges; i++) {
		row = out_row(out);
		out_key(row, "range", "id=%zu", i);
		out_int(row, "range_id", (int64_t)i);
		out_int(row, "bytes", (int64_t)r->range_bytes[i]);
	}
	if (r->nranges == 0)
		out_warn(out, "no_ranges", "the report holds no range results "
		    "(capture them with ncu --replay-mode range or app-range)");
	return 0;
}
