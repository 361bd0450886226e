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
#include "util/pool.h"
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

/*
 * What the overview reads from the model, in four parts that write apart
 * and so run side by side on the pool: the activity (job 0), the
 * iterations (job 1), the synchronisation waits (job 2) and, per device,
 * its kernels and copies (job 3).
 */
struct summary_parts {
	const struct model	*m;
	struct activity		 act;
	struct iters		 it;
	int			 it_ok;
	struct syncwait		 sw;
	uint32_t		*doff, *dtrk;
	uint64_t		*kern_n, *bytes;	/* per device */
	int64_t			*kern_ns;
	struct verb_ktop	 kt;
	uint64_t		 cp_count[COPY_KIND_COUNT];
	uint64_t		 cp_bytes[COPY_KIND_COUNT];
	int64_t			 cp_time[COPY_KIND_COUNT];
};

/* Device d's kernels (count, time, the top list) and copies. */
static void
summary_device_work(struct summary_parts *sp, size_t d)
{
	const struct model	*m = sp->m;
	size_t			 t, i;

	for (t = sp->doff[d]; t < sp->doff[d + 1]; t++) {
		const struct lane *l = &m->tracks[sp->dtrk[t]].lane;
		for (i = 0; i < l->n; i++) {
			int64_t dur = l->end[i] - l->start[i];
			if (l->kind[i] == EV_KERNEL) {
				sp->kern_n[d]++;
				sp->kern_ns[d] += dur;
				verb_ktop_add(&sp->kt, l->name[i], dur);
			} else if (l->kind[i] == EV_MEMCPY &&
			    l->aux[i] < m->ncopies) {
				const struct copy_info *c =
				    &m->copies[l->aux[i]];
				int ck = c->kind < COPY_KIND_COUNT ?
				    c->kind : COPY_UNKNOWN;
				sp->bytes[d] += c->bytes;
				sp->cp_count[ck]++;
				sp->cp_bytes[ck] += c->bytes;
				sp->cp_time[ck] += dur;
			}
		}
	}
}

static int
summary_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct summary_parts	*sp = arg;
	const struct model	*m = sp->m;
	char			*why = NULL;
	size_t			 d;

	(void)tid;
	(void)cause;
	switch (job) {
	case 0:
		activity_build_devices(&sp->act, m);
		break;
	case 1:
		sp->it_ok = iters_find(m, NULL, &sp->it, &why) == 0;
		free(why);
		break;
	case 2:
		syncwait_build(&sp->sw, m, m->origin_ns, m->end_ns);
		break;
	default:
		for (d = 0; d < m->ndevices; d++)
			summary_device_work(sp, d);
		break;
	}
	return 0;
}

static void
summary_build(struct out *out, const struct model *m, const char *path)
{
	int64_t		 span = m->end_ns - m->origin_ns, busy, comm, copy;
	int64_t		 all_busy = 0, all_comm = 0;
	struct summary_parts sp;
	struct activity	*act = &sp.act;
	struct iters	*it = &sp.it;
	struct act_window w;
	struct act_share sh;
	int		 slot;
	size_t		 d, i;
	int		 k;
	uint32_t	 p;
	char		 key[64];
	cJSON		*row, *arr, *o;

	memset(&sp, 0, sizeof sp);
	sp.m = m;
	verb_ktop_init(&sp.kt);
	model_device_tracks(m, &sp.doff, &sp.dtrk);
	sp.kern_n = xcalloc(m->ndevices + 1, sizeof *sp.kern_n);
	sp.bytes = xcalloc(m->ndevices + 1, sizeof *sp.bytes);
	sp.kern_ns = xcalloc(m->ndevices + 1, sizeof *sp.kern_ns);
	(void)pool_run(4, pool_sweep_threads(), summary_job, &sp, NULL);
	for (d = 0; d < m->ndevices; d++) {
		slot = activity_slot(act, (uint32_t)d);
		activity_window(act, slot >= 0 ? (size_t)slot : act->ndev,
		    m->origin_ns, m->end_ns, &w);
		busy = w.busy;
		comm = w.comm;
		copy = w.copy;
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
		out_int(row, "kernels", (int64_t)sp.kern_n[d]);
		out_int(row, "kernel_ns", sp.kern_ns[d]);
		out_int(row, "comm_ns", comm);
		out_num(row, "comm_pct", busy > 0 ? 100.0 * (double)comm /
		    (double)busy : 0.0);
		out_int(row, "copy_ns", copy);
		out_int(row, "memcpy_bytes", (int64_t)sp.bytes[d]);
	}
	out_int(out->aux, "span_ns", span);
	activity_share(act, m->origin_ns, m->end_ns, &sh);
	out_int(out->aux, "devices", (int64_t)sh.ndev);
	out_int(out->aux, "devices_total", (int64_t)sh.ntotal);
	out_num(out->aux, "comm_share_pct", all_busy > 0 ? 100.0 *
	    (double)all_comm / (double)all_busy : 0.0);
	out_num(out->aux, "idle_share_pct", sh.idle_pct);
	out_int(out->aux, "sync_calls", (int64_t)sp.sw.calls);
	out_int(out->aux, "sync_blocked_ns", sp.sw.blocked);
	out_num(out->aux, "sync_blocked_pct", span > 0 ? 100.0 *
	    (double)sp.sw.blocked / (double)span : 0.0);
	verb_ktop_emit(&sp.kt, m, out->aux, "top_kernels", 10, 1);
	arr = cJSON_AddArrayToObject(out->aux, "memcpy");
	for (k = 0; k < COPY_KIND_COUNT; k++) {
		if (sp.cp_count[k] == 0)
			continue;
		o = cJSON_CreateObject();
		out_str(o, "direction", copy_kind_name(k));
		out_int(o, "count", (int64_t)sp.cp_count[k]);
		out_int(o, "total_bytes", (int64_t)sp.cp_bytes[k]);
		out_int(o, "total_ns", sp.cp_time[k]);
		cJSON_AddItemToArray(arr, o);
	}
	o = cJSON_AddObjectToObject(out->aux, "iterations");
	if (sp.it_ok && it->n > 0) {
		int64_t *durs = xcalloc(it->n, sizeof *durs);
		struct stats st;
		for (i = 0; i < it->n; i++)
			durs[i] = it->v[i].end - it->v[i].start;
		stats_compute(durs, it->n, &st);
		out_str(o, "method", it->method == ITERS_NVTX ? "nvtx" :
		    "kernel");
		out_str(o, "marker", it->marker);
		out_int(o, "count", (int64_t)it->n);
		out_num(o, "median_ns", st.median);
		for (i = 0; i < it->n; i++)
			durs[i] = syncwait_measure(&sp.sw, it->v[i].start,
			    it->v[i].end);
		stats_compute(durs, it->n, &st);
		out_num(o, "sync_blocked_median_ns", st.median);
		free(durs);
		out_next(out, "gpulens iters %s", out_q(out, path));
	} else
		out_int(o, "count", 0);
	iters_free(it);
	out_next(out, "gpulens stats %s --type kernel", out_q(out, path));
	out_next(out, "gpulens gaps %s --scope device", out_q(out, path));
	verb_ktop_free(&sp.kt);
	syncwait_free(&sp.sw);
	activity_free(act);
	free(sp.doff);
	free(sp.dtrk);
	free(sp.kern_n);
	free(sp.kern_ns);
	free(sp.bytes);
}

static int
summary_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	summary_build(out, m, o->args[0]);
	out->default_sort = "device:asc";
	return 0;
}
