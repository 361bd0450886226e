/*
 * cmd-hardware: `gpulens hardware TRACE` lists the machine the trace
 * describes, one row per entity, told apart by the kind field:
 *   gpu      every field of struct device (0 there means unknown: null
 *            here), max_threads_per_sm = max_warps_per_sm x
 *            threads_per_warp, and what ran on it: streams, kernels,
 *            busy_ns (the union of all its work) and busy_pct of the span,
 *            used (some stream of it ran GPU work: analysis/activity.h);
 *   host     each host name the trace knows (model metadata "Hostname",
 *            "hostname" or "host", and the processes' hosts), with the CPU
 *            and OS facts metadata carries (CpuCores, CpuDescription,
 *            CpuArchitecture, CpuSpeedMhz, OsDescription, NvDriverVersion,
 *            CudaDriverVersion: nsys's TARGET_INFO_SYSTEM_ENV names) when
 *            the reader recorded them;
 *   process  every process with threads or streams: pid, name, host, rank,
 *            nsys hardware and VM ids, threads, streams, events, devices.
 * auxiliary.meta holds the model's metadata (values over 1 KiB left out).
 * Rows keep this order, GPUs by device id.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/activity.h"
#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evrow.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define HARDWARE_OPTS	(OPT_OUTPUT | OPT_PAGE)
#define HARDWARE_META_MAX 1024

const struct cmd_entry cmd_hardware_entry = {
	.name = "hardware",
	.usage = "gpulens hardware [OPTIONS] TRACE",
	.help =
	"Lists the GPUs (every recorded property: name, UUID, bus, SMs,\n"
	"compute capability, memory size and bandwidth, clock, cache and\n"
	"per-SM limits, and how busy each was), the hosts with the CPU and OS\n"
	"facts the trace records, and the processes with their threads,\n"
	"streams and devices.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.options = HARDWARE_OPTS,
	.flags = CMD_ALL_ROWS | CMD_ANSWER,
	.model = cmd_hardware_run
};

/* Host facts from metadata: field name, then the keys that may hold it. */
static const char *hardware_host_keys[][4] = {
	{ "cpu_cores", "CpuCores", "cpu_cores", NULL },
	{ "cpu_description", "CpuDescription", "cpu_description", NULL },
	{ "cpu_arch", "CpuArchitecture", "cpu_arch", NULL },
	{ "cpu_mhz", "CpuSpeedMhz", "cpu_mhz", NULL },
	{ "os", "OsDescription", "os", NULL },
	{ "driver_version", "NvDriverVersion", "driver_version", NULL },
	{ "cuda_driver_version", "CudaDriverVersion", "cuda_driver_version",
	    NULL },
};
#define HARDWARE_NHOST (sizeof hardware_host_keys / sizeof hardware_host_keys[0])

/* A metadata value by any of the keys (case-insensitive), or NULL. */
static const char *
hardware_meta(const struct model *m, const char *const *keys)
{
	size_t	i, k;

	for (k = 0; keys[k] != NULL; k++)
		for (i = 0; i < m->nmeta; i++)
			if (strcasecmp(model_str(m, m->meta[i].key),
			    keys[k]) == 0 && *model_str(m, m->meta[i].value))
				return model_str(m, m->meta[i].value);
	return NULL;
}

static void
hardware_pos(cJSON *row, const char *key, int64_t v)
{
	out_int_or_null(row, key, v > 0, v);
}

static void
hardware_sid(cJSON *row, const char *key, const struct model *m,
    uint32_t sid)
{
	if (sid != 0 && *model_str(m, sid) != '\0')
		out_str(row, key, model_str(m, sid));
	else
		cJSON_AddNullToObject(row, key);
}

static void
hardware_gpu(struct out *out, const struct model *m,
    const struct activity *act, uint32_t d)
{
	const struct device	*dv = &m->devices[d];
	cJSON			*row = out_row(out);
	char			 buf[64];
	size_t			 t, i, nstreams = 0;
	int64_t			 nkern = 0, busy = 0, span;
	int			 slot;

	rowkey_buf(buf, sizeof buf, "gpu", "device=%u", dv->source_id);
	out_str(row, "key", buf);
	out_str(row, "kind", "gpu");
	out_int(row, "device", dv->source_id);
	hardware_sid(row, "name", m, dv->name);
	hardware_sid(row, "uuid", m, dv->uuid);
	hardware_sid(row, "bus", m, dv->bus);
	hardware_sid(row, "chip", m, dv->chip);
	hardware_sid(row, "vendor", m, dv->vendor);
	evrow_pid(row, m, dv->process);
	hardware_pos(row, "sm_count", dv->sm_count);
	if (dv->cc_major > 0) {
		snprintf(buf, sizeof buf, "%d.%d", dv->cc_major, dv->cc_minor);
		out_str(row, "cc", buf);
		out_int(row, "cc_major", dv->cc_major);
		out_int(row, "cc_minor", dv->cc_minor);
	} else {
		cJSON_AddNullToObject(row, "cc");
		cJSON_AddNullToObject(row, "cc_major");
		cJSON_AddNullToObject(row, "cc_minor");
	}
	hardware_pos(row, "total_mem_bytes", dv->total_mem);
	hardware_pos(row, "mem_bw_bytes_per_s", dv->mem_bw);
	hardware_pos(row, "clock_hz", dv->clock_hz);
	hardware_pos(row, "l2_bytes", dv->l2_bytes);
	hardware_pos(row, "max_threads_per_block", dv->max_threads_per_block);
	hardware_pos(row, "regs_per_sm", dv->regs_per_sm);
	hardware_pos(row, "smem_per_sm_bytes", dv->smem_per_sm);
	hardware_pos(row, "max_warps_per_sm", dv->max_warps_per_sm);
	hardware_pos(row, "threads_per_warp", dv->threads_per_warp);
	hardware_pos(row, "max_threads_per_sm", (int64_t)dv->max_warps_per_sm *
	    dv->threads_per_warp);
	for (t = 0; t < m->nstreams; t++)
		nstreams += m->streams[t].device == d;
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device != d)
			continue;
		for (i = 0; i < tr->lane.n; i++)
			nkern += tr->lane.kind[i] == EV_KERNEL;
	}
	slot = activity_slot(act, d);
	if (slot >= 0)
		busy = activity_busy(act, (size_t)slot, ACT_ALL, m->origin_ns,
		    m->end_ns);
	span = m->end_ns - m->origin_ns;
	out_bool(row, "used", slot >= 0);
	out_int(row, "streams", (int64_t)nstreams);
	out_int(row, "kernels", nkern);
	out_int(row, "busy_ns", busy);
	out_num(row, "busy_pct", span > 0 ? 100.0 * (double)busy /
	    (double)span : 0.0);
}

static void
hardware_host(struct out *out, const struct model *m, const char *host,
    int with_meta)
{
	cJSON		*row = out_row(out);
	const char	*v;
	size_t		 k, nproc = 0;

	out_key(row, "host", "name=%s", host != NULL ? host : "unknown");
	out_str(row, "kind", "host");
	out_str_or_null(row, "hostname", host);
	for (k = 0; k < m->nprocesses; k++) {
		uint32_t h = m->processes[k].host;
		if (host != NULL && h != 0 &&
		    strcmp(model_str(m, h), host) == 0)
			nproc++;
	}
	out_int(row, "processes", (int64_t)nproc);
	for (k = 0; k < HARDWARE_NHOST; k++) {
		v = with_meta ? hardware_meta(m, hardware_host_keys[k] + 1) :
		    NULL;
		out_str_or_null(row, hardware_host_keys[k][0], v);
	}
}

static void
hardware_hosts(struct out *out, const struct model *m)
{
	static const char *const hkeys[] = { "Hostname", "hostname", "host",
	    NULL };
	const char	*mh = hardware_meta(m, hkeys), **seen = NULL;
	size_t		 nseen = 0, cap = 0, p, j, k;
	int		 facts = 0;

	for (k = 0; k < HARDWARE_NHOST; k++)
		if (hardware_meta(m, hardware_host_keys[k] + 1) != NULL)
			facts = 1;
	if (mh != NULL) {
		XGROW(seen, cap, nseen + 1);
		seen[nseen++] = mh;
	}
	for (p = 0; p < m->nprocesses; p++) {
		const char *h = model_str(m, m->processes[p].host);
		if (m->processes[p].host == 0 || *h == '\0')
			continue;
		for (j = 0; j < nseen; j++)
			if (strcmp(seen[j], h) == 0)
				break;
		if (j == nseen) {
			XGROW(seen, cap, nseen + 1);
			seen[nseen++] = h;
		}
	}
	/* The metadata facts belong to the metadata's host, or to the only
	 * host there is. */
	for (j = 0; j < nseen; j++)
		hardware_host(out, m, seen[j], facts && (j == 0 &&
		    (mh != NULL || nseen == 1)));
	if (nseen == 0 && facts)
		hardware_host(out, m, NULL, 1);
	free(seen);
}

static void
hardware_process(struct out *out, const struct model *m, uint32_t p)
{
	const struct process	*pr = &m->processes[p];
	cJSON			*row, *devs;
	char			 buf[64];
	size_t			 t, nthr = 0, nstr = 0, d;
	int64_t			 nev = 0;
	uint8_t			*used;

	for (t = 0; t < m->nthreads; t++)
		nthr += m->threads[t].process == p;
	for (t = 0; t < m->nstreams; t++)
		nstr += m->streams[t].process == p;
	if (nthr == 0 && nstr == 0)
		return;
	row = out_row(out);
	rowkey_buf(buf, sizeof buf, "process", "pid=%llu",
	    (unsigned long long)pr->source_id);
	out_str(row, "key", buf);
	out_str(row, "kind", "process");
	out_int(row, "pid", pr->pid);
	hardware_sid(row, "name", m, pr->name);
	hardware_sid(row, "hostname", m, pr->host);
	out_int_or_null(row, "rank", pr->rank >= 0, pr->rank);
	out_int(row, "hw_id", pr->hw_id);
	out_int(row, "vm_id", pr->vm_id);
	out_int(row, "threads", (int64_t)nthr);
	out_int(row, "gpu_streams", (int64_t)nstr);
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].process == p)
			nev += (int64_t)m->tracks[t].lane.n;
	out_int(row, "events", nev);
	devs = cJSON_AddArrayToObject(row, "devices");
	if (m->ndevices > 0) {
		used = xcalloc(m->ndevices, 1);
		for (t = 0; t < m->nstreams; t++)
			if (m->streams[t].process == p &&
			    m->streams[t].device < m->ndevices)
				used[m->streams[t].device] = 1;
		for (d = 0; d < m->ndevices; d++)
			if (used[d])
				cJSON_AddItemToArray(devs, cJSON_CreateNumber(
				    m->devices[d].source_id));
		free(used);
	}
}

/* The index of the device with the n-th smallest (source id, index). */
static uint32_t
hardware_nth_gpu(const struct model *m, size_t n)
{
	size_t	i, j, rank;

	for (i = 0; i < m->ndevices; i++) {
		rank = 0;
		for (j = 0; j < m->ndevices; j++)
			if (m->devices[j].source_id < m->devices[i].source_id ||
			    (m->devices[j].source_id ==
			    m->devices[i].source_id && j < i))
				rank++;
		if (rank == n)
			return (uint32_t)i;
	}
	return (uint32_t)n;
}

int
cmd_hardware_run(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct activity	 act;
	cJSON		*meta;
	size_t		 i, skipped = 0;

	/* GPUs by device id (quadratic, but a node has a handful). */
	activity_build(&act, m);
	for (i = 0; i < m->ndevices; i++)
		hardware_gpu(out, m, &act, hardware_nth_gpu(m, i));
	activity_free(&act);
	hardware_hosts(out, m);
	for (i = 0; i < m->nprocesses; i++)
		hardware_process(out, m, (uint32_t)i);
	meta = cJSON_AddObjectToObject(out->aux, "meta");
	for (i = 0; i < m->nmeta; i++) {
		if (strpool_len(m->strs, m->meta[i].value) > HARDWARE_META_MAX) {
			skipped++;
			continue;
		}
		out_str(meta, model_str(m, m->meta[i].key),
		    model_str(m, m->meta[i].value));
	}
	if (skipped > 0)
		out_warn(out, "metadata_truncated",
		    "%zu metadata values over %d bytes left out of "
		    "auxiliary.meta", skipped, HARDWARE_META_MAX);
	if (m->ndevices == 0)
		out_warn(out, "no_gpu",
		    "the trace describes no GPU");
	return 0;
}

