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
 *
 * A large job (more than JOBSUM_THRESHOLD trace files, or --summaries)
 * is compared from its ranks' summaries (sources/jobsum.h: written by
 * `gpulens prep`, else made now one file at a time) without merging the
 * models: the same per-rank figures, computed per file by the same
 * analysis (analysis/rankscan.h), give the same answer. --full merges the
 * models whatever the size. --rank R keeps the row of rank R only (the
 * waits are still measured against every rank); with summaries its
 * trace file is auxiliary.rank_trace, the file to open for more.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "analysis/iters.h"
#include "analysis/rankscan.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/vopt.h"
#include "analysis/stats.h"
#include "sources/jobsum.h"
#include "sources/multi.h"
#include "util/strpool.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define RANKS_OPTS	(OPT_OUTPUT | OPT_PAGE)

static int	ranks_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);
static int	ranks_job(const struct cmd_ctx *, struct out *,
	    const char **, char **);
static int	ranks_check_rank(const char *, const char *, char **);

static const struct cmd_option ranks_vopts[] = {
	{ "--summaries", NULL, "compare from the ranks' summaries (the "
	    "default beyond 64 traces)", CMD_OPT_OWN, NULL },
	{ "--full", NULL, "merge every rank's model, however many",
	    CMD_OPT_OWN, NULL },
	{ "--rank", "R", "only the row of rank R", CMD_OPT_OWN,
	    ranks_check_rank },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

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
	"iteration, communication and busy times across ranks.\n"
	"A job of more than 64 traces is compared from the ranks' summaries\n"
	"('gpulens prep DIR' writes them; missing ones are made), without\n"
	"merging the models.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.options = RANKS_OPTS,
	.vopts = ranks_vopts,
	.run = ranks_run,
	.job = ranks_job
};

struct rk {
	int		 rank;
	uint32_t	 pid;
	char		*name;
	int32_t		 nvtx_rank;	/* -1: none */
	char		*parallel;
	uint32_t	 gpus;
	int64_t		 first, last;	/* span */
	int64_t		 busy, kernel_ns, comm_ns;
	uint64_t	 kernels, comm;
	int64_t		 mpi_ns;	/* MPI wait */
	uint64_t	 mpi_calls;
	struct stats_acc iters;
	int64_t		 wait;		/* collective wait */
	int64_t		 caused;	/* wait it caused others */
	uint64_t	 nlast;		/* collectives it was last at */
	struct rankscan_coll *c;
	size_t		 nc;
	size_t		 pos;		/* matching cursor */
};

/* The ranks of a job, from a merged model or from summaries. */
struct ranks_ctx {
	struct rk		*r;
	size_t			 nr;
	struct strpool		*local;		/* collective names */
	struct stats_acc	 all;		/* every iteration */
	char			*marker;
	int			 guessed;	/* no rank information */
	int			 from_nvtx;	/* ranks from NVTX text */
	int			 only;		/* --rank, or -1 */
	const char		*only_trace;	/* its file (summaries) */
};

static int
ranks_check_rank(const char *name, const char *v, char **cause)
{
	return vopt_check_count(name, v, cause);
}

/* The ranks of a merged model (rankscan.h) and their iterations. */
static void
ranks_from_model(struct ranks_ctx *c, const struct model *m)
{
	struct rankscan		 s;
	struct iters		 it;
	struct rk		*r;
	char			*why = NULL, buf[RANKSETUP_AXES * 32];
	size_t			 i;
	uint32_t		 p;

	rankscan_build(m, 0, c->local, &s);
	c->guessed = s.guessed;
	c->from_nvtx = s.from_nvtx;
	c->nr = s.nr;
	c->r = xcalloc(s.nr + 1, sizeof *c->r);
	for (i = 0; i < s.nr; i++) {
		r = &c->r[i];
		p = s.r[i].process;
		r->rank = s.r[i].rank;
		r->pid = m->processes[p].pid;
		r->name = xstrdup(model_str(m, m->processes[p].name));
		r->nvtx_rank = s.setup[p].rank;
		buf[0] = '\0';
		if (r->nvtx_rank >= 0)
			ranksetup_text(&s.setup[p], buf, sizeof buf);
		r->parallel = xstrdup(buf);
		r->gpus = s.r[i].gpus;
		r->first = s.r[i].first;
		r->last = s.r[i].last;
		r->busy = s.r[i].busy;
		r->kernel_ns = s.r[i].kernel_ns;
		r->comm_ns = s.r[i].comm_ns;
		r->kernels = s.r[i].kernels;
		r->comm = s.r[i].comm;
		r->mpi_ns = s.r[i].mpi_ns;
		r->mpi_calls = s.r[i].mpi_calls;
		r->c = s.r[i].c;
		r->nc = s.r[i].nc;
		s.r[i].c = NULL;
		stats_acc_init(&r->iters);
	}
	memset(&it, 0, sizeof it);
	if (iters_find(m, NULL, &it, &why) == 0)
		for (i = 0; i < it.n; i++) {
			p = it.v[i].process;
			if (p >= m->nprocesses || s.rank_of[p] == NONE32)
				continue;
			stats_acc_add(&c->r[s.rank_of[p]].iters,
			    it.v[i].end - it.v[i].start);
			stats_acc_add(&c->all, it.v[i].end - it.v[i].start);
		}
	free(why);
	c->marker = xstrdup(it.marker != NULL ? it.marker : "");
	iters_free(&it);
	rankscan_free(&s);
}

/* What a file's summary gives, kept until the file's rank is known. */
struct ranks_take {
	struct ranks_ctx	*c;
	struct rk		*pre;		/* per file: times unshifted,
						   name the process's own */
	uint8_t			*has_pname;
	char			**marker;	/* per file */
};

/* Keeps the figures of file i's summary (jobsum_take_fn). */
static void
ranks_take(void *arg, size_t i, struct ranksum *s)
{
	struct ranks_take	*t = arg;
	struct rk		*r = &t->pre[i];
	size_t			 k;

	r->rank = s->nprocs > 0 ? 0 : -1;	/* -1: no process */
	r->pid = s->pid;
	r->name = s->pname;
	s->pname = NULL;
	t->has_pname[i] = (uint8_t)s->has_pname;
	r->nvtx_rank = s->nvtx_rank;
	r->parallel = s->parallel;
	s->parallel = NULL;
	r->gpus = s->gpus;
	r->first = s->first;
	r->last = s->last;
	r->busy = s->busy;
	r->kernel_ns = s->kernel_ns;
	r->comm_ns = s->comm_ns;
	r->kernels = s->kernels;
	r->comm = s->comm;
	r->mpi_ns = s->mpi_ns;
	r->mpi_calls = s->mpi_calls;
	r->nc = s->nc;
	r->c = xcalloc(s->nc + 1, sizeof *r->c);
	for (k = 0; k < s->nc; k++) {
		r->c[k].coll = strpool_intern0(t->c->local,
		    s->names[s->c[k].coll]);
		r->c[k].start = s->c[k].start;
		r->c[k].end = s->c[k].end;
		r->c[k].bytes = s->c[k].bytes;
	}
	stats_acc_init(&r->iters);
	for (k = 0; k < s->niter; k++)
		stats_acc_add(&r->iters, s->iter[2 * k + 1] - s->iter[2 * k]);
	t->marker[i] = s->marker;
	s->marker = NULL;
}

/* Frees what is left of file i's figures. */
static void
ranks_pre_free(struct ranks_take *t, size_t i)
{
	struct rk	*f = &t->pre[i];

	free(f->c);
	stats_acc_free(&f->iters);
	free(f->name);
	free(f->parallel);
	free(t->marker[i]);
	memset(f, 0, sizeof *f);
	t->marker[i] = NULL;
}

/*
 * Adds file f's figures (taken from its summary) as rank `rank`, as the
 * merged model would hold it: processes named "rank R NAME", times shifted
 * onto the job's clock; a rank stated by two files is one rank of both.
 * Moves what it keeps out of f.
 */
static void
ranks_add_sum(struct ranks_ctx *c, int rank, int64_t shift, struct rk *f,
    int has_pname, char **marker, int64_t *most)
{
	struct rk	*r;
	size_t		 i, n;
	int		 fresh;

	if (f->rank < 0)
		return;
	fresh = c->nr == 0 || c->r[c->nr - 1].rank != rank;
	if (fresh) {
		c->r = xreallocarray(c->r, c->nr + 1, sizeof *c->r);
		r = &c->r[c->nr++];
		memset(r, 0, sizeof *r);
		r->rank = rank;
		r->first = INT64_MAX;
		r->last = INT64_MIN;
		stats_acc_init(&r->iters);
	} else
		r = &c->r[c->nr - 1];
	/* Its process: the first file's, or the first that has GPUs. */
	if (fresh || (r->gpus == 0 && f->gpus > 0)) {
		free(r->name);
		free(r->parallel);
		r->pid = f->pid;
		r->name = xasprintf("rank %d%s%s", rank, has_pname ? " " : "",
		    f->name);
		r->nvtx_rank = f->nvtx_rank;
		r->parallel = f->parallel;
		f->parallel = NULL;
	}
	r->gpus += f->gpus;
	if (f->first != INT64_MAX && sat_add64(f->first, shift) < r->first)
		r->first = sat_add64(f->first, shift);
	if (f->last != INT64_MIN && sat_add64(f->last, shift) > r->last)
		r->last = sat_add64(f->last, shift);
	r->busy = sat_add64(r->busy, f->busy);
	r->kernel_ns += f->kernel_ns;
	r->comm_ns += f->comm_ns;
	r->kernels += f->kernels;
	r->comm += f->comm;
	r->mpi_ns = sat_add64(r->mpi_ns, f->mpi_ns);
	r->mpi_calls += f->mpi_calls;
	for (i = 0; i < f->nc; i++) {
		f->c[i].start = sat_add64(f->c[i].start, shift);
		f->c[i].end = sat_add64(f->c[i].end, shift);
	}
	if (r->nc == 0) {
		free(r->c);
		r->c = f->c;
		r->nc = f->nc;
		f->c = NULL;
	} else {
		n = r->nc;
		r->nc += f->nc;
		r->c = xreallocarray(r->c, r->nc + 1, sizeof *r->c);
		memcpy(r->c + n, f->c, f->nc * sizeof *f->c);
		rankscan_sort(r->c, r->nc);
	}
	for (i = 0; i < f->iters.n; i++) {
		stats_acc_add(&r->iters, f->iters.v[i]);
		stats_acc_add(&c->all, f->iters.v[i]);
	}
	/* The marker of the file with the most iterations. */
	if ((int64_t)f->iters.n > *most) {
		*most = (int64_t)f->iters.n;
		free(c->marker);
		c->marker = *marker;
		*marker = NULL;
	}
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

/* The answer, from c however it was filled. */
static void
ranks_answer(struct ranks_ctx *c, struct out *out)
{
	struct stats_acc	 skew;
	struct stats		 s;
	struct rk		*r;
	int64_t			*med, *comm, *busy, *mpiw, span;
	uint64_t		 mpicalls = 0;
	size_t			 i, matched, strag = SIZE_MAX, nmed,
				 noiter = 0;
	char			 key[32];
	cJSON			*row;

	stats_acc_init(&skew);
	matched = ranks_match(c, &skew);
	for (i = 0; i < c->nr && matched > 0; i++) {
		r = &c->r[i];
		if (r->nlast == 0)
			continue;
		if (strag == SIZE_MAX || r->nlast > c->r[strag].nlast ||
		    (r->nlast == c->r[strag].nlast && r->caused >
		    c->r[strag].caused))
			strag = i;
	}

	med = xcalloc(c->nr + 1, sizeof *med);
	nmed = 0;
	comm = xcalloc(c->nr + 1, sizeof *comm);
	busy = xcalloc(c->nr + 1, sizeof *busy);
	mpiw = xcalloc(c->nr + 1, sizeof *mpiw);
	for (i = 0; i < c->nr; i++)
		mpicalls += c->r[i].mpi_calls;
	for (i = 0; i < c->nr; i++) {
		r = &c->r[i];
		stats_acc_compute(&r->iters, &s);
		/* A rank without iterations stays out of the spread. */
		if (s.count > 0)
			med[nmed++] = (int64_t)s.median;
		else
			noiter++;
		comm[i] = r->comm_ns;
		busy[i] = r->busy;
		mpiw[i] = r->mpi_ns;
		if (c->only >= 0 && r->rank != c->only)
			continue;
		row = out_row(out);
		rowkey_buf(key, sizeof key, "rank", "rank=%d", r->rank);
		out_str(row, "key", key);
		out_int(row, "rank", r->rank);
		out_int(row, "pid", r->pid);
		out_str(row, "name", r->name);
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
		out_int(row, "iters", (int64_t)s.count);
		if (s.count > 0) {
			out_num(row, "iter_median_ns", s.median);
			out_int(row, "iter_max_ns", s.max);
		} else {
			cJSON_AddNullToObject(row, "iter_median_ns");
			cJSON_AddNullToObject(row, "iter_max_ns");
		}
		out_int(row, "wait_ns", r->wait);
		out_int(row, "caused_ns", r->caused);
		out_int(row, "last", (int64_t)r->nlast);
		out_bool(row, "straggler", i == strag);
		if (r->nvtx_rank < 0) {
			cJSON_AddNullToObject(row, "nvtx_rank");
			cJSON_AddNullToObject(row, "parallel");
		} else {
			out_int(row, "nvtx_rank", r->nvtx_rank);
			out_str(row, "parallel", r->parallel);
		}
		if (mpicalls > 0) {
			out_int(row, "mpi_wait_ns", r->mpi_ns);
			out_num(row, "mpi_wait_pct", span > 0 ? 100.0 *
			    (double)r->mpi_ns / (double)span : 0.0);
		}
	}

	out_int(out->aux, "ranks", (int64_t)c->nr);
	if (strag != SIZE_MAX) {
		out_int(out->aux, "straggler", c->r[strag].rank);
		out_num(out->aux, "straggler_last_pct", 100.0 *
		    (double)c->r[strag].nlast / (double)matched);
	} else {
		cJSON_AddNullToObject(out->aux, "straggler");
		cJSON_AddNullToObject(out->aux, "straggler_last_pct");
	}
	out_int(out->aux, "collectives_matched", (int64_t)matched);
	stats_acc_compute(&skew, &s);
	out_num(out->aux, "skew_median_ns", s.count > 0 ? s.median : 0.0);
	out_int(out->aux, "skew_max_ns", s.count > 0 ? s.max : 0);
	stats_acc_compute(&c->all, &s);
	out_num(out->aux, "iter_median_ns", s.count > 0 ? s.median : 0.0);
	out_str(out->aux, "iter_marker", c->marker != NULL ? c->marker : "");
	out_num(out->aux, "iter_spread_pct", ranks_spread(med, nmed));
	out_num(out->aux, "comm_spread_pct", ranks_spread(comm, c->nr));
	out_num(out->aux, "busy_spread_pct", ranks_spread(busy, c->nr));
	if (mpicalls > 0)
		out_num(out->aux, "mpi_wait_spread_pct", ranks_spread(mpiw,
		    c->nr));

	if (noiter > 0 && noiter < c->nr)
		out_warn(out, "no_iterations",
		    "%zu of %zu ranks have no iterations: they are "
		    "left out of iter_spread_pct", noiter, c->nr);
	out_str(out->aux, "rank_source", !c->guessed ? "metadata" :
	    c->from_nvtx ? "nvtx" : "process-order");
	if (c->only_trace != NULL)
		out_str(out->aux, "rank_trace", c->only_trace);
	if (c->guessed && !c->from_nvtx && c->nr > 0)
		out_warn(out, "no_rank_info",
		    "no rank information in the trace: each process "
		    "with GPU work is taken as a rank, in process order");
	if (c->nr == 0)
		out_warn(out, "no_ranks",
		    "no ranks (no processes) in the trace");
	else if (c->nr == 1)
		out_warn(out, "single_rank",
		    "a single rank: give one trace per rank (several "
		    "files or a directory) to compare them");
	else if (matched == 0)
		out_warn(out, "no_common_collective",
		    "no collective (NCCL/RCCL kernel) occurs on every "
		    "rank: no wait or straggler can be measured");
	if (c->only >= 0 && c->nr > 0 && out->rows != NULL &&
	    cJSON_GetArraySize(out->rows) == 0)
		out_warn(out, "no_such_rank", "no rank %d in the job",
		    c->only);
	out->default_sort = "rank:asc";
	free(med);
	free(comm);
	free(busy);
	free(mpiw);
	stats_acc_free(&skew);
}

static void
ranks_ctx_init(struct ranks_ctx *c, const struct cmd_ctx *ctx)
{
	memset(c, 0, sizeof *c);
	c->local = strpool_new();
	stats_acc_init(&c->all);
	c->only = (int)vopt_int(ctx->v, ctx->nv, "--rank", -1);
}

static void
ranks_ctx_free(struct ranks_ctx *c)
{
	size_t	i;

	for (i = 0; i < c->nr; i++) {
		stats_acc_free(&c->r[i].iters);
		free(c->r[i].c);
		free(c->r[i].name);
		free(c->r[i].parallel);
	}
	free(c->r);
	free(c->marker);
	stats_acc_free(&c->all);
	strpool_free(c->local);
}

static int
ranks_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	struct ranks_ctx	 c;

	ranks_ctx_init(&c, ctx);
	ranks_from_model(&c, ctx->in->m);
	ranks_answer(&c, out);
	ranks_ctx_free(&c);
	return CMD_EMIT;
}

/*
 * A large job, or --summaries: the answer from the ranks' summaries
 * (jobsum.h); CMD_LOAD to merge the models instead.
 */
static int
ranks_job(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct opts	*o = ctx->o;
	struct ranks_ctx	 c;
	struct ranks_take	 t;
	struct jobsum		 j;
	struct load_opts	 lo;
	char			**files = NULL;
	int64_t			 most = -1;
	size_t			 i, k;
	int			 nf, rc;

	if (vopt_get(ctx->v, ctx->nv, "--full") != NULL)
		return CMD_LOAD;
	if ((nf = multi_expand(o->args, o->nargs, &files, cause)) < 0) {
		*code = "bad_input";
		return -1;
	}
	out_inputs(out, files, (size_t)nf);
	if (nf < 2 || (nf <= JOBSUM_THRESHOLD &&
	    vopt_get(ctx->v, ctx->nv, "--summaries") == NULL)) {
		while (nf > 0)
			free(files[--nf]);
		free(files);
		return CMD_LOAD;
	}
	cmd_load_opts(ctx->g, &lo);
	ranks_ctx_init(&c, ctx);
	t.c = &c;
	t.pre = xcalloc((size_t)nf + 1, sizeof *t.pre);
	t.has_pname = xcalloc((size_t)nf + 1, 1);
	t.marker = xcalloc((size_t)nf + 1, sizeof *t.marker);
	for (i = 0; i < (size_t)nf; i++)
		t.pre[i].rank = -1;
	rc = jobsum_load(files, (size_t)nf, &lo, ranks_take, &t, &j, cause);
	if (rc == 0)
		for (i = 0; i < j.n; i++) {
			k = j.r[i].index;
			ranks_add_sum(&c, j.r[i].rank, j.r[i].shift_ns,
			    &t.pre[k], t.has_pname[k], &t.marker[k], &most);
			if (j.r[i].rank == c.only && c.only_trace == NULL)
				c.only_trace = j.r[i].file;
			ranks_pre_free(&t, k);
		}
	for (i = 0; i < (size_t)nf; i++)
		ranks_pre_free(&t, i);
	free(t.pre);
	free(t.has_pname);
	free(t.marker);
	if (rc != 0) {
		ranks_ctx_free(&c);
		if (rc > 0) {
			free(*cause);
			*cause = NULL;
			return CMD_LOAD;
		}
		*code = "bad_input";
		return -1;
	}
	if (j.dup != NULL)
		out_warn(out, "duplicate_rank", "ranks stated by more than "
		    "one trace: %s", j.dup);
	if (j.built > 0)
		out_warn(out, "summaries_made", "%zu of %zu rank summaries "
		    "were made now ('gpulens prep' makes them ahead)",
		    j.built, j.n);
	ranks_answer(&c, out);
	ranks_ctx_free(&c);
	jobsum_free(&j);
	return CMD_EMIT;
}
