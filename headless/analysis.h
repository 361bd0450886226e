/*
 * analysis: the computing halves of the analysis verbs (gaps, timeline,
 * overlap), separate from their argv handling so that tests can run them on
 * hand-built models.
 *
 * Each takes a loaded model and options filled by opts_parse() with the
 * verb's option groups, and fills out->rows, out->aux, the warnings and
 * the verb's default sort and limit, without printing anything. It returns
 * 0, or -1 with *cause (caller frees) for a usage error (unknown device,
 * bad --by value, no such NVTX range, ...), reported with code "usage"
 * (code is left alone and may be NULL; the type is cmd_model_t).
 */
#ifndef GPULENS_ANALYSIS_H
#define GPULENS_ANALYSIS_H

#include "headless/cmd.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"

/* Option groups of the verbs, for opts_parse() in tests. */
#define GAPS_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_SCOPE)
#define TIMELINE_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_BUCKETS | OPT_BY)
#define OVERLAP_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_BY | OPT_NVTXDOM)

cmd_model_t	 cmd_gaps_compute;
cmd_model_t	 cmd_timeline_compute;
cmd_model_t	 cmd_overlap_compute;

#endif
