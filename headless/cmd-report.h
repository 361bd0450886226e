/*
 * cmd-report: what the report verbs (launches, metrics, rules, roofline,
 * and info, summary and inspect on an Nsight Compute report) share:
 *   - cmd_report_out(), which the driver calls once the report is loaded
 *     (the verbs declare CMD_IN_REPORT; info, summary and inspect take a
 *     report in place of a trace through their report form, cmd.h);
 *   - launch selection from the shared options (--name, --name-regex,
 *     --device, --stream, --pid, --tid, --min-dur; the report verbs take
 *     no time window);
 *   - the identity fields of a launch in a row.
 * The envelope's source.kind and trace.kind are "ncu-rep" or "ncu-csv",
 * source.version the Nsight Compute version the report records (null for
 * a CSV export); trace_span is null (it describes timelines). command is
 * the name `gpulens schema` gives the rows' schema under: the report forms
 * of summary and inspect answer "report-summary" and "report-inspect".
 * The report's format and version are also in the auxiliary object under
 * "report".
 */
#ifndef GPULENS_CMD_REPORT_H
#define GPULENS_CMD_REPORT_H

#include <regex.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "report/report.h"

/*
 * Prepares out for an answer about report r read from path: source and
 * trace kind and version, the report's warnings, and with json aux.report.
 */
void	 cmd_report_out(struct out *, const struct report *, const char *path,
	    int json);

/* The report forms of info, summary and inspect (struct cmd_form). */
cmd_run_t	 cmd_report_info_run;
cmd_run_t	 cmd_report_summary_run;
cmd_run_t	 cmd_report_inspect_run;

/* Launch selection. */
struct cmd_report_sel {
	const struct report	*r;
	const struct opts	*o;
	regex_t			 re;
	int			 has_re;
	uint32_t		 only;	/* the one launch a verb's argument
					   names, or REPORT_NONE (all) */
};
/* Returns 0, or -1 with *cause (a bad regex). */
int	 cmd_report_sel_init(struct cmd_report_sel *, const struct report *,
	    const struct opts *, char **cause);
int	 cmd_report_sel_launch(const struct cmd_report_sel *, uint32_t);
void	 cmd_report_sel_free(struct cmd_report_sel *);
/*
 * What a verb does with launch i of report r (arg is the verb's state):
 * typically adds its row to out.
 */
typedef void cmd_report_launch_fn(struct out *, const struct report *,
	    uint32_t i, void *arg);
/*
 * Calls fn on each launch of r that the options select (only launch
 * `only`, unless it is REPORT_NONE), in order. Returns 0 and the number of
 * launches selected in *n, or -1 with *cause (a bad regex).
 */
int	 cmd_report_each(const struct report *, const struct opts *,
	    uint32_t only, cmd_report_launch_fn *fn, struct out *, void *arg,
	    size_t *n, char **cause);
/* Warns no_match when no launch was selected (n is 0). */
void	 cmd_report_sel_none(struct out *, size_t n);

/* Parses a launch id ("3" or "launch:3"); -1 if malformed. */
int	 cmd_report_parse_id(const char *, uint32_t *);
/* A new row of launch id: its key ("launch|id=N") and launch_id. */
cJSON	*cmd_report_launch_row(struct out *, uint32_t id);
/* A new row of metric m of launch l: its key and launch_id. */
cJSON	*cmd_report_metric_row(struct out *, const struct report *,
	    const struct report_launch *l, const struct report_metric *m);
/* Adds id, key-less identity fields: launch_id, kernel, grid, block... */
void	 cmd_report_launch_fields(cJSON *row, const struct report *,
	    uint32_t launch);
/* The rule messages of launch i that point at a problem (OPT or WRN). */
size_t	 cmd_report_rule_messages(const struct report *, uint32_t i);
/* Adds a number, or null when v is NAN. */
void	 cmd_report_num(cJSON *row, const char *key, double v);
/* Adds a rule's estimated_speedup_pct and speedup_type (null if none). */
void	 cmd_report_speedup(cJSON *row, const struct report_rule *);
/* Adds a report value (number, exact integer or string; null if none). */
void	 cmd_report_value(cJSON *row, const char *key, const struct report *,
	    const struct report_value *);
/* Adds aux.report: path, format, version, tool version, launches. */
void	 cmd_report_aux(struct out *, const struct report *, const char *path);

#endif
