/*
 * cmd-analyses: the computations of the verbs that answer questions rather
 * than list numbers (diff, phases, window, findings), separate from their
 * argv handling so that tests can run them on hand-built or generated
 * models.
 *
 * Each fills out (rows, auxiliary data, warnings, default sort, column
 * order) ready for out_emit() and prints nothing. It returns 0, or -1 with
 * *cause (caller frees) and *code ("usage" when left NULL).
 */
#ifndef GPULENS_CMD_ANALYSES_H
#define GPULENS_CMD_ANALYSES_H

#include <stddef.h>

#include "model.h"
#include "opts.h"
#include "out.h"
#include "vopt.h"

/* Option groups, for opts_parse() in tests. */
#define PHASES_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW)
#define WINDOW_OPTS	(OPT_OUTPUT)
#define FINDINGS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW)
#define DIFF_OPTS	(OPT_OUTPUT | OPT_PAGE)

/* The verbs' own options (vopt.h), as the verbs declare them. */
#define PHASES_VOPTS	{ { "--max-phases", NULL }, { "--phases", NULL } }
#define FINDINGS_VOPTS	{ { "--min-confidence", NULL } }

int	 cmd_phases_compute(const struct model *, const struct opts *,
	    const struct vopt *, size_t nv, struct out *, const char **code,
	    char **cause);
int	 cmd_window_compute(const struct model *, const struct opts *,
	    const struct vopt *, size_t nv, struct out *, const char **code,
	    char **cause);
int	 cmd_findings_compute(const struct model *, const struct opts *,
	    const struct vopt *, size_t nv, struct out *, const char **code,
	    char **cause);
/* a is the baseline, b the capture compared with it; o->args are the two
 * paths. */
int	 cmd_diff_compute(const struct model *a, const struct model *b,
	    const struct opts *, struct out *, const char **code,
	    char **cause);

#endif
