/*
 * cmd-summary: `gpulens summary` is the one-screen overview: the span, per
 * device the busy time (union of all its streams' GPU work), utilisation,
 * idle, kernel count and time, communication and copy time (each the union
 * of that class's work on the device), then the top kernels, memcpy totals
 * per direction, the communication share and the iterations found.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-report.h"
#include "util/hmap.h"
#include "analysis/iters.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"

#define SUMMARY_OPTS (OPT_OUTPUT)

static int	summary_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);

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
	.options = SUMMARY_OPTS,
	.run = summary_run,
	.report = &summary_report
};

enum sum_class { CLASS_COMM, CLASS_COPY, CLASS_COUNT };

static int
sum_in_class(const struct lane *l, size_t i, int cls)
{
	switch (cls) {
	case CLASS_COMM:
		return l->kind[i] == EV_KERNEL && (l->flags[i] & EVF_COMM);
	case CLASS_COPY:
		return l->kind[i] == EV_MEMCPY || l->kind[i] == EV_MEMSET;
	}
	return 0;
}

/* Union busy of one class of events on one device, whose GPU tracks are
 * trk[0 .. ntrk - 1]. */
static int64_t
sum_class_busy(const struct model *m, const uint32_t *trk, size_t ntrk,
    int cls)
{
	struct coverage		*per = NULL, all;
	const struct coverage	**in = NULL;
	int64_t			*st = NULL, *en = NULL, busy;
	size_t			 n = 0, k, i, u, cap = 0;

	per = xcalloc(ntrk + 1, sizeof *per);
	in = xcalloc(ntrk + 1, sizeof *in);
	for (u = 0; u < ntrk; u++) {
		const struct lane *l = &m->tracks[trk[u]].lane;
		k = 0;
		for (i = 0; i < l->n; i++) {
			if (!sum_in_class(l, i, cls))
				continue;
			if (k + 1 > cap) {
				size_t c2 = cap;
				XGROW(st, cap, k + 1);
				XGROW(en, c2, k + 1);
			}
			st[k] = l->start[i];
			en[k] = l->end[i];
			k++;
		}
		if (k == 0)
			continue;
		coverage_build(&per[n], st, en, k);
		in[n] = &per[n];
		n++;
	}
	memset(&all, 0, sizeof all);
	coverage_union(&all, in, n);
	busy = coverage_total(&all);
	coverage_free(&all);
	for (i = 0; i < n; i++)
		coverage_free(&per[i]);
	free(per);
	free(in);
	free(st);
	free(en);
	return busy;
}

struct kagg {
	uint32_t	 name;
	uint64_t	 count;
	int64_t		 total;
};

static int
kagg_cmp(const void *a, const void *b)
{
	const struct kagg	*x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return (x->name > y->name) - (x->name < y->name);
}

static const char *summary_columns[] = {
	"device", "rank", "name", "busy_ns", "util_pct", "idle_ns", "kernels",
	"kernel_ns", "comm_ns", "comm_pct", "copy_ns", "memcpy_bytes", NULL
};

static void
summary_build(struct out *out, const struct model *m, const char *path)
{
	int64_t		 span = m->end_ns - m->origin_ns, busy, comm, copy;
	int64_t		 kern_ns, all_busy = 0, all_comm = 0;
	uint64_t	 kern_n, bytes;
	struct hmap	 kidx;
	struct kagg	*ka = NULL;
	size_t		 nka = 0, kcap = 0, d, t, i;
	uint64_t	 cp_count[COPY_KIND_COUNT] = { 0 };
	uint64_t	 cp_bytes[COPY_KIND_COUNT] = { 0 };
	int64_t		 cp_time[COPY_KIND_COUNT] = { 0 };
	int64_t		 ktotal = 0;
	uint32_t	*slot;
	int		 isnew, k;
	uint32_t	 p, *doff, *dtrk;
	char		 key[64];
	cJSON		*row, *arr, *o;
	struct iters	 it;
	char		*cause = NULL;

	hmap_init(&kidx);
	model_device_tracks(m, &doff, &dtrk);
	for (d = 0; d < m->ndevices; d++) {
		busy = m->device_cov != NULL ?
		    coverage_total(&m->device_cov[d]) : 0;
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
					slot = hmap_upsert(&kidx, l->name[i],
					    (uint32_t)nka, &isnew);
					if (isnew) {
						XGROW(ka, kcap, nka + 1);
						ka[nka].name = l->name[i];
						ka[nka].count = 0;
						ka[nka].total = 0;
						nka++;
					}
					ka[*slot].count++;
					ka[*slot].total += dur;
					ktotal += dur;
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
		comm = sum_class_busy(m, dtrk + doff[d], doff[d + 1] - doff[d],
		    CLASS_COMM);
		copy = sum_class_busy(m, dtrk + doff[d], doff[d + 1] - doff[d],
		    CLASS_COPY);
		all_busy = sat_add64(all_busy, busy);
		all_comm = sat_add64(all_comm, comm);
		row = out_row(out);
		snprintf(key, sizeof key, "device=%u", m->devices[d].source_id);
		out_str(row, "key", key);
		out_int(row, "device", m->devices[d].source_id);
		out_str(row, "name", model_str(m, m->devices[d].name));
		p = m->devices[d].process;
		if (p < m->nprocesses && m->processes[p].rank >= 0)
			out_int(row, "rank", m->processes[p].rank);
		else
			cJSON_AddNullToObject(row, "rank");
		out_int(row, "busy_ns", busy);
		out_num(row, "util_pct", span > 0 ? 100.0 * (double)busy /
		    (double)span : 0.0);
		out_int(row, "idle_ns", span - busy);
		out_num(row, "idle_pct", span > 0 ? 100.0 *
		    (double)(span - busy) / (double)span : 0.0);
		out_int(row, "kernels", (int64_t)kern_n);
		out_int(row, "kernel_ns", kern_ns);
		out_int(row, "comm_ns", comm);
		out_num(row, "comm_pct", busy > 0 ? 100.0 * (double)comm /
		    (double)busy : 0.0);
		out_int(row, "copy_ns", copy);
		out_int(row, "memcpy_bytes", (int64_t)bytes);
	}
	out_int(out->aux, "span_ns", span);
	out_int(out->aux, "devices", (int64_t)m->ndevices);
	out_num(out->aux, "comm_share_pct", all_busy > 0 ? 100.0 *
	    (double)all_comm / (double)all_busy : 0.0);
	out_num(out->aux, "idle_share_pct", span > 0 && m->ndevices > 0 ?
	    100.0 - 100.0 * (double)all_busy / ((double)span *
	    (double)m->ndevices) : 0.0);
	if (nka > 1)
		qsort(ka, nka, sizeof *ka, kagg_cmp);
	arr = cJSON_AddArrayToObject(out->aux, "top_kernels");
	for (i = 0; i < nka && i < 10; i++) {
		o = cJSON_CreateObject();
		out_str(o, "name", model_str(m, ka[i].name));
		out_int(o, "count", (int64_t)ka[i].count);
		out_int(o, "total_ns", ka[i].total);
		out_num(o, "share_pct", ktotal > 0 ? 100.0 *
		    (double)ka[i].total / (double)ktotal : 0.0);
		cJSON_AddItemToArray(arr, o);
	}
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
		free(durs);
		out_next(out, "gpulens iters %s", path);
	} else
		out_int(o, "count", 0);
	free(cause);
	iters_free(&it);
	out_next(out, "gpulens stats %s --type kernel", path);
	out_next(out, "gpulens gaps %s --scope device", path);
	free(ka);
	free(doff);
	free(dtrk);
	hmap_free(&kidx);
}

static int
summary_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;

	(void)code;
	(void)cause;
	out->limit = 0;
	summary_build(out, m, o->args[0]);
	out->columns = summary_columns;
	out->default_sort = "device:asc";
	return 0;
}
