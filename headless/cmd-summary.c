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

/* One device's kernels and copies. */
struct summary_dev {
	uint64_t		 kern_n, bytes;
	int64_t			 kern_ns;
};

/* The kernels per name and the copies per direction, of the devices one
 * thread of the pool summed. */
struct summary_acc {
	struct ktop	 kt;
	uint64_t		 cp_count[COPY_KIND_COUNT];
	uint64_t		 cp_bytes[COPY_KIND_COUNT];
	int64_t			 cp_time[COPY_KIND_COUNT];
};

/*
 * What the overview reads from the model, in parts that write apart and
 * so run side by side on the pool: the activity (job 0), the iterations
 * (job 1), each device's kernels and copies (jobs 2 to ndevices + 1) and
 * the synchronisation waits (the last job). The sums per name and
 * direction are integer and the top list sorts by total, then name: adding
 * up the threads' afterwards gives what one pass over the devices gave.
 */
struct summary_parts {
	const struct model	*m;
	struct activity		 act;
	struct iters		 it;
	int			 it_ok;
	struct syncwait		 sw;
	uint32_t		*doff, *dtrk;
	struct summary_dev	*dev;		/* per device */
	struct summary_acc	*acc;		/* per thread */
};

static void
summary_device_work(struct summary_parts *sp, size_t d, unsigned tid)
{
	const struct model	*m = sp->m;
	struct summary_dev	*sd = &sp->dev[d];
	struct summary_acc	*sa = &sp->acc[tid];
	size_t			 t, i;

	for (t = sp->doff[d]; t < sp->doff[d + 1]; t++) {
		const struct lane *l = &m->tracks[sp->dtrk[t]].lane;
		for (i = 0; i < l->n; i++) {
			int64_t dur = l->end[i] - l->start[i];
			if (l->kind[i] == EV_KERNEL) {
				sd->kern_n++;
				sd->kern_ns += dur;
				ktop_add(&sa->kt, l->name[i], dur);
			} else if (l->kind[i] == EV_MEMCPY &&
			    l->aux[i] < m->ncopies) {
				const struct copy_info *c =
				    &m->copies[l->aux[i]];
				int ck = c->kind < COPY_KIND_COUNT ?
				    c->kind : COPY_UNKNOWN;
				sd->bytes += c->bytes;
				sa->cp_count[ck]++;
				sa->cp_bytes[ck] += c->bytes;
				sa->cp_time[ck] += dur;
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

	(void)cause;
	if (job == 0)
		activity_build_devices(&sp->act, m);
	else if (job == 1) {
		sp->it_ok = iters_find(m, NULL, &sp->it, &why) == 0;
		free(why);
	} else if (job - 2 < m->ndevices)
		summary_device_work(sp, job - 2, tid);
	else
		syncwait_build(&sp->sw, m, m->origin_ns, m->end_ns);
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
	struct ktop kt;
	uint64_t	 cp_count[COPY_KIND_COUNT] = { 0 };
	uint64_t	 cp_bytes[COPY_KIND_COUNT] = { 0 };
	int64_t		 cp_time[COPY_KIND_COUNT] = { 0 };
	int		 slot;
	size_t		 d, i;
	unsigned	 nth, j;
	int		 k;
	uint32_t	 p;
	char		 key[64];
	cJSON		*row, *arr, *o;

	memset(&sp, 0, sizeof sp);
	sp.m = m;
	model_device_tracks(m, &sp.doff, &sp.dtrk);
	sp.dev = xcalloc(m->ndevices + 1, sizeof *sp.dev);
	nth = pool_sweep_threads();
	sp.acc = xcalloc(nth, sizeof *sp.acc);
	for (j = 0; j < nth; j++)
		ktop_init(&sp.acc[j].kt);
	(void)pool_run(m->ndevices + 3, nth, summary_job, &sp, NULL);
	ktop_init(&kt);
	for (j = 0; j < nth; j++) {
		const struct summary_acc *sa = &sp.acc[j];
		for (i = 0; i < sa->kt.n; i++)
			ktop_add_sum(&kt, sa->kt.v[i].name,
			    sa->kt.v[i].count, sa->kt.v[i].total);
		for (k = 0; k < COPY_KIND_COUNT; k++) {
			cp_count[k] += sa->cp_count[k];
			cp_bytes[k] += sa->cp_bytes[k];
			cp_time[k] += sa->cp_time[k];
		}
		ktop_free(&sp.acc[j].kt);
	}
	free(sp.acc);
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
		out_int(row, "kernels", (int64_t)sp.dev[d].kern_n);
		out_int(row, "kernel_ns", sp.dev[d].kern_ns);
		out_int(row, "comm_ns", comm);
		out_num(row, "comm_pct", busy > 0 ? 100.0 * (double)comm /
		    (double)busy : 0.0);
		out_int(row, "copy_ns", copy);
		out_int(row, "memcpy_bytes", (int64_t)sp.dev[d].bytes);
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
	ktop_sort(&kt);
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
	ktop_free(&kt);
	free(sp.dev);
	syncwait_free(&sp.sw);
	activity_free(act);
	free(sp.doff);
	free(sp.dtrk);
}

static int
summary_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	summary_build(out, m, o->args[0]);
	out->default_sort = "device:asc";
	return 0;
}
