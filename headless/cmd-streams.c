/*
 * cmd-streams: `gpulens streams TRACE` lists the GPU streams with their
 * role (analysis/streams.h: compute, communication or copy, by purity)
 * and, for a communication stream, its purpose (the NVTX range family
 * around its kernels' launches, "mixed" when they disagree, null when
 * none is known): device, stream, pid, context, name, role, purpose,
 * kernels, comm_kernels, copies, memsets, busy_ns and busy_pct (of the
 * trace span). Sorted by device and stream.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/streams.h"
#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evrow.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

const struct cmd_entry cmd_streams_entry = {
	.name = "streams",
	.usage = "gpulens streams [OPTIONS] TRACE",
	.help =
	"Lists the GPU streams and their roles, as PithTrain classifies them\n"
	"by purity: communication when every kernel is a communication\n"
	"kernel, compute when any is not, copy when only copies and memsets\n"
	"run there; a communication stream's purpose is the NVTX range\n"
	"around its kernels' launches (mixed when they disagree).",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = OPT_OUTPUT | OPT_PAGE,
	.model = cmd_streams_run
};

int
cmd_streams_run(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct streams		 ss;
	const struct track	*tr;
	const struct stream	*st;
	cJSON			*row;
	int64_t			 span = m->end_ns - m->origin_ns;
	uint64_t		 nrole[STREAM_NONE] = { 0 };
	char			 key[128];
	size_t			 i;

	(void)code;
	(void)cause;
	streams_build(&ss, m);
	for (i = 0; i < ss.n; i++) {
		tr = &m->tracks[ss.s[i].track];
		st = &m->streams[tr->stream];
		row = out_row(out);
		if (st->process != NONE32 && st->process < m->nprocesses)
			rowkey_buf(key, sizeof key, "stream",
			    "device=%u|pid=%u|stream=%llu",
			    m->devices[tr->device].source_id,
			    m->processes[st->process].pid,
			    (unsigned long long)st->source_id);
		else
			rowkey_buf(key, sizeof key, "stream",
			    "device=%u|stream=%llu",
			    m->devices[tr->device].source_id,
			    (unsigned long long)st->source_id);
		out_str(row, "key", key);
		evrow_device(row, m, tr->device);
		evrow_stream(row, m, tr->stream);
		evrow_pid(row, m, st->process);
		out_int(row, "context", st->context);
		out_str(row, "name", model_str(m, tr->name));
		out_str(row, "role", stream_role_name(ss.s[i].role));
		out_str_or_null(row, "purpose", ss.s[i].purpose);
		out_int(row, "kernels", (int64_t)ss.s[i].kernels);
		out_int(row, "comm_kernels", (int64_t)ss.s[i].comm_kernels);
		out_int(row, "copies", (int64_t)ss.s[i].copies);
		out_int(row, "memsets", (int64_t)ss.s[i].memsets);
		out_int(row, "busy_ns", ss.s[i].busy);
		out_num(row, "busy_pct", span > 0 ? 100.0 *
		    (double)ss.s[i].busy / (double)span : 0.0);
		nrole[ss.s[i].role]++;
	}
	if (!o->limit_set)
		out->limit = 0;
	out_int(out->aux, "streams", (int64_t)ss.n);
	out_int(out->aux, "compute_streams", (int64_t)nrole[STREAM_COMPUTE]);
	out_int(out->aux, "communication_streams",
	    (int64_t)nrole[STREAM_COMM]);
	out_int(out->aux, "copy_streams", (int64_t)nrole[STREAM_COPY]);
	if (ss.n == 0)
		out_warn(out, "no_gpu_work", "no GPU stream ran any work");
	else if (nrole[STREAM_COMM] > 0)
		out_next(out, "gpulens overlap %s --by role",
		    out_q(out, o->args[0]));
	streams_free(&ss);
	return 0;
}

