/*
 * cmd-ncu-diff: the report form of `gpulens diff`: two Nsight Compute
 * reports (A the baseline) or two launches of one report (--launch A
 * --launch B), compared metric by metric as Nsight Compute's baseline
 * comparison does.
 *
 * Two reports: the launches are paired by kernel name and order (the
 * k-th launch of a kernel in A with the k-th of the same kernel in B);
 * launches without a partner are named in a warning. Every numeric
 * metric the two launches of a pair hold is compared; a row for each
 * whose value differs: a, b, change (b - a) and change_pct (of a; null
 * when a is 0). A report diffed with itself gives no rows.
 *
 * The gate: --fail-on METRIC>THRESHOLD (or <; a percentage of A or a
 * plain number, as for timelines; METRIC may be a shell pattern) exits 1
 * when a pair's change breaks it; --exit-on-regression PCT is
 * gpu__time_duration.sum>+PCT%.
 */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "headless/diffgate.h"
#include "headless/ncu-launch.h"
#include "headless/verb-gate.h"
#include "headless/vopt.h"
#include "report/rdiff.h"
#include "report/report.h"
#include "sources/ncu.h"
#include "util/xmalloc.h"

struct nd_gate {
	struct verb_gate	 list;
	size_t			 broken;
};

static const char *nd_columns[] = {
	"kernel", "occurrence", "launch_a", "launch_b", "metric", "a", "b",
	"change", "change_pct", "unit", NULL
};

/* A gate rule: METRIC OP THRESHOLD, the threshold parsed as diffgate's. */
static int
nd_rule(const char *opt, const char *v, struct diffgate_rule *r,
    char **cause)
{
	const char	*op;
	char		*spec;
	int		 rc;

	if (opt[2] == 'e') {
		if (verb_gate_regression("count", v, r, cause) != 0)
			return -1;
		free(r->field);
		r->field = xstrdup("gpu__time_duration.sum");
		return 0;
	}
	if ((op = strpbrk(v, "<>")) == NULL || op == v) {
		*cause = xasprintf("gate rule '%s': expected "
		    "METRIC>THRESHOLD or METRIC<THRESHOLD (e.g. "
		    "gpu__time_duration.sum>+5%%)", v);
		return -1;
	}
	spec = xasprintf("count%s", op);
	rc = diffgate_parse(spec, r, cause);
	free(spec);
	if (rc != 0)
		return -1;
	free(r->field);
	r->field = xstrndup(v, (size_t)(op - v));
	return 0;
}

static int
nd_gate_build(const struct cmd_ctx *ctx, struct nd_gate *g, char **cause)
{
	struct diffgate_rule	r;
	size_t			i;

	memset(g, 0, sizeof *g);
	for (i = 0; i < ctx->nv; i++) {
		if (strcmp(ctx->v[i].name, "--fail-on") != 0 &&
		    strcmp(ctx->v[i].name, "--exit-on-regression") != 0)
			continue;
		if (nd_rule(ctx->v[i].name, ctx->v[i].value, &r, cause) != 0)
			return -1;
		verb_gate_add(&g->list, &r);
	}
	return 0;
}

/* Compares launch la of a with lb of b: a row per changed metric. */
static void
nd_pair(struct out *out, const struct report *a, uint32_t la,
    const struct report *b, uint32_t lb, uint32_t occ, struct nd_gate *g)
{
	const struct report_launch	*l = &a->launches[la];
	const struct report_metric	*ma, *mb;
	const char			*name;
	struct rdiff_cmp		 c;
	cJSON				*row;
	size_t				 k, j;

	for (k = 0; k < l->nmetrics; k++) {
		ma = &a->metrics[l->metric + k];
		name = report_str(a, ma->name);
		if ((mb = report_metric(b, lb, name)) == NULL ||
		    !rdiff_compare(ma, mb, &c) || c.a == c.b)
			continue;
		for (j = 0; j < g->list.n; j++)
			if (fnmatch(g->list.rules[j].field, name, 0) == 0 &&
			    diffgate_breaks(&g->list.rules[j], c.a, c.b))
				g->broken++;
		row = out_row(out);
		out_key(row, "metric", "kernel=%s|occurrence=%u|name=%s",
		    report_launch_name(a, la), occ, name);
		out_str(row, "kernel", report_launch_name(a, la));
		out_int(row, "occurrence", occ);
		out_int(row, "launch_a", la);
		out_int(row, "launch_b", lb);
		out_str(row, "metric", name);
		out_str(row, "label", report_str(a, ma->label));
		out_str(row, "unit", report_str(a, ma->unit));
		/* Exact values, as metrics prints them. */
		cmd_report_value(row, "a", a, &ma->value);
		cmd_report_value(row, "b", b, &mb->value);
		cJSON_AddNumberToObject(row, "change", c.change);
		if (!isnan(c.change_pct))
			cJSON_AddNumberToObject(row, "change_pct",
			    c.change_pct);
		else
			cJSON_AddNullToObject(row, "change_pct");
	}
}

int
cmd_ncu_diff_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct report	*a = ctx->in->r, *b;
	struct report		*rb = NULL;
	const struct opts	*o = ctx->o;
	struct nd_gate		 g;
	uint32_t		 ids[2], i, j;
	size_t			 nid, unmatched = 0, pairs = 0;
	int			 rc = CMD_EMIT;

	if (ncu_launch_ids(ctx, a, ids, 2, &nid, code, cause) != 0)
		return -1;
	if (nd_gate_build(ctx, &g, cause) != 0) {
		verb_gate_free(&g.list);
		return -1;
	}
	if (o->nargs == 1) {
		if (nid != 2) {
			*code = "usage";
			*cause = xstrdup("diff of one report needs two "
			    "launches: --launch A --launch B");
			verb_gate_free(&g.list);
			return -1;
		}
		nd_pair(out, a, ids[0], a, ids[1], rdiff_occurrence(a, ids[0]),
		    &g);
		pairs = 1;
	} else {
		if (nid != 0) {
			*code = "usage";
			*cause = xstrdup("--launch compares two launches of "
			    "one report; two reports are paired by kernel "
			    "name and order");
			verb_gate_free(&g.list);
			return -1;
		}
		if ((rb = ncu_load(o->args[1], cause)) == NULL) {
			*code = "bad_input";
			verb_gate_free(&g.list);
			return -1;
		}
		b = rb;
		for (i = 0; i < a->nlaunches; i++) {
			if ((j = rdiff_partner(a, i, b)) == REPORT_NONE) {
				unmatched++;
				continue;
			}
			nd_pair(out, a, i, b, j, rdiff_occurrence(a, i), &g);
			pairs++;
		}
		if (b->nlaunches > pairs)
			unmatched += b->nlaunches - pairs;
		out_inputs(out, o->args, 2);
	}
	out->columns = nd_columns;
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "launch_a,launch_b,metric,a,b,change,change_pct";
	if (o->format == OUT_JSON) {
		out_int(out->aux, "pairs", (int64_t)pairs);
		out_int(out->aux, "unmatched_launches", (int64_t)unmatched);
		out_int(out->aux, "gate_broken", (int64_t)g.broken);
	}
	if (unmatched > 0)
		out_warn(out, "unmatched_launches", "%zu launches have no "
		    "partner of the same kernel and order on the other side",
		    unmatched);
	if (g.broken > 0) {
		out_warn(out, "gate_broken", "%zu metric changes break the "
		    "gate", g.broken);
		rc = CMD_EMIT_FAIL;
	}
	verb_gate_free(&g.list);
	report_free(rb);
	return rc;
}
