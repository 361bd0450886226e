/*
 * cmd-summary: `gpulens summary` is the one-screen overview: the span, per
 * device the busy time (union of all its streams' GPU work), utilisation,
 * idle, kernel count and time, communication and copy time (each the union
 * of that class's work on the device), then the top kernels, memcpy totals
 * per direction, the communication share and the iterations found.
 *
 * Busy, communication and copy times and the idle share come from the
 * activity analysis (analysis/activity.h), as gaps' do: only devices in
 * use (a stream of theirs ran GPU work) count in the shares; the others
 * are listed with used false and null utilisation and idle. devices is
 * the number of devices in use, devices_total that of the trace.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-report.h"
#include "analysis/activity.h"
#include "analysis/iters.h"
#include "analysis/syncwait.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/verb-ktop.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"
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
	int64_t		 span = m->end_ns - m->origin_ns, busy, comm, copy;
	int64_t		 kern_ns, all_busy = 0, all_comm = 0;
	struct activity	 act;
	struct act_window w;
	struct act_share sh;
	int		 slot;
	uint64_t	 kern_n, bytes;
	struct verb_ktop kt;
	size_t		 d, t, i;
	uint64_t	 cp_count[COPY_KIND_COUNT] = { 0 };
	uint64_t	 cp_bytes[COPY_KIND_COUNT] = { 0 };
	int64_t		 cp_time[COPY_KIND_COUNT] = { 0 };
	int		 k;
	uint32_t	 p, *doff, *dtrk;
	char		 key[64];
	cJSON		*row, *arr, *o;
	struct iters	 it;
	struct syncwait	 sw;
	char		*cause = NULL;

	verb_ktop_init(&kt);
	activity_build_devices(&act, m);
	model_device_tracks(m, &doff, &dtrk);
	for (d = 0; d < m->ndevices; d++) {
		slot = activity_slot(&act, (uint32_t)d);
		activity_window(&act, slot >= 0 ? (size_t)slot : act.ndev,
		    m->origin_ns, m->end_ns, &w);
		busy = w.busy;
		comm = w.comm;
		copy = w.copy;
		kern_n = 0;
		kern_ns = 0;
		bytes = 0;
		for (t = doff[d]; t < doff[d + 1]; t++) {
			const struct lane *l = &m->tracks[dtrk[t]].lane;
			for (i = 0; i < l->n; i++) {
				int64_t dur = l->end[i] - l->start[i];
				if (l->kind[i] == EV_KERNEL) {
					kern_n++;
					kern_ns += dur;
					verb_ktop_add(&kt, l->name[i], dur);
				} else if (l->kind[i] == EV_MEMCPY &&
				    l->aux[i] < m->ncopies) {
					const struct copy_info *c =
					    &m->copies[l->aux[i]];
					int ck = c->kind < COPY_KIND_COUNT ?
					    c->kind : COPY_UNKNOWN;
					bytes += c->bytes;
					cp_count[ck]++;
					cp_bytes[ck] += c->bytes;
					cp_time[ck] += dur;
				}
			}
		}
		all_busy = sat_add64(all_busy, busy);
		all_comm = sat_add64(all_comm, comm);
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
		out_bool(row, "used", slot >= 0);
		out_int(row, "busy_ns", busy);
		if (slot >= 0) {
			out_num(row, "util_pct", span > 0 ? 100.0 *
			    (double)busy / (double)span : 0.0);
			out_int(row, "idle_ns", span - busy);
			out_num(row, "idle_pct", span > 0 ? 100.0 *
			    (double)(span - busy) / (double)span : 0.0);
		} else {
			cJSON_AddNullToObject(row, "util_pct");
			cJSON_AddNullToObject(row, "idle_ns");
			cJSON_AddNullToObject(row, "idle_pct");
		}
		out_int(row, "kernels", (int64_t)kern_n);
		out_int(row, "kernel_ns", kern_ns);
		out_int(row, "comm_ns", comm);
		out_num(row, "comm_pct", busy > 0 ? 100.0 * (double)comm /
		    (double)busy : 0.0);
		out_int(row, "copy_ns", copy);
		out_int(row, "memcpy_bytes", (int64_t)bytes);
	}
	out_int(out->aux, "span_ns", span);
	activity_share(&act, m->origin_ns, m->end_ns, &sh);
	out_int(out->aux, "devices", (int64_t)sh.ndev);
	out_int(out->aux, "devices_total", (int64_t)sh.ntotal);
	out_num(out->aux, "comm_share_pct", all_busy > 0 ? 100.0 *
	    (double)all_comm / (double)all_busy : 0.0);
	out_num(out->aux, "idle_share_pct", sh.idle_pct);
	syncwait_build(&sw, m, m->origin_ns, m->end_ns);
	out_int(out->aux, "sync_calls", (int64_t)sw.calls);
	out_int(out->aux, "sync_blocked_ns", sw.blocked);
	out_num(out->aux, "sync_blocked_pct", span > 0 ? 100.0 *
	    (double)sw.blocked / (double)span : 0.0);
	verb_ktop_emit(&kt, m, out->aux, "top_kernels", 10, 1);
	arr = cJSON_AddArrayToObject(out->aux, "memcpy");
	for (k = 0; k < COPY_KIND_COUNT; k++) {
		if (cp_count[k] == 0)
			continue;
		o = cJSON_CreateObject();
		out_str(o, "direction", copy_kind_name(k));
		out_int(o, "count", (int64_t)cp_count[k]);
		out_int(o, "total_bytes", (int64_t)cp_bytes[k]);
		out_int(o, "total_ns", cp_time[k]);
		cJSON_AddItemToArray(arr, o);
	}
	memset(&it, 0, sizeof it);
	o = cJSON_AddObjectToObject(out->aux, "iterations");
	if (iters_find(m, NULL, &it, &cause) == 0 && it.n > 0) {
		int64_t *durs = xcalloc(it.n, sizeof *durs);
		struct stats st;
		for (i = 0; i < it.n; i++)
			durs[i] = it.v[i].end - it.v[i].start;
		stats_compute(durs, it.n, &st);
		out_str(o, "method", it.method == ITERS_NVTX ? "nvtx" :
		    "kernel");
		out_str(o, "marker", it.marker);
		out_int(o, "count", (int64_t)it.n);
		out_num(o, "median_ns", st.median);
		for (i = 0; i < it.n; i++)
			durs[i] = syncwait_measure(&sw, it.v[i].start,
			    it.v[i].end);
		stats_compute(durs, it.n, &st);
		out_num(o, "sync_blocked_median_ns", st.median);
		free(durs);
		out_next(out, "gpulens iters %s", out_q(out, path));
	} else
		out_int(o, "count", 0);
	free(cause);
	iters_free(&it);
	out_next(out, "gpulens stats %s --type kernel", out_q(out, path));
	out_next(out, "gpulens gaps %s --scope device", out_q(out, path));
	verb_ktop_free(&kt);
	syncwait_free(&sw);
	activity_free(&act);
	free(doff);
	free(dtrk);
}

static int
summary_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	summary_build(out, m, o->args[0]);
	out->default_sort = "device:asc";
	return 0;
}
