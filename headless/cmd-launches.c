/*
 * cmd-launches: `gpulens launches REPORT` lists the profiled kernel
 * launches of an Nsight Compute report with their headline metrics:
 * duration (gpu__time_duration.sum), compute (SM) and memory throughput
 * in % of peak, achieved occupancy, registers per thread, grid and block,
 * and how many rule messages point at a problem (OPT or WRN).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "headless/cmd-report.h"
#include "report/report.h"
#include "util/rowkey.h"

#define LAUNCHES_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_FILTER)

static cmd_rmodel_t	launches_run;

const struct cmd_entry cmd_launches_entry = {
	.name = "launches",
	.usage = "gpulens launches [OPTIONS] REPORT",
	.help =
	"Lists the kernel launches of an Nsight Compute report (.ncu-rep,\n"
	".ncu-repz or a CSV export of ncu) with duration, SM and memory\n"
	"throughput (% of peak), achieved occupancy, registers per thread,\n"
	"grid and block, and the count of rule messages (OPT, WRN) per launch.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_REPORT,
	.options = LAUNCHES_OPTS,
	.rmodel = launches_run
};

static void
launches_row(struct out *out, const struct report *r, uint32_t i,
    void *unused)
{
	const struct report_launch	*l = &r->launches[i];
	struct report_headline		 h;
	cJSON				*row;
	char				 key[32];

	report_headline(r, i, &h);
	row = out_row(out);
	rowkey_buf(key, sizeof key, "launch", "id=%u", l->id);
	out_str(row, "key", key);
	cmd_report_launch_fields(row, r, i);
	out_str(row, "mangled", report_str(r, l->mangled));
	out_int(row, "tid", l->tid);
	out_int(row, "threads", (int64_t)(l->grid[0] * l->grid[1] *
	    l->grid[2] * l->block[0] * l->block[1] * l->block[2]));
	cmd_report_num(row, "duration_ns", h.duration_ns);
	cmd_report_num(row, "sm_throughput_pct", h.sm_pct);
	cmd_report_num(row, "memory_throughput_pct", h.mem_pct);
	cmd_report_num(row, "achieved_occupancy_pct", h.occupancy_pct);
	cmd_report_num(row, "registers_per_thread", h.registers);
	out_int(row, "rule_messages",
	    (int64_t)cmd_report_rule_messages(r, i));
	out_int(row, "metrics", l->nmetrics);
}

static int
launches_run(const struct report *r, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	size_t			 nshown;

	if (cmd_report_each(r, o, REPORT_NONE, launches_row, out, NULL,
	    &nshown, cause) != 0)
		return -1;
	/* A table shows the headline columns; JSON and CSV everything. */
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "launch_id,duration_ns,sm_throughput_pct,"
		    "memory_throughput_pct,achieved_occupancy_pct,"
		    "registers_per_thread,grid,block,rule_messages,"
		    "kernel";
	out->default_sort = "launch_id:asc";
	cmd_report_sel_none(out, nshown);
	if (nshown > 0) {
		out_next(out, "gpulens inspect %s %u", out_q(out, o->args[0]),
		    r->launches[0].id);
		out_next(out, "gpulens rules %s", out_q(out, o->args[0]));
		out_next(out, "gpulens roofline %s", out_q(out, o->args[0]));
	}
	return 0;
}
