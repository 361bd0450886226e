/*
 * cmd-memcpy: `gpulens memcpy` summarises memory copies by device,
 * direction (copy_kind: h2d, d2h, d2d, p2p, ...) and memory kinds
 * (src_kind -> dst_kind: pageable, pinned, device, ...):
 *   count, total_bytes, total_ns (sum of copy durations), mean_bytes,
 *   mean_ns, bytes_per_s = total_bytes / total_ns (the achieved bandwidth
 *   while copying; null when no time was spent), and peak_pct, the share
 *   of peak_bytes_per_s.
 * The peak is the device's memory bandwidth (struct device mem_bw, from
 * nsys's TARGET_INFO_GPU.memoryBandwidth) for copies within device memory
 * (d2d, a2a, a2d, d2a) and null otherwise: the model records no PCIe or
 * NVLink bandwidth, so host-device and peer copies have no known peak.
 * perf-advisor compares every copy kind with the DRAM peak; we do not. A
 * device-to-device copy reads and writes every byte, so its DRAM traffic
 * is twice bytes_per_s: 50% of peak already keeps the memory busy.
 * Memsets are not transfers and are left out (see stats --type memset).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evrow.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define MEMCPY_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER)

const struct cmd_entry cmd_memcpy_entry = {
	.name = "memcpy",
	.usage = "gpulens memcpy [OPTIONS] TRACE",
	.help =
	"Memory copies by device, direction (h2d, d2h, d2d, p2p, ...) and\n"
	"memory kinds (pageable, pinned, device, ...): count, total bytes,\n"
	"total time, achieved bandwidth (bytes / time) and its share of the\n"
	"device's peak memory bandwidth for copies within device memory (null\n"
	"for host and peer copies, whose link bandwidth is not recorded).",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = MEMCPY_OPTS,
	.model = cmd_memcpy_run,
	.hints = { { "gpulens search %s --type memcpy --sort "
	    "duration_ns:desc", 1 } }
};

struct memcpy_group {
	uint32_t	 device;
	uint8_t		 kind, src, dst;
	int64_t		 count, bytes, ns;
};

/* Whether copies of this kind stay in one device's memory. */
static int
memcpy_local(int kind)
{
	return kind == COPY_DTOD || kind == COPY_ATOA || kind == COPY_ATOD ||
	    kind == COPY_DTOA;
}

static void
memcpy_row(struct out *out, const struct model *m,
    const struct memcpy_group *g)
{
	cJSON		*row = out_row(out);
	char		 key[256];
	double		 bw = 0, peak = 0;

	if (g->device < m->ndevices)
		rowkey_buf(key, sizeof key, "memcpy", "device=%u|copy_kind=%s|"
		    "src_kind=%s|dst_kind=%s", m->devices[g->device].source_id,
		    copy_kind_name(g->kind), mem_kind_name(g->src),
		    mem_kind_name(g->dst));
	else
		rowkey_buf(key, sizeof key, "memcpy", "device=none|"
		    "copy_kind=%s|src_kind=%s|dst_kind=%s",
		    copy_kind_name(g->kind), mem_kind_name(g->src),
		    mem_kind_name(g->dst));
	out_str(row, "key", key);
	evrow_device(row, m, g->device);
	out_str(row, "copy_kind", copy_kind_name(g->kind));
	out_str(row, "copy_kind_label", copy_kind_label(g->kind));
	out_str(row, "src_kind", mem_kind_name(g->src));
	out_str(row, "dst_kind", mem_kind_name(g->dst));
	out_int(row, "count", g->count);
	out_int(row, "total_bytes", g->bytes);
	out_int(row, "total_ns", g->ns);
	out_num(row, "mean_bytes", (double)g->bytes / (double)g->count);
	out_num(row, "mean_ns", (double)g->ns / (double)g->count);
	if (g->ns > 0) {
		bw = (double)g->bytes * 1e9 / (double)g->ns;
		out_num(row, "bytes_per_s", bw);
	} else
		cJSON_AddNullToObject(row, "bytes_per_s");
	if (memcpy_local(g->kind) && g->device < m->ndevices &&
	    m->devices[g->device].mem_bw > 0)
		peak = (double)m->devices[g->device].mem_bw;
	if (peak > 0) {
		out_int(row, "peak_bytes_per_s", (int64_t)peak);
		out_num_or_null(row, "peak_pct", g->ns > 0, 100.0 * bw / peak);
	} else {
		cJSON_AddNullToObject(row, "peak_bytes_per_s");
		cJSON_AddNullToObject(row, "peak_pct");
	}
}

int
cmd_memcpy_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct opts		 ko = *o;
	struct sel		 s;
	struct memcpy_group	*g = NULL;
	const struct copy_info	*c;
	uint32_t		*idx = NULL, t;
	size_t			 icap = 0, gcap = 0, ng = 0, k, i, j;
	int64_t			 noinfo = 0, bytes = 0, ns = 0;

	ko.type = EV_MEMCPY;
	if (sel_open(&s, m, &ko, out, code, cause) != 0)
		return -1;
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (!sel_track(&s, t) || tr->type != TRACK_GPU)
			continue;
		k = lane_overlap(&tr->lane, s.t0, s.t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			if (!sel_event(&s, t, idx[i]))
				continue;
			if ((c = event_copy(m, model_gid(m, t, idx[i]))) ==
			    NULL) {
				noinfo++;
				continue;
			}
			for (j = 0; j < ng; j++)
				if (g[j].device == tr->device &&
				    g[j].kind == c->kind &&
				    g[j].src == c->src_kind &&
				    g[j].dst == c->dst_kind)
					break;
			if (j == ng) {
				XGROW(g, gcap, ng + 1);
				memset(&g[ng], 0, sizeof g[ng]);
				g[ng].device = tr->device;
				g[ng].kind = c->kind;
				g[ng].src = c->src_kind;
				g[ng].dst = c->dst_kind;
				ng++;
			}
			g[j].count++;
			g[j].bytes += (int64_t)c->bytes;
			g[j].ns += tr->lane.end[idx[i]] - tr->lane.start[idx[i]];
		}
	}
	sel_free(&s);
	for (j = 0; j < ng; j++) {
		memcpy_row(out, m, &g[j]);
		bytes += g[j].bytes;
		ns += g[j].ns;
	}
	out->default_sort = "total_ns:desc";
	out_int(out->aux, "total_bytes", bytes);
	out_int(out->aux, "total_ns", ns);
	if (ns > 0)
		out_num(out->aux, "bytes_per_s", (double)bytes * 1e9 /
		    (double)ns);
	if (noinfo > 0)
		out_warn(out, "memcpy_unknown_kind",
		    "%lld copies carry no size or direction and are "
		    "left out", (long long)noinfo);
	if (ng == 0)
		out_warn(out, "no_match",
		    "no memory copies match");
	free(g);
	free(idx);
	return 0;
}

