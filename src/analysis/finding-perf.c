/*
 * finding-perf: the rules that are not nsys's (times in evidence are
 * relative to the trace origin):
 *
 *   launch_bound     the GPU waits for launches: idle gaps under 1 ms
 *                    after which the next work's launching call ended no
 *                    earlier than the gap began (HTA's "host wait": the
 *                    work could not start sooner because it had not been
 *                    submitted). Cost: their sum on the worst GPU. High
 *                    confidence also needs the work after those gaps to be
 *                    short (median under 20 us): many short kernels.
 *   idle_bubbles     idle gaps of 1 ms up to the gpu_gaps threshold that
 *                    no synchronisation explains (data loading, host work
 *                    between steps). Cost: their sum on the worst GPU.
 *   exposed_comm     communication with no compute beside it on its GPU
 *                    (comm.h's definition, the one `overlap` reports),
 *                    summed over the GPUs. Following PithTrain (a long
 *                    NCCL kernel may be a wait, so compare ranks), the
 *                    cost is what every rank pays: for the n-th collective
 *                    of each GPU (one instance), the least exposed time
 *                    over the GPUs, summed over the instances; the rest is
 *                    skew, waiting for ranks that arrive later (a
 *                    persistent one is a straggler).
 *   straggler        with two or more communicating GPUs, the one with the
 *                    most compute time between the first and the last
 *                    collective all of them run (work outside that is
 *                    never waited for); cost: its excess over the median
 *                    (what the others wait), reported from 2% of the
 *                    median. High confidence also needs it to be the GPU
 *                    with the least exposed communication (it waits least).
 *   imbalance        work (compute and copies; waiting in a collective is
 *                    not work) across GPUs, outside the span where all
 *                    of them communicate (inside it, uneven work makes a
 *                    straggler, reported as such); the whole window
 *                    without communication. Reported when (max - min) /
 *                    mean is 10% or more; cost: max - mean. The share of
 *                    the excess inside the iterations decides whether it
 *                    is one-off. Imbalance across streams of one GPU is
 *                    not a cost and is not reported.
 *   dominant_kernel  the compute kernel (by name) with the most GPU time,
 *                    when it has at least 15% of all compute kernel time:
 *                    worth a kernel profiler's look (ncu_command: the
 *                    command `gpulens ncu-command` gives for its longest
 *                    launch, ncu or, on AMD, rocprofv3). Cost: its
 *                    time on the worst GPU. Never high confidence: it is
 *                    an opportunity, not a diagnosed problem (medium from
 *                    25% of kernel time). Its evidence holds the
 *                    theoretical occupancy when the device's limits are
 *                    known (warps, registers allocated per warp in units
 *                    of 256, shared memory with 1 KiB reserved per block,
 *                    32 blocks per SM).
 *   low_occupancy    needs achieved occupancy, which no reader records
 *                    in the model: always "skipped".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comm.h"
#include "analysis/finding.h"
#include "analysis/gaps.h"
#include "util/hmap.h"
#include "model/lane.h"
#include "analysis/ncucmd.h"
#include "analysis/stats.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define PERF_SHORT_KERNEL_NS	20000
#define PERF_STRAGGLER_MIN	0.02
#define PERF_IMBALANCE_MIN	0.10
#define PERF_DOMINANT_MIN	0.15
#define PERF_DOMINANT_MEDIUM	0.25

static uint32_t
perf_dev_id(const struct finding_ctx *c, size_t d)
{
	return c->m->devices[c->act.dev[d].device].source_id;
}

static int
perf_gap_finding(struct finding_ctx *c, int cls, const char *type,
    struct finding **fp, size_t *dp)
{
	size_t			 d;
	const struct finding_dev *fd;
	struct finding		*f;

	if (c->act.ndev == 0) {
		finding_rule(c, type, "none", "no GPU work");
		return 0;
	}
	d = finding_worst(c, cls);
	fd = &c->dev[d];
	if (fd->gap_sum[cls] == 0) {
		finding_rule(c, type, "none", NULL);
		return 0;
	}
	f = finding_add_gap(c, type, d, cls);
	fev_int(&f->ev, "gaps", fd->gap_n[cls]);
	fev_int(&f->ev, "idle_ns", fd->gap_sum[cls]);
	fev_int(&f->ev, "longest_ns", fd->gap_long[cls]);
	*fp = f;
	*dp = d;
	finding_rule(c, type, "found", NULL);
	return 1;
}

void
finding_perf_launch(struct finding_ctx *c)
{
	const struct finding_dev *fd;
	struct finding		*f;
	size_t			 d, t;
	uint64_t		 nk = 0;
	char			 b1[32], b2[32];
	const struct model	*m = c->m;

	if (!perf_gap_finding(c, FGAP_LAUNCH, "launch_bound", &f, &d))
		return;
	fd = &c->dev[d];
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].type == TRACK_GPU &&
		    m->tracks[t].device == c->act.dev[d].device)
			nk += lane_count(&m->tracks[t].lane, c->t0, c->t1);
	if (fd->launch_kern_med > PERF_SHORT_KERNEL_NS &&
	    f->confidence == FINDING_HIGH)
		f->confidence = FINDING_MEDIUM;
	f->t0 = fd->launch_at0;
	f->t1 = fd->launch_at1;
	finding_set(&f->title, "The GPU waits for kernel launches (%zu short "
	    "gaps)", fd->gap_n[FGAP_LAUNCH]);
	finding_set(&f->detail, "Device %u sat idle %s in %zu gaps under 1 ms "
	    "that ended when the host's launch call had only just been made; "
	    "the work after them runs %s (median).", perf_dev_id(c, d),
	    finding_dur(fd->gap_sum[FGAP_LAUNCH], b1, sizeof b1),
	    fd->gap_n[FGAP_LAUNCH], finding_dur(fd->launch_kern_med, b2,
	    sizeof b2));
	finding_set(&f->next, "Launch fewer, larger kernels: fuse the short "
	    "ones (torch.compile), capture the stretch in a CUDA graph "
	    "(torch.cuda.graphs, mode=\"reduce-overhead\"), and move Python "
	    "work out of the loop; `gpulens launch TRACE` shows the launch "
	    "latencies.");
	fev_int(&f->ev, "median_work_after_ns", fd->launch_kern_med);
	fev_int(&f->ev, "work_events", nk);
}

void
finding_perf_bubbles(struct finding_ctx *c)
{
	const struct finding_dev *fd;
	struct finding		*f;
	size_t			 d;
	char			 b1[32], b2[32], b3[32];

	if (!perf_gap_finding(c, FGAP_BUBBLE, "idle_bubbles", &f, &d))
		return;
	fd = &c->dev[d];
	finding_gap_window(f, fd, FGAP_BUBBLE);
	finding_set(&f->title, "%zu idle bubbles of 1 ms or more no "
	    "synchronisation explains", fd->gap_n[FGAP_BUBBLE]);
	finding_set(&f->detail, "Device %u was idle %s in %zu gaps of 1 ms to "
	    "%s that follow no synchronisation call (longest %s): the host "
	    "was busy with something else.", perf_dev_id(c, d),
	    finding_dur(fd->gap_sum[FGAP_BUBBLE], b1, sizeof b1),
	    fd->gap_n[FGAP_BUBBLE], finding_dur(c->gap_threshold, b2,
	    sizeof b2), finding_dur(fd->gap_long[FGAP_BUBBLE], b3,
	    sizeof b3));
	finding_set(&f->next, "See what the host did in them (`gpulens gaps "
	    "TRACE --min-dur 1ms`): prefetch input (DataLoader num_workers, "
	    "prefetch_factor, pin_memory) and move host work off the "
	    "critical path.");
	fev_int(&f->ev, "min_gap_ns", FINDING_LAUNCH_GAP_NS);
	fev_int(&f->ev, "max_gap_ns", c->gap_threshold);
}

/* Calls fn for each communication event of device slot d overlapping the
 * window, track by track, in each lane's index order. */
static void
perf_comm_scan(const struct finding_ctx *c, size_t d,
    void (*fn)(void *, const struct lane *, uint32_t t, uint32_t i),
    void *arg)
{
	const struct model	*m = c->m;
	uint32_t		*idx = NULL;
	size_t			 icap = 0, t, n, k, i, lo;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_GPU ||
		    m->tracks[t].device != c->act.dev[d].device)
			continue;
		n = lane_overlap_range(l, c->t0, c->t1, &idx, &icap, &lo);
		for (k = 0; k < n; k++) {
			i = lane_at(idx, lo, k);
			if (activity_class(l->kind[i], l->flags[i]) == ACT_COMM)
				fn(arg, l, (uint32_t)t, (uint32_t)i);
		}
	}
	free(idx);
}

struct perf_longest {
	const struct model	*m;
	uint32_t		 best;
	int64_t			 bl, s, e;
};

static void
perf_longest_one(void *arg, const struct lane *l, uint32_t t, uint32_t i)
{
	struct perf_longest	*pl = arg;

	if (l->end[i] - l->start[i] > pl->bl) {
		pl->bl = l->end[i] - l->start[i];
		pl->best = model_gid(pl->m, t, i);
		pl->s = l->start[i];
		pl->e = l->end[i];
	}
}

/* The longest communication kernel of device slot d in the window. */
static uint32_t
perf_longest_comm(const struct finding_ctx *c, size_t d, int64_t *s,
    int64_t *e)
{
	struct perf_longest	pl;

	pl.m = c->m;
	pl.best = NONE32;
	pl.bl = -1;
	perf_comm_scan(c, d, perf_longest_one, &pl);
	if (pl.best != NONE32) {
		*s = pl.s;
		*e = pl.e;
	}
	return pl.best;
}

struct perf_ck {
	int64_t		 s, e;		/* clipped to the window */
	int64_t		 x;		/* exposed: no compute beside it */
	uint32_t	 gid;
};

static int
perf_ck_cmp(const void *a, const void *b)
{
	const struct perf_ck	*x = a, *y = b;

	return sort_lex2(x->s, y->s, x->gid, y->gid);
}

/* Device slot d runs communication kernels in the window. */
static int
perf_communicates(const struct finding_ctx *c, size_t d)
{
	return c->act.dev[d].ncomm > 0 && c->dev[d].w.comm > 0;
}

struct perf_cks {
	const struct finding_ctx *c;
	size_t			 d;
	struct perf_ck		*v;
	size_t			 nv, vcap;
	size_t			 at[4];	/* activity_compute_at()'s */
};

static void
perf_ck_one(void *arg, const struct lane *l, uint32_t t, uint32_t i)
{
	struct perf_cks			*a = arg;
	const struct finding_ctx	*c = a->c;
	int64_t				 s, e;

	s = l->start[i] > c->t0 ? l->start[i] : c->t0;
	e = l->end[i] < c->t1 ? l->end[i] : c->t1;
	XGROW(a->v, a->vcap, a->nv + 1);
	a->v[a->nv].s = s;
	a->v[a->nv].e = e;
	a->v[a->nv].x = (e - s) - activity_compute_at(&c->act, a->d, s, e,
	    a->at);
	a->v[a->nv].gid = model_gid(c->m, t, i);
	a->nv++;
}

/* The communication kernels of device slot d in the window, in start
 * order, each with its exposed time; only for a device perf_comm_slots()
 * takes. */
void
finding_perf_comm_scan(struct finding_ctx *c, size_t d)
{
	struct perf_cks	a;

	if (!perf_communicates(c, d))
		return;
	memset(&a, 0, sizeof a);
	a.c = c;
	a.d = d;
	perf_comm_scan(c, d, perf_ck_one, &a);
	if (a.nv > 1)
		qsort(a.v, a.nv, sizeof *a.v, perf_ck_cmp);
	c->dev[d].ck = a.v;
	c->dev[d].nck = a.nv;
}

/*
 * exposed_comm. The exposed communication it reports is comm.h's
 * (comm_exposed, what `overlap` reports): per device |M \ C|, summed over
 * the devices. Part of it is skew, waiting for a rank that arrived later:
 * the n-th collective of every communicating GPU is one collective
 * instance (ranks run the same collectives in the same order); the
 * exposure every rank pays for it is the least over the GPUs, and the rest
 * is skew. The cost is that shared exposure summed over the instances
 * (TraceLens splits collective time into latency and skew the same way;
 * the skew is the straggler's). When the GPUs ran different numbers of
 * collectives, it falls back to the least exposed GPU's total.
 */
static void
perf_exposed(struct finding_ctx *c, const size_t *slot, size_t ns,
    size_t dmin, size_t dmax)
{
	const struct model	*m = c->m;
	struct perf_ck		**ck;
	size_t			*nck, k, j, same = 1, bj = 0, bk = 0;
	int64_t			 shared = 0, zone = 0, best = -1, x, mx;
	struct finding		*f;
	struct comm_exposed	 ce;
	const struct comm_exposed_dev *wd;
	struct comm_id		 id;
	char			 b1[32], b2[32], b3[32];
	double			 zf;

	comm_exposed(&c->act, c->t0, c->t1, &ce);
	ck = xcalloc(ns, sizeof *ck);
	nck = xcalloc(ns, sizeof *nck);
	for (k = 0; k < ns; k++) {
		ck[k] = c->dev[slot[k]].ck;
		nck[k] = c->dev[slot[k]].nck;
		if (nck[k] != nck[0])
			same = 0;
	}
	if (same) {
		for (j = 0; j < nck[0]; j++) {
			size_t km = 0;
			for (k = 1; k < ns; k++)
				if (ck[k][j].x < ck[km][j].x)
					km = k;
			x = ck[km][j].x > 0 ? ck[km][j].x : 0;
			shared += x;
			if (finding_in_zone(c, ck[km][j].s))
				zone += x;
			if (x > best) {
				best = x;
				bj = j;
				bk = km;
			}
		}
	} else {
		shared = c->dev[slot[dmin]].w.exposed;
		bk = dmin;
		for (j = 0; j < nck[dmin]; j++) {
			if (finding_in_zone(c, ck[dmin][j].s))
				zone += ck[dmin][j].x > 0 ? ck[dmin][j].x : 0;
			if (ck[dmin][j].x > best) {
				best = ck[dmin][j].x;
				bj = j;
			}
		}
	}
	/* Per-kernel exposure counts overlapping collectives twice; what
	 * every rank pays is at most the least exposed GPU's |M \ C|. */
	if (shared > c->dev[slot[dmin]].w.exposed)
		shared = c->dev[slot[dmin]].w.exposed;
	if (shared <= 0) {
		finding_rule(c, "exposed_comm", "none", NULL);
		goto done;
	}
	f = finding_add(c, "exposed_comm", shared);
	zf = (double)zone / (double)shared;
	finding_set_zone(f, zf > 1 ? 1 : zf);
	finding_device(c, f, slot[bk]);
	if (nck[bk] > bj) {
		f->t0 = ck[bk][bj].s;
		f->t1 = ck[bk][bj].e;
		f->gid = ck[bk][bj].gid;
	}
	mx = c->dev[slot[dmax]].w.exposed;
	finding_set(&f->title, "Communication not hidden under compute "
	    "(%s exposed)", finding_dur(ce.exposed, b1, sizeof b1));
	finding_set(&f->detail, "%s of communication runs with no compute "
	    "beside it, summed over %zu GPU%s (up to %s on one); every rank "
	    "pays %s of it (%s instances matched), the rest being waits for "
	    "ranks that arrive later (skew).", finding_dur(ce.exposed, b1,
	    sizeof b1), ce.ndev, ce.ndev == 1 ? "" : "s",
	    finding_dur(mx, b2, sizeof b2),
	    finding_dur(shared, b3, sizeof b3), same ? "all" : "no");
	finding_set(&f->next, "Overlap communication with compute: "
	    "gradient bucketing (DDP bucket_cap_mb), FSDP prefetching, "
	    "collectives on their own stream; `gpulens overlap TRACE "
	    "--by nvtx-path` shows where the exposed collectives are "
	    "launched.");
	fev_int(&f->ev, "exposed_comm_ns", ce.exposed);
	fev_int(&f->ev, "comm_ns", ce.comm);
	fev_int(&f->ev, "shared_exposed_ns", shared);
	fev_bool(&f->ev, "instances_matched", same);
	fev_int(&f->ev, "collectives", nck[bk]);
	fev_int(&f->ev, "max_exposed_ns", mx);
	fev_int(&f->ev, "longest_exposed_ns", best > 0 ? best : 0);
	if (f->gid != NONE32) {
		comm_identify(m, f->gid, &id);
		fev_str(&f->ev, "collective", id.name);
	}
	fev_list(&f->ev, "per_device");
	for (k = 0; k < ce.ndev; k++) {
		wd = &ce.dev[k];
		fev_record(&f->ev, NULL);
		fev_int(&f->ev, "device", m->devices[wd->device].source_id);
		fev_int(&f->ev, "comm_ns", wd->comm);
		fev_int(&f->ev, "exposed_ns", wd->exposed);
		fev_real(&f->ev, "hidden_pct", wd->comm > 0 ?
		    100.0 * (1.0 - (double)wd->exposed / (double)wd->comm) :
		    0.0);
		fev_end(&f->ev);
	}
	fev_end(&f->ev);
	finding_rule(c, "exposed_comm", "found", NULL);
done:
	free(ck);
	free(nck);
	comm_exposed_free(&ce);
}

/*
 * Where every communicating GPU (slots[0..ns)) communicates: from the
 * latest first collective to the earliest last one, inside the window.
 * Compute there is waited for by collectives; compute outside is not.
 */
static void
perf_comm_span(const struct finding_ctx *c, const size_t *slot, size_t ns,
    int64_t *cs, int64_t *ce)
{
	size_t	k, j;

	*cs = c->t0;
	*ce = c->t1;
	for (k = 0; k < ns; k++) {
		const struct iset *mc =
		    &c->act.dev[slot[k]].cov[ACT_COMM];
		int64_t fs = INT64_MAX, ls = INT64_MIN;
		for (j = 0; j < mc->n; j++)
			if (mc->end[j] > c->t0 && mc->start[j] < c->t1) {
				if (fs == INT64_MAX)
					fs = mc->start[j];
				ls = mc->end[j];
			}
		if (fs > *cs)
			*cs = fs;
		if (ls < *ce)
			*ce = ls;
	}
}

/* The communicating device slots into slot[]; returns their number. */
static size_t
perf_comm_slots(const struct finding_ctx *c, size_t *slot)
{
	size_t	d, ns = 0;

	for (d = 0; d < c->act.ndev; d++)
		if (perf_communicates(c, d))
			slot[ns++] = d;
	return ns;
}

void
finding_perf_comm(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct finding		*f;
	size_t			*slot, ns = 0, k, dmin = 0, dmax = 0;
	size_t			 dslow = 0;
	int64_t			*comp, *span, med, excess, cs, ce;
	char			 b1[32], b2[32], b3[32], b4[32];
	int			 consistent;
	int64_t			 s = 0, e = 0;
	const struct act_window	*w;

	slot = xcalloc(c->act.ndev + 1, sizeof *slot);
	ns = perf_comm_slots(c, slot);
	if (ns == 0) {
		finding_rule(c, "exposed_comm", "none", "no communication "
		    "kernels");
		finding_rule(c, "straggler", "none", "no communication "
		    "kernels");
		free(slot);
		return;
	}
	for (k = 1; k < ns; k++) {
		if (c->dev[slot[k]].w.exposed < c->dev[slot[dmin]].w.exposed)
			dmin = k;
		if (c->dev[slot[k]].w.exposed > c->dev[slot[dmax]].w.exposed)
			dmax = k;
	}

	perf_exposed(c, slot, ns, dmin, dmax);

	/* straggler */
	if (ns < 2) {
		finding_rule(c, "straggler", "none", "one communicating GPU");
		free(slot);
		return;
	}
	perf_comm_span(c, slot, ns, &cs, &ce);
	comp = xcalloc(ns, sizeof *comp);
	span = xcalloc(ns, sizeof *span);
	for (k = 0; k < ns; k++) {
		span[k] = activity_busy(&c->act, slot[k], ACT_COMPUTE, cs, ce);
		comp[k] = span[k];
		if (comp[k] > span[dslow])
			dslow = k;
	}
	qsort(comp, ns, sizeof *comp, sort_cmp_i64);
	med = ns % 2 ? comp[ns / 2] : (comp[ns / 2 - 1] + comp[ns / 2]) / 2;
	free(comp);
	excess = span[dslow] - med;
	if (med <= 0 || (double)excess < PERF_STRAGGLER_MIN * (double)med) {
		finding_rule(c, "straggler", "none", NULL);
		free(span);
		free(slot);
		return;
	}
	consistent = c->dev[slot[dslow]].w.exposed ==
	    c->dev[slot[dmin]].w.exposed;
	f = finding_add(c, "straggler", excess);
	if (!consistent && f->confidence == FINDING_HIGH)
		f->confidence = FINDING_MEDIUM;
	finding_device(c, f, slot[dslow]);
	f->gid = perf_longest_comm(c, slot[dmax], &s, &e);
	if (f->gid != NONE32) {
		f->t0 = s;
		f->t1 = e;
	}
	finding_set(&f->title, "Device %u is a straggler (%.0f%% more compute "
	    "than the median rank)", perf_dev_id(c, slot[dslow]),
	    100.0 * (double)excess / (double)med);
	finding_set(&f->detail, "Device %u computes %s against a median of %s "
	    "over %zu communicating GPUs; the others wait for it in their "
	    "collectives (device %u exposes %s of communication, it %s).",
	    perf_dev_id(c, slot[dslow]), finding_dur(med + excess, b1,
	    sizeof b1), finding_dur(med, b2, sizeof b2), ns,
	    perf_dev_id(c, slot[dmax]),
	    finding_dur(c->dev[slot[dmax]].w.exposed, b3, sizeof b3),
	    finding_dur(c->dev[slot[dslow]].w.exposed, b4, sizeof b4));
	finding_set(&f->next, "Find out why device %u is slower: compare its "
	    "kernels with another rank's (`gpulens stats TRACE --device %u` "
	    "and `--device %u`), check its clocks and temperature, and "
	    "whether its input is larger (uneven batches or sequence "
	    "lengths).", perf_dev_id(c, slot[dslow]),
	    perf_dev_id(c, slot[dslow]), perf_dev_id(c, slot[dmin ==
	    dslow ? dmax : dmin]));
	fev_int(&f->ev, "compute_ns", med + excess);
	fev_int(&f->ev, "median_compute_ns", med);
	fev_real(&f->ev, "excess_pct", 100.0 * (double)excess / (double)med);
	fev_bool(&f->ev, "waits_least", consistent);
	if (f->process != NONE32)
		fev_int(&f->ev, "pid", m->processes[f->process].pid);
	fev_int(&f->ev, "comm_span_start_ns", cs - m->origin_ns);
	fev_int(&f->ev, "comm_span_end_ns", ce - m->origin_ns);
	fev_list(&f->ev, "per_device");
	for (k = 0; k < ns; k++) {
		w = &c->dev[slot[k]].w;
		fev_record(&f->ev, NULL);
		fev_int(&f->ev, "device", perf_dev_id(c, slot[k]));
		fev_int(&f->ev, "compute_ns", span[k]);
		fev_int(&f->ev, "exposed_comm_ns", w->exposed);
		fev_end(&f->ev);
	}
	fev_end(&f->ev);
	finding_rule(c, "straggler", "found", NULL);
	free(span);
	free(slot);
}

struct perf_idle {
	int64_t		 best, s, e;
};

static void
perf_idle_one(void *arg, const struct gap_span *g)
{
	struct perf_idle	*pi = arg;

	if (g->end - g->start > pi->best) {
		pi->best = g->end - g->start;
		pi->s = g->start;
		pi->e = g->end;
	}
}

/* The longest idle stretch of device slot d in the window, edges too. */
static void
perf_longest_idle(const struct finding_ctx *c, size_t d, int64_t *bs,
    int64_t *be)
{
	struct perf_idle	pi;

	pi.best = -1;
	pi.s = c->t0;
	pi.e = c->t1;
	gaps_device_each(&c->act, d, c->t0, c->t1, perf_idle_one, &pi);
	*bs = pi.s;
	*be = pi.e;
}

/* Non-communication work of device slot d outside [cs, ce). */
static int64_t
perf_work_outside(const struct finding_ctx *c, size_t d, int64_t cs,
    int64_t ce)
{
	int64_t	v = 0;
	int	cls;

	for (cls = ACT_COMPUTE; cls <= ACT_COPY; cls++) {
		if (cls == ACT_COMM)
			continue;
		if (cs >= ce)
			v = sat_add64(v, activity_busy(&c->act, d, cls,
			    c->t0, c->t1));
		else
			v = sat_add64(v, activity_busy(&c->act, d, cls,
			    c->t0, cs) + activity_busy(&c->act, d, cls, ce,
			    c->t1));
	}
	return v;
}

void
finding_perf_imbalance(struct finding_ctx *c)
{
	struct finding	*f;
	size_t		 d, n = 0, dmax = 0, dmin = 0, *slot, ns;
	int64_t		 sum = 0, *busy, cs = 0, ce = 0, zone = 0;
	double		 mean, imb, zf;
	char		 b1[32], b2[32], b3[32];
	int		 have = 0;

	slot = xcalloc(c->act.ndev + 1, sizeof *slot);
	ns = perf_comm_slots(c, slot);
	if (ns >= 2)
		perf_comm_span(c, slot, ns, &cs, &ce);
	free(slot);
	busy = xcalloc(c->act.ndev + 1, sizeof *busy);
	for (d = 0; d < c->act.ndev; d++) {
		busy[d] = perf_work_outside(c, d, cs, ce);
		if (c->dev[d].w.busy <= 0)
			continue;
		n++;
		sum += busy[d];
		if (!have || busy[d] > busy[dmax])
			dmax = d;
		if (!have || busy[d] < busy[dmin])
			dmin = d;
		have = 1;
	}
	if (n < 2 || sum <= 0) {
		finding_rule(c, "imbalance", "none", n < 2 ?
		    "fewer than two busy GPUs" : NULL);
		free(busy);
		return;
	}
	mean = (double)sum / (double)n;
	imb = ((double)busy[dmax] - (double)busy[dmin]) / mean;
	if (imb < PERF_IMBALANCE_MIN) {
		finding_rule(c, "imbalance", "none", NULL);
		free(busy);
		return;
	}
	f = finding_add(c, "imbalance", (int64_t)((double)busy[dmax] - mean));
	if (c->zone1 > c->zone0) {
		/* The excess inside the iterations recurs; the rest is
		 * set-up or tear-down. */
		int64_t z0 = c->zone0 > c->t0 ? c->zone0 : c->t0;
		int64_t z1 = c->zone1 < c->t1 ? c->zone1 : c->t1;
		int64_t in_max = 0, in_min = 0;
		int cls;
		for (cls = ACT_COMPUTE; cls <= ACT_COPY; cls++) {
			if (cls == ACT_COMM)
				continue;
			in_max = sat_add64(in_max,
			    activity_busy(&c->act, dmax, cls, z0, z1));
			in_min = sat_add64(in_min,
			    activity_busy(&c->act, dmin, cls, z0, z1));
			if (cs < ce) {
				in_max -= activity_busy(&c->act, dmax, cls,
				    cs > z0 ? cs : z0, ce < z1 ? ce : z1);
				in_min -= activity_busy(&c->act, dmin, cls,
				    cs > z0 ? cs : z0, ce < z1 ? ce : z1);
			}
		}
		zone = in_max - in_min;
		zf = (double)zone / ((double)busy[dmax] - (double)busy[dmin]);
		finding_set_zone(f, zf);
	}
	finding_device(c, f, dmax);
	perf_longest_idle(c, dmin, &f->t0, &f->t1);
	finding_set(&f->title, "Work is uneven across GPUs (%.0f%% "
	    "imbalance)", 100.0 * imb);
	finding_set(&f->detail, "Outside the collectives that synchronise "
	    "them, device %u works %s, device %u only %s (mean %s over %zu "
	    "GPUs); the least busy one's longest idle stretch is marked.",
	    perf_dev_id(c, dmax), finding_dur(busy[dmax], b1, sizeof b1),
	    perf_dev_id(c, dmin), finding_dur(busy[dmin], b2, sizeof b2),
	    finding_dur((int64_t)mean, b3, sizeof b3), n);
	finding_set(&f->next, "Balance the work across GPUs (shard sizes, "
	    "batch sizes), or find the work only device %u does (evaluation, "
	    "logging, checkpoints on one rank) and spread or overlap it.",
	    perf_dev_id(c, dmax));
	fev_real(&f->ev, "imbalance_pct", 100.0 * imb);
	fev_int(&f->ev, "max_work_ns", busy[dmax]);
	fev_int(&f->ev, "min_work_ns", busy[dmin]);
	fev_real(&f->ev, "mean_work_ns", mean);
	if (cs < ce) {
		fev_int(&f->ev, "excluded_start_ns", cs - c->m->origin_ns);
		fev_int(&f->ev, "excluded_end_ns", ce - c->m->origin_ns);
	}
	fev_list(&f->ev, "per_device");
	for (d = 0; d < c->act.ndev; d++) {
		fev_record(&f->ev, NULL);
		fev_int(&f->ev, "device", perf_dev_id(c, d));
		fev_int(&f->ev, "work_ns", busy[d]);
		fev_end(&f->ev);
	}
	fev_end(&f->ev);
	finding_rule(c, "imbalance", "found", NULL);
	free(busy);
}

/* Theoretical occupancy (0-100) of a kernel on a device, -1 unknown. */
static double
perf_occupancy(const struct device *dv, const struct kernel_info *ki)
{
	int64_t	threads, warps, wsz, blocks, b, regs_warp, smem;

	wsz = dv->threads_per_warp > 0 ? dv->threads_per_warp : 32;
	if (dv->max_warps_per_sm <= 0 || ki == NULL)
		return -1;
	threads = (int64_t)ki->block[0] * ki->block[1] * ki->block[2];
	if (threads <= 0)
		return -1;
	warps = (threads + wsz - 1) / wsz;
	blocks = dv->max_warps_per_sm / warps;
	if (blocks > 32)
		blocks = 32;
	if (ki->regs > 0 && dv->regs_per_sm > 0) {
		regs_warp = ((int64_t)ki->regs * wsz + 255) / 256 * 256;
		b = dv->regs_per_sm / (regs_warp * warps);
		if (b < blocks)
			blocks = b;
	}
	smem = (int64_t)ki->static_smem + ki->dynamic_smem;
	if (smem > 0 && dv->smem_per_sm > 0) {
		b = dv->smem_per_sm / (smem + 1024);
		if (b < blocks)
			blocks = b;
	}
	if (blocks < 0)
		blocks = 0;
	return 100.0 * (double)(blocks * warps) / (double)dv->max_warps_per_sm;
}

/* Bound on the magnitudes' sum below which double sums of integers are
 * exact. */
#define PERF_EXACT_MAX	((uint64_t)1 << 53)

/*
 * Each compute kernel name's time in the window and their total, summed in
 * lane order: into tot and *all as doubles (ti NULL), or into ti and *ta
 * as integers. A double sum of integers is exact while every partial sum
 * is within 2^53, which the sum of the magnitudes bounds: up to there the
 * integer sums converted are the double sums' bits, with an integer add
 * per event instead of a dependent double one. Returns 0, or -1 (the
 * integer sums unfinished) when the magnitudes pass 2^53.
 */
static int
perf_kernel_sums(const struct finding_ctx *c, int64_t *ti, int64_t *ta,
    double *tot, double *all, uint32_t **idx, size_t *icap)
{
	const struct model	*m = c->m;
	size_t			 t, k, n, i, lo;
	int64_t			 v, sum = 0;
	uint64_t		 mag = 0;
	double			 dsum = 0;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		n = lane_overlap_range(l, c->t0, c->t1, idx, icap, &lo);
		for (k = 0; k < n; k++) {
			i = lane_at(*idx, lo, k);
			if (activity_class(l->kind[i], l->flags[i]) !=
			    ACT_COMPUTE)
				continue;
			v = (l->end[i] < c->t1 ? l->end[i] : c->t1) -
			    (l->start[i] > c->t0 ? l->start[i] : c->t0);
			if (ti == NULL) {
				tot[l->name[i]] += (double)v;
				dsum += (double)v;
				continue;
			}
			ti[l->name[i]] += v;
			sum += v;
			mag += v < 0 ? -(uint64_t)v : (uint64_t)v;
			if (mag > PERF_EXACT_MAX)
				return -1;
		}
	}
	if (ti != NULL)
		*ta = sum;
	else
		*all = dsum;
	return 0;
}

void
finding_perf_kernel_scan(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct finding_kern	*fk = &c->kern;
	size_t			 ns = strpool_count(m->strs) + 1, t, k, n, i;
	double			*tot = xcalloc(ns, sizeof *tot), all = 0;
	uint32_t		*idx = NULL, best = 0, id;
	const char		*ncode = NULL;
	size_t			 icap = 0, d, lo;
	int64_t			*pd, *ti, ta = 0, longest = -1, v;
	struct stats_acc	 acc;
	struct stats		 st;

	memset(fk, 0, sizeof *fk);
	fk->gid = fk->aux = fk->dev = NONE32;
	fk->nc_rc = -1;
	pd = xcalloc(c->act.ndev + 1, sizeof *pd);
	ti = xcalloc(ns, sizeof *ti);
	if (perf_kernel_sums(c, ti, &ta, NULL, NULL, &idx, &icap) == 0) {
		for (id = 0; id < ns; id++)
			tot[id] = (double)ti[id];
		all = (double)ta;
	} else
		(void)perf_kernel_sums(c, NULL, NULL, tot, &all, &idx, &icap);
	free(ti);
	for (id = 1; id < ns; id++)
		if (tot[id] > 0 && (best == 0 || tot[id] > tot[best]))
			best = id;
	fk->best = best;
	fk->share = all > 0 ? tot[best] / all : 0;
	free(tot);
	if (best == 0 || fk->share < PERF_DOMINANT_MIN) {
		free(pd);
		free(idx);
		return;
	}
	stats_acc_init(&acc);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		int sl;
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		sl = activity_slot(&c->act, m->tracks[t].device);
		n = lane_overlap_range(l, c->t0, c->t1, &idx, &icap, &lo);
		for (k = 0; k < n; k++) {
			i = lane_at(idx, lo, k);
			if (l->name[i] != best || activity_class(l->kind[i],
			    l->flags[i]) != ACT_COMPUTE)
				continue;
			v = l->end[i] - l->start[i];
			stats_acc_add(&acc, v);
			if (sl >= 0)
				pd[sl] += (l->end[i] < c->t1 ? l->end[i] :
				    c->t1) - (l->start[i] > c->t0 ?
				    l->start[i] : c->t0);
			if (v > longest) {
				longest = v;
				fk->ls = l->start[i];
				fk->le = l->end[i];
				fk->gid = model_gid(m, (uint32_t)t,
				    (uint32_t)i);
				fk->aux = l->kind[i] == EV_KERNEL ?
				    l->aux[i] : NONE32;
				fk->dev = m->tracks[t].device;
			}
		}
	}
	for (d = 0; d < c->act.ndev; d++)
		if (pd[d] > fk->bt) {
			fk->bt = pd[d];
			fk->bd = d;
		}
	stats_acc_compute(&acc, &st);
	fk->count = st.count;
	fk->total = st.total;
	fk->median = st.median;
	stats_acc_free(&acc);
	free(pd);
	free(idx);
	/* The command dominant_kernel gives, for the longest launch. */
	fk->nc_rc = ncucmd_build(m, fk->gid, &fk->nc, &ncode, &fk->ncause);
}

void
finding_perf_kernel(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct finding_kern	*fk = &c->kern;
	uint32_t		 best = fk->best, aux = fk->aux, dev = fk->dev;
	uint32_t		 gid = fk->gid;
	double			 occ, share = fk->share;
	struct finding		*f;
	struct ncucmd		*nc = &fk->nc;
	char			 b1[32], b2[32], *shortn;
	const char		*sn;

	finding_rule(c, "low_occupancy", "skipped", "no reader records "
	    "achieved occupancy in the model");
	if (best == 0 || share < PERF_DOMINANT_MIN) {
		finding_rule(c, "dominant_kernel", "none", best == 0 ?
		    "no compute kernels" : "no kernel has 15% of the kernel "
		    "time");
		return;
	}
	f = finding_add(c, "dominant_kernel", fk->bt);
	f->confidence = share >= PERF_DOMINANT_MEDIUM ? FINDING_MEDIUM :
	    FINDING_LOW;
	if (c->act.ndev > 0)
		finding_device(c, f, fk->bd);
	f->t0 = fk->ls;
	f->t1 = fk->le;
	f->gid = gid;
	sn = aux != NONE32 && aux < m->nkernels &&
	    m->kernels[aux].short_name != 0 ?
	    model_str(m, m->kernels[aux].short_name) : model_str(m, best);
	shortn = xstrdup(sn);
	finding_set(&f->title, "%s has %.0f%% of the kernel time", shortn,
	    100.0 * share);
	finding_set(&f->detail, "%llu launches of %s take %s (%.0f%% of all "
	    "compute kernel time), median %s each: the kernel most worth "
	    "optimising.", (unsigned long long)fk->count, shortn,
	    finding_dur(fk->total, b1, sizeof b1), 100.0 * share,
	    finding_dur((int64_t)fk->median, b2, sizeof b2));
	/* The command gpulens ncu-command gives for the longest launch. */
	if (fk->nc_rc == 0) {
		finding_set(&f->next, "Profile one launch with %s (the "
		    "ncu_command field; append your application and its "
		    "arguments) and look at its %s.", nc->amd ? "rocprofv3, or "
		    "all its launches with rocprof-compute" : "Nsight Compute",
		    nc->amd ? "counters" : "speed-of-light and occupancy "
		    "sections");
		finding_set(&f->command, "%s", nc->command[0]);
		fev_str(&f->ev, "profile_tool", nc->tool[0]);
		ncucmd_free(nc);
	} else {
		finding_set(&f->next, "Profile one launch of it with the "
		    "GPU vendor's kernel profiler.");
		free(fk->ncause);
		fk->ncause = NULL;
	}
	fk->nc_rc = -1;
	fev_str(&f->ev, "name", model_str(m, best));
	fev_str(&f->ev, "short_name", shortn);
	fev_int(&f->ev, "count", fk->count);
	fev_int(&f->ev, "total_ns", fk->total);
	fev_real(&f->ev, "median_ns", fk->median);
	fev_real(&f->ev, "kernel_share_pct", 100 * share);
	if (aux != NONE32 && aux < m->nkernels && dev < m->ndevices) {
		const struct kernel_info *ki = &m->kernels[aux];
		fev_int(&f->ev, "registers", ki->regs);
		fev_real(&f->ev, "block_threads",
		    (double)ki->block[0] * ki->block[1] * ki->block[2]);
		fev_real(&f->ev, "grid_blocks",
		    (double)ki->grid[0] * ki->grid[1] * ki->grid[2]);
		fev_real(&f->ev, "shared_bytes",
		    (double)ki->static_smem + ki->dynamic_smem);
		occ = perf_occupancy(&m->devices[dev], ki);
		if (occ >= 0)
			fev_real(&f->ev, "theoretical_occupancy_pct", occ);
		else
			fev_null(&f->ev, "theoretical_occupancy_pct");
	}
	finding_rule(c, "dominant_kernel", "found", NULL);
	free(shortn);
}
