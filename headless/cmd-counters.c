/*
 * cmd-counters: `gpulens counters TRACE`, the counter samples of a trace:
 * GPU metrics and NIC metrics of Nsight Systems exports, host counters of
 * Kineto and Chrome traces (src/analysis/counters.h says which and how).
 * Also `gpulens metrics --type gpu|nic|host TRACE` (cmd_metrics_alias).
 *
 *   default     one row per counter and device: the coverage first
 *               (samples, rate_hz, interval_ns: the median interval,
 *               gaps: intervals over three times it, max_gap_ns), then
 *               mean, min, max, p50, p90, p99
 *   --bucket D  one row per counter, device and bucket of width D from
 *               the window's start: the series' coverage, then the
 *               bucket's samples, mean and max
 * --counter GLOB selects counters by name, --type gpu|nic|host by kind,
 * --device N the counters of GPU N, --from/--to the samples by time.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counters.h"
#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/vopt.h"
#include "util/xmalloc.h"

#define COUNTERS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_BUCKETS)

static cmd_run_t	counters_main;

static int
counters_check_type(const char *unused, const char *v, char **cause)
{
	(void)unused;
	if (v != NULL && counters_kind_parse(v) >= 0)
		return 0;
	*cause = xasprintf("--type takes gpu, nic or host");
	return -1;
}

static int
counters_check_device(const char *unused, const char *v, char **cause)
{
	char		*end;
	long long	 d;

	(void)unused;
	if (v != NULL && *v != '\0') {
		d = strtoll(v, &end, 10);
		if (*end == '\0' && d >= 0 && d <= UINT32_MAX)
			return 0;
	}
	*cause = xasprintf("--device takes a GPU's device id (0, 1, ...)");
	return -1;
}

static const struct cmd_option counters_vopts[] = {
	{ "--counter", "GLOB", "counters whose name matches the shell "
	    "pattern", CMD_OPT_OWN, NULL },
	{ "--type", "gpu|nic|host", "counters of GPUs, of NICs and switches, "
	    "or of host threads", CMD_OPT_OWN, counters_check_type },
	{ "--device", "N", "the counters of GPU N (its device id)",
	    CMD_OPT_OWN, counters_check_device },
	{ "--buckets", NULL, "--buckets is not supported here; use --bucket "
	    "DUR", CMD_OPT_REFUSE, NULL },
	CMD_REFUSE_NVTX_ITER,
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_counters_entry = {
	.name = "counters",
	.usage = "gpulens counters [--counter GLOB] [--type gpu|nic|host] "
	    "[--device N] [--bucket DUR] [OPTIONS] TRACE",
	.help =
	"Counter samples: GPU metrics (nsys --gpu-metrics-devices), NIC and\n"
	"InfiniBand switch metrics (--nic-metrics), host counters (Kineto's\n"
	"[memory] counters). One row per counter and device, coverage first\n"
	"(samples, sampling rate, median interval, gaps longer than three\n"
	"intervals, the largest gap), then mean, min, max, p50, p90, p99;\n"
	"--bucket DUR gives a time series (per bucket: samples, mean, max).\n"
	"Also reached as `gpulens metrics --type gpu|nic|host TRACE`.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = COUNTERS_OPTS,
	.vopts = counters_vopts,
	.run = counters_main
};

static const char *counters_bucket_columns[] = {
	"where", "counter", "bucket", "start_ns", "samples", "mean", "max",
	"interval_ns", "gaps", "max_gap_ns", NULL
};


/* Where series s was sampled: "GPU 0", the NIC track's name, "pid P". */
static void
counters_where(const struct model *m, const struct counters_series *s,
    char *buf, size_t len)
{
	const struct track	*tr = &m->tracks[s->track];

	if (s->kind == COUNTERS_GPU)
		snprintf(buf, len, "GPU %u", m->devices[tr->device].source_id);
	else if (s->kind == COUNTERS_NIC)
		snprintf(buf, len, "%s", model_str(m, tr->name));
	else if (tr->thread < m->nthreads && tr->process < m->nprocesses)
		snprintf(buf, len, "pid %u tid %u",
		    m->processes[tr->process].pid,
		    m->threads[tr->thread].tid);
	else
		snprintf(buf, len, "host");
}

/* The fields every row of series s has: identity and coverage. */
static cJSON *
counters_row(const struct model *m, struct out *out,
    const struct counters_series *s, long long bucket)
{
	cJSON	*row = out_row(out);
	char	 where[160];

	counters_where(m, s, where, sizeof where);
	if (bucket < 0)
		out_key(row, "counter", "where=%s|counter=%s", where,
		    model_str(m, s->name));
	else
		out_key(row, "bucket", "where=%s|counter=%s|bucket=%lld", where,
		    model_str(m, s->name), bucket);
	out_str(row, "where", where);
	out_str(row, "type", counters_kind_name(s->kind));
	if (s->kind == COUNTERS_GPU)
		out_int(row, "device",
		    m->devices[m->tracks[s->track].device].source_id);
	else
		cJSON_AddNullToObject(row, "device");
	out_str(row, "counter", model_str(m, s->name));
	out_num_or_null(row, "rate_hz", s->samples >= 2 && s->interval_ns > 0,
	    1e9 / (double)s->interval_ns);
	out_int(row, "interval_ns", s->interval_ns);
	out_int(row, "gaps", (int64_t)s->gaps);
	out_int(row, "max_gap_ns", s->max_gap_ns);
	return row;
}

static void
counters_num(cJSON *row, const char *k, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(row, k);
	else
		out_num(row, k, v);
}

static int
counters_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct model		*m = ctx->in->m;
	const char			*type, *dev;
	const struct counters_series	*s, *worst = NULL;
	struct counters_query		 q;
	struct counters_result		 r;
	struct sel			 sl;
	int64_t				 rel = ctx->o->absolute ? 0 :
					     m->origin_ns;
	size_t				 i, b, ngaps = 0;
	cJSON				*row;
	char				 where[160];

	if (sel_init(&sl, m, ctx->o, cause) != 0) {
		*code = "usage";
		return -1;
	}
	memset(&q, 0, sizeof q);
	q.t0 = sl.t0;
	q.t1 = sl.t1;
	sel_free(&sl);
	q.bucket_ns = ctx->o->bucket_ns;
	q.glob = vopt_get(ctx->v, ctx->nv, "--counter");
	type = vopt_get(ctx->v, ctx->nv, "--type");
	q.kind = type != NULL ? counters_kind_parse(type) : -1;
	dev = vopt_get(ctx->v, ctx->nv, "--device");
	q.device = dev != NULL ? strtoll(dev, NULL, 10) : -1;
	if (counters_build(m, &q, &r, cause) != 0) {
		*code = "usage";
		return -1;
	}
	for (i = 0; i < r.n; i++) {
		s = &r.v[i];
		if (s->gaps > 0) {
			ngaps++;
			if (worst == NULL || s->max_gap_ns > worst->max_gap_ns)
				worst = s;
		}
		if (r.nbuckets == 0) {
			row = counters_row(m, out, s, -1);
			out_int(row, "samples", (int64_t)s->samples);
			out_int(row, "first_ns", s->first_ns - rel);
			out_int(row, "last_ns", s->last_ns - rel);
			counters_num(row, "mean", s->mean);
			counters_num(row, "min", s->min);
			counters_num(row, "max", s->max);
			counters_num(row, "p50", s->p50);
			counters_num(row, "p90", s->p90);
			counters_num(row, "p99", s->p99);
			continue;
		}
		for (b = 0; b < r.nbuckets; b++) {
			row = counters_row(m, out, s, (long long)b);
			out_int(row, "bucket", (int64_t)b);
			out_int(row, "start_ns", r.t0 + (int64_t)b *
			    r.bucket_ns - rel);
			out_int(row, "samples", (int64_t)s->bcount[b]);
			counters_num(row, "mean", s->bmean[b]);
			counters_num(row, "max", s->bmax[b]);
		}
	}
	if (r.nbuckets > 0) {
		out->columns = counters_bucket_columns;
		out->default_sort = "bucket:asc";
	} else
		out->default_sort = "where:asc";
	out_int(out->aux, "series", (int64_t)r.n);
	out_int(out->aux, "samples", (int64_t)r.samples);
	out_int(out->aux, "gap_factor", COUNTERS_GAP_FACTOR);
	out_int(out->aux, "series_with_gaps", (int64_t)ngaps);
	if (r.nbuckets > 0) {
		out_int(out->aux, "bucket_ns", r.bucket_ns);
		out_int(out->aux, "buckets", (int64_t)r.nbuckets);
	}
	if (r.n == 0)
		out_warn(out, "no_counters", "no counter samples%s (GPU "
		    "metrics: nsys --gpu-metrics-devices; NIC metrics: nsys "
		    "--nic-metrics)", q.glob != NULL || q.kind >= 0 ||
		    q.device >= 0 ? " match" : " in the window");
	else if (worst != NULL) {
		counters_where(m, worst, where, sizeof where);
		out_warn(out, "counter_gaps", "%zu of %zu counters have gaps "
		    "in their samples (intervals over %d times the median; "
		    "the largest %.3f ms, %s %s): their numbers do not cover "
		    "the gaps", ngaps, r.n, COUNTERS_GAP_FACTOR,
		    (double)worst->max_gap_ns / 1e6, where,
		    model_str(m, worst->name));
	}
	if (r.n > 0 && r.nbuckets == 0)
		out_next(out, "gpulens counters --bucket 10ms --counter %s %s",
		    out_q(out, model_str(m, r.v[0].name)),
		    out_q(out, ctx->in->path));
	counters_free(&r);
	return CMD_EMIT;
}
