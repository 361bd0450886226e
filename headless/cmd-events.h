/*
 * cmd-events: the computations of the event-level verbs (search, inspect,
 * correlate, launch, memcpy, comm, hardware, export), separate from their
 * argv handling so that tests can run them on hand-built models.
 *
 * Each *_run function reads the model and the options parsed by opts_parse
 * (o->args[0] is the trace path; further positional arguments follow) and
 * fills out: rows, auxiliary data, warnings, default sort and column order,
 * ready for out_emit(). It returns 0, or -1 with *code ("usage",
 * "not_found" or "bad_input") and *cause (caller frees) for out_error().
 * Nothing is printed, except by cmd_export_run, which streams to fp.
 */
#ifndef GPULENS_CMD_EVENTS_H
#define GPULENS_CMD_EVENTS_H

#include <stddef.h>
#include <stdio.h>

#include "headless/cmd.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"

cmd_model_t	 cmd_search_run;
cmd_model_t	 cmd_inspect_run;
cmd_model_t	 cmd_correlate_run;
cmd_model_t	 cmd_launch_run;
cmd_model_t	 cmd_graphs_run;
cmd_model_t	 cmd_streams_run;
cmd_model_t	 cmd_memcpy_run;
cmd_model_t	 cmd_comm_run;
cmd_model_t	 cmd_hardware_run;
/*
 * Writes the selected events to fp as a Chrome/Perfetto trace (o->to_format
 * "perfetto" or NULL) or as CSV with the search columns ("csv"), streaming:
 * memory stays bounded by the number of tracks and the nesting depth, not
 * the number of events. Warnings go to out (they are not printed). Returns
 * 0, or -1 with *code and *cause (bad options, or a write error).
 */
int	 cmd_export_run(const struct model *, const struct opts *, FILE *fp,
	    struct out *, const char **code, char **cause);

#endif
