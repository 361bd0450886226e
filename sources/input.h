/*
 * input: what a front-end is given to show, typed: the timeline model of
 * one or more traces, or an Nsight Compute report. The entry point
 * detects which a path is, loads it once and hands the typed input to a
 * verb or to the terminal UI, which pick what to do by its kind; nothing
 * stands in for the kind that was not loaded.
 *
 * Ownership: input_load() fills an input that owns its model or report;
 * input_free() releases it. The paths are borrowed.
 */
#ifndef GPULENS_INPUT_H
#define GPULENS_INPUT_H

#include "model/model.h"
#include "report/report.h"
#include "sources/source.h"

enum input_kind {
	INPUT_NONE = 0,
	INPUT_TIMELINE,		/* m: a trace, or several merged */
	INPUT_REPORT,		/* r: an Nsight Compute report */
};

struct input {
	enum input_kind	 kind;
	struct model	*m;		/* INPUT_TIMELINE, else NULL */
	struct report	*r;		/* INPUT_REPORT, else NULL */
	struct report	*base;		/* INPUT_REPORT: the baseline report
					   (the first of two), or NULL */
	const char	*path;		/* the first path (titles, envelopes);
					   of two reports, the second */
	const char	*base_path;	/* the baseline's path, or NULL */
};

/* The kind a path holds: INPUT_REPORT for an Nsight Compute report (by its
 * name or first bytes, ncu.h), else INPUT_TIMELINE. */
enum input_kind	 input_detect(const char *path);
/*
 * Loads paths[0, n) as kind (INPUT_NONE: as input_detect says of the
 * first): a timeline merges every path (multi.h); a report reads one path,
 * or of two the second, with the first as its baseline (the order of
 * `gpulens diff A B`); more than two reports are refused.
 * Returns 0, or -1 with *cause (caller frees) and in->kind INPUT_NONE.
 */
int		 input_load(struct input *, enum input_kind, char *const *paths,
		    int n, const struct load_opts *, char **cause);
/* Wraps a model loaded elsewhere (owned from now on). */
void		 input_set_model(struct input *, struct model *,
		    const char *path);
void		 input_free(struct input *);

#endif
