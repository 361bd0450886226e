/*
 * cmd-rules: `gpulens rules REPORT` lists every message of ncu's rules
 * (the guided analysis) across the selected launches, ranked: estimated
 * speedup first (largest first; reports from Nsight Compute 2023.3 on
 * carry one), then the type (OPT, WRN, ERR, INF), then launch order.
 * Each row has the rule, its section, the message and the focus metrics
 * the message rests on.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "report/report.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define RULES_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_FILTER)

static cmd_rmodel_t	rules_run;

const struct cmd_entry cmd_rules_entry = {
	.name = "rules",
	.usage = "gpulens rules [OPTIONS] REPORT",
	.help =
	"Lists the rule results of an Nsight Compute report (its guided\n"
	"analysis: OPT optimisation hints, WRN warnings, INF notes), ranked\n"
	"by estimated speedup, then by type, with the rule, section, message\n"
	"and the metrics the message rests on.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_REPORT,
	.options = RULES_OPTS,
	.rmodel = rules_run
};

/* Rank of a type: OPT first. */
static int
rules_type_rank(int t)
{
	switch (t) {
	case RR_OPT:
		return 0;
	case RR_WARNING:
		return 1;
	case RR_ERROR:
		return 2;
	case RR_INFO:
		return 3;
	default:
		return 4;
	}
}

static int
rules_cmp(const void *a, const void *b, void *ctx)
{
	const struct report		*r = ctx;
	const struct report_rule	*x, *y;
	int				 sx, sy, tx, ty;

	x = &r->rules[*(const uint32_t *)a];
	y = &r->rules[*(const uint32_t *)b];
	sx = !isnan(x->speedup);
	sy = !isnan(y->speedup);
	if (sx != sy)
		return sy - sx;
	if (sx && x->speedup != y->speedup)
		return x->speedup > y->speedup ? -1 : 1;
	tx = rules_type_rank(x->type);
	ty = rules_type_rank(y->type);
	if (tx != ty)
		return tx - ty;
	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int
rules_run(const struct report *r, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct cmd_report_sel	 s;
	uint32_t		*idx;
	size_t			 n = 0, i;
	cJSON			*row;

	(void)code;
	if (cmd_report_sel_init(&s, r, o, cause) != 0)
		return -1;
	idx = xcalloc(r->nrules + 1, sizeof *idx);
	for (i = 0; i < r->nrules; i++) {
		if (r->rules[i].message == 0 && isnan(r->rules[i].speedup))
			continue;
		if (!cmd_report_sel_launch(&s, r->rules[i].launch))
			continue;
		idx[n++] = (uint32_t)i;
	}
	cmd_report_sel_free(&s);
	sort_stable(idx, n, sizeof *idx, rules_cmp, (void *)r);
	for (i = 0; i < n; i++) {
		const struct report_rule *u = &r->rules[idx[i]];
		row = out_row(out);
		out_key(row, "rule", "launch=%u|name=%s|index=%u", u->launch,
		    report_str(r, u->ident),
		    idx[i] - r->launches[u->launch].rule);
		out_int(row, "rank", (int64_t)i + 1);
		out_int(row, "launch_id", u->launch);
		out_str(row, "kernel", report_launch_name(r, u->launch));
		out_str(row, "type", report_rule_type_name(u->type));
		cmd_report_speedup(row, u);
		out_str(row, "rule", report_str(r, u->ident));
		out_str(row, "rule_name", report_str(r, u->name));
		out_str(row, "section", report_str(r, u->section));
		out_str(row, "title", report_str(r, u->title));
		out_str(row, "message", report_str(r, u->message));
		if (u->focus != 0)
			out_str(row, "focus", report_str(r, u->focus));
		else
			cJSON_AddNullToObject(row, "focus");
	}
	/* A table shows the headline columns; JSON and CSV everything. */
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "rank,launch_id,type,estimated_speedup_pct,rule,"
		    "section,message";
	if (n == 0)
		out_warn(out, "no_match",
		    "no rule result matches");
	else
		out_next(out, "gpulens inspect %s %u", out_q(out, o->args[0]),
		    r->rules[idx[0]].launch);
	free(idx);
	return 0;
}
