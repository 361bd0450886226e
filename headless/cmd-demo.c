/*
 * cmd-demo: `gpulens demo` writes a realistic synthetic Nsight Systems
 * export (sources/synth/gen.c) and opens the terminal UI on it, or, with --out,
 * only writes it (for benchmarks and scale tests).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "headless/cmd.h"
#include "sources/input.h"
#include "sources/synth/gen.h"
#include "sources/synth/kgen.h"
#include "util/sanitize.h"
#include "util/xmalloc.h"

static cmd_main_t	demo_run;

const struct cmd_entry cmd_demo_entry = {
	.name = "demo",
	.usage =
	"gpulens demo [--out FILE] [--events N] [--gpus G] [--seed S]\n"
	"    [--plant LIST] [--clean] [--straggler RANK|none] [--slowdown F]\n"
	"    [--layers L]\n"
	"    [--format nsys|kineto|kineto-merged|chrome] [--rank R]\n"
	"    [--clock-back S]",
	.help =
	"Writes a synthetic Nsight Systems SQLite trace (several GPUs and\n"
	"processes, compute and NCCL streams, copies, NVTX iterations,\n"
	"correlated runtime calls, idle bubbles, a straggler rank) and opens\n"
	"the terminal UI on it. Without --out the trace is kept in the cache\n"
	"directory and reused. With --out FILE it is written to FILE and the\n"
	"UI is not opened; an existing FILE is replaced only if it is empty or\n"
	"an earlier demo trace, never a real profile.\n"
	"\n"
	"  --out FILE   write the trace to FILE and exit\n"
	"  --events N   approximate number of events (default 200000; 1e7, 5M)\n"
	"  --gpus G     number of GPUs, one process each (default 4; 1 to 64,\n"
	"               kineto: 1 to 1024 ranks)\n"
	"  --seed S     random seed (default 1); equal seeds give equal files\n"
	"  --plant LIST plant known problems and phases (comma list, or all):\n"
	"               warmup, teardown, launch, sync, pageable, memcpy-sync,\n"
	"               memset-sync, comm, bubble, gap, imbalance, graph,\n"
	"               graph-whole (kineto: graph and graph-whole replay\n"
	"               the optimizer step from a CUDA graph), samples (CPU\n"
	"               samples with call chains, CUDA call chains),\n"
	"               gpu-metrics, nic-metrics, mpi\n"
	"  --clean      no default imperfections (straggler, pageable copies,\n"
	"               data-loading bubbles, an exposed last all-reduce)\n"
	"  --straggler RANK|none  the slow rank (default the last)\n"
	"  --slowdown F the straggler's compute factor, 1 to 10 (default 1.3)\n"
	"  --layers L   model layers, 1 to 64 (default from --events)\n"
	"  --format F   nsys (SQLite, the default) or kineto: one rank of a\n"
	"               job of --gpus ranks (default 1) as PyTorch profiler\n"
	"               JSON, gzip-compressed when FILE ends in .gz; the\n"
	"               straggler and slowdown options apply\n"
	"  --rank R     kineto: the rank written (default 0); one file per\n"
	"               rank with the same options and seed makes one job\n"
	"               kineto-merged: every rank in one file, as TraceLens's\n"
	"               TraceFuse merges them (pids offset per rank); chrome:\n"
	"               a generic Chrome trace (nsightful's layout); both\n"
	"               need --out\n"
	"  --clock-back S kineto: the rank's clock is S seconds behind the\n"
	"               job's (0 to 1.6e9); decades behind, the rank is\n"
	"               refused when loaded with the others",
	.input = CMD_IN_NONE,
	.main = demo_run
};

static char *
demo_default_path(const struct gen_opts *o, int kineto)
{
	const char	*xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char		*dir, *sub, *path;

	if (xdg != NULL && *xdg == '/')
		dir = xstrdup(xdg);
	else if (home != NULL && *home == '/')
		dir = xasprintf("%s/.cache", home);
	else
		dir = xstrdup("/tmp");
	mkdir(dir, 0700);
	sub = xasprintf("%s/gpulens", dir);
	mkdir(sub, 0700);
	path = xasprintf("%s/demo-n%llu-g%d-s%llu.%s", sub,
	    (unsigned long long)o->events, o->gpus,
	    (unsigned long long)o->seed, kineto ? "pt.trace.json.gz" :
	    "sqlite");
	free(dir);
	free(sub);
	return path;
}

/* Opens the demo trace at path (freed) in the terminal UI. */
static int
demo_open(char *path, const struct cmd_global *g)
{
	struct input	in;
	int		rc;

	if (cmd_load_input(path, INPUT_TIMELINE, g, &in) != 0) {
		free(path);
		return EXIT_USAGE;
	}
	rc = g->tui(&in, "demo", g);
	input_free(&in);
	free(path);
	return rc;
}

static int
demo_run(int argc, char **argv, const struct cmd_global *g)
{
	const struct cmd_entry	*e = &cmd_demo_entry;
	struct gen_opts		 o;
	struct kgen_opts	 ko;
	const char		*out = NULL;
	char			*path, *cause = NULL;
	long long		 v;
	int			 i, rc, kineto = 0, gpus_set = 0;

	gen_opts_default(&o);
	kgen_opts_default(&ko);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) {
			if (val == NULL)
				return cmd_usage_error(e, "%s needs a file", a);
			out = val;
			i++;
		} else if (strcmp(a, "--events") == 0 || strcmp(a, "-n") == 0) {
			if (val == NULL || (v = cmd_parse_count(val)) < 1 ||
			    v > 200000000LL)
				return cmd_usage_error(e, "--events needs a "
				    "count from 1 to 2e8");
			o.events = (uint64_t)v;
			i++;
		} else if (strcmp(a, "--gpus") == 0) {
			/* Up to 64 GPUs, or KGEN_MAX_WORLD Kineto ranks
			 * (checked once the format is known). */
			if (val == NULL || (v = cmd_parse_count(val)) < 1 ||
			    v > KGEN_MAX_WORLD)
				return cmd_usage_error(e, "--gpus needs a "
				    "number from 1 to 64 (%d ranks with "
				    "--format kineto)", KGEN_MAX_WORLD);
			o.gpus = (int)v;
			gpus_set = 1;
			i++;
		} else if (strcmp(a, "--plant") == 0) {
			if (val == NULL)
				return cmd_usage_error(e, "--plant needs a list");
			if (gen_plant_parse(val, &o.plant, &cause) != 0) {
				rc = cmd_usage_error(e, "%s", cause);
				free(cause);
				return rc;
			}
			i++;
		} else if (strcmp(a, "--clean") == 0) {
			o.clean = 1;
		} else if (strcmp(a, "--straggler") == 0) {
			if (val == NULL)
				return cmd_usage_error(e, "--straggler needs a "
				    "rank or none");
			if (strcmp(val, "none") == 0)
				o.straggler = GEN_STRAGGLER_NONE;
			else if ((v = cmd_parse_count(val)) < 0 || v > 63)
				return cmd_usage_error(e, "--straggler needs a "
				    "rank or none");
			else
				o.straggler = (int)v;
			i++;
		} else if (strcmp(a, "--slowdown") == 0) {
			char *end;
			double d;
			if (val == NULL)
				return cmd_usage_error(e, "--slowdown needs a "
				    "factor");
			d = strtod(val, &end);
			if (end == val || *end != '\0' || !(d >= 1 && d <= 10))
				return cmd_usage_error(e, "--slowdown needs a "
				    "factor from 1 to 10");
			o.slowdown = d;
			i++;
		} else if (strcmp(a, "--layers") == 0) {
			if (val == NULL || (v = cmd_parse_count(val)) < 1 ||
			    v > 64)
				return cmd_usage_error(e, "--layers needs a "
				    "number from 1 to 64");
			o.layers = (int)v;
			i++;
		} else if (strcmp(a, "--format") == 0) {
			if (val == NULL || (strcmp(val, "nsys") != 0 &&
			    strcmp(val, "kineto") != 0 && strcmp(val,
			    "kineto-merged") != 0 && strcmp(val, "chrome") != 0))
				return cmd_usage_error(e, "--format needs nsys, "
				    "kineto, kineto-merged or chrome");
			kineto = strcmp(val, "nsys") != 0;
			ko.merged = strcmp(val, "kineto-merged") == 0;
			ko.chrome = strcmp(val, "chrome") == 0;
			i++;
		} else if (strcmp(a, "--rank") == 0) {
			if (val == NULL || (v = cmd_parse_count(val)) < 0 ||
			    v >= KGEN_MAX_WORLD)
				return cmd_usage_error(e, "--rank needs a "
				    "number from 0 to %d", KGEN_MAX_WORLD - 1);
			ko.rank = (int)v;
			i++;
		} else if (strcmp(a, "--clock-back") == 0) {
			if (val == NULL || (v = cmd_parse_count(val)) < 0 ||
			    v > KGEN_MAX_CLOCK_BACK_NS / 1000000000)
				return cmd_usage_error(e, "--clock-back needs "
				    "seconds from 0 to 1.6e9");
			ko.clock_back_ns = (int64_t)v * 1000000000;
			i++;
		} else if (strcmp(a, "--seed") == 0) {
			if (val == NULL || (v = cmd_parse_count(val)) < 0)
				return cmd_usage_error(e, "--seed needs a "
				    "non-negative integer");
			o.seed = (uint64_t)v;
			i++;
		} else
			return cmd_usage_error(e, "unknown argument: %s", a);
	}

	if (o.gpus > 64 && (!kineto || ko.merged || ko.chrome))
		return cmd_usage_error(e, "--gpus needs a number from 1 to 64 "
		    "(%d ranks with --format kineto)", KGEN_MAX_WORLD);
	if (kineto) {
		size_t len;
		ko.events = o.events;
		ko.seed = o.seed;
		ko.world = gpus_set ? o.gpus : 1;
		ko.straggler = o.straggler >= 0 ? o.straggler :
		    o.straggler == GEN_STRAGGLER_AUTO && ko.world > 1 ?
		    ko.world - 1 : -1;
		if (ko.straggler >= ko.world)
			ko.straggler = -1;
		ko.slowdown = o.slowdown;
		/* Plants graph and graph-whole: graph replays (Kineto
		 * records the replayed kernels either way). */
		ko.graph = (o.plant & (GEN_PLANT_GRAPH |
		    GEN_PLANT_GRAPH_WHOLE)) != 0;
		if (ko.rank >= ko.world)
			return cmd_usage_error(e, "--rank must be below --gpus");
		if ((ko.merged || ko.chrome) && out == NULL)
			return cmd_usage_error(e, "--format kineto-merged and "
			    "chrome need --out");
		path = out != NULL ? xstrdup(out) : demo_default_path(&o, 1);
		len = strlen(path);
		ko.gzip = len > 3 && strcmp(path + len - 3, ".gz") == 0 ? 1 : 0;
		/* Without --out, an earlier demo trace is reused. */
		if ((out != NULL || access(path, R_OK) != 0) &&
		    kgen_write(path, &ko, NULL, &cause) != 0) {
			sanitize_msg(stderr, "gpulens demo: %s", cause);
			free(cause);
			free(path);
			return EXIT_INTERNAL;
		}
		if (out != NULL) {
			free(path);
			return 0;
		}
		return demo_open(path, g);
	}

	if (out != NULL) {
		if (gen_write_nsys(out, &o, NULL, &cause) != 0) {
			sanitize_msg(stderr, "gpulens demo: %s", cause);
			free(cause);
			return EXIT_INTERNAL;
		}
		return 0;
	}

	path = demo_default_path(&o, 0);
	if (access(path, R_OK) != 0 &&
	    gen_write_nsys(path, &o, NULL, &cause) != 0) {
		sanitize_msg(stderr, "gpulens demo: %s", cause);
		free(cause);
		free(path);
		return EXIT_INTERNAL;
	}
	return demo_open(path, g);
}
