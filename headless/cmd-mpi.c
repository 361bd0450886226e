/*
 * cmd-mpi: `gpulens mpi [--by op|rank|rank-op] TRACE`, the time spent in
 * MPI calls (src/analysis/mpi.h defines the calls, their classes and a
 * rank's MPI time).
 *
 *   --by op       (the default) one row per operation over every rank:
 *                 ranks, count, total_ns, mean_ns, max_ns (one call), and
 *                 the per-rank totals' min, max and imbalance_pct
 *                 ((max - mean) / mean, the load-imbalance figure);
 *   --by rank     one row per rank: calls, mpi_ns (calls other than set-up,
 *                 nested calls once), mpi_pct of the rank's span, the time
 *                 per class and in set-up;
 *   --by rank-op  one row per rank and operation: count, total, mean,
 *                 median, min, max.
 * Calls come from NVTX domain MPI (older exports) or from the MPI_*
 * tables of newer ones; where the tables record the bytes a call moved,
 * the rows add bytes (summed) and bytes_mean (per call that records
 * them), and data.auxiliary says source "mpi-tables".
 * The window options select calls by their start.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi.h"
#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/vopt.h"
#include "util/xmalloc.h"

#define MPI_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW)

static cmd_run_t	mpi_main;

static int
mpi_check_by(const char *unused, const char *v, char **cause)
{
	(void)unused;
	if (v != NULL && (strcmp(v, "op") == 0 || strcmp(v, "rank") == 0 ||
	    strcmp(v, "rank-op") == 0))
		return 0;
	*cause = xasprintf("--by takes op, rank or rank-op");
	return -1;
}

static const struct cmd_option mpi_vopts[] = {
	{ "--by", "op|rank|rank-op", "rows per operation (default), per rank, "
	    "or per rank and operation", CMD_OPT_OWN, mpi_check_by },
	CMD_REFUSE_NVTX_ITER,
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_mpi_entry = {
	.name = "mpi",
	.usage = "gpulens mpi [--by op|rank|rank-op] [OPTIONS] TRACE",
	.help =
	"Time in MPI calls (ranges of NVTX domain MPI, as Nsight Systems'\n"
	"MPI trace records them, or the MPI_* tables of newer exports):\n"
	"per operation over every rank with the per-rank imbalance, per\n"
	"rank (time in MPI other than set-up, its share of the rank's span,\n"
	"per class: p2p, wait, collective, onesided, other), or per rank\n"
	"and operation. Where the tables record bytes, rows add bytes and\n"
	"bytes_mean.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = MPI_OPTS,
	.vopts = mpi_vopts,
	.run = mpi_main
};

/* The columns, without and with bytes (the second when any call records
 * them). */
static const char *mpi_op_columns[2][13] = { {
	"name", "class", "ranks", "count", "total_ns", "mean_ns", "max_ns",
	"rank_min_ns", "rank_max_ns", "imbalance_pct", NULL
}, {
	"name", "class", "ranks", "count", "total_ns", "mean_ns", "max_ns",
	"rank_min_ns", "rank_max_ns", "imbalance_pct", "bytes", "bytes_mean",
	NULL
} };

static const char *mpi_rank_columns[2][14] = { {
	"rank", "pid", "calls", "mpi_ns", "mpi_pct", "p2p_ns", "wait_ns",
	"collective_ns", "onesided_ns", "other_ns", "setup_ns", "span_ns", NULL
}, {
	"rank", "pid", "calls", "mpi_ns", "mpi_pct", "p2p_ns", "wait_ns",
	"collective_ns", "onesided_ns", "other_ns", "setup_ns", "span_ns",
	"bytes", NULL
} };

static const char *mpi_rankop_columns[2][13] = { {
	"rank", "pid", "name", "class", "count", "total_ns", "mean_ns",
	"median_ns", "min_ns", "max_ns", NULL
}, {
	"rank", "pid", "name", "class", "count", "total_ns", "mean_ns",
	"median_ns", "min_ns", "max_ns", "bytes", "bytes_mean", NULL
} };

/* bytes and bytes_mean of nb calls that moved bytes in all (none: left
 * out). */
static void
mpi_bytes(cJSON *row, uint64_t bytes, uint64_t nb)
{
	if (nb == 0)
		return;
	out_int(row, "bytes", bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes);
	out_num(row, "bytes_mean", (double)bytes / (double)nb);
}

static int64_t
mpi_pid(const struct model *m, uint32_t p)
{
	return p < m->nprocesses ? (int64_t)m->processes[p].pid : -1;
}

/* --by op: the operations over every rank, by total. */
static void
mpi_rows_op(const struct mpi_result *r, struct out *out)
{
	const char	**names = NULL;
	size_t		  n = 0, i, j;
	cJSON		 *row;

	for (i = 0; i < r->nops; i++) {
		for (j = 0; j < n && strcmp(names[j], r->ops[i].name) != 0;
		    j++)
			;
		if (j == n) {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = r->ops[i].name;
		}
	}
	for (j = 0; j < n; j++) {
		uint64_t	count = 0, nr = 0, bytes = 0, nb = 0;
		int64_t		total = 0, mx = 0, rmin = INT64_MAX, rmax = 0;
		int		cls = MPI_CL_OTHER;
		double		mean;

		for (i = 0; i < r->nops; i++) {
			const struct mpi_op *op = &r->ops[i];
			if (strcmp(op->name, names[j]) != 0)
				continue;
			cls = op->cls;
			nr++;
			count += op->count;
			bytes = bytes > UINT64_MAX - op->bytes ? UINT64_MAX :
			    bytes + op->bytes;
			nb += op->nbytes;
			total += op->total_ns;
			if (op->max_ns > mx)
				mx = op->max_ns;
			if (op->total_ns < rmin)
				rmin = op->total_ns;
			if (op->total_ns > rmax)
				rmax = op->total_ns;
		}
		row = out_row(out);
		out_key(row, "op", "name=%s", names[j]);
		out_str(row, "name", names[j]);
		out_str(row, "class", mpi_class_name(cls));
		out_int(row, "ranks", (int64_t)nr);
		out_int(row, "count", (int64_t)count);
		out_int(row, "total_ns", total);
		out_num(row, "mean_ns", (double)total / (double)count);
		out_int(row, "max_ns", mx);
		out_int(row, "rank_min_ns", rmin);
		out_int(row, "rank_max_ns", rmax);
		mean = (double)total / (double)nr;
		if (mean > 0)
			out_num(row, "imbalance_pct",
			    ((double)rmax - mean) / mean * 100.0);
		else
			cJSON_AddNullToObject(row, "imbalance_pct");
		mpi_bytes(row, bytes, nb);
	}
	free(names);
}

/*
 * A row of one rank: its key ("rank=R|pid=P", and "|name=NAME" for one of
 * its operations, a row of kind op) and its rank and pid columns.
 */
static cJSON *
mpi_rank_row(struct out *out, const struct model *m, int rank,
    uint32_t process, const char *name)
{
	cJSON		*row = out_row(out);
	long long	 pid = (long long)mpi_pid(m, process);

	if (name != NULL)
		out_key(row, "op", "rank=%d|pid=%lld|name=%s", rank, pid,
		    name);
	else
		out_key(row, "rank", "rank=%d|pid=%lld", rank, pid);
	out_int(row, "rank", rank);
	out_int(row, "pid", pid);
	return row;
}

static void
mpi_rows_rank(const struct model *m, const struct mpi_result *r,
    struct out *out)
{
	const struct mpi_rank	*rk;
	cJSON			*row;
	size_t			 i;

	for (i = 0; i < r->nranks; i++) {
		rk = &r->ranks[i];
		row = mpi_rank_row(out, m, rk->rank, rk->process, NULL);
		out_int(row, "calls", (int64_t)rk->calls);
		out_int(row, "mpi_ns", rk->mpi_ns);
		out_num_or_null(row, "mpi_pct", rk->span_ns > 0,
		    (double)rk->mpi_ns * 100.0 / (double)rk->span_ns);
		out_int(row, "p2p_ns", rk->class_ns[MPI_CL_P2P]);
		out_int(row, "wait_ns", rk->class_ns[MPI_CL_WAIT]);
		out_int(row, "collective_ns", rk->class_ns[MPI_CL_COLLECTIVE]);
		out_int(row, "onesided_ns", rk->class_ns[MPI_CL_ONESIDED]);
		out_int(row, "other_ns", rk->class_ns[MPI_CL_OTHER]);
		out_int(row, "setup_ns", rk->setup_ns);
		out_int(row, "span_ns", rk->span_ns);
		if (r->nbytes > 0)
			out_int(row, "bytes", rk->bytes > INT64_MAX ?
			    INT64_MAX : (int64_t)rk->bytes);
	}
}

static void
mpi_rows_rankop(const struct model *m, const struct mpi_result *r,
    struct out *out)
{
	const struct mpi_op	*op;
	cJSON			*row;
	size_t			 i;

	for (i = 0; i < r->nops; i++) {
		op = &r->ops[i];
		row = mpi_rank_row(out, m, op->rank, op->process, op->name);
		out_str(row, "name", op->name);
		out_str(row, "class", mpi_class_name(op->cls));
		out_int(row, "count", (int64_t)op->count);
		out_int(row, "total_ns", op->total_ns);
		out_num(row, "mean_ns", (double)op->total_ns /
		    (double)op->count);
		out_num(row, "median_ns", op->median_ns);
		out_int(row, "min_ns", op->min_ns);
		out_int(row, "max_ns", op->max_ns);
		mpi_bytes(row, op->bytes, op->nbytes);
	}
}

static int
mpi_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct model	*m = ctx->in->m;
	const char		*by = vopt_get(ctx->v, ctx->nv, "--by");
	struct mpi_result	 r;
	struct sel		 s;
	cJSON			*cls;
	size_t			 i;
	int			 c, wb;
	int64_t			 tot[MPI_CL_COUNT];

	if (sel_init(&s, m, ctx->o, cause) != 0) {
		*code = "usage";
		return -1;
	}
	mpi_build(m, s.t0, s.t1, &r);
	sel_free(&s);
	wb = r.nbytes > 0;
	if (by == NULL || strcmp(by, "op") == 0) {
		mpi_rows_op(&r, out);
		out->columns = mpi_op_columns[wb];
		out->default_sort = "total_ns:desc";
	} else if (strcmp(by, "rank") == 0) {
		mpi_rows_rank(m, &r, out);
		out->columns = mpi_rank_columns[wb];
		out->default_sort = "rank:asc";
	} else {
		mpi_rows_rankop(m, &r, out);
		out->columns = mpi_rankop_columns[wb];
		out->default_sort = "total_ns:desc";
	}
	out_int(out->aux, "calls", (int64_t)r.calls);
	out_int(out->aux, "ranks", (int64_t)r.nranks);
	if (r.ntables > 0)
		out_str(out->aux, "source", r.ntables == r.calls ?
		    "mpi-tables" : "mpi-tables+nvtx");
	memset(tot, 0, sizeof tot);
	for (i = 0; i < r.nranks; i++)
		for (c = 0; c < MPI_CL_COUNT; c++)
			tot[c] += r.ranks[i].class_ns[c];
	cls = cJSON_AddObjectToObject(out->aux, "class_ns");
	for (c = 0; c < MPI_CL_COUNT; c++)
		out_int(cls, mpi_class_name(c), tot[c]);
	if (r.calls == 0)
		out_warn(out, "no_mpi", "no MPI calls in the window (MPI calls "
		    "are read from NVTX domain MPI: capture with nsys "
		    "--trace=mpi)");
	else if (by == NULL || strcmp(by, "op") == 0)
		out_next(out, "gpulens mpi --by rank %s", out_q(out,
		    ctx->in->path));
	mpi_free(&r);
	return CMD_EMIT;
}
