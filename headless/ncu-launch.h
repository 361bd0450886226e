/*
 * ncu-launch: the --launch ID option of the report verbs that look into
 * one launch at a time (warp-stalls, source-metrics, sources, diff): each
 * --launch given, in order, parsed and checked against the report.
 */
#ifndef GPULENS_NCU_LAUNCH_H
#define GPULENS_NCU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "headless/cmd.h"

struct report;

/* The row of a report verb's own options (cmd_entry.vopts) for --launch
 * ID, with the verb's help. */
#define NCU_LAUNCH_VOPT(help)						\
	{ "--launch", "ID", help, CMD_OPT_OWN, ncu_launch_check }

/*
 * Fills ids[0 .. *n) (at most max) with the launches --launch names.
 * Returns 0, or -1 with *code and *cause (a malformed id, an id the
 * report lacks, more than max).
 */
int	 ncu_launch_ids(const struct cmd_ctx *, const struct report *,
	    uint32_t *ids, size_t max, size_t *n, const char **code,
	    char **cause);
/* The report form of diff (cmd-ncu-diff.c). */
int	 cmd_ncu_diff_run(const struct cmd_ctx *, struct out *,
	    const char **code, char **cause);
/* Vets a --launch value before the report is loaded. */
int	 ncu_launch_check(const char *name, const char *value, char **cause);

#endif
