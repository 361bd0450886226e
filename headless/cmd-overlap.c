/*
 * cmd-overlap: `gpulens overlap` measures, per device, how compute,
 * communication and copies overlap inside the window (analysis/work.h has the
 * classes: compute = kernels and graphs without EVF_COMM, comm = NCCL/RCCL
 * kernels, copy = memcpys and memsets). With C, M and Y the unions of the
 * three classes over the device's selected streams, clipped to the window:
 *   compute_ns, comm_ns, copy_ns   |C|, |M|, |Y|
 *   busy_ns           |C u M u Y| (any GPU work)
 *   sum_ns            sum of the clipped durations (overlaps count twice)
 *   exposed_comm_ns   |M \ C|: communication with no compute beside it
 *                     (exposed communication as analysis/comm.h defines
 *                     it; findings' exposed_comm reports the same)
 *   hidden_comm_pct   100 * (1 - exposed / comm) = 100 * |M n C| / |M|,
 *                     null without communication
 *   copy_overlap_ns   |Y n C|
 *   peak_concurrency  the most GPU operations running at one instant
 *                     (half-open intervals: one ending at t and one
 *                     starting at t do not overlap)
 *   span_ns, busy_pct the window's length and 100 * busy / span
 * hidden_comm_pct is HTA's comp_comm_overlap_pctg (time where merged comm
 * and merged compute overlap over merged comm time). PithTrain's
 * compute_overlap differs in two ways: it sums dur - overlap per comm
 * kernel (two overlapping comm kernels count twice; we take the union), and
 * it classifies whole streams (an NCCL kernel on a stream that also runs
 * compute kernels is "barrier" time there, communication here).
 *
 * --by nvtx-path breaks the exposed communication down by the NVTX path
 * ("outer/inner/leaf") of the innermost push/pop range enclosing each comm
 * kernel's launching API call (as `stats --group-by nvtx-path` does), one
 * row per (device, path): with M_p the union of that path's comm kernels,
 * comm_ns = |M_p|, exposed_comm_ns = |M_p \ C|. When comm kernels of
 * different paths overlap each other, the rows' exposed times add up to
 * more than the device's.
 *
 * --by role keeps the per-device rows but takes the classes from the
 * streams instead of the kernels, as PithTrain's compute_overlap does:
 * all the work of a communication stream is communication, of a copy
 * stream copies, of a compute stream compute (analysis/streams.h's roles:
 * an NCCL kernel on a stream that also runs compute kernels counts as
 * compute).
 *
 * The window is the trace span by default; with --nvtx, the union of the
 * range's instances of the device's processes.
 *
 * Cost: one sweep per device over its selected events in start order
 * (analysis/busy.h), O(n log streams) time and O(1) memory: the six unions
 * C, M, Y, C u M, C u Y and C u M u Y are grown a segment at a time (the
 * overlaps follow from |A n B| = |A| + |B| - |A u B|), and the running
 * operations sit in a min-heap of their ends for the peak. Only --by
 * nvtx-path stores something per event: C, and the comm kernels' paths.
 * Without it and without an event-level filter, the devices are swept on
 * the pool, one per CPU at a time.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comm.h"
#include "analysis/streams.h"
#include "headless/analysis.h"
#include "headless/cmd.h"
#include "model/correlate.h"
#include "util/hmap.h"
#include "model/iset.h"
#include "model/lane.h"
#include "model/nvtx.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "util/pool.h"
#include "util/strpool.h"
#include "analysis/busy.h"
#include "headless/worksel.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

static cmd_finish_t	overlap_finish;

/* --by: per device, or split by the NVTX path around each launch. */
static const struct cmd_option overlap_vopts[] = {
	{ "--by", "device|nvtx-path|role", "per device (default), exposed "
	    "communication by NVTX path, or the classes by stream role",
	    CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_overlap_entry = {
	.name = "overlap",
	.usage = "gpulens overlap [OPTIONS] TRACE",
	.help =
	"Per device: busy time of compute, communication (NCCL) and copies\n"
	"(unions over streams), their union and sum, the communication not\n"
	"hidden under compute (exposed_comm_ns, hidden_comm_pct), copy time\n"
	"overlapped by compute and the peak number of concurrent GPU\n"
	"operations. --by nvtx-path splits exposed communication by the NVTX\n"
	"range around each communication kernel's launch; --by role takes\n"
	"the classes from the streams' roles (see streams).",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = OVERLAP_OPTS,
	.vopts = overlap_vopts,
	.model = cmd_overlap_compute,
	.finish = overlap_finish
};

/* A device with selected work, its tracks and window. */
struct overlap_dev {
	uint32_t		 d;
	uint32_t		*tracks;
	size_t			 nt;
	struct iset		 win;
};

struct overlap_ctx {
	const struct model	*m;
	const char		*domain;	/* --nvtx-domain, or NULL */
	struct work		 w;
	struct overlap_dev	*dev;
	/* Devices [base, base + nth) are swept at once, device base + j
	 * into bo[j] (the unions). */
	struct busy_overlap	*bo;
	unsigned		 nth;
	size_t			 base;
	int			 by_path;
	uint8_t			*role;		/* --by role: per track */
	/* --by nvtx-path: comm events' tags are local path ids */
	struct strpool		*local;
	struct hmap		 path_of;	/* range gid -> local sid */
};

/* The local path id of the range around GPU event (t, i)'s launch. */
static uint32_t
overlap_path(struct overlap_ctx *c, uint32_t t, uint32_t i)
{
	const struct model	*m = c->m;
	struct evref		 r;
	uint32_t		 api, range, v, th;
	char			 buf[4096];

	api = correlate_launch(m, model_gid(m, t, i));
	if (api == NONE32)
		return 0;
	r = model_ev(m, api);
	th = m->tracks[r.track].thread;
	if (th == NONE32)
		return 0;
	range = nvtx_enclosing_in(m, th, m->tracks[r.track].lane.start[r.idx],
	    c->domain);
	if (range == NONE32)
		return 0;
	if (hmap_get(&c->path_of, range, &v))
		return v;
	nvtx_family_path(m, range, buf, sizeof buf);
	v = strpool_intern0(c->local, buf);
	hmap_put(&c->path_of, range, v);
	return v;
}

static void
overlap_num_pct(cJSON *row, const char *f, int64_t num, int64_t den)
{
	out_num_or_null(row, f, den > 0, 100.0 * (double)num / (double)den);
}

/* Rows of --by nvtx-path for one device. */
static void
overlap_path_rows(struct overlap_ctx *c, struct out *out, uint32_t d,
    struct busy_overlap *bo)
{
	const struct model	*m = c->m;
	struct busy_tag		*v = NULL;
	cJSON			*row;
	char			*key;
	const char		*path;
	size_t			 i, n, cap = 0;

	/* The paths, interned in start order. */
	for (i = 0; i < bo->ncomm; i++)
		bo->comm[i].tag = overlap_path(c, bo->comm[i].t,
		    bo->comm[i].i);
	n = busy_overlap_tags(bo, &v, &cap);
	for (i = 0; i < n; i++) {
		path = strpool_get(c->local, v[i].tag);
		row = out_row(out);
		key = rowkey("nvtx", "device=%u|path=%s",
		    m->devices[d].source_id, path);
		cJSON_AddItemToObject(row, "key", cJSON_CreateString(key));
		free(key);
		out_int(row, "device", m->devices[d].source_id);
		out_str(row, "nvtx_path", path);
		out_int(row, "count", (int64_t)v[i].count);
		out_int(row, "comm_ns", v[i].comm);
		out_int(row, "exposed_comm_ns", v[i].exposed);
		overlap_num_pct(row, "hidden_comm_pct",
		    v[i].comm - v[i].exposed, v[i].comm);
	}
	free(v);
}

/* A device's sweep (a pool job): devices [base, base + nth) at once,
 * device base + j into bo[j]. */
static int
overlap_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct overlap_ctx	*c = arg;
	struct overlap_dev	*v = &c->dev[c->base + job];
	struct busy_overlap	*bo = &c->bo[job];
	size_t			 k;

	busy_overlap_reset(bo);
	for (k = 0; k < v->win.n; k++)
		busy_overlap_sweep(bo, &c->w, v->tracks, v->nt, v->win.start[k],
		    v->win.end[k]);
	return 0;
}

/* The rows of a swept device. */
static void
overlap_device(struct overlap_ctx *c, struct out *out,
    const struct overlap_dev *v, struct busy_overlap *bo)
{
	const struct model	*m = c->m;
	uint32_t		 d = v->d;
	int64_t			 span, busy, comm, exposed, *len = bo->len;
	cJSON			*row;
	char			 key[64];

	if (c->by_path) {
		overlap_path_rows(c, out, d, bo);
		return;
	}
	span = iset_len(&v->win);
	busy = len[BUSY_ALL];
	comm = len[BUSY_M];
	/* |M \ C| = |M| - |M n C| = |M u C| - |C| (analysis/comm.h). */
	exposed = comm_exposed_of(len[BUSY_C], len[BUSY_CM]);
	row = out_row(out);
	rowkey_buf(key, sizeof key, "device", "device=%u",
	    m->devices[d].source_id);
	cJSON_AddItemToObject(row, "key", cJSON_CreateString(key));
	out_int(row, "device", m->devices[d].source_id);
	out_int(row, "compute_ns", len[BUSY_C]);
	out_int(row, "comm_ns", comm);
	out_int(row, "copy_ns", len[BUSY_Y]);
	out_int(row, "busy_ns", busy);
	out_int(row, "sum_ns", bo->sum);
	out_int(row, "exposed_comm_ns", exposed);
	overlap_num_pct(row, "hidden_comm_pct", comm - exposed, comm);
	/* |Y n C| = |Y| + |C| - |Y u C|. */
	out_int(row, "copy_overlap_ns", len[BUSY_Y] + len[BUSY_C] -
	    len[BUSY_CY]);
	out_int(row, "peak_concurrency", bo->peak);
	out_int(row, "span_ns", span);
	overlap_num_pct(row, "busy_pct", busy, span);
}

/*
 * Sweeps the devices with selected work and emits their rows in order: on
 * the pool, a round of one device per thread at a time, except for --by
 * nvtx-path, which keeps a device's compute set and communication events
 * (one device at a time). Returns whether there was any.
 */
static int
overlap_devices(struct overlap_ctx *c, struct out *out)
{
	const struct model	*m = c->m;
	struct overlap_dev	*v;
	uint32_t		*order = NULL, *tracks = NULL, *procs = NULL;
	size_t			 ocap = 0, tcap = 0, pcap = 0, nd, k, nt, np, nr;
	size_t			 ndev = 0;

	nd = work_devices(m, &order, &ocap);
	c->dev = xcalloc(nd + 1, sizeof *c->dev);
	for (k = 0; k < nd; k++) {
		if ((nt = work_tracks(&c->w, order[k], &tracks, &tcap)) == 0)
			continue;
		v = &c->dev[ndev++];
		v->d = order[k];
		v->nt = nt;
		v->tracks = xreallocarray(NULL, nt, sizeof *v->tracks);
		memcpy(v->tracks, tracks, nt * sizeof *tracks);
		iset_init(&v->win);
		np = work_device_procs(m, v->d, &procs, &pcap);
		worksel_windows(&c->w, procs, np, &v->win);
	}
	c->nth = c->by_path ? 1 : work_threads(&c->w, ndev);
	c->bo = xcalloc(c->nth, sizeof *c->bo);
	for (k = 0; k < c->nth; k++) {
		busy_overlap_init(&c->bo[k], c->by_path);
		c->bo[k].role = c->role;
	}
	for (c->base = 0; c->base < ndev; c->base += nr) {
		nr = ndev - c->base < c->nth ? ndev - c->base : c->nth;
		(void)pool_run(nr, c->nth, overlap_job, c, NULL);
		for (k = 0; k < nr; k++)
			overlap_device(c, out, &c->dev[c->base + k], &c->bo[k]);
	}
	for (k = 0; k < c->nth; k++)
		busy_overlap_free(&c->bo[k]);
	free(c->bo);
	for (k = 0; k < ndev; k++) {
		free(c->dev[k].tracks);
		iset_free(&c->dev[k].win);
	}
	free(c->dev);
	free(order);
	free(tracks);
	free(procs);
	return ndev > 0;
}

int
cmd_overlap_compute(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct overlap_ctx	 c;
	struct sel		 s;
	int64_t			 t0, t1;
	size_t			 k;
	int			 any = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.domain = o->nvtx_domain;
	if (o->by == NULL || strcmp(o->by, "device") == 0)
		c.by_path = 0;
	else if (strcmp(o->by, "nvtx-path") == 0)
		c.by_path = 1;
	else if (strcmp(o->by, "role") == 0) {
		c.role = xcalloc(m->ntracks > 0 ? m->ntracks : 1, 1);
		for (k = 0; k < m->ntracks; k++)
			switch (streams_track_role(m, (uint32_t)k)) {
			case STREAM_COMM:
				c.role[k] = WORK_COMM;
				break;
			case STREAM_COPY:
				c.role[k] = WORK_COPY;
				break;
			default:
				c.role[k] = WORK_COMPUTE;
				break;
			}
	} else {
		*cause = xasprintf("bad value for --by: '%s' (expected device, "
		    "nvtx-path or role)", o->by);
		return -1;
	}
	if (sel_init(&s, m, o, cause) != 0) {
		free(c.role);
		return -1;
	}
	t0 = s.t0;
	t1 = o->to == OPT_TIME_UNSET ? m->end_ns : s.t1;
	worksel_init(&c.w, m, &s, t0, t1);
	if (c.by_path) {
		c.local = strpool_new();
		hmap_init(&c.path_of);
		out->default_sort = "exposed_comm_ns:desc";
	} else if (!o->limit_set)
		out->limit = 0;
	if (t1 <= t0 || sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	any = overlap_devices(&c, out);
	if (!any)
		out_warn(out, "no_gpu_work",
		    "no GPU work in the selection");
	else if (c.by_path && cJSON_GetArraySize(out->rows) == 0)
		out_warn(out, "no_communication",
		    "no communication kernels in the selection");
	out_str(out->aux, "by", c.by_path ? "nvtx-path" : c.role != NULL ?
	    "role" : "device");
	sel_window_aux(out, m, o, t0, t1);
	free(c.role);
	if (c.local != NULL) {
		strpool_free(c.local);
		hmap_free(&c.path_of);
	}
	work_free(&c.w);
	sel_free(&s);
	return 0;
}

/* The next step the answer suggests. */
static void
overlap_finish(const struct model *m, const struct opts *o, struct out *out)
{
	const cJSON	*by, *r, *c;
	int		 comm = 0;

	/* The breakdown by NVTX path is about communication: only where
	 * the answer holds some. */
	by = cJSON_GetObjectItemCaseSensitive(out->aux, "by");
	cJSON_ArrayForEach(r, out->rows) {
		c = cJSON_GetObjectItemCaseSensitive(r, "comm_ns");
		if (cJSON_IsRaw(c) && strtoll(c->valuestring, NULL, 10) > 0)
			comm = 1;
	}
	if (comm && cJSON_IsString(by) && strcmp(by->valuestring,
	    "device") == 0)
		out_next(out, "gpulens overlap %s --by nvtx-path",
		    out_q(out, o->args[0]));
}
