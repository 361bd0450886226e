/*
 * cmd-queue: `gpulens queue TRACE` lists, per GPU stream, its launch queue
 * (outstanding launches: launch call start to GPU start, as HTA's
 * queue_length_analysis counts them; analysis/queue.h) and HTA's idle
 * breakdown of the stream (host wait, kernel wait, other). The breakdown
 * lives here rather than in `gaps`, whose gaps are unions over the
 * stream's or device's work: HTA's intervals are per stream, between
 * consecutive kernels, and need the same launch links as the queue.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/queue.h"
#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/vopt.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

#define QUEUE_OPTS	(OPT_OUTPUT | OPT_PAGE)

static cmd_run_t	queue_run;

static const struct cmd_option queue_vopts[] = {
	{ "--max-queue", "N", "queue length that counts as full (HTA's "
	    "max_queue_length; default 1024)", CMD_OPT_OWN, vopt_check_count },
	{ "--kernel-delay", "N", "idle intervals below N ns are kernel wait "
	    "(HTA's consecutive_kernel_delay; default 30)", CMD_OPT_OWN,
	    vopt_check_count },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_queue_entry = {
	.name = "queue",
	.usage = "gpulens queue [OPTIONS] TRACE",
	.help =
	"Per GPU stream, the launch queue as HolisticTraceAnalysis defines\n"
	"it (a launch is outstanding from its call's start until its work\n"
	"starts): launches, largest, smallest and mean queue length, time\n"
	"at a full queue (--max-queue); and HTA's idle breakdown of the\n"
	"stream: idle between consecutive kernels split into host wait (the\n"
	"launch came after the previous kernel ended), kernel wait (shorter\n"
	"than --kernel-delay) and other.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = QUEUE_OPTS,
	.vopts = queue_vopts,
	.run = queue_run
};

static int64_t
queue_opt(const struct cmd_ctx *ctx, const char *name, int64_t def)
{
	const char	*v = vopt_get(ctx->v, ctx->nv, name);

	return v != NULL ? strtoll(v, NULL, 10) : def;
}

static int
queue_run(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	struct queue_result	 r;
	const struct queue_stream *q;
	const struct track	*tr;
	const struct stream	*st;
	static const char	*cat[QIDLE_N] = { "host_wait", "kernel_wait",
				    "other" };
	char			 key[128], f[32];
	cJSON			*row, *tot;
	int64_t			 idle, sum[QIDLE_N] = { 0 }, base;
	uint64_t		 nl = 0;
	size_t			 i;
	int			 c;

	(void)code;
	(void)cause;
	base = o->absolute ? 0 : m->origin_ns;
	queue_compute(m, queue_opt(ctx, "--max-queue", QUEUE_MAX_DEFAULT),
	    queue_opt(ctx, "--kernel-delay", QUEUE_DELAY_DEFAULT), &r);
	for (i = 0; i < r.n; i++) {
		q = &r.v[i];
		tr = &m->tracks[q->track];
		st = &m->streams[tr->stream];
		row = out_row(out);
		rowkey_buf(key, sizeof key, "stream",
		    "device=%u|pid=%u|stream=%llu",
		    m->devices[tr->device].source_id, st->process != NONE32 ?
		    m->processes[st->process].pid : 0,
		    (unsigned long long)st->source_id);
		out_str(row, "key", key);
		out_int(row, "device", m->devices[tr->device].source_id);
		if (st->process != NONE32)
			out_int(row, "pid", m->processes[st->process].pid);
		else
			cJSON_AddNullToObject(row, "pid");
		out_int(row, "stream", (int64_t)st->source_id);
		out_int(row, "events", (int64_t)q->events);
		out_int(row, "launches", (int64_t)q->launches);
		out_int(row, "max_queue", q->max);
		out_int(row, "min_queue", q->min);
		out_num(row, "mean_queue", q->mean_time);
		out_num(row, "mean_samples", q->mean_samples);
		if (q->launches > 0) {
			out_int(row, "first_ns", q->first - base);
			out_int(row, "last_ns", q->last - base);
		} else {
			cJSON_AddNullToObject(row, "first_ns");
			cJSON_AddNullToObject(row, "last_ns");
		}
		out_int(row, "full_ns", q->at_max_ns);
		out_num(row, "full_pct", m->end_ns > m->origin_ns ? 100.0 *
		    (double)q->at_max_ns / (double)(m->end_ns - m->origin_ns) :
		    0.0);
		idle = 0;
		for (c = 0; c < QIDLE_N; c++) {
			idle = sat_add64(idle, q->idle[c]);
			sum[c] = sat_add64(sum[c], q->idle[c]);
			snprintf(f, sizeof f, "%s_ns", cat[c]);
			out_int(row, f, q->idle[c]);
			snprintf(f, sizeof f, "%s_n", cat[c]);
			out_int(row, f, (int64_t)q->nidle[c]);
		}
		out_int(row, "idle_ns", idle);
		out_num(row, "host_wait_pct", idle > 0 ? 100.0 *
		    (double)q->idle[QIDLE_HOST] / (double)idle : 0.0);
		nl += q->launches;
	}
	out_int(out->aux, "max_queue_length", r.max_queue);
	out_int(out->aux, "kernel_delay_ns", r.kernel_delay);
	out_int(out->aux, "streams", (int64_t)r.n);
	out_int(out->aux, "launches", (int64_t)nl);
	tot = cJSON_AddObjectToObject(out->aux, "idle_ns");
	for (c = 0; c < QIDLE_N; c++)
		out_int(tot, cat[c], sum[c]);
	if (r.n == 0)
		out_warn(out, "no_gpu_work", "no GPU stream ran a kernel, "
		    "copy or memset");
	else if (nl == 0)
		out_warn(out, "no_launches", "no GPU work links to a launch "
		    "call (cudaLaunchKernel, cudaMemcpyAsync, ...): the "
		    "queue is empty and no idle time is host wait");
	else
		out_next(out, "gpulens gaps --scope stream %s",
		    out_q(out, o->args[0]));
	out->default_sort = "key:asc";
	queue_free(&r);
	return 0;
}
