/*
 * cmd-samples: `gpulens samples [--group-by function|module|tid] TRACE`,
 * the CPU hotspots of the trace's CPU samples (Nsight Systems
 * `--sample=cpu`; src/analysis/samples.h counts them):
 *
 *   --group-by function  (the default) one row per function and module:
 *                        self (samples whose leaf frame it is) and total
 *                        (samples with it anywhere on the stack), and
 *                        their shares of the samples in the window;
 *   --group-by module    the same per module;
 *   --group-by tid       one row per sampled thread: its samples.
 * The window options select samples by time (--nvtx: inside an instance
 * of the range in the sample's process).
 * `metrics --type cpu-sampling TRACE` is the same answer (cmd.c).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/samples.h"
#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "util/xmalloc.h"

#define SAMPLES_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_GROUP)

static cmd_run_t	samples_main;

static const struct cmd_option samples_vopts[] = {
	{ "--group-by", "function|module|tid", "one row per function "
	    "(default), per module, or per thread", CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_samples_entry = {
	.name = "samples",
	.usage = "gpulens samples [--group-by function|module|tid] [OPTIONS] "
	    "TRACE",
	.help =
	"CPU hotspots from the CPU samples of an Nsight Systems trace\n"
	"(nsys --sample=cpu): per function and module, self samples (the\n"
	"function was running) and total samples (it was on the stack), and\n"
	"their shares; --group-by module or tid groups them per module or\n"
	"per thread. --from/--to and --nvtx select samples by time.\n"
	"'metrics --type cpu-sampling TRACE' gives the same answer.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = SAMPLES_OPTS,
	.vopts = samples_vopts,
	.run = samples_main
};

static const char *samples_fn_columns[] = {
	"function", "module", "self", "self_pct", "total", "total_pct", NULL
};

static const char *samples_mod_columns[] = {
	"module", "self", "self_pct", "total", "total_pct", NULL
};

static const char *samples_tid_columns[] = {
	"tid", "pid", "thread", "self", "self_pct", NULL
};

static void
samples_pct(cJSON *row, const char *key, uint64_t v, uint64_t all)
{
	out_num_or_null(row, key, all > 0, (double)v * 100.0 / (double)all);
}

/* Whether another sampled thread has the same tid and pid (the traces of
 * a merged job may): its key then names the thread's global id too. */
static int
samples_shared_tid(const struct model *m, uint32_t h)
{
	const struct csthread	*a = &m->cs.th[h], *b;
	size_t			 i;

	for (i = 0; i < m->cs.nth; i++) {
		b = &m->cs.th[i];
		if (i != h && b->tid == a->tid && b->pid == a->pid)
			return 1;
	}
	return 0;
}

static void
samples_row(struct out *out, const struct model *m, int group,
    const struct samples_row *r, uint64_t all)
{
	const struct csthread	*h;
	cJSON			*row = out_row(out);

	switch (group) {
	case SAMPLES_BY_TID:
		h = &m->cs.th[r->sthread];
		if (samples_shared_tid(m, r->sthread))
			out_key(row, "thread", "tid=%u|pid=%u|gtid=%llu",
			    h->tid, h->pid, (unsigned long long)h->source_id);
		else
			out_key(row, "thread", "tid=%u|pid=%u", h->tid, h->pid);
		out_int(row, "tid", h->tid);
		out_int(row, "pid", h->pid);
		if (h->name != 0)
			out_str(row, "thread", model_str(m, h->name));
		else
			cJSON_AddNullToObject(row, "thread");
		break;
	case SAMPLES_BY_MODULE:
		out_key(row, "module", "module=%s", model_str(m, r->module));
		out_str(row, "module", model_str(m, r->module));
		break;
	default:
		out_key(row, "function", "function=%s|module=%s",
		    model_str(m, r->func), model_str(m, r->module));
		out_str(row, "function", model_str(m, r->func));
		out_str(row, "module", model_str(m, r->module));
		break;
	}
	out_int(row, "self", (int64_t)r->self);
	samples_pct(row, "self_pct", r->self, all);
	if (group != SAMPLES_BY_TID) {
		out_int(row, "total", (int64_t)r->total);
		samples_pct(row, "total_pct", r->total, all);
	}
}

static int
samples_run(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct samples_query	 q;
	struct samples_result	 r;
	struct samples_win	*w = NULL;
	struct sel		 s;
	struct opts		 so;
	size_t			 i;
	int			 group = SAMPLES_BY_FUNCTION;

	if (o->group_by != NULL &&
	    (group = samples_group_parse(o->group_by)) < 0) {
		*code = "usage";
		*cause = xasprintf("--group-by takes function, module or tid, "
		    "not '%s'", o->group_by);
		return -1;
	}
	so = *o;
	so.group_by = NULL;
	if (sel_open(&s, m, &so, out, code, cause) != 0)
		return -1;
	memset(&q, 0, sizeof q);
	/* Samples before the first event or after the last count too
	 * unless a bound is given. */
	q.t0 = o->from == OPT_TIME_UNSET && o->window == NULL ? INT64_MIN :
	    s.t0;
	q.t1 = o->to == OPT_TIME_UNSET && o->window == NULL ? INT64_MAX :
	    s.t1;
	q.group = group;
	q.tid = -1;
	if (s.has_nvtx) {
		q.has_win = 1;
		q.nwin = s.nwin;
		if (s.nwin > 0) {
			w = xreallocarray(NULL, s.nwin, sizeof *w);
			for (i = 0; i < s.nwin; i++) {
				w[i].process = s.win[i].process;
				w[i].start = s.win[i].start;
				w[i].end = s.win[i].end;
			}
		}
		q.win = w;
	}
	sel_free(&s);
	samples_build(m, &q, &r);
	free(w);
	for (i = 0; i < r.nrows; i++)
		samples_row(out, m, group, &r.rows[i], r.samples);
	out->columns = group == SAMPLES_BY_TID ? samples_tid_columns :
	    group == SAMPLES_BY_MODULE ? samples_mod_columns :
	    samples_fn_columns;
	/* The analysis's order (self, then total, then name): no default
	 * sort, whose ties would go by key. */
	out->default_sort = NULL;
	out_str(out->aux, "group_by", samples_group_name(group));
	out_int(out->aux, "samples", (int64_t)r.samples);
	out_int(out->aux, "samples_without_chain", (int64_t)r.without_chain);
	out_int(out->aux, "threads", (int64_t)r.threads);
	out_int(out->aux, "trace_samples", (int64_t)m->cs.ns);
	if (m->cs.ns == 0)
		out_warn(out, "no_samples", "the trace has no CPU samples "
		    "(record with nsys --sample=cpu)");
	samples_free(&r);
	return 0;
}

static int
samples_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct opts	*o = ctx->o;

	if (samples_run(ctx->in->m, o, out, code, cause) != 0)
		return -1;
	if (ctx->in->m->cs.ns > 0 && o->group_by == NULL)
		out_next(out, "gpulens samples --group-by tid %s", out_q(out,
		    ctx->in->path));
	return CMD_EMIT;
}
