/*
 * cmd-threads: `gpulens threads TRACE` answers "which threads were busy"
 * from the trace's thread scheduling (analysis/threads.h; Nsight Systems
 * --cpuctxsw): per thread, its running and not-running time in the window,
 * its running share, context switches (sched-ins) and the CPUs it ran on.
 * The window is the trace span, or --from/--to, or the instances of an
 * NVTX range (--nvtx) in the thread's process. `metrics --type cpu-sched
 * TRACE` gives the same answer (cmd_metrics_alias() turns it into this
 * verb before the driver runs).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/threads.h"
#include "headless/cmd.h"
#include "headless/cmd-analyses.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/vopt.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

#define THREADS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW)

static cmd_run_t	threads_main;

static const struct cmd_option threads_vopts[] = {
	{ "--pid", "PID", "only the threads of this process",
	    CMD_OPT_OWN, vopt_check_count },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_threads_entry = {
	.name = "threads",
	.usage = "gpulens threads [--pid PID] [OPTIONS] TRACE",
	.help =
	"Which CPU threads were busy, from the trace's thread scheduling\n"
	"(Nsight Systems --cpuctxsw): per thread, its running and not-running\n"
	"time in the window, its running share, context switches (times it\n"
	"was scheduled in) and the CPUs it ran on; most running first. The\n"
	"window is the trace span, --from/--to, or with --nvtx the instances\n"
	"of that range in the thread's process.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = THREADS_OPTS,
	.vopts = threads_vopts,
	.run = threads_main
};

static const char *threads_columns[] = {
	"pid", "tid", "running_ns", "not_running_ns", "running_pct",
	"switches", "cpus", "process", "thread", NULL
};

/* The --nvtx windows as the analysis takes them: OS pid per instance. */
static struct threads_win *
threads_wins(const struct model *m, const struct sel *s, size_t *n)
{
	struct threads_win	*w;
	size_t			 i;

	w = xreallocarray(NULL, s->nwin + 1, sizeof *w);
	for (i = 0; i < s->nwin; i++) {
		w[i].start = s->win[i].start;
		w[i].end = s->win[i].end;
		w[i].pid = s->win[i].process < m->nprocesses ?
		    m->processes[s->win[i].process].pid : THREADS_ANYPID;
	}
	*n = s->nwin;
	return w;
}

int
cmd_threads_run(const struct model *m, const struct opts *o, int64_t pid,
    const char *path, struct out *out, const char **code, char **cause)
{
	const struct sched_thread	*th;
	const struct threads_row	*r;
	struct threads_query		 q;
	struct threads_win		*w = NULL;
	struct threads			 t;
	struct sel			 s;
	cJSON				*row;
	char				 key[128], cpus[1024];
	size_t				 i;

	if (sel_init(&s, m, o, cause) != 0) {
		*code = "usage";
		return -1;
	}
	memset(&q, 0, sizeof q);
	q.t0 = s.t0;
	q.t1 = s.t1;
	q.pid = pid;
	if (s.has_nvtx)
		q.win = w = threads_wins(m, &s, &q.nwin);
	sel_free(&s);
	threads_build(&t, m, &q);
	free(w);
	for (i = 0; i < t.n; i++) {
		r = &t.rows[i];
		th = &m->sched_threads[r->st];
		row = out_row(out);
		rowkey_buf(key, sizeof key, "thread", "pid=%u|tid=%u|gtid=%llu",
		    th->pid, th->tid, (unsigned long long)th->source_id);
		out_str(row, "key", key);
		out_int(row, "pid", th->pid);
		out_int(row, "tid", th->tid);
		out_str(row, "process", model_str(m, th->pname));
		out_str(row, "thread", model_str(m, th->name));
		out_int(row, "running_ns", r->running);
		out_int(row, "not_running_ns", r->window - r->running);
		out_int(row, "window_ns", r->window);
		out_num(row, "running_pct", r->window > 0 ?
		    100.0 * (double)r->running / (double)r->window : 0.0);
		out_int(row, "switches", (int64_t)r->switches);
		threads_cpus_text(r->cpus, r->ncpus, cpus, sizeof cpus);
		out_str(row, "cpus", cpus);
		out_int(row, "ncpus", (int64_t)r->ncpus);
		out_bool(row, "open", r->open);
	}
	out->columns = threads_columns;
	out->default_sort = "running_ns:desc";
	out_int(out->aux, "threads", (int64_t)t.n);
	out_int(out->aux, "idle_threads", (int64_t)t.nidle);
	out_int(out->aux, "running_ns", t.running);
	out_int(out->aux, "switches", (int64_t)t.switches);
	out_int(out->aux, "cpus", (int64_t)t.ncpus);
	out_int(out->aux, "window_ns", q.t1 - q.t0);
	if (!threads_have(m))
		out_warn(out, "no_sched", "the trace has no thread scheduling "
		    "data (capture with nsys --cpuctxsw=process-tree)");
	else if (t.n == 0)
		out_warn(out, "no_sched", "no thread ran in the window");
	else if (path != NULL && t.n > 0)
		out_next(out, "gpulens launch %s --group-by tid",
		    out_q(out, path));
	threads_free(&t);
	return CMD_EMIT;
}

static int
threads_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const char	*v = vopt_get(ctx->v, ctx->nv, "--pid");

	return cmd_threads_run(ctx->in->m, ctx->o,
	    v != NULL ? strtoll(v, NULL, 10) : -1, ctx->in->path, out, code,
	    cause);
}
