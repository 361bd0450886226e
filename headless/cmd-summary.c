/*
 * cmd-summary: `gpulens summary` is the one-screen overview: the span, per
 * device the busy time (union of all its streams' GPU work), utilisation,
 * idle, kernel count and time, communication and copy time (each the union
 * of that class's work on the device), then the top kernels, memcpy totals
 * per direction, the communication share and the iterations found.
 *
 * The figures are the overview analysis' (analysis/overview.h); this
 * verb turns them into rows. Busy, communication and copy times and the
 * idle share come from the activity analysis, as gaps' do: only devices
 * in use (a stream of theirs ran GPU work) count in the shares; the others
 * are listed with used false and null utilisation and idle. devices is
 * the number of devices in use, devices_total that of the trace.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-report.h"
#include "analysis/overview.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/verb-ktop.h"
#include "util/rowkey.h"

#define SUMMARY_OPTS (OPT_OUTPUT)

static cmd_model_t	summary_run;

/* On an Nsight Compute report: one row per kernel (cmd-report.c). */
static const struct cmd_form summary_report = {
	"report-summary", { 1, 1, NULL }, cmd_report_summary_run
};

const struct cmd_entry cmd_summary_entry = {
	.name = "summary",
	.usage = "gpulens summary [--json] TRACE",
	.help =
	"The one-screen overview: span; per device busy time (union of its\n"
	"streams), utilisation, idle, kernel count and time, communication and\n"
	"copy time; the top kernels; memcpy totals per direction; the\n"
	"communication share; the iterations found.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER | CMD_ALL_ROWS,
	.options = SUMMARY_OPTS,
	.model = summary_run,
	.report = &summary_report
};

static void
summary_build(struct out *out, const struct model *m, const char *path)
{
	struct overview	 ov;
	const struct overview_dev *od;
	int64_t		 span;
	size_t		 d;
	int		 k;
	uint32_t	 p;
	char		 key[64];
	cJSON		*row, *arr, *o;

	overview_build(m, &ov);
	span = ov.span;
	for (d = 0; d < ov.ndev; d++) {
		od = &ov.dev[d];
		row = out_row(out);
		rowkey_buf(key, sizeof key, "device", "device=%u",
		    m->devices[d].source_id);
		out_str(row, "key", key);
		out_int(row, "device", m->devices[d].source_id);
		out_str(row, "name", model_str(m, m->devices[d].name));
		p = m->devices[d].process;
		if (p < m->nprocesses && m->processes[p].rank >= 0)
			out_int(row, "rank", m->processes[p].rank);
		else
			cJSON_AddNullToObject(row, "rank");
		out_bool(row, "used", od->used);
		out_int(row, "busy_ns", od->busy);
		if (od->used) {
			out_num(row, "util_pct", span > 0 ? 100.0 *
			    (double)od->busy / (double)span : 0.0);
			out_int(row, "idle_ns", span - od->busy);
			out_num(row, "idle_pct", span > 0 ? 100.0 *
			    (double)(span - od->busy) / (double)span : 0.0);
		} else {
			cJSON_AddNullToObject(row, "util_pct");
			cJSON_AddNullToObject(row, "idle_ns");
			cJSON_AddNullToObject(row, "idle_pct");
		}
		out_int(row, "kernels", (int64_t)od->kernels);
		out_int(row, "kernel_ns", od->kernel_ns);
		out_int(row, "comm_ns", od->comm);
		out_num(row, "comm_pct", od->busy > 0 ? 100.0 *
		    (double)od->comm / (double)od->busy : 0.0);
		out_int(row, "copy_ns", od->copy);
		out_int(row, "memcpy_bytes", (int64_t)od->memcpy_bytes);
	}
	out_int(out->aux, "span_ns", span);
	out_int(out->aux, "devices", (int64_t)ov.share.ndev);
	out_int(out->aux, "devices_total", (int64_t)ov.share.ntotal);
	out_num(out->aux, "comm_share_pct", ov.busy > 0 ? 100.0 *
	    (double)ov.comm / (double)ov.busy : 0.0);
	out_num(out->aux, "idle_share_pct", ov.share.idle_pct);
	out_int(out->aux, "sync_calls", (int64_t)ov.sw.calls);
	out_int(out->aux, "sync_blocked_ns", ov.sw.blocked);
	out_num(out->aux, "sync_blocked_pct", span > 0 ? 100.0 *
	    (double)ov.sw.blocked / (double)span : 0.0);
	verb_ktop_emit(&ov.ktop, m, out->aux, "top_kernels", 10, 1);
	arr = cJSON_AddArrayToObject(out->aux, "memcpy");
	for (k = 0; k < COPY_KIND_COUNT; k++) {
		if (ov.copy[k].count == 0)
			continue;
		o = cJSON_CreateObject();
		out_str(o, "direction", copy_kind_name(k));
		out_int(o, "count", (int64_t)ov.copy[k].count);
		out_int(o, "total_bytes", (int64_t)ov.copy[k].bytes);
		out_int(o, "total_ns", ov.copy[k].ns);
		cJSON_AddItemToArray(arr, o);
	}
	o = cJSON_AddObjectToObject(out->aux, "iterations");
	if (ov.it_ok && ov.it.n > 0) {
		out_str(o, "method", ov.it.method == ITERS_NVTX ? "nvtx" :
		    "kernel");
		out_str(o, "marker", ov.it.marker);
		out_int(o, "count", (int64_t)ov.it.n);
		out_num(o, "median_ns", ov.it_median);
		out_num(o, "sync_blocked_median_ns", ov.it_sync_median);
		out_next(out, "gpulens iters %s", out_q(out, path));
	} else
		out_int(o, "count", 0);
	out_next(out, "gpulens stats %s --type kernel", out_q(out, path));
	out_next(out, "gpulens gaps %s --scope device", out_q(out, path));
	overview_free(&ov);
}

static int
summary_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	summary_build(out, m, o->args[0]);
	out->default_sort = "device:asc";
	return 0;
}
