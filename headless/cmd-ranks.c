/*
 * cmd-ranks: `gpulens ranks` compares the ranks of a distributed job: one
 * trace per rank given as several files or a directory (multi.h merges
 * them, one process per rank), or one trace holding several ranks.
 *
 * A rank is the set of processes with that rank (process.rank); in a trace
 * without rank information every process that owns GPU streams (else
 * every process) is a rank, numbered in process order, with a warning.
 *
 * Per rank: its GPUs (those its streams run on), span (first start to last
 * end of its events), GPU busy time (the union of each of its GPUs' work,
 * summed), utilisation (busy / (span x GPUs)), kernel count and time,
 * communication kernels (EVF_COMM) count and time, iterations (iters.h:
 * count, median and slowest duration), and the collective wait below.
 *
 * Collectives: every rank's communication kernels are named by collective
 * (analysis/comm.h: AllReduce, AllGather, ...) and matched across ranks
 * by occurrence: the k-th AllReduce of each rank is one collective, for k
 * below the smallest count any rank has (ranks that lack a collective
 * altogether leave it unmatched). An NCCL kernel starts when its rank
 * arrives and spins until every peer has, so in each matched collective
 * the rank whose kernel started last is the one the others waited for;
 * each rank's wait is the last start minus its own start. The straggler is
 * the rank that was last most often (at least once; ties go to the one
 * that made the others wait longest), in a job of two or more ranks.
 * Starts are compared across hosts, so the verdict assumes their clocks
 * agree to well below the waits.
 *
 * Rank and parallel setup from NVTX (analysis/ranksetup.h): where a
 * framework writes "rank=N; pp=R/S dp=R/S ..." into an NVTX range or mark,
 * each rank's row shows it (nvtx_rank, parallel: "pp=R/S dp=R/S"); in a
 * trace without rank metadata whose rank processes all name distinct
 * ranks so, those are the ranks (auxiliary.rank_source "nvtx", else
 * "metadata" or "process-order").
 *
 * MPI: where the ranks make MPI calls (analysis/mpi.h), each row adds
 * mpi_wait_ns, the rank's time inside MPI calls other than set-up (time
 * it waits in MPI rather than computing), and mpi_wait_pct, its share of
 * the rank's span; auxiliary.mpi_wait_spread_pct is their spread.
 *
 * Auxiliary data: the straggler, the number of matched collectives, the
 * median and largest skew (last start - first start) of a collective, the
 * median iteration time over all ranks and the spread of per-rank median
 * iteration times, of communication time and of busy time (max - min, as a
 * percentage of the median over ranks). A rank without iterations is left
 * out of the iteration spread, with a warning.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "util/hmap.h"
#include "analysis/busy.h"
#include "analysis/comm.h"
#include "analysis/iters.h"
#include "analysis/mpi.h"
#include "analysis/ranksetup.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define RANKS_OPTS	(OPT_OUTPUT | OPT_PAGE)

static int	ranks_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);

const struct cmd_entry cmd_ranks_entry = {
	.name = "ranks",
	.usage = "gpulens ranks [OPTIONS] TRACE|DIR [TRACE...]",
	.help =
	"Compares the ranks of a distributed job (one trace per rank, as\n"
	"several files or a directory, loaded in parallel and merged): per\n"
	"rank GPU busy time and utilisation, kernel and communication time,\n"
	"iterations, and how long its collectives waited for the other ranks.\n"
	"Collectives are matched across ranks by name and occurrence; the rank\n"
	"whose NCCL kernel starts last is the one the others wait for, and the\n"
	"rank most often last is the straggler. Auxiliary data: the spread of\n"
	"iteration, communication and busy times across ranks.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.options = RANKS_OPTS,
	.run = ranks_run
};

/* A communication kernel of one rank. */
struct rk_coll {
	uint32_t	 coll;		/* local string id of its collective */
	int64_t		 start, end;
};

struct rk {
	int		 rank;
	uint32_t	 process;	/* first process of the rank */
	uint32_t	 gpus;
	int64_t		 first, last;	/* span */
	int64_t		 busy, kernel_ns, comm_ns;
	uint64_t	 kernels, comm;
	struct stats_acc iters;
	int64_t		 wait;		/* collective wait */
	int64_t		 caused;	/* wait it caused others */
	uint64_t	 nlast;		/* collectives it was last at */
	struct rk_coll	*c;
	size_t		 nc, ccap;
	size_t		 pos;		/* matching cursor */
};

struct ranks_ctx {
	const struct model	*m;
	struct rk		*r;
	size_t			 nr;
	uint32_t		*rank_of;	/* process -> index in r */
	struct strpool		*local;
	struct hmap		 coll_of;	/* model sid -> local sid */
	int			 guessed;	/* no rank information */
	int			 from_nvtx;	/* ranks from NVTX text */
	struct rank_setup	*setup;		/* per process */
};

static int
rk_coll_cmp(const void *a, const void *b)
{
	const struct rk_coll	*x = a, *y = b;

	if (x->coll != y->coll)
		return x->coll < y->coll ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

static int
rk_cmp(const void *a, const void *b)
{
	const struct rk	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->process > y->process) - (x->process < y->process);
}

/* The rank and parallel layout NVTX text gives a rank's process. */
static void
ranks_setup_row(const struct ranks_ctx *c, cJSON *row, uint32_t p)
{
	const struct rank_setup	*rs = &c->setup[p];
	char			 buf[RANKSETUP_AXES * 32];

	if (rs->rank < 0) {
		cJSON_AddNullToObject(row, "nvtx_rank");
		cJSON_AddNullToObject(row, "parallel");
		return;
	}
	out_int(row, "nvtx_rank", rs->rank);
	ranksetup_text(rs, buf, sizeof buf);
	out_str(row, "parallel", buf);
}

/* Finds the ranks and maps every process to one (or NONE32). */
static void
ranks_find(struct ranks_ctx *c)
{
	const struct model	*m = c->m;
	uint8_t			*gpu;
	size_t			 p, i;
	int			 any = 0;

	c->rank_of = xcalloc(m->nprocesses + 1, sizeof *c->rank_of);
	for (p = 0; p < m->nprocesses; p++) {
		c->rank_of[p] = NONE32;
		if (m->processes[p].rank >= 0)
			any = 1;
	}
	gpu = xcalloc(m->nprocesses + 1, 1);
	for (i = 0; i < m->nstreams; i++)
		if (m->streams[i].process < m->nprocesses)
			gpu[m->streams[i].process] = 1;
	if (!any) {
		c->guessed = 1;
		for (p = 0; p < m->nprocesses; p++)
			any |= gpu[p];
	}
	for (p = 0; p < m->nprocesses; p++) {
		int r = m->processes[p].rank;
		if (c->guessed) {
			if (any && !gpu[p])
				continue;
			r = (int)c->nr;
		} else if (r < 0)
			continue;
		for (i = 0; i < c->nr; i++)
			if (c->r[i].rank == r)
				break;
		if (i == c->nr) {
			c->r = xreallocarray(c->r, c->nr + 1, sizeof *c->r);
			memset(&c->r[c->nr], 0, sizeof *c->r);
			c->r[c->nr].rank = r;
			c->r[c->nr].process = (uint32_t)p;
			c->r[c->nr].first = INT64_MAX;
			c->r[c->nr].last = INT64_MIN;
			stats_acc_init(&c->r[c->nr].iters);
			c->nr++;
		} else if (gpu[p] && !gpu[c->r[i].process])
			c->r[i].process = (uint32_t)p;	/* the GPU one */
	}
	/* No rank in the metadata: NVTX text may give every rank's. */
	c->setup = ranksetup_build(m);
	if (c->guessed && c->nr > 0) {
		int ok = 1;
		for (i = 0; i < c->nr && ok; i++) {
			int32_t r = c->setup[c->r[i].process].rank;
			ok = r >= 0;
			for (p = 0; p < i && ok; p++)
				ok = c->setup[c->r[p].process].rank != r;
		}
		if (ok) {
			for (i = 0; i < c->nr; i++)
				c->r[i].rank = c->setup[c->r[i].process].rank;
			c->from_nvtx = 1;
		}
	}
	if (c->nr > 1)
		qsort(c->r, c->nr, sizeof *c->r, rk_cmp);
	for (p = 0; p < m->nprocesses; p++) {
		int r = m->processes[p].rank;
		for (i = 0; i < c->nr; i++)
			if (c->guessed ? c->r[i].process == p :
			    c->r[i].rank == r)
				c->rank_of[p] = (uint32_t)i;
	}
	free(gpu);
}

/* The collective of kernel (t, i) with name sid (analysis/comm.h), cached
 * per name where the name gives it. */
static uint32_t
ranks_coll(struct ranks_ctx *c, size_t t, size_t i, uint32_t sid)
{
	struct comm_id	id;
	uint32_t	v;

	if (hmap_get(&c->coll_of, sid, &v))
		return v;
	comm_identify(c->m, model_gid(c->m, (uint32_t)t, (uint32_t)i), &id);
	v = strpool_intern0(c->local, id.name);
	if (id.src == COMM_SRC_NAME)
		hmap_put(&c->coll_of, sid, v);
	return v;
}

/* Per-rank sums over the tracks, and each rank's collectives. */
static void
ranks_scan(struct ranks_ctx *c)
{
	const struct model	*m = c->m;
	uint8_t			*seen;
	size_t			 t, i, d;
	struct rk		*r;

	seen = xcalloc(m->ndevices * (c->nr + 1) + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		uint32_t ri = tr->process < m->nprocesses ?
		    c->rank_of[tr->process] : NONE32;
		if (ri == NONE32 || l->n == 0)
			continue;
		r = &c->r[ri];
		if (l->start[0] < r->first)
			r->first = l->start[0];
		for (i = 0; i < l->n; i++)
			if (l->end[i] > r->last)
				r->last = l->end[i];
		if (tr->type != TRACK_GPU)
			continue;
		d = tr->device;
		if (d < m->ndevices && !seen[d * (c->nr + 1) + ri]) {
			seen[d * (c->nr + 1) + ri] = 1;
			r->gpus++;
			if (m->device_cov != NULL)
				r->busy = sat_add64(r->busy,
				    busy_device_total(m, (uint32_t)d));
		}
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL)
				continue;
			r->kernels++;
			r->kernel_ns += l->end[i] - l->start[i];
			if (!(l->flags[i] & EVF_COMM))
				continue;
			r->comm++;
			r->comm_ns += l->end[i] - l->start[i];
			XGROW(r->c, r->ccap, r->nc + 1);
			r->c[r->nc].coll = ranks_coll(c, t, i, l->name[i]);
			r->c[r->nc].start = l->start[i];
			r->c[r->nc].end = l->end[i];
			r->nc++;
		}
	}
	free(seen);
	for (i = 0; i < c->nr; i++)
		if (c->r[i].nc > 1)
			qsort(c->r[i].c, c->r[i].nc, sizeof *c->r[i].c,
			    rk_coll_cmp);
}

/*
 * Matches collectives across ranks (see the top comment); fills each rank's
 * wait, caused and nlast, and the skews. Returns the number matched.
 */
static size_t
ranks_match(struct ranks_ctx *c, struct stats_acc *skew)
{
	struct rk	*r;
	size_t		 i, k, n, matched = 0, end, last;
	uint32_t	 coll;
	int64_t		 lo, hi;

	if (c->nr < 2)
		return 0;
	for (i = 0; i < c->nr; i++)
		c->r[i].pos = 0;
	for (;;) {
		/* The smallest collective id any rank still has. */
		coll = NONE32;
		for (i = 0; i < c->nr; i++) {
			r = &c->r[i];
			if (r->pos < r->nc && r->c[r->pos].coll < coll)
				coll = r->c[r->pos].coll;
		}
		if (coll == NONE32)
			break;
		/* Occurrences every rank has. */
		n = SIZE_MAX;
		for (i = 0; i < c->nr; i++) {
			r = &c->r[i];
			for (end = r->pos; end < r->nc && r->c[end].coll ==
			    coll; end++)
				;
			if (end - r->pos < n)
				n = end - r->pos;
		}
		for (k = 0; k < n; k++) {
			lo = INT64_MAX;
			hi = INT64_MIN;
			last = 0;
			for (i = 0; i < c->nr; i++) {
				int64_t s = c->r[i].c[c->r[i].pos + k].start;
				if (s < lo)
					lo = s;
				if (s > hi) {
					hi = s;
					last = i;
				}
			}
			for (i = 0; i < c->nr; i++) {
				int64_t w = hi - c->r[i].c[c->r[i].pos +
				    k].start;
				c->r[i].wait += w;
				c->r[last].caused += w;
			}
			c->r[last].nlast++;
			stats_acc_add(skew, hi - lo);
			matched++;
		}
		/* Skip this collective everywhere. */
		for (i = 0; i < c->nr; i++) {
			r = &c->r[i];
			while (r->pos < r->nc && r->c[r->pos].coll == coll)
				r->pos++;
		}
	}
	return matched;
}

/* (max - min) / median of v[0, n), in percent (0 if undefined). */
static double
ranks_spread(int64_t *v, size_t n)
{
	struct stats	s;

	if (n == 0)
		return 0.0;
	stats_compute(v, n, &s);
	return s.median > 0 ? 100.0 * (double)(s.max - s.min) / s.median :
	    0.0;
}

static int
ranks_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	struct ranks_ctx	 c;
	struct iters		 it;
	struct stats_acc	 skew, all;
	struct stats		 s;
	struct rk		*r;
	int64_t			*med, *comm, *busy, *mpiw;
	struct mpi_result	 mr;
	size_t			 i, matched, strag = SIZE_MAX, nmed,
				 noiter = 0;
	char			*why = NULL, key[32];
	cJSON			*row;
	int64_t			 span;

	(void)o;
	(void)code;
	(void)cause;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.local = strpool_new();
	hmap_init(&c.coll_of);
	stats_acc_init(&skew);
	stats_acc_init(&all);
	ranks_find(&c);
	ranks_scan(&c);

	memset(&it, 0, sizeof it);
	if (iters_find(m, NULL, &it, &why) == 0)
		for (i = 0; i < it.n; i++) {
			uint32_t p = it.v[i].process;
			if (p >= m->nprocesses || c.rank_of[p] == NONE32)
				continue;
			stats_acc_add(&c.r[c.rank_of[p]].iters,
			    it.v[i].end - it.v[i].start);
			stats_acc_add(&all, it.v[i].end - it.v[i].start);
		}
	free(why);

	matched = ranks_match(&c, &skew);
	for (i = 0; i < c.nr && matched > 0; i++) {
		r = &c.r[i];
		if (r->nlast == 0)
			continue;
		if (strag == SIZE_MAX || r->nlast > c.r[strag].nlast ||
		    (r->nlast == c.r[strag].nlast && r->caused >
		    c.r[strag].caused))
			strag = i;
	}

	/* MPI time per rank (its processes summed). */
	mpi_build(m, INT64_MIN, INT64_MAX, &mr);
	mpiw = xcalloc(c.nr + 1, sizeof *mpiw);
	for (i = 0; i < mr.nranks; i++) {
		uint32_t p = mr.ranks[i].process;
		if (p < m->nprocesses && c.rank_of[p] != NONE32)
			mpiw[c.rank_of[p]] = sat_add64(mpiw[c.rank_of[p]],
			    mr.ranks[i].mpi_ns);
	}
	med = xcalloc(c.nr + 1, sizeof *med);
	nmed = 0;
	comm = xcalloc(c.nr + 1, sizeof *comm);
	busy = xcalloc(c.nr + 1, sizeof *busy);
	for (i = 0; i < c.nr; i++) {
		r = &c.r[i];
		row = out_row(out);
		rowkey_buf(key, sizeof key, "rank", "rank=%d", r->rank);
		out_str(row, "key", key);
		out_int(row, "rank", r->rank);
		out_int(row, "pid", m->processes[r->process].pid);
		out_str(row, "name", model_str(m,
		    m->processes[r->process].name));
		out_int(row, "gpus", r->gpus);
		span = r->last > r->first ? r->last - r->first : 0;
		out_int(row, "span_ns", span);
		out_int(row, "busy_ns", r->busy);
		out_num(row, "util_pct", span > 0 && r->gpus > 0 ? 100.0 *
		    (double)r->busy / ((double)span * r->gpus) : 0.0);
		out_int(row, "kernels", (int64_t)r->kernels);
		out_int(row, "kernel_ns", r->kernel_ns);
		out_int(row, "comm_kernels", (int64_t)r->comm);
		out_int(row, "comm_ns", r->comm_ns);
		out_num(row, "comm_pct", r->busy > 0 ? 100.0 *
		    (double)r->comm_ns / (double)r->busy : 0.0);
		stats_acc_compute(&r->iters, &s);
		out_int(row, "iters", (int64_t)s.count);
		if (s.count > 0) {
			out_num(row, "iter_median_ns", s.median);
			out_int(row, "iter_max_ns", s.max);
		} else {
			cJSON_AddNullToObject(row, "iter_median_ns");
			cJSON_AddNullToObject(row, "iter_max_ns");
		}
		/* A rank without iterations stays out of the spread. */
		if (s.count > 0)
			med[nmed++] = (int64_t)s.median;
		else
			noiter++;
		comm[i] = r->comm_ns;
		busy[i] = r->busy;
		out_int(row, "wait_ns", r->wait);
		out_int(row, "caused_ns", r->caused);
		out_int(row, "last", (int64_t)r->nlast);
		out_bool(row, "straggler", i == strag);
		ranks_setup_row(&c, row, r->process);
		if (mr.calls > 0) {
			out_int(row, "mpi_wait_ns", mpiw[i]);
			out_num(row, "mpi_wait_pct", span > 0 ? 100.0 *
			    (double)mpiw[i] / (double)span : 0.0);
		}
	}

	out_int(out->aux, "ranks", (int64_t)c.nr);
	if (strag != SIZE_MAX) {
		out_int(out->aux, "straggler", c.r[strag].rank);
		out_num(out->aux, "straggler_last_pct", 100.0 *
		    (double)c.r[strag].nlast / (double)matched);
	} else {
		cJSON_AddNullToObject(out->aux, "straggler");
		cJSON_AddNullToObject(out->aux, "straggler_last_pct");
	}
	out_int(out->aux, "collectives_matched", (int64_t)matched);
	stats_acc_compute(&skew, &s);
	out_num(out->aux, "skew_median_ns", s.count > 0 ? s.median : 0.0);
	out_int(out->aux, "skew_max_ns", s.count > 0 ? s.max : 0);
	stats_acc_compute(&all, &s);
	out_num(out->aux, "iter_median_ns", s.count > 0 ? s.median : 0.0);
	out_str(out->aux, "iter_marker", it.marker != NULL ? it.marker : "");
	out_num(out->aux, "iter_spread_pct", ranks_spread(med, nmed));
	out_num(out->aux, "comm_spread_pct", ranks_spread(comm, c.nr));
	out_num(out->aux, "busy_spread_pct", ranks_spread(busy, c.nr));
	if (mr.calls > 0)
		out_num(out->aux, "mpi_wait_spread_pct", ranks_spread(mpiw,
		    c.nr));

	if (noiter > 0 && noiter < c.nr)
		out_warn(out, "no_iterations",
		    "%zu of %zu ranks have no iterations: they are "
		    "left out of iter_spread_pct", noiter, c.nr);
	out_str(out->aux, "rank_source", !c.guessed ? "metadata" :
	    c.from_nvtx ? "nvtx" : "process-order");
	if (c.guessed && !c.from_nvtx && c.nr > 0)
		out_warn(out, "no_rank_info",
		    "no rank information in the trace: each process "
		    "with GPU work is taken as a rank, in process order");
	if (c.nr == 0)
		out_warn(out, "no_ranks",
		    "no ranks (no processes) in the trace");
	else if (c.nr == 1)
		out_warn(out, "single_rank",
		    "a single rank: give one trace per rank (several "
		    "files or a directory) to compare them");
	else if (matched == 0)
		out_warn(out, "no_common_collective",
		    "no collective (NCCL/RCCL kernel) occurs on every "
		    "rank: no wait or straggler can be measured");
	out->default_sort = "rank:asc";

	for (i = 0; i < c.nr; i++) {
		stats_acc_free(&c.r[i].iters);
		free(c.r[i].c);
	}
	free(c.r);
	free(c.rank_of);
	free(c.setup);
	free(med);
	free(comm);
	free(busy);
	free(mpiw);
	mpi_free(&mr);
	stats_acc_free(&skew);
	stats_acc_free(&all);
	iters_free(&it);
	strpool_free(c.local);
	hmap_free(&c.coll_of);
	return 0;
}
