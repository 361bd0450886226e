/*
 * cmd-ncu-command: `gpulens ncu-command TRACE ROW_ID` takes a kernel
 * launch of a trace (its row id, as search prints it) and prints the
 * command line that profiles exactly that launch (ncucmd.h builds it, for
 * the findings too): ncu for NVIDIA GPUs; rocprofv3, with rocprof-compute
 * on a second row, for AMD GPUs. Each row says its tool. The
 * application and its arguments are left for the user: the trace records
 * the process name only.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/evrow.h"
#include "model/model.h"
#include "analysis/ncucmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define NCUCMD_OPTS	OPT_OUTPUT

static cmd_model_t	cmd_ncu_command_run;

const struct cmd_entry cmd_ncu_command_entry = {
	.name = "ncu-command",
	.usage = "gpulens ncu-command [OPTIONS] TRACE ROW_ID",
	.help =
	"Prints the command that profiles exactly the kernel launch ROW_ID\n"
	"(\"ev|id=123\" as search prints it, \"ev:123\" or \"123\"). NVIDIA\n"
	"(tool ncu): ncu --kernel-name with the kernel's base name and --launch-skip with\n"
	"the number of earlier launches of that name in the same process,\n"
	"--launch-count 1. AMD (the device or the trace format says so):\n"
	"rocprofv3 --kernel-include-regex with the whole kernel name and\n"
	"--kernel-iteration-range with that launch's number (from 1) and\n"
	"--pmc, and a second row with rocprof-compute profile -k for every\n"
	"launch of the kernel. The field tool names the profiler.",
	.args = { 2, 2, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = NCUCMD_OPTS,
	.model = cmd_ncu_command_run
};

static int
cmd_ncu_command_run(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct ncucmd		 c;
	uint32_t		 gid;
	size_t			 i;
	char			 key[64];
	cJSON			*row;

	if (evrow_parse_id(o->args[1], &gid) != 0) {
		*code = "usage";
		*cause = xasprintf("'%s' is not a row id (ev|id=N as search "
		    "prints it, or ev:N or N)", o->args[1]);
		return -1;
	}
	if (ncucmd_build(m, gid, &c, code, cause) != 0)
		return -1;
	for (i = 0; i < c.n; i++) {
		row = out_row(out);
		if (i > 0)
			rowkey_buf(key, sizeof key, "ev", "id=%u|tool=%s", gid,
			    c.tool[i]);
		else
			evrow_key(key, sizeof key, gid);
		out_str(row, "key", key);
		out_int(row, "id", gid);
		out_str(row, "tool", c.tool[i]);
		out_str(row, "kernel", c.kernel);
		out_str(row, "short_name", c.short_name);
		evrow_pid(row, m, c.proc);
		out_str(row, "process", c.proc != NONE32 &&
		    c.proc < m->nprocesses ?
		    model_str(m, m->processes[c.proc].name) : "");
		out_int(row, "launch_skip", c.skip);
		out_int(row, "launch_count", 1);
		out_str(row, "command", c.command[i]);
		out_int(row, "demangled_launch_skip", c.dskip);
		out_str(row, "demangled_command", c.demangled[i]);
	}
	ncucmd_free(&c);
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "command";
	out->limit = 0;
	evrow_key(key, sizeof key, gid);
	out_next(out, "gpulens inspect %s %s", out_q(out, o->args[0]),
	    out_q(out, key));
	return 0;
}
