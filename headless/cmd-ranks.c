/*
 * cmd-ranks: `gpulens ranks` compares the ranks of a distributed job: one
 * trace per rank given as several files or a directory (multi.h merges
 * them, one process per rank), or one trace holding several ranks.
 *
 * A rank is the set of processes with that rank (process.rank); in a trace
 * without rank information every process that owns GPU streams (else
 * every process) is a rank, numbered in process order, with a warning.
 *
 * Per rank: the host it ran on (model_host: the trace's host name; null
 * when the trace names none), its GPUs (those its streams run on), span
 * (first start to last end of its events), GPU busy time (the union of
 * each of its GPUs' work, summed), utilisation (busy / (span x GPUs)),
 * kernel count and time, communication kernels (EVF_COMM) count and time,
 * iterations (iters.h: count, median and slowest duration), and the
 * collective wait below.
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
 *
 * The figures are analysis/jobrank.h's (from the merged model, or from
 * the summaries through sources/jobload.h); this file turns them into
 * rows.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "analysis/jobrank.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/vopt.h"
#include "sources/jobload.h"
#include "sources/multi.h"
#include "headless/verb-job.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define RANKS_OPTS	(OPT_OUTPUT | OPT_PAGE)

static cmd_run_t	ranks_run;
static cmd_run_t	ranks_job;
static int	ranks_check_rank(const char *, const char *, char **);

static const struct cmd_option ranks_vopts[] = {
	VERB_JOB_VOPTS("compare from the ranks' summaries (the default "
	    "beyond 64 traces)"),
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
	.flags = CMD_ANSWER,
	.options = RANKS_OPTS,
	.vopts = ranks_vopts,
	.run = ranks_run,
	.job = ranks_job
};

static int
ranks_check_rank(const char *name, const char *v, char **cause)
{
	return vopt_check_count(name, v, cause);
}

/*
 * The answer, from j (analysis/jobrank.h) however it was filled: only is
 * the rank whose row alone is kept (--rank), or -1; only_trace its file.
 */
static void
ranks_answer(const struct jobrank *j, int only, const char *only_trace,
    struct out *out)
{
	const struct jobrank_rank	*r;
	size_t				 i;
	char				 key[32];
	cJSON				*row;

	for (i = 0; i < j->nr; i++) {
		r = &j->r[i];
		if (only >= 0 && r->rank != only)
			continue;
		row = out_row(out);
		rowkey_buf(key, sizeof key, "rank", "rank=%d", r->rank);
		out_str(row, "key", key);
		out_int(row, "rank", r->rank);
		out_int(row, "pid", r->pid);
		out_str(row, "name", r->name);
		out_str_or_null(row, "host", r->host);
		out_int(row, "gpus", r->gpus);
		out_int(row, "span_ns", r->span);
		out_int(row, "busy_ns", r->busy);
		out_num(row, "util_pct", r->util_pct);
		out_int(row, "kernels", (int64_t)r->kernels);
		out_int(row, "kernel_ns", r->kernel_ns);
		out_int(row, "comm_kernels", (int64_t)r->comm);
		out_int(row, "comm_ns", r->comm_ns);
		out_num(row, "comm_pct", r->comm_pct);
		out_int(row, "iters", (int64_t)r->iter.count);
		if (r->iter.count > 0) {
			out_num(row, "iter_median_ns", r->iter.median);
			out_int(row, "iter_max_ns", r->iter.max);
		} else {
			cJSON_AddNullToObject(row, "iter_median_ns");
			cJSON_AddNullToObject(row, "iter_max_ns");
		}
		out_int(row, "wait_ns", r->wait);
		out_int(row, "caused_ns", r->caused);
		out_int(row, "last", (int64_t)r->nlast);
		out_bool(row, "straggler", i == j->straggler);
		if (r->nvtx_rank < 0) {
			cJSON_AddNullToObject(row, "nvtx_rank");
			cJSON_AddNullToObject(row, "parallel");
		} else {
			out_int(row, "nvtx_rank", r->nvtx_rank);
			out_str(row, "parallel", r->parallel);
		}
		if (j->mpi_calls > 0) {
			out_int(row, "mpi_wait_ns", r->mpi_ns);
			out_num(row, "mpi_wait_pct", r->mpi_pct);
		}
	}

	out_int(out->aux, "ranks", (int64_t)j->nr);
	if (j->straggler != SIZE_MAX) {
		out_int(out->aux, "straggler", j->r[j->straggler].rank);
		out_num(out->aux, "straggler_last_pct",
		    j->straggler_last_pct);
	} else {
		cJSON_AddNullToObject(out->aux, "straggler");
		cJSON_AddNullToObject(out->aux, "straggler_last_pct");
	}
	out_int(out->aux, "collectives_matched", (int64_t)j->matched);
	out_num(out->aux, "skew_median_ns", j->skew.count > 0 ?
	    j->skew.median : 0.0);
	out_int(out->aux, "skew_max_ns", j->skew.count > 0 ? j->skew.max : 0);
	out_num(out->aux, "iter_median_ns", j->iter.count > 0 ?
	    j->iter.median : 0.0);
	out_str(out->aux, "iter_marker", j->marker != NULL ? j->marker : "");
	out_num(out->aux, "iter_spread_pct", j->iter_spread_pct);
	out_num(out->aux, "comm_spread_pct", j->comm_spread_pct);
	out_num(out->aux, "busy_spread_pct", j->busy_spread_pct);
	if (j->mpi_calls > 0)
		out_num(out->aux, "mpi_wait_spread_pct",
		    j->mpi_wait_spread_pct);

	if (j->noiter > 0 && j->noiter < j->nr)
		out_warn(out, "no_iterations",
		    "%zu of %zu ranks have no iterations: they are "
		    "left out of iter_spread_pct", j->noiter, j->nr);
	out_str(out->aux, "rank_source", !j->guessed ? "metadata" :
	    j->from_nvtx ? "nvtx" : "process-order");
	if (only_trace != NULL)
		out_str(out->aux, "rank_trace", only_trace);
	if (j->guessed && !j->from_nvtx && j->nr > 0)
		out_warn(out, "no_rank_info",
		    "no rank information in the trace: each process "
		    "with GPU work is taken as a rank, in process order");
	if (j->nr == 0)
		out_warn(out, "no_ranks",
		    "no ranks (no processes) in the trace");
	else if (j->nr == 1)
		out_warn(out, "single_rank",
		    "a single rank: give one trace per rank (several "
		    "files or a directory) to compare them");
	else if (j->matched == 0)
		out_warn(out, "no_common_collective",
		    "no collective (NCCL/RCCL kernel) occurs on every "
		    "rank: no wait or straggler can be measured");
	if (only >= 0 && j->nr > 0 && out->rows != NULL &&
	    cJSON_GetArraySize(out->rows) == 0)
		out_warn(out, "no_such_rank", "no rank %d in the job", only);
	out->default_sort = "rank:asc";
}

static int
ranks_only(const struct cmd_ctx *ctx)
{
	return (int)vopt_int(ctx->v, ctx->nv, "--rank", -1);
}

static int
ranks_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	struct jobrank	 j;

	jobrank_from_model(ctx->in->m, &j);
	ranks_answer(&j, ranks_only(ctx), NULL, out);
	jobrank_free(&j);
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
	struct jobrank		 jr;
	struct jobsum		 j;
	struct load_opts	 lo;
	const char		*only_trace = NULL;
	char			**files = NULL;
	size_t			 i;
	int			 nf, rc, only = ranks_only(ctx);

	if ((nf = verb_job_files(ctx, &files, code, cause)) <= 0)
		return nf < 0 ? -1 : CMD_LOAD;
	out_inputs(out, files, (size_t)nf);
	cmd_load_opts(ctx->g, &lo);
	rc = jobload_ranks(files, (size_t)nf, &lo, &jr, &j, cause);
	if (rc != 0)
		return verb_job_failed(rc, code, cause);
	for (i = 0; i < j.n && only_trace == NULL; i++)
		if (j.r[i].rank == only)
			only_trace = j.r[i].file;
	verb_job_dup(out, j.dup);
	verb_job_made(out, j.built, j.n);
	ranks_answer(&jr, only, only_trace, out);
	jobrank_free(&jr);
	jobsum_free(&j);
	return CMD_EMIT;
}
