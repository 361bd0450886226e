/*
 * cmd-sources: `gpulens sources REPORT [--launch ID] [--extract DIR]`: per
 * launch of an Nsight Compute report, the code it ran: its module (the
 * report's source entry), the cubin's size and SM architecture, the
 * function and its size, and whether the report embeds the cubin, a line
 * table, PTX and source text (report/code.h). SASS text is never
 * embedded: ncu disassembles the cubin when it shows it. --extract DIR
 * writes each module's cubin as DIR/module-N.cubin, for nvdisasm or
 * cuobjdump.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "headless/ncu-launch.h"
#include "headless/vopt.h"
#include "report/report.h"
#include "util/xmalloc.h"

#define SRC_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_FILTER)

static cmd_run_t	src_run;

static const struct cmd_option src_vopts[] = {
	NCU_LAUNCH_VOPT("only this launch (N or launch:N)"),
	{ "--extract", "DIR", "write each module's cubin to DIR/module-N.cubin",
	    CMD_OPT_OWN, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_sources_entry = {
	.name = "sources",
	.usage = "gpulens sources [OPTIONS] REPORT",
	.help =
	"Per launch of an Nsight Compute report, the code it ran: its module\n"
	"and cubin, the SM architecture, the function, and whether the report\n"
	"embeds the cubin, a line table, PTX and source files. --extract DIR\n"
	"writes the cubins out for nvdisasm or cuobjdump.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_REPORT,
	.options = SRC_OPTS,
	.vopts = src_vopts,
	.run = src_run
};

static int
src_extract(const struct report *r, const char *dir, char **cause)
{
	const struct report_module	*m;
	FILE				*f;
	char				*path;
	size_t				 i;

	for (i = 0; i < r->code.nmodules; i++) {
		m = &r->code.modules[i];
		if (m->cubin == NULL)
			continue;
		path = xasprintf("%s/module-%zu.cubin", dir, i);
		if ((f = fopen(path, "wb")) == NULL ||
		    fwrite(m->cubin, 1, m->cubinlen, f) != m->cubinlen ||
		    fclose(f) != 0) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* The row of launch i: its code and what the report holds of it. */
static void
src_row(struct out *out, const struct report *r, uint32_t i, void *unused)
{
	const struct report_launch	*l;
	const struct report_module	*m;
	cJSON				*row;
	size_t				 k, nsrc;
	char				 sm[16];

	l = &r->launches[i];
	m = l->module != REPORT_NONE ? &r->code.modules[l->module] : NULL;
	row = cmd_report_launch_row(out, i);
	out_str(row, "kernel", report_launch_name(r, i));
	if (m == NULL) {
		cJSON_AddNullToObject(row, "module");
		cJSON_AddNullToObject(row, "sm");
		cJSON_AddNullToObject(row, "cubin_bytes");
	} else {
		out_int(row, "module", l->module);
		out_str(row, "sm", report_code_sm(m->sm, sm, sizeof sm));
		out_int(row, "cubin_bytes", (int64_t)m->cubinlen);
	}
	if (l->func != REPORT_NONE) {
		out_str(row, "function", report_str(r,
		    r->code.funcs[l->func].name));
		out_int(row, "function_bytes",
		    (int64_t)r->code.funcs[l->func].size);
	} else {
		cJSON_AddNullToObject(row, "function");
		cJSON_AddNullToObject(row, "function_bytes");
	}
	nsrc = 0;
	for (k = 0; k < r->code.nfiles; k++)
		if (r->code.files[k].module == l->module &&
		    r->code.files[k].text != 0)
			nsrc++;
	out_bool(row, "has_cubin", m != NULL && m->cubin != NULL);
	out_bool(row, "has_lines", m != NULL && m->has_lines);
	out_bool(row, "has_ptx", m != NULL && m->has_ptx);
	out_bool(row, "has_sass_text", 0);
	out_int(row, "source_files", (int64_t)nsrc);
}

static int
src_run(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct report		*r = ctx->in->r;
	const struct opts		*o = ctx->o;
	const char			*dir;
	uint32_t			 one;
	size_t				 nid, n;

	if (ncu_launch_ids(ctx, r, &one, 1, &nid, code, cause) != 0)
		return -1;
	if ((dir = vopt_get(ctx->v, ctx->nv, "--extract")) != NULL &&
	    src_extract(r, dir, cause) != 0) {
		*code = "bad_input";
		return -1;
	}
	if (cmd_report_each(r, o, nid > 0 ? one : REPORT_NONE, src_row, out,
	    NULL, &n, cause) != 0)
		return -1;
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "launch_id,module,sm,cubin_bytes,function_bytes,"
		    "has_lines,has_ptx,source_files,function";
	if (r->code.nmodules == 0)
		out_warn(out, "no_sources", "the report holds no source "
		    "entries (ncu saves them with the SourceCounters "
		    "section)");
	return 0;
}
