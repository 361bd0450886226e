/*
 * cmd-demo: `gpulens demo` writes a realistic synthetic Nsight Systems
 * export (sources/gen.c) and opens the terminal UI on it, or, with --out,
 * only writes it (for benchmarks and scale tests).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "gen.h"
#include "xmalloc.h"

static int	cmd_demo_exec(int, char **, const struct cmd_global *);

const struct cmd_entry cmd_demo_entry = {
	"demo",
	"gpulens demo [--out FILE] [--events N] [--gpus G] [--seed S]\n"
	"    [--plant LIST] [--clean] [--straggler RANK|none] [--slowdown F]\n"
	"    [--layers L]",
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
	"  --gpus G     number of GPUs, one process each (default 4)\n"
	"  --seed S     random seed (default 1); equal seeds give equal files\n"
	"  --plant LIST plant known problems and phases (comma list, or all):\n"
	"               warmup, teardown, launch, sync, pageable, memcpy-sync,\n"
	"               memset-sync, comm, bubble, gap, imbalance\n"
	"  --clean      no default imperfections (straggler, pageable copies,\n"
	"               data-loading bubbles, an exposed last all-reduce)\n"
	"  --straggler RANK|none  the slow rank (default the last)\n"
	"  --slowdown F the straggler's compute factor, 1 to 10 (default 1.3)\n"
	"  --layers L   model layers, 1 to 64 (default from --events)",
	cmd_demo_exec,
	0
};

static char *
demo_default_path(const struct gen_opts *o)
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
	path = xasprintf("%s/demo-n%llu-g%d-s%llu.sqlite", sub,
	    (unsigned long long)o->events, o->gpus,
	    (unsigned long long)o->seed);
	free(dir);
	free(sub);
	return path;
}

static int
cmd_demo_exec(int argc, char **argv, const struct cmd_global *g)
{
	const struct cmd_entry	*e = &cmd_demo_entry;
	struct gen_opts		 o;
	struct model		*m;
	const char		*out = NULL;
	char			*path, *cause = NULL;
	long long		 v;
	int			 i, rc;

	gen_opts_default(&o);
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
			if (val == NULL || (v = cmd_parse_count(val)) < 1 ||
			    v > 64)
				return cmd_usage_error(e, "--gpus needs a "
				    "number from 1 to 64");
			o.gpus = (int)v;
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
		} else if (strcmp(a, "--seed") == 0) {
			if (val == NULL || (v = cmd_parse_count(val)) < 0)
				return cmd_usage_error(e, "--seed needs a "
				    "non-negative integer");
			o.seed = (uint64_t)v;
			i++;
		} else
			return cmd_usage_error(e, "unknown argument: %s", a);
	}

	if (out != NULL) {
		if (gen_write_nsys(out, &o, NULL, &cause) != 0) {
			fprintf(stderr, "gpulens demo: %s\n", cause);
			free(cause);
			return EXIT_INTERNAL;
		}
		return 0;
	}

	path = demo_default_path(&o);
	if (access(path, R_OK) != 0 &&
	    gen_write_nsys(path, &o, NULL, &cause) != 0) {
		fprintf(stderr, "gpulens demo: %s\n", cause);
		free(cause);
		free(path);
		return EXIT_INTERNAL;
	}
	if ((m = cmd_load(path, g)) == NULL) {
		free(path);
		return EXIT_USAGE;
	}
	rc = cmd_tui(m, "demo", g);
	model_free(m);
	free(path);
	return rc;
}
