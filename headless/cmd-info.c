/*
 * cmd-info: `gpulens info TRACE` describes what a trace holds: source and
 * version, span, event counts per kind, devices, processes with their
 * threads and streams, NVTX domains and load warnings.
 *
 * All of that is in the head of the trace's cache, so with a valid cache
 * info loads only the head (its descriptor says CMD_SUMMARY, and the
 * driver calls cache_load_summary: milliseconds at any size) and never
 * the events; otherwise (no cache, a stale or corrupt one,
 * --no-cache) it loads the trace as every verb does. Both paths print the
 * same thing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "headless/cmd.h"
#include "headless/cmd-report.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "util/sanitize.h"
#include "model/model.h"
#include "util/units.h"
#include "util/xmalloc.h"

static cmd_run_t	info_run;

/* On an Nsight Compute report: what the report holds (cmd-report.c). */
static const struct cmd_form info_report = {
	"info", { 1, 1, NULL }, cmd_report_info_run
};

const struct cmd_entry cmd_info_entry = {
	.name = "info",
	.usage = "gpulens info [--json|--format csv] TRACE",
	.help =
	"Describes TRACE: source format and version, time span, event counts\n"
	"per kind, devices and their properties, processes, threads, GPU\n"
	"streams, NVTX domains, and any warnings raised while loading.",
	.args = { 1, -1, "expected a trace" },
	.input = CMD_IN_TRACES,
	.options = OPT_OUTPUT,
	.flags = CMD_SUMMARY,
	.run = info_run,
	.report = &info_report
};

/* A process that info lists: one with threads or GPU streams. */
struct info_proc {
	const struct process	*p;
	size_t			 nthr, nstr;
};

/*
 * The processes with threads or GPU streams, in model order, into *n of
 * them; their threads and streams counted in one pass over each, not one
 * pass per process. The caller frees the array.
 */
static struct info_proc *
info_procs(const struct model *m, size_t *n)
{
	struct info_proc	*ps;
	size_t			 t, k = 0;

	ps = xcalloc(m->nprocesses + 1, sizeof *ps);
	for (t = 0; t < m->nthreads; t++)
		if (m->threads[t].process < m->nprocesses)
			ps[m->threads[t].process].nthr++;
	for (t = 0; t < m->nstreams; t++)
		if (m->streams[t].process < m->nprocesses)
			ps[m->streams[t].process].nstr++;
	for (t = 0; t < m->nprocesses; t++) {
		if (ps[t].nthr == 0 && ps[t].nstr == 0)
			continue;
		ps[k] = ps[t];
		ps[k++].p = &m->processes[t];
	}
	*n = k;
	return ps;
}

static void
info_print(const char *path, const struct model *m)
{
	uint64_t		 counts[EV_KIND_COUNT];
	char			 b1[64], b2[64];
	struct info_proc	*ps;
	size_t			 i, np;
	int			 k;

	printf("trace      %s\n", sanitize_tmp(path));
	printf("source     %s %s", source_kind_name(m->source),
	    sanitize_tmp(model_str(m, m->source_version)));
	if (m->schema_version != 0)
		printf(" (schema %s)",
		    sanitize_tmp(model_str(m, m->schema_version)));
	printf("\n");
	printf("span       %s (origin %lld ns)\n",
	    units_dur(m->end_ns - m->origin_ns, b1, sizeof b1),
	    (long long)m->origin_ns);
	memcpy(counts, m->kind_count, sizeof counts);
	printf("events     %s:", units_count(m->nevents, b1, sizeof b1));
	for (k = 1; k < EV_KIND_COUNT; k++)
		if (counts[k] != 0)
			printf(" %s %s", ev_kind_name(k),
			    units_count(counts[k], b2, sizeof b2));
	printf("\n");

	printf("devices    %zu\n", m->ndevices);
	for (i = 0; i < m->ndevices; i++) {
		const struct device *d = &m->devices[i];
		printf("  [%u] %s", d->source_id, *model_str(m, d->name) ?
		    sanitize_tmp(model_str(m, d->name)) : "(unnamed GPU)");
		if (d->sm_count > 0)
			printf(", %d SMs", d->sm_count);
		if (d->cc_major > 0)
			printf(", cc %d.%d", d->cc_major, d->cc_minor);
		if (d->total_mem > 0)
			printf(", %s", units_bytes((uint64_t)d->total_mem,
			    b1, sizeof b1));
		if (!activity_device_used(m, (uint32_t)i))
			printf(", unused");
		printf("\n");
	}
	printf("processes  %zu\n", m->nprocesses);
	ps = info_procs(m, &np);
	for (i = 0; i < np; i++)
		printf("  pid %u %s: %zu thread%s, %zu GPU stream%s\n",
		    ps[i].p->pid, sanitize_tmp(model_str(m, ps[i].p->name)),
		    ps[i].nthr, ps[i].nthr == 1 ? "" : "s", ps[i].nstr,
		    ps[i].nstr == 1 ? "" : "s");
	free(ps);
	printf("tracks     %zu\n", m->ntracks);
	if (m->ndomains > 1) {
		printf("nvtx       %zu domain%s:", m->ndomains - 1,
		    m->ndomains == 2 ? "" : "s");
		for (i = 1; i < m->ndomains; i++)
			printf(" %s", *model_str(m, m->domains[i].name) ?
			    sanitize_tmp(model_str(m, m->domains[i].name)) :
			    "(unnamed)");
		printf("\n");
	}
	if (m->cs.ns != 0 || m->cs.nchains != 0)
		printf("samples    %s CPU samples on %zu thread%s, %zu call "
		    "chain%s\n", units_count(m->cs.ns, b1, sizeof b1),
		    m->cs.nth, m->cs.nth == 1 ? "" : "s", m->cs.nchains,
		    m->cs.nchains == 1 ? "" : "s");
	for (i = 0; i < m->nwarnings; i++)
		printf("warning    %s\n", sanitize_tmp(m->warnings[i]));
}

static void
info_json(struct out *out, const char *path, const struct model *m)
{
	cJSON			*a = out->aux, *arr, *o;
	struct info_proc	*ps;
	size_t			 i, np;
	int			 k;

	for (k = 1; k < EV_KIND_COUNT; k++) {
		cJSON *row;
		if (m->kind_count[k] == 0)
			continue;
		row = out_row(out);
		out_str(row, "key", ev_kind_name(k));
		out_str(row, "kind", ev_kind_name(k));
		out_int(row, "count", (int64_t)m->kind_count[k]);
	}
	o = cJSON_AddObjectToObject(a, "source");
	out_str(o, "kind", source_kind_name(m->source));
	out_str(o, "version", model_str(m, m->source_version));
	if (m->schema_version != 0)
		out_str(o, "schema", model_str(m, m->schema_version));
	else
		cJSON_AddNullToObject(o, "schema");
	out_int(a, "origin_ns", m->origin_ns);
	out_int(a, "span_ns", m->end_ns - m->origin_ns);
	out_int(a, "utc_epoch_ns", m->utc_epoch_ns);
	out_int(a, "events", (int64_t)m->nevents);
	out_int(a, "tracks", (int64_t)m->ntracks);
	out_int(a, "threads", (int64_t)m->nthreads);
	arr = cJSON_AddArrayToObject(a, "capabilities");
	for (k = 1; k < EV_KIND_COUNT; k++)
		if (m->kind_count[k] != 0)
			cJSON_AddItemToArray(arr,
			    cJSON_CreateString(ev_kind_name(k)));
	arr = cJSON_AddArrayToObject(a, "devices");
	for (i = 0; i < m->ndevices; i++) {
		const struct device *d = &m->devices[i];
		o = cJSON_CreateObject();
		out_int(o, "device", d->source_id);
		out_str(o, "name", model_str(m, d->name));
		out_str(o, "uuid", model_str(m, d->uuid));
		out_int(o, "sm_count", d->sm_count);
		out_int(o, "cc_major", d->cc_major);
		out_int(o, "cc_minor", d->cc_minor);
		out_int(o, "memory_bytes", d->total_mem);
		out_int(o, "memory_bandwidth_bytes_per_s", d->mem_bw);
		out_bool(o, "used", activity_device_used(m, (uint32_t)i));
		cJSON_AddItemToArray(arr, o);
	}
	arr = cJSON_AddArrayToObject(a, "processes");
	ps = info_procs(m, &np);
	for (i = 0; i < np; i++) {
		o = cJSON_CreateObject();
		out_int(o, "pid", ps[i].p->pid);
		out_str(o, "name", model_str(m, ps[i].p->name));
		out_int(o, "threads", (int64_t)ps[i].nthr);
		out_int(o, "streams", (int64_t)ps[i].nstr);
		if (ps[i].p->rank >= 0)
			out_int(o, "rank", ps[i].p->rank);
		cJSON_AddItemToArray(arr, o);
	}
	free(ps);
	arr = cJSON_AddArrayToObject(a, "streams");
	for (i = 0; i < m->nstreams; i++) {
		const struct stream *st = &m->streams[i];
		o = cJSON_CreateObject();
		out_int(o, "device", st->device != NONE32 ?
		    (int64_t)m->devices[st->device].source_id : -1);
		out_int(o, "stream", (int64_t)st->source_id);
		out_int(o, "pid", st->process != NONE32 ?
		    (int64_t)m->processes[st->process].pid : -1);
		out_str(o, "name", model_str(m, st->name));
		cJSON_AddItemToArray(arr, o);
	}
	arr = cJSON_AddArrayToObject(a, "nvtx_domains");
	for (i = 1; i < m->ndomains; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(model_str(m,
		    m->domains[i].name)));
	/* CPU samples and call chains, where the trace has them. */
	if (m->cs.ns != 0 || m->cs.nchains != 0) {
		o = cJSON_AddObjectToObject(a, "cpu_samples");
		out_int(o, "samples", (int64_t)m->cs.ns);
		out_int(o, "threads", (int64_t)m->cs.nth);
		out_int(o, "call_chains", (int64_t)m->cs.nchains);
		out_int(o, "frames", (int64_t)m->cs.nframes);
	}
	if (m->kind_count[EV_KERNEL] != 0) {
		out_next(out, "gpulens summary %s", out_q(out, path));
		out_next(out, "gpulens stats %s --type kernel", out_q(out, path));
		out_next(out, "gpulens gaps %s --scope device", out_q(out, path));
	}
	if (m->kind_count[EV_NVTX] != 0)
		out_next(out, "gpulens nvtx %s", out_q(out, path));
	if (m->kind_count[EV_MEMCPY] != 0)
		out_next(out, "gpulens memcpy %s", out_q(out, path));
	if (m->cs.ns != 0)
		out_next(out, "gpulens samples %s", out_q(out, path));
}

static int
info_run(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct model	*m = ctx->in->m;
	const char		*path = ctx->o->args[0];

	out->limit = 0;
	if (ctx->o->format == OUT_TABLE) {
		info_print(path, m);
		return CMD_PRINTED;
	}
	info_json(out, path, m);
	return CMD_EMIT;
}
