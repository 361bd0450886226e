/*
 * cmd-comm: `gpulens comm` summarises communication: the events readers
 * flag EVF_COMM (NCCL/RCCL kernels; NVTX ranges named nccl* or in an NCCL
 * domain), grouped by event kind (kernel or nvtx), collective, device,
 * stream and process:
 *   count, total_ns, mean_ns, median_ns, min_ns, max_ns;
 *   for kernels, gpu_busy_share_pct: the group's time inside the --from/
 *     --to window as a share of device_busy_ns, the union of all work on
 *     that device in the window (so it stays meaningful with --stream or
 *     --name, and is not restricted by --nvtx);
 *   message sizes and bandwidth, from the kernels whose kernel_info has
 *     a message size (Kineto's collective args; nsys records none, so
 *     there they stay null), the "sized" kernels:
 *     sized_count   how many there are;
 *     total_bytes   the sum of their message bytes (null when none);
 *     algbw_gbps    total_bytes over their summed duration: bytes per ns
 *                   is GB/s (10^9 bytes);
 *     busbw_gbps    the same with each kernel's bytes times its bus
 *                   factor;
 *     median_algbw_gbps, median_busbw_gbps
 *                   the median of the per-kernel values (bytes / duration,
 *                   kernels of zero duration left out);
 *     group_size, process_group
 *                   the process group's size and name, when every sized
 *                   kernel of the group agrees (else null).
 * The bandwidths follow nccl-tests (doc/PERFORMANCE.md in
 * github.com/NVIDIA/nccl-tests): algbw = S / t, where the size S of an
 * operation is the whole buffer of n ranks where one exists, and busbw =
 * algbw x a factor that makes it comparable with the hardware's link
 * bandwidth. A kernel's collective is its kernel_info's (PyTorch's
 * "Collective name": "allreduce", "_allgather_base", ...) when known, else
 * the one parsed from its name, both matched as below; then:
 *   bytes = output elements x element size for AllGather and Gather,
 *           input elements x element size for everything else
 *           (AllReduce, Broadcast, Reduce, ReduceScatter, AllToAll(v),
 *           Scatter, SendRecv, Send, Recv, Barrier, unknown);
 *   bus factor, for a group of n ranks: 2(n-1)/n for AllReduce (and
 *           Barrier, an all-reduce of one element); (n-1)/n for AllGather,
 *           ReduceScatter, AllToAll(v), Gather and Scatter; 1 for
 *           Broadcast, Reduce, SendRecv, Send and Recv. A kernel with
 *           another collective, or without a group size where the factor
 *           needs one, has none, and then the group's busbw values are
 *           null.
 * A kernel counts in full when it overlaps the window, as for the times.
 * The collective is the event's identity as analysis/comm.h defines it
 * (comm_identify): its name when that names a known collective (AllReduce,
 * AllGather, ReduceScatter, Reduce, Broadcast, SendRecv, Send, Recv,
 * AllToAll(v), Gather, Scatter, Barrier: "ncclDevKernel_AllReduce_Sum_
 * bf16_RING_LL" and "nccl:all_reduce" are both AllReduce), else for a GPU
 * event its collective args, else the NCCL annotation around its launch,
 * else the first word of its name ("ncclDevKernel_Generic" -> Generic,
 * "ncclGroupStart" -> GroupStart).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/vopt.h"
#include "headless/worksel.h"
#include "analysis/commgrp.h"
#include "analysis/ranksum.h"
#include "sources/jobsum.h"
#include "sources/multi.h"
#include "headless/verb-job.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define COMM_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER)

static cmd_run_t	comm_job;

static const struct cmd_option comm_vopts[] = {
	VERB_JOB_VOPTS("answer from the ranks' summaries (the default "
	    "beyond 64 traces)"),
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_comm_entry = {
	.name = "comm",
	.usage = "gpulens comm [OPTIONS] TRACE",
	.help =
	"Communication (NCCL/RCCL kernels and NCCL NVTX ranges) by collective\n"
	"(parsed from the name: AllReduce, AllGather, ReduceScatter, SendRecv,\n"
	"Broadcast, ...), kind, device, stream and process: count, total,\n"
	"mean, median, min and max time, and for kernels their share of the\n"
	"device's busy time, and, where the trace records message sizes\n"
	"(PyTorch/Kineto), total bytes and algorithm and bus bandwidth.\n"
	"A job of more than 64 traces is answered from the ranks' summaries\n"
	"('gpulens prep DIR' writes them; missing ones are made), without\n"
	"merging the models; the window and filter options need --full.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = COMM_OPTS,
	.vopts = comm_vopts,
	.model = cmd_comm_run,
	.hints = { { "gpulens search %s --type comm --sort duration_ns:desc",
	    1 } },
	.job = comm_job
};

/* The message size and bandwidth keys of a row (the top comment). */
static void
comm_row_bw(cJSON *row, const struct commgrp *g)
{
	int	sized = g->nsized > 0, timed = sized && g->sized_ns > 0;

	out_int_or_null(row, "group_size", sized && g->group_size != 0,
	    g->group_size);
	out_int(row, "sized_count", (int64_t)g->nsized);
	out_num_or_null(row, "algbw_gbps", timed,
	    (double)g->bytes / (double)g->sized_ns);
	out_num_or_null(row, "busbw_gbps", timed && !g->nofactor,
	    g->busbytes / (double)g->sized_ns);
	out_num_or_null(row, "median_algbw_gbps", g->nbw > 0, g->median_algbw);
	out_num_or_null(row, "median_busbw_gbps", g->nbw > 0 && !g->nofactor,
	    g->median_busbw);
	if (sized && g->pg != NULL)
		out_str(row, "process_group", g->pg);
	else
		cJSON_AddNullToObject(row, "process_group");
}

/* The label of an id, or "none". */
static const char *
comm_label(char *buf, size_t len, int64_t v)
{
	if (v < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

static void
comm_int_or_null(cJSON *row, const char *key, int64_t v)
{
	out_int_or_null(row, key, v >= 0, v);
}

/* The row of group g, from a model or from a rank's summary. */
static void
comm_row(struct out *out, const struct commgrp *g)
{
	cJSON	*row = out_row(out);
	char	 key[1024], dev[24], str[24], pid[24];
	int64_t	 busy = g->device_busy;

	comm_label(dev, sizeof dev, g->device);
	comm_label(str, sizeof str, g->stream);
	comm_label(pid, sizeof pid, g->pid);
	if (g->rank >= 0)
		rowkey_buf(key, sizeof key, "comm", "kind=%s|collective=%s|"
		    "device=%s|stream=%s|pid=%s|rank=%d", ev_kind_name(g->kind),
		    g->coll, dev, str, pid, g->rank);
	else
		rowkey_buf(key, sizeof key, "comm", "kind=%s|collective=%s|"
		    "device=%s|stream=%s|pid=%s", ev_kind_name(g->kind),
		    g->coll, dev, str, pid);
	out_str(row, "key", key);
	out_str(row, "kind", ev_kind_name(g->kind));
	out_str(row, "collective", g->coll);
	comm_int_or_null(row, "device", g->device);
	comm_int_or_null(row, "stream", g->stream);
	comm_int_or_null(row, "pid", g->pid);
	comm_int_or_null(row, "rank", g->rank);
	out_int(row, "count", (int64_t)g->count);
	out_int(row, "total_ns", g->total);
	out_num(row, "mean_ns", g->mean);
	out_num(row, "median_ns", g->median);
	out_int(row, "min_ns", g->min);
	out_int(row, "max_ns", g->max);
	out_int_or_null(row, "total_bytes", g->nsized > 0, g->bytes);
	if (busy >= 0) {
		out_int(row, "device_busy_ns", busy);
		out_num_or_null(row, "gpu_busy_share_pct", busy > 0,
		    100.0 * (double)g->clipped / (double)busy);
	} else {
		cJSON_AddNullToObject(row, "device_busy_ns");
		cJSON_AddNullToObject(row, "gpu_busy_share_pct");
	}
	comm_row_bw(row, g);
}

/* The rows of set, and what every answer says of them. */
static void
comm_answer(struct out *out, const struct commgrp_set *set)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		comm_row(out, &set->g[i]);
	out->default_sort = "total_ns:desc";
	out_int(out->aux, "total_ns", set->total);
	if (set->n == 0)
		out_warn(out, "no_communication",
		    "no communication (NCCL/RCCL kernels or NCCL "
		    "ranges) matches");
}

int
cmd_comm_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct opts		 ko = *o;
	struct sel		 s;
	struct commgrp_keep	 keep;
	struct commgrp_set	 set;

	ko.type = -1;		/* communication */
	if (sel_open(&s, m, &ko, out, code, cause) != 0)
		return -1;
	keep.track = worksel_track;
	keep.event = worksel_event;
	keep.arg = &s;
	commgrp_build(m, s.t0, s.t1, &keep, &set);
	sel_free(&s);
	comm_answer(out, &set);
	commgrp_set_free(&set);
	return 0;
}

/* What a job's summaries give: per file, its groups and kept devices. */
struct comm_take {
	struct commgrp_set	*cg;
	uint32_t		**gpu;
	size_t			*ngpu;
};

/* Keeps file i's groups and devices (jobsum_take_fn). */
static void
comm_take(void *arg, size_t i, struct ranksum *s)
{
	struct comm_take	*t = arg;

	t->cg[i] = s->cg;
	memset(&s->cg, 0, sizeof s->cg);
	t->gpu[i] = s->gpu;
	t->ngpu[i] = s->ngpu;
	s->gpu = NULL;
	s->ngpu = 0;
}

/* The window or filter option given, which summaries cannot answer, or
 * NULL. */
static const char *
comm_event_option(const struct opts *o)
{
	if (o->from != OPT_TIME_UNSET || o->to != OPT_TIME_UNSET)
		return "--from/--to";
	if (o->nvtx != NULL)
		return "--nvtx";
	if (o->iter >= 0)
		return "--iter";
	if (o->window != NULL)
		return "--window";
	if (o->device >= 0)
		return "--device";
	if (o->stream >= 0)
		return "--stream";
	if (o->pid >= 0)
		return "--pid";
	if (o->tid >= 0)
		return "--tid";
	if (o->name_glob != NULL || o->name_regex != NULL)
		return "--name/--regex";
	if (o->min_dur > 0)
		return "--min-dur";
	return NULL;
}

/*
 * A large job, or --summaries: the answer from the ranks' summaries
 * (jobsum.h; each rank's groups, labelled as the merge labels them:
 * commgrp_job); CMD_LOAD to merge the models instead.
 */
static int
comm_job(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct opts	*o = ctx->o;
	const char		*opt;
	struct comm_take	 t;
	struct commgrp_job	 cj;
	struct jobsum		 j;
	struct load_opts	 lo;
	char			**files = NULL;
	size_t			 i, k;
	int			 nf, rc;

	if ((nf = verb_job_files(ctx, &files, code, cause)) <= 0)
		return nf < 0 ? -1 : CMD_LOAD;
	if ((opt = comm_event_option(o)) != NULL) {
		jobsum_files_free(files, nf);
		*code = "usage";
		*cause = xasprintf("%s: the ranks' summaries keep no events; "
		    "add --full to merge the models", opt);
		return -1;
	}
	out_inputs(out, files, (size_t)nf);
	cmd_load_opts(ctx->g, &lo);
	t.cg = xcalloc((size_t)nf + 1, sizeof *t.cg);
	t.gpu = xcalloc((size_t)nf + 1, sizeof *t.gpu);
	t.ngpu = xcalloc((size_t)nf + 1, sizeof *t.ngpu);
	rc = jobsum_load(files, (size_t)nf, &lo, comm_take, &t, &j, cause);
	commgrp_job_init(&cj);
	if (rc == 0)
		for (i = 0; i < j.n; i++) {
			k = j.r[i].index;
			commgrp_job_add(&cj, j.r[i].rank, t.gpu[k], t.ngpu[k],
			    &t.cg[k]);
		}
	for (i = 0; i < (size_t)nf; i++) {
		commgrp_set_free(&t.cg[i]);
		free(t.gpu[i]);
	}
	free(t.cg);
	free(t.gpu);
	free(t.ngpu);
	if (rc != 0) {
		commgrp_job_free(&cj);
		return verb_job_failed(rc, code, cause);
	}
	verb_job_dup(out, j.dup);
	out_warn(out, "from_summaries", "answered from the summaries of "
	    "%zu ranks ('--full' merges the models)", j.n);
	verb_job_made(out, j.built, j.n);
	comm_answer(out, &cj.set);
	commgrp_job_free(&cj);
	jobsum_free(&j);
	return CMD_EMIT;
}
