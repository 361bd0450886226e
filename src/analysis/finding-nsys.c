/*
 * finding-nsys: the rules of `nsys analyze`, under their names, measured on
 * the model (times in evidence are relative to the trace origin):
 *
 *   cuda_memcpy_async  copies launched by an asynchronous memcpy call
 *                      (cudaMemcpy*Async, cuMemcpy*Async, hipMemcpy*Async)
 *                      from or to pageable host memory: the call blocks
 *                      the host like a synchronous one
 *   cuda_memcpy_sync   copies launched by a synchronous memcpy call
 *   cuda_memset_sync   memsets launched by a synchronous memset call
 *   cuda_api_sync      synchronisation calls (names containing
 *                      "Synchronize"); their cost is the GPU idle time
 *                      they cause: the idle gaps in which one of them
 *                      returned (the host had nothing queued); the
 *                      evidence adds what they cost the host
 *                      (syncwait.h: sync_blocked_ns, sync_blocked_pct)
 *   gpu_gaps           GPU idle gaps of at least the threshold, between
 *                      two stretches of work (leading and trailing idle
 *                      left out, as nsys does); nsys's threshold is 500 ms,
 *                      ours is 2% of the window below that (at least 1 ms),
 *                      so a capture of a few seconds shows its bubbles too;
 *                      profiler-overhead gaps are not excluded
 *   gpu_time_util      each GPU's time from its first to its last work cut
 *                      into 30 chunks; chunks below 50% utilisation cost
 *                      their idle time, adjacent ones form a region
 *
 * For the copy rules the cost is the host time the calls blocked, summed
 * per process, on the worst process (the GPU time when no call is
 * correlated).
 *
 * Where the cited API calls have call chains (CUDA_CALLCHAINS), the copy
 * rules' evidence and each entry of cuda_api_sync's apis say where in the
 * program the calls came from (callsite.h: call_site, the costliest call's;
 * call_sites, the top sites by time; calls_without_site).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callsite.h"
#include "analysis/finding.h"
#include "analysis/syncwait.h"
#include "model/event.h"
#include "model/iset.h"
#include "model/lane.h"
#include "util/units.h"
#include "util/xmalloc.h"

#define NSYS_UTIL_CHUNKS	30
#define NSYS_UTIL_LOW		0.50

enum { CP_ASYNC_PAGEABLE, CP_SYNC, CP_MEMSET_SYNC, CP_N };

static const char *cp_types[CP_N] = {
	"cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync"
};

struct cp_group {
	uint64_t	 count, bytes;
	int64_t		 gpu_ns;
	int64_t		*host;		/* per process (+1: unknown) */
	int64_t		*host_zone;
	int64_t		*gpu;		/* per process, no API */
	int64_t		 longest;	/* host or GPU time */
	int64_t		 at0, at1;
	uint32_t	 gid;
	uint64_t	 dir[COPY_KIND_COUNT];
	struct callsites sites;		/* of the copies' API calls */
};

static void
nsys_copy_event(struct finding_ctx *c, struct cp_group *g, uint32_t t,
    uint32_t i, uint32_t api, uint32_t proc, int has_api)
{
	const struct model	*m = c->m;
	const struct lane	*l = &m->tracks[t].lane;
	const struct copy_info	*ci = l->aux[i] < m->ncopies ?
				    &m->copies[l->aux[i]] : NULL;
	int64_t			 host, gpu;
	size_t			 p = proc < m->nprocesses ? proc :
				    m->nprocesses;
	int64_t			 api_s = 0, api_e = 0;

	if (has_api) {
		api_s = model_ev_start(m, api);
		api_e = model_ev_end(m, api);
		callsites_add(&g->sites, m, api, api_e - api_s);
	}
	g->count++;
	if (ci != NULL) {
		g->bytes += ci->bytes;
		if (l->kind[i] == EV_MEMCPY && ci->kind < COPY_KIND_COUNT)
			g->dir[ci->kind]++;
	}
	gpu = iset_span_in(l->start[i], l->end[i], c->t0, c->t1);
	g->gpu_ns += gpu;
	host = has_api ? iset_span_in(api_s, api_e, c->t0, c->t1) : 0;
	if (has_api) {
		g->host[p] += host;
		if (finding_in_zone(c, api_s))
			g->host_zone[p] += host;
	} else {
		g->gpu[p] += gpu;
		if (finding_in_zone(c, l->start[i]))
			g->host_zone[p] += gpu;
	}
	if ((has_api ? host : gpu) > g->longest) {
		g->longest = has_api ? host : gpu;
		g->at0 = has_api && api_s < l->start[i] ? api_s : l->start[i];
		g->at1 = has_api && api_e > l->end[i] ? api_e : l->end[i];
		g->gid = model_gid(m, t, i);
	}
}

static void
nsys_copy_finding(struct finding_ctx *c, int k, struct cp_group *g)
{
	const struct model	*m = c->m;
	struct finding		*f;
	size_t			 p, best = 0;
	int64_t			 cost = -1, v;
	char			 b1[32], b2[32], b3[32];
	int			 d;
	double			 zf;

	if (g->count == 0) {
		finding_rule(c, cp_types[k], "none", NULL);
		return;
	}
	for (p = 0; p <= m->nprocesses; p++) {
		v = g->host[p] + g->gpu[p];
		if (v > cost) {
			cost = v;
			best = p;
		}
	}
	f = finding_add(c, cp_types[k], cost);
	zf = cost > 0 ? (double)g->host_zone[best] / (double)cost : 1.0;
	finding_set_zone(f, zf);
	f->process = best < m->nprocesses ? (uint32_t)best : NONE32;
	f->t0 = g->at0;
	f->t1 = g->at1;
	f->gid = g->gid;
	switch (k) {
	case CP_ASYNC_PAGEABLE:
		finding_set(&f->title, "%llu asynchronous copies use pageable "
		    "host memory", (unsigned long long)g->count);
		finding_set(&f->next, "Allocate the host buffers pinned "
		    "(cudaHostAlloc/cudaMallocHost, tensor.pin_memory(), "
		    "DataLoader(pin_memory=True)) so the copies are truly "
		    "asynchronous and run at full bandwidth.");
		break;
	case CP_SYNC:
		finding_set(&f->title, "%llu synchronous memcpy calls block "
		    "the host", (unsigned long long)g->count);
		finding_set(&f->next, "Use cudaMemcpyAsync on a stream with "
		    "pinned host memory (tensor.to(device, non_blocking=True)),"
		    " and avoid .item()/.cpu() inside the loop.");
		break;
	default:
		finding_set(&f->title, "%llu synchronous memset calls block "
		    "the host", (unsigned long long)g->count);
		finding_set(&f->next, "Use cudaMemsetAsync on the work's "
		    "stream instead of cudaMemset.");
		break;
	}
	finding_set(&f->detail, "%llu %s, %s, %s on the GPU; the calls "
	    "blocked the host %s in the worst process.",
	    (unsigned long long)g->count, k == CP_MEMSET_SYNC ? "memsets" :
	    "copies", units_bytes(g->bytes, b3, sizeof b3),
	    finding_dur(g->gpu_ns, b1, sizeof b1),
	    finding_dur(cost, b2, sizeof b2));
	fev_int(&f->ev, "count", g->count);
	fev_int(&f->ev, "bytes", g->bytes);
	fev_int(&f->ev, "gpu_ns", g->gpu_ns);
	fev_int(&f->ev, "host_blocked_ns", cost);
	if (f->process != NONE32)
		fev_int(&f->ev, "pid", m->processes[f->process].pid);
	else
		fev_null(&f->ev, "pid");
	fev_int(&f->ev, "longest_ns", g->longest);
	if (k != CP_MEMSET_SYNC) {
		fev_record(&f->ev, "directions");
		for (d = 0; d < COPY_KIND_COUNT; d++)
			if (g->dir[d] > 0)
				fev_int(&f->ev, copy_kind_name(d), g->dir[d]);
		fev_end(&f->ev);
	}
	callsites_finish(&g->sites);
	callsites_evidence(&f->ev, m, &g->sites, FINDING_CALL_SITES);
	finding_rule(c, cp_types[k], "found", NULL);
}

void
finding_nsys_memcpy_scan(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct cp_group		*g;
	const struct track	*tr;
	uint32_t		*idx = NULL, api, proc;
	size_t			 icap = 0, t, n, k, i, lo, np = m->nprocesses + 1;
	int			 cls, kk, pageable;

	g = c->cp = xcalloc(CP_N, sizeof *g);
	for (kk = 0; kk < CP_N; kk++) {
		callsites_init(&g[kk].sites);
		g[kk].host = xcalloc(np, sizeof *g[kk].host);
		g[kk].host_zone = xcalloc(np, sizeof *g[kk].host_zone);
		g[kk].gpu = xcalloc(np, sizeof *g[kk].gpu);
	}
	for (t = 0; (tr = model_track_next(m, TRACK_GPU, &t)) != NULL; t++) {
		const struct lane *l = &tr->lane;
		n = lane_overlap_range(l, c->t0, c->t1, &idx, &icap, &lo);
		for (k = 0; k < n; k++) {
			i = lane_at(idx, lo, k);
			if (l->kind[i] != EV_MEMCPY && l->kind[i] != EV_MEMSET)
				continue;
			api = finding_launch(c, model_gid(m, (uint32_t)t,
			    (uint32_t)i));
			if (api == NONE32)
				continue;
			cls = finding_api_class(c, model_ev_name(m, api));
			pageable = 0;
			if (l->aux[i] < m->ncopies) {
				const struct copy_info *ci =
				    &m->copies[l->aux[i]];
				pageable = ci->src_kind == MEM_PAGEABLE ||
				    ci->dst_kind == MEM_PAGEABLE;
			}
			if (l->kind[i] == EV_MEMCPY &&
			    cls == FAPI_MEMCPY_ASYNC && pageable)
				kk = CP_ASYNC_PAGEABLE;
			else if (l->kind[i] == EV_MEMCPY &&
			    cls == FAPI_MEMCPY_SYNC)
				kk = CP_SYNC;
			else if (l->kind[i] == EV_MEMSET &&
			    cls == FAPI_MEMSET_SYNC)
				kk = CP_MEMSET_SYNC;
			else
				continue;
			proc = event_track(m, api)->process;
			if (proc == NONE32)
				proc = tr->process;
			nsys_copy_event(c, &g[kk], (uint32_t)t, (uint32_t)i, api,
			    proc, 1);
		}
	}
	free(idx);
}

void
finding_nsys_memcpy(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct cp_group		*g = c->cp;
	int			 kk;

	for (kk = 0; kk < CP_N; kk++) {
		if (m->launch == NULL)
			finding_rule(c, cp_types[kk], "skipped", "no API call "
			    "is correlated to the GPU work");
		else
			nsys_copy_finding(c, kk, &g[kk]);
		callsites_free(&g[kk].sites);
		free(g[kk].host);
		free(g[kk].host_zone);
		free(g[kk].gpu);
	}
	free(g);
	c->cp = NULL;
}

/* The union of intervals, sorted in place by start. */
static int
nsys_iv_cmp(const void *a, const void *b)
{
	const int64_t	*x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

static int64_t
nsys_union(int64_t *iv, size_t n)
{
	int64_t	tot = 0, s = 0, e = 0;
	size_t	i;

	if (n == 0)
		return 0;
	qsort(iv, n, 2 * sizeof *iv, nsys_iv_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || iv[2 * i] > e) {
			tot += e - s;
			s = iv[2 * i];
			e = iv[2 * i + 1];
		} else if (iv[2 * i + 1] > e)
			e = iv[2 * i + 1];
	}
	return tot + (e - s);
}

/* The synchronisation calls of one name. */
struct api_agg {
	uint32_t	 sid;
	uint64_t	 n;
	int64_t		 ns;
	struct callsites sites;
};

static void
nsys_api_free(struct api_agg *by, size_t n)
{
	size_t	j;

	for (j = 0; j < n; j++)
		callsites_free(&by[j].sites);
	free(by);
}

void
finding_nsys_api_sync(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct finding		*f;
	int64_t			*iv = NULL, host, host_best = 0;
	size_t			 ivn, ivcap = 0, i, p, d, k;
	uint64_t		 calls = 0;
	uint32_t		 trk = NONE32, g;
	struct evref		 r;
	const struct lane	*l;
	struct api_agg		*by = NULL;
	size_t			 nby = 0, bycap = 0, j;
	char			 b1[32], b2[32], b3[32];
	const struct finding_dev *fd;

	/* The synchronisation calls finding_syncs() found, in the order of
	 * its pass: process by process, track by track. */
	for (p = 0; p <= m->nprocesses; p++) {
		ivn = 0;
		for (k = c->sync_off[p]; k < c->sync_off[p + 1]; k++) {
			g = c->sync_gid[k];
			r = model_ev_near(m, g, &trk);
			l = &m->tracks[r.track].lane;
			i = r.idx;
			if (l->start[i] >= c->t1 || l->end[i] <= c->t0)
				continue;
			calls++;
			XGROW(iv, ivcap, 2 * ivn + 2);
			iv[2 * ivn] = l->start[i] > c->t0 ? l->start[i] : c->t0;
			iv[2 * ivn + 1] = l->end[i] < c->t1 ? l->end[i] : c->t1;
			ivn++;
			for (j = 0; j < nby; j++)
				if (by[j].sid == l->name[i])
					break;
			if (j == nby) {
				XGROW(by, bycap, nby + 1);
				by[nby].sid = l->name[i];
				by[nby].n = 0;
				by[nby].ns = 0;
				callsites_init(&by[nby].sites);
				nby++;
			}
			by[j].n++;
			by[j].ns += l->end[i] - l->start[i];
			callsites_add(&by[j].sites, m, g, l->end[i] -
			    l->start[i]);
		}
		host = nsys_union(iv, ivn);
		if (host > host_best)
			host_best = host;
	}
	free(iv);
	if (calls == 0 || c->act.ndev == 0) {
		finding_rule(c, "cuda_api_sync", "none", calls == 0 ? NULL :
		    "no GPU work");
		nsys_api_free(by, nby);
		return;
	}
	d = finding_worst(c, FGAP_SYNC);
	fd = &c->dev[d];
	if (fd->gap_sum[FGAP_SYNC] == 0) {
		finding_rule(c, "cuda_api_sync", "none", "synchronisation "
		    "calls caused no GPU idle time");
		nsys_api_free(by, nby);
		return;
	}
	f = finding_add_gap(c, "cuda_api_sync", d, FGAP_SYNC);
	finding_gap_window(f, fd, FGAP_SYNC);
	finding_set(&f->title, "The GPU idles after synchronisation calls "
	    "(%zu gaps)", fd->gap_n[FGAP_SYNC]);
	finding_set(&f->detail, "%llu synchronisation calls blocked the host "
	    "up to %s per process; the GPU then sat idle %s in %zu gaps "
	    "(longest %s) before the host queued more work.",
	    (unsigned long long)calls, finding_dur(host_best, b1, sizeof b1),
	    finding_dur(fd->gap_sum[FGAP_SYNC], b2, sizeof b2),
	    fd->gap_n[FGAP_SYNC], finding_dur(fd->gap_long[FGAP_SYNC], b3,
	    sizeof b3));
	finding_set(&f->next, "Remove synchronisations from the loop "
	    "(.item(), .cpu(), torch.cuda.synchronize(), cudaDeviceSynchronize"
	    "), or queue the next work before synchronising so the GPU never "
	    "drains.");
	fev_int(&f->ev, "calls", calls);
	fev_int(&f->ev, "host_blocked_ns", host_best);
	fev_int(&f->ev, "gpu_idle_ns", fd->gap_sum[FGAP_SYNC]);
	fev_int(&f->ev, "gaps", fd->gap_n[FGAP_SYNC]);
	fev_int(&f->ev, "longest_gap_ns", fd->gap_long[FGAP_SYNC]);
	/* What the waits cost the host: every thread's blocking calls
	 * (synchronisations and synchronous copies), their union. */
	if (!c->sw_built) {
		syncwait_build(&c->sw, m, c->t0, c->t1);
		c->sw_built = 1;
	}
	fev_int(&f->ev, "sync_blocked_ns", c->sw.blocked);
	fev_real(&f->ev, "sync_blocked_pct", c->t1 > c->t0 ? 100.0 *
	    (double)c->sw.blocked / (double)(c->t1 - c->t0) : 0.0);
	fev_int(&f->ev, "sync_threads", (int64_t)c->sw.n);
	fev_list(&f->ev, "apis");
	for (j = 0; j < nby; j++) {
		fev_record(&f->ev, NULL);
		fev_str(&f->ev, "name", model_str(m, by[j].sid));
		fev_int(&f->ev, "count", by[j].n);
		fev_int(&f->ev, "total_ns", by[j].ns);
		callsites_finish(&by[j].sites);
		callsites_evidence(&f->ev, m, &by[j].sites,
		    FINDING_CALL_SITES);
		fev_end(&f->ev);
	}
	fev_end(&f->ev);
	nsys_api_free(by, nby);
	finding_rule(c, "cuda_api_sync", "found", NULL);
}

void
finding_nsys_gaps(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct finding		*f;
	size_t			 d, best;
	const struct finding_dev *fd;
	char			 b1[32], b2[32], b3[32];

	if (c->act.ndev == 0) {
		finding_rule(c, "gpu_gaps", "none", "no GPU work");
		return;
	}
	best = finding_worst(c, FGAP_LARGE);
	fd = &c->dev[best];
	if (fd->gap_n[FGAP_LARGE] == 0) {
		finding_rule(c, "gpu_gaps", "none", NULL);
		return;
	}
	f = finding_add_gap(c, "gpu_gaps", best, FGAP_LARGE);
	finding_gap_window(f, fd, FGAP_LARGE);
	finding_set(&f->title, "%zu GPU idle gaps of %s or more",
	    fd->gap_n[FGAP_LARGE], finding_dur(c->gap_threshold, b1,
	    sizeof b1));
	finding_set(&f->detail, "Device %u was idle %s in %zu gaps of at "
	    "least %s between two stretches of work; the longest lasts %s.",
	    m->devices[f->device].source_id,
	    finding_dur(fd->gap_sum[FGAP_LARGE], b1, sizeof b1),
	    fd->gap_n[FGAP_LARGE], finding_dur(c->gap_threshold, b2,
	    sizeof b2), finding_dur(fd->gap_long[FGAP_LARGE], b3,
	    sizeof b3));
	finding_set(&f->next, "See what the host did meanwhile with "
	    "`gpulens gaps TRACE --min-dur %lldns` (its cpu_activity column) "
	    "and overlap that work with the GPU's.",
	    (long long)c->gap_threshold);
	fev_int(&f->ev, "threshold_ns", c->gap_threshold);
	fev_int(&f->ev, "gaps", fd->gap_n[FGAP_LARGE]);
	fev_int(&f->ev, "idle_ns", fd->gap_sum[FGAP_LARGE]);
	fev_int(&f->ev, "longest_ns", fd->gap_long[FGAP_LARGE]);
	fev_int(&f->ev, "longest_start_ns", fd->gap_long_at[FGAP_LARGE] -
	    m->origin_ns);
	fev_list(&f->ev, "per_device");
	for (d = 0; d < c->act.ndev; d++) {
		fev_record(&f->ev, NULL);
		fev_int(&f->ev, "device",
		    m->devices[c->act.dev[d].device].source_id);
		fev_int(&f->ev, "gaps", c->dev[d].gap_n[FGAP_LARGE]);
		fev_int(&f->ev, "idle_ns", c->dev[d].gap_sum[FGAP_LARGE]);
		fev_end(&f->ev);
	}
	fev_end(&f->ev);
	finding_rule(c, "gpu_gaps", "found", NULL);
}

struct nsys_region {
	int64_t		 s, e, busy;
};

void
finding_nsys_util(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	struct finding		*f;
	struct nsys_region	 reg[NSYS_UTIL_CHUNKS], breg[NSYS_UTIL_CHUNKS];
	size_t			 d, k, nreg, bnreg = 0, best = 0, nlow;
	size_t			 bnlow = 0;
	int64_t			 a, b, cs, ce, busy, cost, bcost = -1, zone;
	int64_t			 bzone = 0, len;
	const struct act_window	*w;
	char			 b1[32];
	double			 zf;
	size_t			 lr;

	for (d = 0; d < c->act.ndev; d++) {
		w = &c->dev[d].w;
		if (w->first >= w->last)
			continue;
		a = w->first;
		b = w->last;
		len = b - a;
		cost = 0;
		zone = 0;
		nreg = 0;
		nlow = 0;
		for (k = 0; k < NSYS_UTIL_CHUNKS; k++) {
			cs = a + (int64_t)((double)len * (double)k /
			    NSYS_UTIL_CHUNKS);
			ce = a + (int64_t)((double)len * (double)(k + 1) /
			    NSYS_UTIL_CHUNKS);
			if (ce <= cs)
				continue;
			busy = activity_busy(&c->act, d, ACT_ALL, cs, ce);
			if ((double)busy >= NSYS_UTIL_LOW * (double)(ce - cs))
				continue;
			nlow++;
			cost += (ce - cs) - busy;
			if (finding_in_zone(c, cs + (ce - cs) / 2))
				zone += (ce - cs) - busy;
			if (nreg > 0 && reg[nreg - 1].e == cs) {
				reg[nreg - 1].e = ce;
				reg[nreg - 1].busy += busy;
			} else {
				reg[nreg].s = cs;
				reg[nreg].e = ce;
				reg[nreg].busy = busy;
				nreg++;
			}
		}
		if (cost > bcost) {
			bcost = cost;
			bzone = zone;
			best = d;
			bnreg = nreg;
			bnlow = nlow;
			memcpy(breg, reg, nreg * sizeof *reg);
		}
	}
	if (bcost <= 0) {
		finding_rule(c, "gpu_time_util", "none", c->act.ndev == 0 ?
		    "no GPU work" : NULL);
		return;
	}
	f = finding_add(c, "gpu_time_util", bcost);
	zf = (double)bzone / (double)bcost;
	finding_set_zone(f, zf);
	finding_device(c, f, best);
	lr = 0;
	for (k = 1; k < bnreg; k++)
		if (breg[k].e - breg[k].s > breg[lr].e - breg[lr].s)
			lr = k;
	f->t0 = breg[lr].s;
	f->t1 = breg[lr].e;
	finding_set(&f->title, "%zu of %d time chunks below %d%% GPU "
	    "utilisation", bnlow, NSYS_UTIL_CHUNKS,
	    (int)(NSYS_UTIL_LOW * 100));
	finding_set(&f->detail, "Device %u's time from its first to its last "
	    "work, cut into %d chunks, has %zu chunks (%zu regions) below "
	    "%d%% utilisation, idle %s in them.",
	    m->devices[f->device].source_id, NSYS_UTIL_CHUNKS, bnlow, bnreg,
	    (int)(NSYS_UTIL_LOW * 100), finding_dur(bcost, b1, sizeof b1));
	finding_set(&f->next, "Open the low regions (`gpulens timeline TRACE "
	    "--from START --to END`) and see whether the GPU waits for the "
	    "host, for data or for other ranks.");
	fev_int(&f->ev, "chunks", NSYS_UTIL_CHUNKS);
	fev_int(&f->ev, "low_chunks", bnlow);
	fev_real(&f->ev, "threshold_pct", NSYS_UTIL_LOW * 100);
	fev_int(&f->ev, "idle_ns", bcost);
	fev_list(&f->ev, "regions");
	for (k = 0; k < bnreg && k < 10; k++) {
		fev_record(&f->ev, NULL);
		fev_int(&f->ev, "start_ns", breg[k].s - m->origin_ns);
		fev_int(&f->ev, "end_ns", breg[k].e - m->origin_ns);
		fev_real(&f->ev, "util_pct", 100.0 * (double)breg[k].busy /
		    (double)(breg[k].e - breg[k].s));
		fev_end(&f->ev);
	}
	fev_end(&f->ev);
	finding_rule(c, "gpu_time_util", "found", NULL);
}
