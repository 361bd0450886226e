/*
 * cmd-timeline: `gpulens timeline` cuts the window into time buckets and
 * gives, per device (or per stream with --by stream) and bucket, how busy
 * the GPU was and with what (the utilisation heatmap of nsys's
 * cuda_gpu_time_util_map recipe, as numbers):
 *   busy_ns     union of all selected GPU work (analysis/work.h) inside the bucket
 *   compute_ns  union of the compute kernels (and graphs) inside it
 *   comm_ns     union of the communication (EVF_COMM) kernels
 *   copy_ns     union of the memcpys and memsets
 *   busy_pct    100 * busy_ns / bucket width
 *   kernels     kernels (compute or communication) starting in the bucket
 *               (graph launches are not counted)
 * Each class is a union over the device's streams, so two overlapping
 * kernels count once, and the classes may overlap each other (busy_ns <=
 * compute_ns + comm_ns + copy_ns). Times are clipped to the bucket: unlike
 * perf-advisor's phase binning, an event spanning several buckets gives each
 * its share, and the buckets' busy_ns add up to the window's busy time.
 *
 * Buckets: --buckets N (default 50) splits the window [t0, t1) into N
 * buckets whose integer edges are t0 + floor(i * (t1 - t0) / N), so they
 * partition it exactly; --bucket DUR makes buckets of that width from t0,
 * the last one cut at t1. The window is the trace span by default (origin to
 * last end), or with --nvtx the stretch from the first to the last selected
 * range instance, busy time outside the instances being left out.
 *
 * --by stream gives one set of rows per stream; stream ids are unique per
 * device and process, so the key holds the process too.
 *
 * Cost: one sweep over the selected events of each device in start order
 * (analysis/busy.h, O(n log streams)) grows the four unions a segment at a
 * time and spreads each finished segment over the buckets it spans (a
 * cursor over the edges); memory is O(buckets), whatever the number of
 * events. Without an event-level filter the devices (or streams) are swept
 * on the pool, one per CPU at a time.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/analysis.h"
#include "headless/cmd.h"
#include "model/event.h"
#include "model/iset.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/busy.h"
#include "headless/worksel.h"
#include "util/lbound.h"
#include "util/pool.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define TIMELINE_DEFAULT_BUCKETS	50
#define TIMELINE_MAX_BUCKETS		100000

/* --by names the rows: devices or streams, not an NVTX path. */
static const struct cmd_option timeline_vopts[] = {
	{ "--by", "device|stream", "one row per device (default) or per stream",
	    CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_timeline_entry = {
	.name = "timeline",
	.usage = "gpulens timeline [OPTIONS] TRACE",
	.help =
	"Splits the window into time buckets (--buckets N, default 50, or\n"
	"--bucket DUR) and prints, per device (or per stream with --by\n"
	"stream) and bucket, the busy time (union over streams), its compute,\n"
	"communication and copy parts, the busy percentage and the number of\n"
	"kernels starting in the bucket.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = TIMELINE_OPTS,
	.vopts = timeline_vopts,
	.model = cmd_timeline_compute,
	.hints = { { "gpulens gaps %s --scope device", 0 } }
};

/* One set of rows: a device's tracks, or one stream's track. */
struct timeline_unit {
	uint32_t		 dev, stream;	/* stream: NONE32 by device */
	uint32_t		*tracks;
	size_t			 nt;
	struct iset		 win;
};

struct timeline_ctx {
	const struct model	*m;
	struct work		 w;
	int			 by_stream;
	int64_t			*edge;		/* nb + 1 bucket edges */
	size_t			 nb;
	uint32_t		*procs;
	size_t			 pcap;
	struct timeline_unit	*u;
	size_t			 nu, ucap;
	/* Units [base, base + nth) are swept at once, unit base + j into
	 * bb[j]. */
	struct busy_buckets	*bb;
	unsigned		 nth;
	size_t			 base;
};

/* Bucket edges; returns -1 with *cause when there would be too many. */
static int
timeline_edges(struct timeline_ctx *c, const struct opts *o, int64_t t0,
    int64_t t1, char **cause)
{
	int64_t		span = t1 - t0, q, r, w;
	long long	nb;
	size_t		i;

	if (o->bucket_ns > 0) {
		w = o->bucket_ns;
		nb = (long long)(span / w + (span % w != 0));
		if (nb > TIMELINE_MAX_BUCKETS) {
			*cause = xasprintf("--bucket %lld ns makes %lld "
			    "buckets (at most %d)", (long long)w, nb,
			    TIMELINE_MAX_BUCKETS);
			return -1;
		}
		c->nb = (size_t)nb;
		c->edge = xreallocarray(NULL, c->nb + 1, sizeof *c->edge);
		for (i = 0; i < c->nb; i++)
			c->edge[i] = t0 + (int64_t)i * w;
		c->edge[c->nb] = t1;
		return 0;
	}
	nb = o->buckets > 0 ? o->buckets : TIMELINE_DEFAULT_BUCKETS;
	if (nb > span)
		nb = span;	/* every bucket at least 1 ns wide */
	c->nb = (size_t)nb;
	q = span / nb;
	r = span % nb;
	c->edge = xreallocarray(NULL, c->nb + 1, sizeof *c->edge);
	/* floor(i * span / nb) without overflow: r * i < nb^2 <= 1e10. */
	for (i = 0; i <= c->nb; i++)
		c->edge[i] = t0 + q * (int64_t)i + r * (int64_t)i / nb;
	return 0;
}

/* Adds a unit of tracks[0, nt) (copied) and its window. */
static void
timeline_unit(struct timeline_ctx *c, uint32_t dev, uint32_t stream,
    const uint32_t *tracks, size_t nt, const uint32_t *procs, size_t np)
{
	struct timeline_unit	*u;

	XGROW(c->u, c->ucap, c->nu + 1);
	u = &c->u[c->nu++];
	u->dev = dev;
	u->stream = stream;
	u->nt = nt;
	u->tracks = xreallocarray(NULL, nt, sizeof *u->tracks);
	if (nt > 0)
		memcpy(u->tracks, tracks, nt * sizeof *tracks);
	iset_init(&u->win);
	worksel_windows(&c->w, procs, np, &u->win);
}

/* Sweeps unit base + job (a pool job). */
static int
timeline_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct timeline_ctx	*c = arg;
	struct timeline_unit	*u = &c->u[c->base + job];

	busy_buckets_sweep(&c->bb[job], &c->w, &u->win, u->tracks, u->nt);
	return 0;
}

/* Emits the rows of one device or stream from its swept buckets. */
static void
timeline_rows(struct timeline_ctx *c, const struct opts *o, struct out *out,
    const struct timeline_unit *u, const struct busy_buckets *bb,
    cJSON *totals)
{
	const struct model	*m = c->m;
	uint32_t		 dev = u->dev, stream = u->stream;
	cJSON			*row, *tot;
	char			 key[160];
	uint32_t		 pidv = NONE32;
	size_t			 b, k;
	uint32_t		 p = NONE32;
	int64_t			 s, e, busy, *v, sum[BUSY_NCOL];
	uint64_t		 nk = 0;
	static const char	*cf[WORK_NCLASS] = {
		"compute_ns", "comm_ns", "copy_ns"
	};

	memset(sum, 0, sizeof sum);
	/* Stream ids are unique per device and process. */
	if (stream != NONE32 && (p = m->streams[stream].process) != NONE32)
		pidv = m->processes[p].pid;
	for (b = 0; b < c->nb; b++) {
		s = c->edge[b];
		e = c->edge[b + 1];
		v = &bb->busy[b * BUSY_NCOL];
		busy = v[0];
		row = out_row(out);
		if (stream != NONE32 && pidv != NONE32)
			rowkey_buf(key, sizeof key, "bucket", "device=%u|pid=%u|"
			    "stream=%llu|bucket=%zu", m->devices[dev].source_id,
			    pidv, (unsigned long long)
			    m->streams[stream].source_id, b);
		else if (stream != NONE32)
			rowkey_buf(key, sizeof key, "bucket", "device=%u|"
			    "stream=%llu|bucket=%zu", m->devices[dev].source_id,
			    (unsigned long long)m->streams[stream].source_id,
			    b);
		else
			rowkey_buf(key, sizeof key, "bucket", "device=%u|"
			    "bucket=%zu", m->devices[dev].source_id, b);
		cJSON_AddItemToObject(row, "key", cJSON_CreateString(key));
		out_int(row, "device", m->devices[dev].source_id);
		if (stream != NONE32) {
			if (p == NONE32)
				cJSON_AddNullToObject(row, "pid");
			else
				out_int(row, "pid", m->processes[p].pid);
			out_int(row, "stream",
			    (int64_t)m->streams[stream].source_id);
		}
		out_int(row, "bucket", (int64_t)b);
		out_int(row, "start_ns", event_time(m, s, o->absolute));
		out_int(row, "end_ns", event_time(m, e, o->absolute));
		out_int(row, "busy_ns", busy);
		out_num(row, "busy_pct", e > s ? 100.0 * (double)busy /
		    (double)(e - s) : 0.0);
		for (k = 0; k < WORK_NCLASS; k++)
			out_int(row, cf[k], v[1 + k]);
		out_int(row, "kernels", (int64_t)bb->kern[b]);
		for (k = 0; k <= WORK_NCLASS; k++)
			sum[k] += v[k];
		nk += bb->kern[b];
	}
	tot = cJSON_CreateObject();
	out_int(tot, "device", m->devices[dev].source_id);
	if (stream != NONE32) {
		if (p != NONE32)
			out_int(tot, "pid", m->processes[p].pid);
		out_int(tot, "stream", (int64_t)m->streams[stream].source_id);
	}
	out_int(tot, "busy_ns", sum[0]);
	for (k = 0; k < WORK_NCLASS; k++)
		out_int(tot, cf[k], sum[1 + k]);
	out_int(tot, "kernels", (int64_t)nk);
	cJSON_AddItemToArray(totals, tot);
}

int
cmd_timeline_compute(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct timeline_ctx	 c;
	struct sel		 s;
	struct iset		 wall;
	cJSON			*totals;
	int64_t			 t0, t1;
	uint32_t		*tracks = NULL, *order = NULL, one, p;
	size_t			 d, t, k, nt, nd, np, nr, tcap = 0, ocap = 0;
	int			 rc = -1, any = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	if (o->by == NULL || strcmp(o->by, "device") == 0)
		c.by_stream = 0;
	else if (strcmp(o->by, "stream") == 0)
		c.by_stream = 1;
	else {
		*cause = xasprintf("bad value for --by: '%s' (expected device "
		    "or stream)", o->by);
		return -1;
	}
	if (o->buckets > 0 && o->bucket_ns > 0) {
		*cause = xasprintf("give --buckets or --bucket, not both");
		return -1;
	}
	if (sel_init(&s, m, o, cause) != 0)
		return -1;
	t0 = s.t0;
	t1 = o->to == OPT_TIME_UNSET ? m->end_ns : s.t1;
	worksel_init(&c.w, m, &s, t0, t1);
	iset_init(&wall);
	if (s.has_nvtx) {
		/* Bucket the stretch of the selected range instances. */
		worksel_windows(&c.w, NULL, 0, &wall);
		if (wall.n > 0) {
			t0 = wall.start[0];
			t1 = wall.end[wall.n - 1];
		} else
			t1 = t0;
	}
	if (!o->limit_set)
		out->limit = 0;
	totals = cJSON_CreateArray();
	if (t1 <= t0 || sel_window_empty(&s)) {
		out_warn(out, "window_empty",
		    "the window is empty or lies outside the trace");
		goto aux;
	}
	if (timeline_edges(&c, o, t0, t1, cause) != 0) {
		cJSON_Delete(totals);
		goto done;
	}
	if (c.by_stream) {
		for (t = 0; t < m->ntracks; t++) {
			if (!c.w.selected[t])
				continue;
			one = (uint32_t)t;
			p = m->streams[m->tracks[t].stream].process;
			timeline_unit(&c, m->tracks[t].device,
			    m->tracks[t].stream, &one, 1, &p, p != NONE32);
		}
	} else {
		nd = work_devices(m, &order, &ocap);
		for (k = 0; k < nd; k++) {
			d = order[k];
			nt = work_tracks(&c.w, (uint32_t)d, &tracks, &tcap);
			if (nt == 0)
				continue;
			np = work_device_procs(m, (uint32_t)d, &c.procs,
			    &c.pcap);
			timeline_unit(&c, (uint32_t)d, NONE32, tracks, nt,
			    c.procs, np);
		}
	}
	/* The units in parallel, a round of nth at a time (the buckets of
	 * nth units in memory). */
	any = c.nu > 0;
	c.nth = work_threads(&c.w, c.nu);
	c.bb = xcalloc(c.nth, sizeof *c.bb);
	for (k = 0; k < c.nth; k++)
		busy_buckets_init(&c.bb[k], c.edge, c.nb);
	for (c.base = 0; c.base < c.nu; c.base += nr) {
		nr = c.nu - c.base < c.nth ? c.nu - c.base : c.nth;
		(void)pool_run(nr, c.nth, timeline_job, &c, NULL);
		for (k = 0; k < nr; k++)
			timeline_rows(&c, o, out, &c.u[c.base + k], &c.bb[k],
			    totals);
	}
	if (!any)
		out_warn(out, "no_gpu_work",
		    "no GPU work in the selection");
aux:
	out_str(out->aux, "by", c.by_stream ? "stream" : "device");
	sel_window_aux(out, m, o, t0, t1);
	out_int(out->aux, "buckets", (int64_t)c.nb);
	if (c.nb > 0)
		out_num(out->aux, "bucket_ns", (double)(t1 - t0) /
		    (double)c.nb);
	cJSON_AddItemToObject(out->aux, "totals", totals);
	rc = 0;
done:
	iset_free(&wall);
	free(tracks);
	free(order);
	free(c.edge);
	for (k = 0; k < c.nth; k++)
		busy_buckets_free(&c.bb[k]);
	free(c.bb);
	for (k = 0; k < c.nu; k++) {
		free(c.u[k].tracks);
		iset_free(&c.u[k].win);
	}
	free(c.u);
	free(c.procs);
	work_free(&c.w);
	sel_free(&s);
	return rc;
}

