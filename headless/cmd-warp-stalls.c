/*
 * cmd-warp-stalls: `gpulens warp-stalls REPORT [--launch ID] [--by
 * reason|pc|line]`: where the warps of a launch stall, from the PC
 * sampling of an Nsight Compute report (report/stalls.h).
 *   --by reason (default)  a row per launch and stall reason: samples,
 *                          share of the launch's samples, not-issued and
 *                          issued samples, instructions sampled
 *   --by pc                a row per instruction: offset, address, file
 *                          and line, samples, the top reason; with --json
 *                          every reason's samples
 *   --by line              a row per source line (where the cubin has a
 *                          line table)
 * Every launch with PC sampling, or the one --launch names; the filters
 * (--name ...) select launches too. aux.launches gives each launch's
 * sample count (its smsp__pcsamp_sample_count), the sum over reasons and
 * the not-issued samples.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "headless/ncu-launch.h"
#include "headless/vopt.h"
#include "report/report.h"
#include "report/stalls.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

#define WS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_FILTER | OPT_BY)

static cmd_run_t	ws_run;

static const struct cmd_option ws_vopts[] = {
	NCU_LAUNCH_VOPT("only this launch (N or launch:N)"),
	{ "--by", "reason|pc|line", "a row per stall reason (default), per "
	    "instruction or per source line", CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_warp_stalls_entry = {
	.name = "warp-stalls",
	.usage = "gpulens warp-stalls [OPTIONS] REPORT",
	.help =
	"Where the warps of each launch stall, from the PC sampling of an\n"
	"Nsight Compute report (the full section set): samples per stall\n"
	"reason, with their share of the launch's samples and the samples in\n"
	"which no warp issued; --by pc gives a row per instruction, --by line\n"
	"per source line (kernels built with -lineinfo). --launch picks one\n"
	"launch.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_REPORT,
	.options = WS_OPTS,
	.vopts = ws_vopts,
	.run = ws_run
};

/* --by's values, in enum report_stalls_by's order (stalls.h). */
static const char *const ws_by_names[] = { "reason", "pc", "line", NULL };

static const char *ws_reason_columns[] = {
	"launch_id", "reason", "samples", "samples_pct", "not_issued",
	"issued", "instructions", "kernel", NULL
};

static const char *ws_pc_columns[] = {
	"launch_id", "offset", "file", "line", "samples", "samples_pct",
	"not_issued", "top_reason", "top_reason_samples", "kernel", NULL
};

static const char *ws_line_columns[] = {
	"launch_id", "file", "line", "instructions", "samples", "samples_pct",
	"not_issued", "top_reason", "top_reason_samples", "kernel", NULL
};

static double
ws_pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : NAN;
}

static void
ws_stalls_obj(cJSON *row, const struct report_stalls *s,
    const struct report_stall_group *g)
{
	cJSON	*o = cJSON_AddObjectToObject(row, "stalls");
	size_t	 k;

	for (k = 0; k < s->nreasons; k++)
		if (g->by_reason[k] > 0)
			cJSON_AddNumberToObject(o, s->reason[k],
			    g->by_reason[k]);
}

static void
ws_row(struct out *out, const struct report *r, const struct report_stalls *s,
    const struct report_stall_group *g, int by, int json)
{
	const struct report_pcs	*p = &s->pcs;
	cJSON			*row = out_row(out);
	const char		*file = g->file != REPORT_NONE ?
				    report_str(r, r->code.files[g->file].path) :
				    NULL;
	char			*key, pc[32];
	int			 top;

	switch (by) {
	case RSB_REASON:
		key = rowkey("stall", "launch=%u|reason=%s", s->launch,
		    s->reason[g->reason]);
		break;
	case RSB_PC:
		snprintf(pc, sizeof pc, "0x%" PRIx64, g->off);
		key = rowkey("stall", "launch=%u|pc=%s", s->launch, pc);
		break;
	default:
		key = rowkey("stall", "launch=%u|file=%s|line=%u", s->launch,
		    file != NULL ? file : "", g->line);
		break;
	}
	out_str(row, "key", key);
	free(key);
	out_int(row, "launch_id", s->launch);
	out_str(row, "kernel", report_launch_name(r, s->launch));
	if (by == RSB_REASON)
		out_str(row, "reason", s->reason[g->reason]);
	if (by == RSB_PC) {
		out_int(row, "offset", (int64_t)g->off);
		snprintf(pc, sizeof pc, "0x%" PRIx64, p->base + g->off);
		out_str(row, "pc", pc);
	}
	if (by != RSB_REASON) {
		out_str_or_null(row, "file", file);
		out_int_or_null(row, "line", g->line > 0, g->line);
	}
	out_int(row, "instructions", (int64_t)g->npcs);
	out_num(row, "samples", g->samples);
	cmd_report_num(row, "samples_pct", ws_pct(g->samples, s->reason_sum));
	out_num(row, "not_issued", g->not_issued);
	out_num(row, "issued", g->samples - g->not_issued);
	if (by != RSB_REASON) {
		top = report_stalls_top(s, g);
		if (top >= 0) {
			out_str(row, "top_reason", s->reason[top]);
			out_num(row, "top_reason_samples", g->by_reason[top]);
		} else {
			cJSON_AddNullToObject(row, "top_reason");
			cJSON_AddNullToObject(row, "top_reason_samples");
		}
		if (json)
			ws_stalls_obj(row, s, g);
	}
}

static void
ws_aux(cJSON *arr, const struct report *r, const struct report_stalls *s)
{
	cJSON	*o = cJSON_CreateObject();
	size_t	 i, n = 0;

	cJSON_AddNumberToObject(o, "launch_id", s->launch);
	cJSON_AddStringToObject(o, "kernel", report_launch_name(r, s->launch));
	cmd_report_num(o, "sample_count", s->samples);
	cJSON_AddNumberToObject(o, "reason_samples", s->reason_sum);
	cJSON_AddNumberToObject(o, "not_issued", s->not_issued);
	for (i = 0; i < s->pcs.npcs; i++)
		if (s->samplecol >= 0 && report_pcs_get(&s->pcs, i,
		    s->samplecol) > 0)
			n++;
	cJSON_AddNumberToObject(o, "instructions_sampled", (double)n);
	cJSON_AddNumberToObject(o, "reasons", (double)s->nreasons);
	cJSON_AddBoolToObject(o, "has_lines", s->pcs.has_lines);
	cJSON_AddItemToArray(arr, o);
}

/* What ws_run's launches add up to. */
struct ws_each {
	cJSON		*aux;		/* aux.launches, with --json */
	int		 by, json;
	size_t		 nsampled, nolines;
};

/* The rows of launch i, if it has PC sampling. */
static void
ws_launch(struct out *out, const struct report *r, uint32_t i, void *arg)
{
	struct ws_each			*e = arg;
	struct report_stalls		 s;
	struct report_stall_group	*g;
	size_t				 k, ng;

	if (report_stalls_build(r, i, &s) != 0)
		return;
	e->nsampled++;
	if (e->aux != NULL)
		ws_aux(e->aux, r, &s);
	if (e->by == RSB_LINE && !s.pcs.has_lines)
		e->nolines++;
	ng = report_stalls_group(&s, e->by, &g);
	for (k = 0; k < ng; k++)
		if (e->by != RSB_REASON || g[k].samples > 0 ||
		    g[k].not_issued > 0)
			ws_row(out, r, &s, &g[k], e->by, e->json);
	report_stalls_groups_free(g, ng);
	report_stalls_free(&s);
}

static int
ws_run(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct report		*r = ctx->in->r;
	const struct opts		*o = ctx->o;
	struct ws_each			 e;
	uint32_t			 one;
	size_t				 nid, n;
	int				 by = RSB_REASON;

	if (o->by != NULL &&
	    vopt_choice("--by", o->by, ws_by_names, &by, cause) != 0) {
		*code = "usage";
		return -1;
	}
	if (ncu_launch_ids(ctx, r, &one, 1, &nid, code, cause) != 0)
		return -1;
	memset(&e, 0, sizeof e);
	e.by = by;
	e.json = o->format == OUT_JSON;
	if (e.json)
		e.aux = cJSON_AddArrayToObject(out->aux, "launches");
	if (cmd_report_each(r, o, nid > 0 ? one : REPORT_NONE, ws_launch, out,
	    &e, &n, cause) != 0)
		return -1;
	out->columns = by == RSB_REASON ? ws_reason_columns : by == RSB_PC ?
	    ws_pc_columns : ws_line_columns;
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = by == RSB_REASON ? "launch_id,reason,samples,"
		    "samples_pct,not_issued,issued,instructions" :
		    by == RSB_PC ? "launch_id,offset,file,line,samples,"
		    "samples_pct,not_issued,top_reason" : "launch_id,file,"
		    "line,instructions,samples,samples_pct,not_issued,"
		    "top_reason";
	if (e.nsampled == 0)
		out_warn(out, "no_pc_sampling", "%s PC sampling data "
		    "(capture with --set full, or --section WarpStateStats "
		    "--section SourceCounters)", nid > 0 ? "the launch has no" :
		    "no selected launch has");
	else if (e.nolines > 0)
		out_warn(out, "no_line_info", "%zu of the sampled launches "
		    "have no line table (build the kernel with -lineinfo)",
		    e.nolines);
	if (e.nsampled > 0 && by == RSB_REASON)
		out_next(out, "gpulens warp-stalls %s --by pc",
		    out_q(out, o->args[0]));
	return 0;
}
