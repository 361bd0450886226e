/*
 * cmd-findings: `gpulens findings` lists ranked, evidence-backed findings
 * (finding.h has the ranking and confidence rules; finding-nsys.c and
 * finding-perf.c the rules). One row per finding:
 *   rank, type, confidence, title
 *   cost_ns, share_pct       what it costs, and its share of the window
 *   speedup_half, speedup_all   Amdahl bounds on the window's speed-up if
 *                            half of the cost, or all of it, went away
 *   one_off                  the cost lies mostly outside the iterations
 *   device, pid              where (null when not tied to one)
 *   start_ns, end_ns, event  the evidence on the timeline: a window and a
 *                            representative event id (for `inspect`)
 *   summary, next_step, ncu_command, evidence   the numbers and what to do
 * The auxiliary data lists every rule with its status (found, none,
 * skipped and why), the window, the iterations' span and the gpu_gaps
 * threshold. --min-confidence hides weaker findings.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-analyses.h"
#include "analysis/finding.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/vopt.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

static cmd_run_t	findings_main;

static const struct cmd_option findings_vopts[] = {
	{ "--min-confidence", "low|medium|high", "hide weaker findings",
	    CMD_OPT_OWN, NULL },
	CMD_REFUSE_NVTX_ITER,
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_findings_entry = {
	.name = "findings",
	.usage = "gpulens findings [--min-confidence LEVEL] [OPTIONS] TRACE",
	.help =
	"Ranked, evidence-backed findings: the rules of `nsys analyze`\n"
	"(cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync,\n"
	"cuda_api_sync, gpu_gaps, gpu_time_util) and launch_bound,\n"
	"idle_bubbles, exposed_comm, straggler, imbalance and\n"
	"dominant_kernel (with the ncu command to\n"
	"run). Each has the numbers behind it, the share of the window it\n"
	"costs, Amdahl bounds on the speed-up, a confidence level, where to\n"
	"look on the timeline and a next step.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = FINDINGS_OPTS,
	.vopts = findings_vopts,
	.run = findings_main
};

/*
 * Adds the evidence items from *i into parent (an object, or an array for a
 * list's items) up to the end of their group; *i ends past it.
 */
static void
findings_evidence(const struct fevidence *ev, size_t *i, cJSON *parent)
{
	const struct fev	*x;
	cJSON			*v;

	while (*i < ev->n) {
		x = &ev->v[(*i)++];
		switch (x->type) {
		case FEV_END:
			return;
		case FEV_INT:
			v = cJSON_CreateNumber((double)x->u.i);
			break;
		case FEV_REAL:
			v = cJSON_CreateNumber(x->u.r);
			break;
		case FEV_BOOL:
			v = cJSON_CreateBool(x->u.b);
			break;
		case FEV_STR:
			v = cJSON_CreateString(x->u.s);
			break;
		case FEV_NULL:
			v = cJSON_CreateNull();
			break;
		default:
			v = x->type == FEV_LIST ? cJSON_CreateArray() :
			    cJSON_CreateObject();
			findings_evidence(ev, i, v);
			break;
		}
		if (x->key != NULL)
			cJSON_AddItemToObject(parent, x->key, v);
		else
			cJSON_AddItemToArray(parent, v);
	}
}

static int
findings_conf_parse(const char *s)
{
	int	c;

	for (c = FINDING_LOW; c <= FINDING_HIGH; c++)
		if (strcmp(s, finding_conf_name(c)) == 0)
			return c;
	return -1;
}

int
cmd_findings_compute(const struct model *m, const struct opts *o,
    const struct vopt *v, size_t nv, struct out *out, const char **code,
    char **cause)
{
	struct findings	 fs;
	const char	*mc = vopt_get(v, nv, "--min-confidence");
	int		 minc = FINDING_LOW, rc;
	int64_t		 t0, t1, rel = o->absolute ? 0 : m->origin_ns;
	size_t		 i, k, shown = 0;
	cJSON		*row, *win, *rules, *r;
	char		 key[64];

	(void)code;
	if (mc != NULL && (minc = findings_conf_parse(mc)) < 0) {
		*cause = xasprintf("--min-confidence must be low, medium or "
		    "high");
		return -1;
	}
	if ((rc = sel_span(m, o, out, &t0, &t1, cause)) <= 0)
		return rc;
	if (finding_run(m, t0, t1, &fs, cause) != 0)
		return -1;
	for (i = 0; i < fs.n; i++) {
		const struct finding *f = &fs.v[i];
		if (f->confidence < minc)
			continue;
		shown++;
		row = out_row(out);
		rowkey_buf(key, sizeof key, "finding", "type=%s", f->type);
		out_str(row, "key", key);
		out_int(row, "rank", f->rank);
		out_str(row, "type", f->type);
		out_str(row, "confidence", finding_conf_name(f->confidence));
		out_str(row, "title", f->title != NULL ? f->title : "");
		out_int(row, "cost_ns", f->cost_ns);
		out_num(row, "share_pct", f->share_pct);
		out_num(row, "speedup_half", f->speedup_half);
		out_num_or_null(row, "speedup_all", f->share_pct < 100,
		    f->speedup_all);
		out_bool(row, "one_off", f->one_off);
		if (f->device != NONE32 && f->device < m->ndevices)
			out_int(row, "device", m->devices[f->device].source_id);
		else
			cJSON_AddNullToObject(row, "device");
		if (f->process != NONE32 && f->process < m->nprocesses)
			out_int(row, "pid", m->processes[f->process].pid);
		else
			cJSON_AddNullToObject(row, "pid");
		out_int(row, "start_ns", f->t0 - rel);
		out_int(row, "end_ns", f->t1 - rel);
		out_int_or_null(row, "event", f->gid != NONE32, f->gid);
		out_str(row, "summary", f->detail != NULL ? f->detail : "");
		out_str(row, "next_step", f->next != NULL ? f->next : "");
		out_str_or_null(row, "ncu_command", f->command);
		k = 0;
		findings_evidence(&f->ev, &k, cJSON_AddObjectToObject(row,
		    "evidence"));
	}
	win = cJSON_AddObjectToObject(out->aux, "window");
	out_int(win, "start_ns", fs.t0 - rel);
	out_int(win, "end_ns", fs.t1 - rel);
	out_int(win, "span_ns", fs.t1 - fs.t0);
	win = cJSON_AddObjectToObject(out->aux, "iterations");
	if (fs.zone1 > fs.zone0) {
		out_int(win, "start_ns", fs.zone0 - rel);
		out_int(win, "end_ns", fs.zone1 - rel);
	} else {
		cJSON_AddNullToObject(win, "start_ns");
		cJSON_AddNullToObject(win, "end_ns");
	}
	out_int(out->aux, "gap_threshold_ns", fs.gap_threshold);
	out_str(out->aux, "min_confidence", finding_conf_name(minc));
	rules = cJSON_AddArrayToObject(out->aux, "rules");
	for (i = 0; i < fs.nrules; i++) {
		r = cJSON_CreateObject();
		out_str(r, "type", fs.rules[i].type);
		out_str(r, "status", fs.rules[i].status);
		out_str_or_null(r, "reason", fs.rules[i].reason);
		cJSON_AddItemToArray(rules, r);
	}
	if (shown == 0)
		out_warn(out, "no_findings",
		    "no findings%s", minc > FINDING_LOW ?
		    " at this confidence" : "");
	else
		out_next(out, "gpulens inspect %s " OUT_ROWF("event"),
		    out_q(out, o->args[0]));
	out->default_sort = "rank:asc";
	finding_free(&fs);
	return 0;
}

static int
findings_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	return cmd_findings_compute(ctx->in->m, ctx->o, ctx->v, ctx->nv, out,
	    code, cause);
}
