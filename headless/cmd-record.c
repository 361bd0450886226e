/*
 * cmd-record: `gpulens record [--nsys|--ncu|--torch] [OPTIONS] -- CMD ARGS`
 * runs a program under a profiler with the options gpulens's analyses
 * need, then loads the result (which fills the cache) and opens it.
 *
 *   --nsys   (the default) Nsight Systems: CUDA, NVTX (NCCL's ranges come
 *            through NVTX), OS runtime, cuDNN and cuBLAS traces, CPU
 *            sampling and context switches of the process tree, graph
 *            replays per node, memory usage, exported to SQLite beside
 *            the report; --mpi adds the MPI trace, --gpu-metrics the GPU
 *            metrics of every device.
 *   --ncu    Nsight Compute: the full section set with source import, all
 *            child processes; --launch-count N stops after N kernels.
 *   --torch  PyTorch's profiler around a Python program (CMD must be
 *            python SCRIPT ... or python -m MODULE ...): CPU and GPU
 *            activity with shapes and FLOPs, written as Kineto JSON.
 *
 * The output is OUT (--out; default gpulens-YYYYmmdd-HHMMSS in the current
 * directory) plus the tool's suffix. When the tool is not on PATH, or with
 * --dry-run, the exact command is printed, one shell-quoted line on
 * standard output, and nothing runs (exit 2 without the tool, 0 for
 * --dry-run). After a run the result opens in the terminal UI when
 * standard output is a terminal (not with --no-open); otherwise one line
 * says where it is. The profiled program's exit status is reported; a
 * missing result is an error.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "headless/cmd.h"
#include "util/sanitize.h"
#include "util/shquote.h"
#include "util/xmalloc.h"

static cmd_main_t	record_run;

const struct cmd_entry cmd_record_entry = {
	.name = "record",
	.usage = "gpulens record [--nsys|--ncu|--torch] [--out NAME] "
	    "[--dry-run] [--no-open] [--mpi] [--gpu-metrics] "
	    "[--launch-count N] -- CMD [ARGS]",
	.help =
	"Runs CMD under Nsight Systems (--nsys, the default), Nsight Compute\n"
	"(--ncu) or PyTorch's profiler (--torch, for python SCRIPT or python\n"
	"-m MODULE) with the options the analyses need, then loads the result\n"
	"and opens it (--no-open: just say where it is). --out NAME names the\n"
	"result (default gpulens-DATE-TIME here). Without the tool on PATH,\n"
	"or with --dry-run, prints the exact command instead.",
	.input = CMD_IN_NONE,
	.main = record_run
};

enum record_tool {
	REC_NSYS,
	REC_NCU,
	REC_TORCH
};

struct record {
	enum record_tool	 tool;
	const char		*out;
	int			 dry_run, no_open, mpi, gpu_metrics;
	long long		 launch_count;	/* ncu; 0: every kernel */
	char			**cmd;		/* CMD ARGS */
	int			 ncmd;
	char			**argv;		/* the command to run */
	int			 nargv;
	size_t			 cap;
	char			*result;	/* the file to open */
};

/*
 * The --torch bootstrap: argv[1] is the output, the rest the program as
 * python would take it (SCRIPT ARGS or -m MODULE ARGS). The program's own
 * exit status is kept.
 */
static const char record_boot[] =
	"import runpy, sys\n"
	"out = sys.argv[1]\n"
	"sys.argv = sys.argv[2:]\n"
	"import torch\n"
	"from torch.profiler import profile, ProfilerActivity\n"
	"acts = [ProfilerActivity.CPU]\n"
	"if torch.cuda.is_available():\n"
	"    acts.append(ProfilerActivity.CUDA)\n"
	"code = 0\n"
	"with profile(activities=acts, record_shapes=True, with_flops=True)"
	" as prof:\n"
	"    try:\n"
	"        if sys.argv[0] == '-m':\n"
	"            sys.argv = sys.argv[1:]\n"
	"            runpy.run_module(sys.argv[0], run_name='__main__',"
	" alter_sys=True)\n"
	"        else:\n"
	"            runpy.run_path(sys.argv[0], run_name='__main__')\n"
	"    except SystemExit as e:\n"
	"        code = e.code if isinstance(e.code, int) else (0 if e.code is"
	" None else 1)\n"
	"prof.export_chrome_trace(out)\n"
	"sys.exit(code)\n";

static void
record_push(struct record *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
record_push(struct record *r, const char *fmt, ...)
{
	va_list	ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	XGROW(r->argv, r->cap, (size_t)r->nargv + 2);
	r->argv[r->nargv++] = s;
	r->argv[r->nargv] = NULL;
}

/* Pushes the words w (NULL-terminated) as they are. */
static void
record_push_words(struct record *r, const char *const *w)
{
	for (; *w != NULL; w++)
		record_push(r, "%s", *w);
}

/* The fixed words of the tools' command lines, around the variable ones. */
static const char *const record_nsys_capture[] = {
	"--sample=process-tree", "--cpuctxsw=process-tree",
	"--cuda-graph-trace=node", "--cuda-memory-usage=true", NULL
};
static const char *const record_nsys_export[] = {
	"--export=sqlite", "--force-overwrite=true", NULL
};
static const char *const record_ncu_set[] = {
	"ncu", "--set", "full", "--import-source", "yes",
	"--target-processes", "all", NULL
};
static const char *const record_ncu_export[] = {
	"--force-overwrite", "--export", NULL
};

/* Whether the program name is a Python interpreter. */
static int
record_is_python(const char *p)
{
	const char	*b = strrchr(p, '/');

	b = b != NULL ? b + 1 : p;
	return strncmp(b, "python", 6) == 0;
}

/* Builds r->argv and r->result. Returns 0, or -1 with *cause. */
static int
record_build(struct record *r, char **cause)
{
	int	i;

	switch (r->tool) {
	case REC_NSYS:
		record_push(r, "nsys");
		record_push(r, "profile");
		record_push(r, "--trace=cuda,nvtx,osrt,cudnn,cublas%s",
		    r->mpi ? ",mpi" : "");
		record_push_words(r, record_nsys_capture);
		if (r->gpu_metrics)
			record_push(r, "--gpu-metrics-devices=all");
		record_push_words(r, record_nsys_export);
		record_push(r, "--output=%s", r->out);
		r->result = xasprintf("%s.sqlite", r->out);
		break;
	case REC_NCU:
		record_push_words(r, record_ncu_set);
		if (r->launch_count > 0) {
			record_push(r, "--launch-count");
			record_push(r, "%lld", r->launch_count);
		}
		record_push_words(r, record_ncu_export);
		record_push(r, "%s", r->out);
		r->result = xasprintf("%s.ncu-rep", r->out);
		break;
	case REC_TORCH:
		if (!record_is_python(r->cmd[0]) || r->ncmd < 2 ||
		    (strcmp(r->cmd[1], "-m") == 0 && r->ncmd < 3) ||
		    (r->cmd[1][0] == '-' && strcmp(r->cmd[1], "-m") != 0)) {
			*cause = xasprintf("--torch runs a Python program: "
			    "python SCRIPT [ARGS] or python -m MODULE [ARGS]");
			return -1;
		}
		r->result = xasprintf("%s.pt.trace.json", r->out);
		record_push(r, "%s", r->cmd[0]);
		record_push(r, "-c");
		record_push(r, "%s", record_boot);
		record_push(r, "%s", r->result);
		for (i = 1; i < r->ncmd; i++)
			record_push(r, "%s", r->cmd[i]);
		return 0;
	}
	for (i = 0; i < r->ncmd; i++)
		record_push(r, "%s", r->cmd[i]);
	return 0;
}

/* Whether prog can be run: a path that is executable, or found on PATH. */
static int
record_found(const char *prog)
{
	const char	*path = getenv("PATH"), *p, *e;
	char		*f;
	int		 ok;

	if (strchr(prog, '/') != NULL)
		return access(prog, X_OK) == 0;
	if (path == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		f = xasprintf("%.*s%s%s", (int)(e - p), p, e > p ? "/" : "",
		    prog);
		ok = access(f, X_OK) == 0;
		free(f);
		if (ok)
			return 1;
		if (*e == '\0')
			return 0;
	}
}

static void
record_print(const struct record *r, FILE *fp)
{
	char	*q;
	int	 i;

	for (i = 0; i < r->nargv; i++) {
		q = shquote(r->argv[i]);
		fprintf(fp, "%s%s", i > 0 ? " " : "", q);
		free(q);
	}
	fputc('\n', fp);
}

/* Runs r->argv; returns its exit status (128 + signal), or -1. */
static int
record_exec(const struct record *r, char **cause)
{
	struct sigaction	 ign, oint, oquit;
	pid_t			 pid;
	int			 st;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		*cause = xasprintf("fork: %s", strerror(errno));
		st = -1;
		goto out;
	}
	if (pid == 0) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		execvp(r->argv[0], r->argv);
		fprintf(stderr, "gpulens record: %s: %s\n",
		    sanitize_tmp(r->argv[0]), strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR) {
			*cause = xasprintf("waitpid: %s", strerror(errno));
			st = -1;
			goto out;
		}
	}
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
out:
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	return st;
}

/* The default output name: gpulens-YYYYmmdd-HHMMSS. */
static char *
record_default_out(void)
{
	char		 b[32];
	time_t		 now = time(NULL);
	struct tm	 tm;

	localtime_r(&now, &tm);
	strftime(b, sizeof b, "gpulens-%Y%m%d-%H%M%S", &tm);
	return xstrdup(b);
}

static void
record_free(struct record *r)
{
	int	i;

	for (i = 0; i < r->nargv; i++)
		free(r->argv[i]);
	free(r->argv);
	free(r->result);
}

/* Loads the result (filling the cache) and opens it, or says where it is. */
static int
record_open(const struct record *r, const struct cmd_global *g)
{
	struct input	in;
	int		rc;

	if (cmd_load_input(r->result, r->tool == REC_NCU ? INPUT_REPORT :
	    INPUT_TIMELINE, g, &in) != 0)
		return EXIT_USAGE;
	if (!r->no_open && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
	    g->tui != NULL) {
		rc = g->tui(&in, r->result, g);
		input_free(&in);
		return rc;
	}
	input_free(&in);
	printf("recorded %s; open it with: gpulens ", sanitize_tmp(r->result));
	{
		char *q = shquote(r->result);
		printf("%s\n", sanitize_tmp(q));
		free(q);
	}
	return 0;
}

static int
record_run(int argc, char **argv, const struct cmd_global *g)
{
	const struct cmd_entry	*e = &cmd_record_entry;
	struct record		 r;
	char			*cause = NULL, *defout = NULL, *end;
	const char		*a;
	int			 i, st, rc, ntools = 0;
	struct stat		 sb;

	memset(&r, 0, sizeof r);
	r.tool = REC_NSYS;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "--nsys") == 0) {
			r.tool = REC_NSYS;
			ntools++;
		} else if (strcmp(a, "--ncu") == 0) {
			r.tool = REC_NCU;
			ntools++;
		} else if (strcmp(a, "--torch") == 0) {
			r.tool = REC_TORCH;
			ntools++;
		} else if (strcmp(a, "--dry-run") == 0)
			r.dry_run = 1;
		else if (strcmp(a, "--no-open") == 0)
			r.no_open = 1;
		else if (strcmp(a, "--mpi") == 0)
			r.mpi = 1;
		else if (strcmp(a, "--gpu-metrics") == 0)
			r.gpu_metrics = 1;
		else if (strcmp(a, "--out") == 0 || strcmp(a,
		    "--launch-count") == 0) {
			if (i + 1 >= argc)
				return cmd_usage_error(e, "%s needs a value",
				    a);
			if (strcmp(a, "--out") == 0) {
				r.out = argv[++i];
				if (*r.out == '\0')
					return cmd_usage_error(e, "--out needs "
					    "a name");
			} else {
				errno = 0;
				r.launch_count = strtoll(argv[++i], &end,
				    10);
				if (errno != 0 || *end != '\0' ||
				    end == argv[i] || r.launch_count < 1)
					return cmd_usage_error(e, "--launch-count "
					    "needs a positive count");
			}
		} else if (strcmp(a, "--json") == 0 || strcmp(a, "--format")
		    == 0)
			return cmd_usage_error(e, "record runs a program and "
			    "opens its profile: it has no JSON answer (run a "
			    "verb on the result)");
		else if (a[0] == '-')
			return cmd_usage_error(e, "unknown option: %s (the "
			    "program goes after --)", a);
		else
			break;
	}
	if (ntools > 1)
		return cmd_usage_error(e, "one of --nsys, --ncu, --torch");
	if (i >= argc)
		return cmd_usage_error(e, "expected -- CMD [ARGS]: the program "
		    "to profile");
	if (r.tool != REC_NSYS && (r.mpi || r.gpu_metrics))
		return cmd_usage_error(e, "--mpi and --gpu-metrics are Nsight "
		    "Systems options");
	if (r.tool != REC_NCU && r.launch_count > 0)
		return cmd_usage_error(e, "--launch-count is an Nsight Compute "
		    "option");
	r.cmd = argv + i;
	r.ncmd = argc - i;
	if (r.out == NULL)
		r.out = defout = record_default_out();
	if (record_build(&r, &cause) != 0) {
		rc = cmd_usage_error(e, "%s", cause);
		goto done;
	}
	if (r.dry_run) {
		record_print(&r, stdout);
		rc = 0;
		goto done;
	}
	if (!record_found(r.argv[0])) {
		fprintf(stderr, "gpulens record: %s is not on PATH; run this "
		    "where it is, then open %s:\n", sanitize_tmp(r.argv[0]),
		    sanitize_tmp(r.result));
		record_print(&r, stdout);
		rc = EXIT_USAGE;
		goto done;
	}
	st = record_exec(&r, &cause);
	if (st < 0) {
		sanitize_msg(stderr, "gpulens record: %s", cause);
		rc = EXIT_INTERNAL;
		goto done;
	}
	if (stat(r.result, &sb) != 0) {
		fprintf(stderr, "gpulens record: %s exited with status %d and "
		    "wrote no %s\n", sanitize_tmp(r.argv[0]), st,
		    sanitize_tmp(r.result));
		rc = EXIT_INTERNAL;
		goto done;
	}
	if (st != 0)
		fprintf(stderr, "gpulens record: the profiled program exited "
		    "with status %d; opening what was recorded\n", st);
	rc = record_open(&r, g);
done:
	free(cause);
	free(defout);
	record_free(&r);
	return rc;
}
