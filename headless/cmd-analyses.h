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

#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/verb-gate.h"
#include "headless/vopt.h"

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
/* threads (and metrics --type cpu-sched): pid -1 for every process; path,
 * when not NULL, for the meta.next hint. */
int	 cmd_threads_run(const struct model *, const struct opts *,
	    int64_t pid, const char *path, struct out *, const char **code,
	    char **cause);
/* A time bound of diff's window: relative to the side's origin unless
 * absolute. */
struct diff_bound {
	int		 has_from, has_to;
	int		 from_abs, to_abs;
	int64_t		 from, to;
};
/* What diff compares over and the gate it checks (cmd-diff.c). */
struct diff_req {
	int			 steady;	/* --window steady */
	struct diff_bound	 both;		/* --from/--to */
	struct diff_bound	 side[2];	/* --a-from ... --b-to */
	struct verb_gate	 gate;		/* --fail-on ... */
	int			*failed;	/* set to 1 if a rule breaks */
};
/* a is the baseline, b the capture compared with it; o->args are the two
 * paths; rq may be NULL (whole traces, no gate). */
int	 cmd_diff_compute(const struct model *a, const struct model *b,
	    const struct opts *, const struct diff_req *rq, struct out *,
	    const char **code, char **cause);

#endif
