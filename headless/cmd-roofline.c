/*
 * cmd-roofline: `gpulens roofline REPORT` places each selected launch of
 * an Nsight Compute report on its device's roofline (roofline.h):
 * achieved FLOP/s per precision, bytes moved at DRAM, L2 and L1, the
 * arithmetic intensity, the device's peaks and ridge point, whether the
 * launch is memory- or compute-bound, and its % of the roofline. A
 * report collected without the roofline metrics (ncu's basic set) gives
 * nulls and names the first missing metric.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "headless/cmd-report.h"
#include "report/report.h"
#include "report/roofline.h"

#define ROOFLINE_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_FILTER)

static cmd_rmodel_t	roofline_run;

const struct cmd_entry cmd_roofline_entry = {
	.name = "roofline",
	.usage = "gpulens roofline [OPTIONS] REPORT",
	.help =
	"Places each launch of an Nsight Compute report on the roofline:\n"
	"achieved FLOP/s per precision (from the instruction counters),\n"
	"bytes moved at DRAM, L2 and L1, arithmetic intensity, the device's\n"
	"peak FLOP/s and bandwidth and ridge point, memory- or compute-bound,\n"
	"and % of roofline. Needs the metrics of ncu's roofline section\n"
	"(its full section set); otherwise the numbers are null.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_REPORT,
	.options = ROOFLINE_OPTS,
	.rmodel = roofline_run
};

/* The row of launch i; *arg counts the launches that lack a metric. */
static void
roofline_row(struct out *out, const struct report *r, uint32_t i, void *arg)
{
	size_t			*nmissing = arg;
	struct roofline		 f;
	cJSON			*row;
	int			 p;

	roofline_compute(r, i, &f);
	row = cmd_report_launch_row(out, r->launches[i].id);
	out_str(row, "kernel", report_launch_name(r, i));
	cmd_report_num(row, "duration_ns", f.duration_ns);
	if (f.prec >= 0)
		out_str(row, "precision", roofline_prec_name(f.prec));
	else
		cJSON_AddNullToObject(row, "precision");
	cmd_report_num(row, "flop_per_s", f.prec >= 0 ?
	    f.flops[f.prec] : NAN);
	cmd_report_num(row, "fp64_flop_per_s", f.flops[ROOF_FP64]);
	cmd_report_num(row, "fp32_flop_per_s", f.flops[ROOF_FP32]);
	cmd_report_num(row, "fp16_flop_per_s", f.flops[ROOF_FP16]);
	cmd_report_num(row, "dram_bytes", f.dram_bytes);
	cmd_report_num(row, "l2_bytes", f.l2_bytes);
	cmd_report_num(row, "l1_bytes", f.l1_bytes);
	cmd_report_num(row, "dram_bytes_per_s", f.dram_bw);
	cmd_report_num(row, "l2_bytes_per_s", f.l2_bw);
	cmd_report_num(row, "l1_bytes_per_s", f.l1_bw);
	cmd_report_num(row, "arithmetic_intensity", f.intensity);
	p = f.prec >= 0 ? f.prec : ROOF_FP32;
	cmd_report_num(row, "peak_flop_per_s", f.peak_flops[p]);
	cmd_report_num(row, "peak_fp64_flop_per_s",
	    f.peak_flops[ROOF_FP64]);
	cmd_report_num(row, "peak_fp32_flop_per_s",
	    f.peak_flops[ROOF_FP32]);
	cmd_report_num(row, "peak_fp16_flop_per_s",
	    f.peak_flops[ROOF_FP16]);
	cmd_report_num(row, "peak_dram_bytes_per_s", f.peak_dram_bw);
	cmd_report_num(row, "peak_l2_bytes_per_s", f.peak_l2_bw);
	cmd_report_num(row, "peak_l1_bytes_per_s", f.peak_l1_bw);
	cmd_report_num(row, "ridge_point", f.ridge);
	out_str_or_null(row, "bound", roofline_bound_name(f.bound));
	cmd_report_num(row, "roofline_pct", f.roofline_pct);
	if (f.missing != NULL) {
		out_str(row, "missing_metric", f.missing);
		(*nmissing)++;
	} else
		cJSON_AddNullToObject(row, "missing_metric");
}

static int
roofline_run(const struct report *r, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	size_t			 n, nmissing = 0;

	if (cmd_report_each(r, o, REPORT_NONE, roofline_row, out, &nmissing,
	    &n, cause) != 0)
		return -1;
	/* A table shows the headline columns; JSON and CSV everything. */
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "launch_id,duration_ns,precision,flop_per_s,"
		    "dram_bytes_per_s,arithmetic_intensity,ridge_point,"
		    "bound,roofline_pct,kernel";
	out->default_sort = "launch_id:asc";
	cmd_report_sel_none(out, n);
	if (nmissing > 0)
		out_warn(out, "no_roofline_metrics",
		    "%zu launch%s lack%s roofline metrics (profile "
		    "with ncu --set full, or --section "
		    "SpeedOfLight_RooflineChart)", nmissing,
		    nmissing == 1 ? "" : "es", nmissing == 1 ? "s" : "");
	return 0;
}
