/*
 * cmd-source-metrics: `gpulens source-metrics REPORT --launch ID [--by
 * pc|line|file]`: the per-instruction counters of one launch of an Nsight
 * Compute report (report/pcs.h), joined to source files and lines where
 * the cubin has a line table.
 *   --by pc (default)  a row per instruction: offset, address, file, line,
 *                      executed instructions (warp and thread level),
 *                      samples, L2 sectors of global accesses and their
 *                      ideal, divergent branch targets; with --json every
 *                      counter the report holds for it ("counters")
 *   --by line, file    the same summed per source line or file
 * Reports do not embed SASS text: the rows give addresses, and the
 * auxiliary object the commands that print the SASS from the cubin the
 * report holds (gpulens sources --extract, then nvdisasm).
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
#include "report/pcs.h"
#include "report/report.h"
#include "util/xmalloc.h"

#define SM_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_BY)

enum { SMB_PC, SMB_LINE, SMB_FILE };
/* --by's values, in the enum's order. */
static const char *const sm_by_names[] = { "pc", "line", "file", NULL };

static cmd_run_t	sm_run;

static const struct cmd_option sm_vopts[] = {
	NCU_LAUNCH_VOPT("the launch (N or launch:N)"),
	{ "--by", "pc|line|file", "a row per instruction (default), per "
	    "source line or per source file", CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_source_metrics_entry = {
	.name = "source-metrics",
	.usage = "gpulens source-metrics [OPTIONS] REPORT --launch ID",
	.help =
	"The per-instruction counters of one launch of an Nsight Compute\n"
	"report (executed instructions, samples, memory sectors, divergent\n"
	"branches), a row per instruction, or summed per source line or file\n"
	"where the kernel was built with -lineinfo. SASS text is not in\n"
	"reports: the rows give addresses and the auxiliary data the command\n"
	"that disassembles the cubin the report holds.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_REPORT,
	.options = SM_OPTS,
	.vopts = sm_vopts,
	.run = sm_run
};

/* The counters with columns of their own: metric, field. */
static const char *sm_named[][2] = {
	{ "inst_executed", "inst_executed" },
	{ "thread_inst_executed", "thread_inst_executed" },
	{ "smsp__pcsamp_sample_count", "samples" },
	{ "memory_l2_theoretical_sectors_global", "l2_sectors_global" },
	{ "memory_l2_theoretical_sectors_global_ideal",
	    "l2_sectors_global_ideal" },
	{ "smsp__branch_targets_threads_divergent", "divergent_branches" },
};
#define SM_NNAMED	(sizeof sm_named / sizeof sm_named[0])

static const char *sm_pc_columns[] = {
	"launch_id", "offset", "file", "line", "inst_executed",
	"thread_inst_executed", "samples", "l2_sectors_global",
	"l2_sectors_global_ideal", "divergent_branches", NULL
};

struct sm_group {
	uint64_t	 off;
	uint32_t	 file, line;
	size_t		 npcs;
	double		*v;		/* ncols sums, NAN where none */
};

static struct sm_group *
sm_find(struct sm_group **g, size_t *n, size_t *cap, size_t ncols,
    int by, uint64_t off, uint32_t file, uint32_t line)
{
	struct sm_group	*e;
	size_t		 i;

	if (by != SMB_PC)
		for (i = 0; i < *n; i++)
			if ((*g)[i].file == file && (by == SMB_FILE ||
			    (*g)[i].line == line))
				return &(*g)[i];
	XGROW(*g, *cap, *n + 1);
	e = &(*g)[(*n)++];
	memset(e, 0, sizeof *e);
	e->off = off;
	e->file = file;
	e->line = by == SMB_FILE ? 0 : line;
	e->v = xcalloc(ncols > 0 ? ncols : 1, sizeof *e->v);
	for (i = 0; i < ncols; i++)
		e->v[i] = NAN;
	return e;
}

static void
sm_row(struct out *out, const struct report *r, const struct report_pcs *p,
    const struct sm_group *e, int by, int json)
{
	cJSON		*row = out_row(out), *c;
	const char	*file = e->file != REPORT_NONE ?
			    report_str(r, r->code.files[e->file].path) : NULL;
	char		 pc[32];
	size_t		 k;
	int		 col;

	if (by == SMB_PC) {
		snprintf(pc, sizeof pc, "0x%" PRIx64, e->off);
		out_key(row, "source", "launch=%u|pc=%s", p->launch, pc);
	} else if (by == SMB_LINE)
		out_key(row, "source", "launch=%u|file=%s|line=%u", p->launch,
		    file != NULL ? file : "", e->line);
	else
		out_key(row, "source", "launch=%u|file=%s", p->launch,
		    file != NULL ? file : "");
	out_int(row, "launch_id", p->launch);
	if (by == SMB_PC) {
		out_int(row, "offset", (int64_t)e->off);
		snprintf(pc, sizeof pc, "0x%" PRIx64, p->base + e->off);
		out_str(row, "pc", pc);
	}
	out_str_or_null(row, "file", file);
	if (by != SMB_FILE) {
		out_int_or_null(row, "line", e->line > 0, e->line);
	}
	out_int(row, "instructions", (int64_t)e->npcs);
	for (k = 0; k < SM_NNAMED; k++) {
		col = report_pcs_col(r, p, sm_named[k][0]);
		cmd_report_num(row, sm_named[k][1], col >= 0 ? e->v[col] :
		    NAN);
	}
	if (!json)
		return;
	c = cJSON_AddObjectToObject(row, "counters");
	for (k = 0; k < p->ncols; k++)
		if (!isnan(e->v[k]))
			cJSON_AddNumberToObject(c, report_str(r, p->col[k]),
			    e->v[k]);
}

/* aux: the function, its module and how to get its SASS. */
static void
sm_aux(struct out *out, const struct report *r, const struct report_pcs *p,
    const char *path)
{
	const struct report_launch	*l = &r->launches[p->launch];
	const struct report_func	*f;
	char				*cmd;

	if (p->func == REPORT_NONE) {
		cJSON_AddNullToObject(out->aux, "function");
		cJSON_AddNullToObject(out->aux, "disassemble");
		return;
	}
	f = &r->code.funcs[p->func];
	out_str(out->aux, "function", report_str(r, f->name));
	out_int(out->aux, "module", l->module);
	cJSON_AddBoolToObject(out->aux, "sass_embedded", 0);
	if (l->module != REPORT_NONE &&
	    r->code.modules[l->module].cubin != NULL) {
		cmd = xasprintf("gpulens sources %s --extract DIR && "
		    "nvdisasm -c -g -fun %s DIR/module-%u.cubin",
		    out_q(out, path), report_str(r, f->name), l->module);
		out_str(out->aux, "disassemble", cmd);
		free(cmd);
	} else
		cJSON_AddNullToObject(out->aux, "disassemble");
}

static int
sm_run(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct report	*r = ctx->in->r;
	const struct opts	*o = ctx->o;
	struct report_pcs	 p;
	struct sm_group		*g = NULL, *e;
	uint32_t		 id;
	size_t			 n = 0, cap = 0, nid, i, k;
	int			 by = SMB_PC;
	double			 v;

	if (o->by != NULL &&
	    vopt_choice("--by", o->by, sm_by_names, &by, cause) != 0) {
		*code = "usage";
		return -1;
	}
	if (ncu_launch_ids(ctx, r, &id, 1, &nid, code, cause) != 0)
		return -1;
	if (nid == 0) {
		*code = "usage";
		*cause = xstrdup("--launch ID is needed (gpulens launches "
		    "lists them)");
		return -1;
	}
	report_pcs_build(r, id, &p);
	for (i = 0; i < p.npcs; i++) {
		if (by != SMB_PC && p.line[i] == 0)
			continue;
		e = sm_find(&g, &n, &cap, p.ncols, by, p.off[i], p.file[i],
		    p.line[i]);
		e->npcs++;
		for (k = 0; k < p.ncols; k++) {
			v = report_pcs_get(&p, i, (int)k);
			if (!isnan(v))
				e->v[k] = isnan(e->v[k]) ? v : e->v[k] + v;
		}
	}
	for (i = 0; i < n; i++) {
		sm_row(out, r, &p, &g[i], by, o->format == OUT_JSON);
		free(g[i].v);
	}
	free(g);
	if (o->format == OUT_JSON)
		sm_aux(out, r, &p, o->args[0]);
	out->columns = sm_pc_columns;
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = by == SMB_PC ? "offset,file,line,inst_executed,"
		    "thread_inst_executed,samples,l2_sectors_global,"
		    "divergent_branches" : by == SMB_LINE ? "file,line,"
		    "instructions,inst_executed,samples,l2_sectors_global" :
		    "file,instructions,inst_executed,samples,"
		    "l2_sectors_global";
	if (p.ncols == 0)
		out_warn(out, "no_source_counters", "launch %u has no "
		    "per-instruction counters (capture with --set full or "
		    "--section SourceCounters)", id);
	else if (by != SMB_PC && !p.has_lines)
		out_warn(out, "no_line_info", "launch %u has no line table "
		    "(build the kernel with -lineinfo)", id);
	report_pcs_free(&p);
	return 0;
}
