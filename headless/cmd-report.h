/*
 * cmd-report: what the report verbs (launches, metrics, rules, roofline,
 * and info, summary and inspect on an Nsight Compute report) share:
 *   - cmd_report_main(), the report counterpart of cmd_verb_main(): parse
 *     the options, load the report named by the first argument (ncu.h),
 *     run the verb's function, print with out_emit() or out_error();
 *   - cmd_report_try(), the hook that lets info, summary and inspect take
 *     a report in place of a trace;
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

/* The computing half of a report verb (see cmd_run_fn). */
typedef int (*cmd_report_fn)(const struct report *, const struct opts *,
		    struct out *, const char **code, char **cause);

/*
 * Runs a report verb: between minargs and maxargs positional arguments
 * (the report first; -1: no limit). Returns the exit status.
 */
int	 cmd_report_main(const struct cmd_entry *, int argc, char **argv,
	    const struct cmd_global *, int minargs, int maxargs,
	    cmd_report_fn run);
/*
 * For info, summary and inspect: when the first positional argument
 * names an Nsight Compute report, runs the report form of e's verb, sets
 * *rc and returns 1; otherwise returns 0 and the verb goes on with a
 * trace.
 */
int	 cmd_report_try(const struct cmd_entry *e, int argc, char **argv,
	    const struct cmd_global *, int *rc);

/* The report forms of info, summary and inspect. */
int	 cmd_report_info_run(const struct report *, const struct opts *,
	    struct out *, const char **code, char **cause);
int	 cmd_report_summary_run(const struct report *, const struct opts *,
	    struct out *, const char **code, char **cause);
int	 cmd_report_inspect_run(const struct report *, const struct opts *,
	    struct out *, const char **code, char **cause);

/* Launch selection. */
struct cmd_report_sel {
	const struct report	*r;
	const struct opts	*o;
	regex_t			 re;
	int			 has_re;
};
/* Returns 0, or -1 with *cause (a bad regex). */
int	 cmd_report_sel_init(struct cmd_report_sel *, const struct report *,
	    const struct opts *, char **cause);
int	 cmd_report_sel_launch(const struct cmd_report_sel *, uint32_t);
void	 cmd_report_sel_free(struct cmd_report_sel *);

/* Parses a launch id ("3" or "launch:3"); -1 if malformed. */
int	 cmd_report_parse_id(const char *, uint32_t *);
/* Adds id, key-less identity fields: launch_id, kernel, grid, block... */
void	 cmd_report_launch_fields(cJSON *row, const struct report *,
	    uint32_t launch);
/* Adds a number, or null when v is NAN. */
void	 cmd_report_num(cJSON *row, const char *key, double v);
/* Adds a report value (number, exact integer or string; null if none). */
void	 cmd_report_value(cJSON *row, const char *key, const struct report *,
	    const struct report_value *);
/* Adds aux.report: path, format, version, tool version, launches. */
void	 cmd_report_aux(struct out *, const struct report *, const char *path);

#endif
