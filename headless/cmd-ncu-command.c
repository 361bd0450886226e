/*
 * cmd-ncu-command: `gpulens ncu-command TRACE ROW_ID` takes a kernel
 * launch of an Nsight Systems trace (its row id, as search prints it) and
 * prints the `ncu` command line that profiles exactly that launch:
 *
 *   ncu --kernel-name NAME --launch-skip K --launch-count 1 --export evID
 *       <application> [arguments]
 *
 * NAME is the kernel's function (base) name, which is what ncu matches by
 * default; K is the number of launches of kernels with that name in the
 * same process before this one, in the order ncu sees them (the order of
 * the launching API calls; the kernel's own start where there is no
 * call). Because several template instances can share a base name, the
 * JSON row also gives the stricter form that matches the whole demangled
 * name (--kernel-name-base demangled --kernel-name regex:^...$) with its
 * own skip count. The application and its arguments are left for the
 * user: the trace records the process name only.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "correlate.h"
#include "evrow.h"
#include "model.h"
#include "opts.h"
#include "out.h"
#include "xmalloc.h"

#define NCUCMD_OPTS	OPT_OUTPUT

static int	cmd_ncu_command_exec(int, char **, const struct cmd_global *);

const struct cmd_entry cmd_ncu_command_entry = {
	"ncu-command",
	"gpulens ncu-command [OPTIONS] TRACE ROW_ID",
	"Prints the ncu (Nsight Compute) command that profiles exactly the\n"
	"kernel launch ROW_ID of an Nsight Systems trace (\"ev:123\" or\n"
	"\"123\", as search prints it): --kernel-name with the kernel's base\n"
	"name and --launch-skip with the number of earlier launches of that\n"
	"name in the same process, --launch-count 1.",
	cmd_ncu_command_exec,
	NCUCMD_OPTS
};

/* When ncu sees a launch: its API call's start, else the kernel's. */
struct ncucmd_when {
	int64_t		 t;
	uint32_t	 corr;
	uint32_t	 gid;
};

static void
ncucmd_when(const struct model *m, uint32_t gid, struct ncucmd_when *w)
{
	struct evref	 r = model_ev(m, gid), a;
	uint32_t	 api = correlate_launch(m, gid);

	w->gid = gid;
	w->corr = m->tracks[r.track].lane.corr[r.idx];
	if (api != NONE32) {
		a = model_ev(m, api);
		w->t = m->tracks[a.track].lane.start[a.idx];
	} else
		w->t = m->tracks[r.track].lane.start[r.idx];
}

static int
ncucmd_before(const struct ncucmd_when *a, const struct ncucmd_when *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->corr != b->corr)
		return a->corr < b->corr;
	return a->gid < b->gid;
}

/* Single-quotes s for a POSIX shell when it needs it. */
static char *
ncucmd_quote(const char *s)
{
	const char	*p;
	char		*q, *o;
	int		 plain = *s != '\0';

	for (p = s; *p != '\0'; p++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789_./:=+,-@%", *p) ==
		    NULL)
			plain = 0;
	if (plain)
		return xstrdup(s);
	q = o = xmalloc(strlen(s) * 4 + 3);
	*o++ = '\'';
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = *p;
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* "regex:^" + s with regex metacharacters escaped + "$". */
static char *
ncucmd_regex(const char *s)
{
	char	*q, *o;

	q = o = xmalloc(strlen(s) * 2 + 16);
	memcpy(o, "regex:^", 7);
	o += 7;
	for (; *s != '\0'; s++) {
		if (strchr(".^$*+?()[]{}|\\", *s) != NULL)
			*o++ = '\\';
		*o++ = *s;
	}
	*o++ = '$';
	*o = '\0';
	return q;
}

static int
ncucmd_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	const struct kernel_info	*k, *kk;
	struct ncucmd_when		 target, w;
	struct evref			 r;
	uint32_t			 gid, proc, t, i, g;
	const char			*shortname, *full;
	uint32_t			 sname, fname;
	int64_t				 skip = 0, dskip = 0;
	char				*qname, *re, *qre, *cmd, *dcmd;
	char				 key[32];
	cJSON				*row;

	if (evrow_parse_id(o->args[1], &gid) != 0) {
		*code = "usage";
		*cause = xasprintf("'%s' is not a row id (ev:N or N, as search "
		    "prints them)", o->args[1]);
		return -1;
	}
	if ((uint64_t)gid >= m->nevents) {
		*code = "not_found";
		*cause = xasprintf("no event %s in this trace", o->args[1]);
		return -1;
	}
	r = model_ev(m, gid);
	if (m->tracks[r.track].lane.kind[r.idx] != EV_KERNEL ||
	    (k = evrow_kernel(m, gid)) == NULL) {
		*code = "bad_input";
		*cause = xasprintf("event %s is a %s, not a kernel launch",
		    o->args[1], ev_kind_name(m->tracks[r.track].lane.kind[
		    r.idx]));
		return -1;
	}
	proc = evrow_process(m, gid);
	fname = m->tracks[r.track].lane.name[r.idx];
	sname = k->short_name != 0 ? k->short_name : fname;
	shortname = model_str(m, sname);
	full = model_str(m, fname);
	ncucmd_when(m, gid, &target);

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU)
			continue;
		for (i = 0; i < tr->lane.n; i++) {
			if (tr->lane.kind[i] != EV_KERNEL)
				continue;
			g = model_gid(m, t, i);
			if (g == gid || evrow_process(m, g) != proc)
				continue;
			kk = evrow_kernel(m, g);
			if (kk == NULL)
				continue;
			if ((kk->short_name != 0 ? kk->short_name :
			    tr->lane.name[i]) != sname &&
			    tr->lane.name[i] != fname)
				continue;
			ncucmd_when(m, g, &w);
			if (!ncucmd_before(&w, &target))
				continue;
			if ((kk->short_name != 0 ? kk->short_name :
			    tr->lane.name[i]) == sname)
				skip++;
			if (tr->lane.name[i] == fname)
				dskip++;
		}
	}

	qname = ncucmd_quote(shortname);
	re = ncucmd_regex(full);
	qre = ncucmd_quote(re);
	free(re);
	cmd = xasprintf("ncu --kernel-name %s --launch-skip %lld "
	    "--launch-count 1 --export ev%u <application> [arguments]", qname,
	    (long long)skip, gid);
	dcmd = xasprintf("ncu --kernel-name-base demangled --kernel-name %s "
	    "--launch-skip %lld --launch-count 1 --export ev%u <application> "
	    "[arguments]", qre, (long long)dskip, gid);
	row = out_row(out);
	evrow_key(key, sizeof key, gid);
	out_str(row, "key", key);
	out_int(row, "id", gid);
	out_str(row, "kernel", full);
	out_str(row, "short_name", shortname);
	evrow_pid(row, m, proc);
	out_str(row, "process", proc != NONE32 && proc < m->nprocesses ?
	    model_str(m, m->processes[proc].name) : "");
	out_int(row, "launch_skip", skip);
	out_int(row, "launch_count", 1);
	out_str(row, "command", cmd);
	out_int(row, "demangled_launch_skip", dskip);
	out_str(row, "demangled_command", dcmd);
	free(qname);
	free(qre);
	free(cmd);
	free(dcmd);
	if (o->format == OUT_TABLE && o->fields == NULL)
		out->fields = "command";
	out->limit = 0;
	out_next(out, "gpulens inspect %s %s", o->args[0], key);
	return 0;
}

static int
cmd_ncu_command_exec(int argc, char **argv, const struct cmd_global *gl)
{
	return cmd_verb_main(&cmd_ncu_command_entry, argc, argv, gl, 2, 2,
	    ncucmd_run);
}
