/*
 * fuzz: helpers shared by the libFuzzer harnesses (see fuzz.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "headless/cmd.h"
#include "fuzz.h"
#include "model/model.h"
#include "util/xmalloc.h"

#define P	"\001"		/* stands for the trace path */

/* Verb invocations that read one trace, as argv lists (NULL-ended). */
static const char *const fuzz_verbs[][10] = {
	{ "summary", "--json", P, NULL },
	{ "stats", "--json", "--limit", "0", P, NULL },
	{ "stats", "--json", "--type", "api", "--group-by",
	    "nvtx-path,iter", P, NULL },
	{ "gaps", "--json", P, NULL },
	{ "gaps", "--json", "--scope", "all", "--limit", "0", P, NULL },
	{ "timeline", "--json", "--buckets", "7", P, NULL },
	{ "overlap", "--json", P, NULL },
	{ "overlap", "--json", "--by", "nvtx-path", P, NULL },
	{ "nvtx", "--json", P, NULL },
	{ "nvtx", "--json", "--tree", "--limit", "0", P, NULL },
	{ "iters", "--json", P, NULL },
	{ "search", "--json", "--limit", "0", P, NULL },
	{ "search", "--limit", "0", P, NULL },	/* a table */
	{ "inspect", "--json", P, "0", "1", "7", NULL },
	{ "correlate", "--json", P, "3", NULL },
	{ "launch", "--json", P, NULL },
	{ "memcpy", "--json", P, NULL },
	{ "comm", "--json", P, NULL },
	{ "hardware", "--json", P, NULL },
	{ "export", "--to", "perfetto", P, NULL },
	{ "export", "--to", "csv", P, NULL },
	{ "info", "--json", P, NULL },
	{ "phases", "--json", P, NULL },
	{ "window", "--json", P, NULL },
	{ "findings", "--json", P, NULL },
	{ "diff", "--json", P, P, NULL },
};
#define FUZZ_NVERBS	(sizeof fuzz_verbs / sizeof fuzz_verbs[0])

static char	*fuzz_dir;
static pid_t	 fuzz_owner;	/* the process that made fuzz_dir */

static int
fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(path);
	return 0;
}

static void
fuzz_cleanup(void)
{
	/* Children (replay.c forks one per input) leave it to the parent. */
	if (fuzz_dir != NULL && getpid() == fuzz_owner)
		nftw(fuzz_dir, fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(fuzz_dir);
	fuzz_dir = NULL;
}

const char *
fuzz_tmpdir(void)
{
	const char	*base = getenv("TMPDIR");

	if (fuzz_dir != NULL)
		return fuzz_dir;
	fuzz_dir = xasprintf("%s/gpulens-fuzz.XXXXXX",
	    base != NULL && *base == '/' ? base : "/tmp");
	if (mkdtemp(fuzz_dir) == NULL) {
		fprintf(stderr, "fuzz: %s: %s\n", fuzz_dir, strerror(errno));
		abort();
	}
	fuzz_owner = getpid();
	atexit(fuzz_cleanup);
	return fuzz_dir;
}

char *
fuzz_path(const char *name)
{
	return xasprintf("%s/%s", fuzz_tmpdir(), name);
}

void
fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	ssize_t	 r;
	int	 fd;

	/* A fresh inode each time, so a cache never matches by accident. */
	unlink(path);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		abort();
	}
	while (size > 0) {
		if ((r = write(fd, data, size)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "fuzz: %s: %s\n", path,
			    strerror(errno));
			abort();
		}
		data += r;
		size -= (size_t)r;
	}
	close(fd);
}

void
fuzz_quiet_stdout(void)
{
	int	fd;

	fflush(stdout);
	if ((fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		abort();
	dup2(fd, STDOUT_FILENO);
	close(fd);
}

int
fuzz_run_argv(const char *const *v, const char *path, int no_cache)
{
	const struct cmd_entry	*e;
	struct cmd_global	 g;
	char			*argv[16];
	int			 argc, rc;

	for (argc = 0; v[argc] != NULL && argc < 15; argc++)
		argv[argc] = xstrdup(strcmp(v[argc], P) == 0 ? path : v[argc]);
	argv[argc] = NULL;
	if ((e = cmd_find(argv[0])) == NULL) {
		fprintf(stderr, "fuzz: no verb %s\n", argv[0]);
		abort();
	}
	memset(&g, 0, sizeof g);
	g.no_cache = no_cache;
	g.progress = 0;
	rc = cmd_run(e, argc, argv, &g);
	fflush(stdout);
	while (argc-- > 0)
		free(argv[argc]);
	return rc;
}

void
fuzz_run_verb(unsigned pick, const char *path, int no_cache)
{
#ifdef FUZZ_STRICT
	(void)pick;
	for (pick = 0; pick < FUZZ_NVERBS; pick++)
		fuzz_run_argv(fuzz_verbs[pick], path, no_cache);
#else
	fuzz_run_argv(fuzz_verbs[pick % FUZZ_NVERBS], path, no_cache);
#endif
}

#define REF(v, n)	((v) == NONE32 || (v) < (n))

void
fuzz_check_model(const struct model *m)
{
	const struct track	*t;
	const struct lane	*l;
	size_t			 i, k, lim, nev = 0;

	for (i = 0; i < m->nthreads; i++)
		FUZZ_CHECK(REF(m->threads[i].process, m->nprocesses));
	for (i = 0; i < m->nstreams; i++)
		FUZZ_CHECK(REF(m->streams[i].device, m->ndevices) &&
		    REF(m->streams[i].process, m->nprocesses));
	for (i = 0; i < m->nnvtx; i++)
		FUZZ_CHECK(REF(m->nvtx[i].domain, m->ndomains));
	/* Every string id of a kernel_info names a string of the pool. */
	for (i = 0; i < m->nkernels; i++) {
		const struct kernel_info *ki = &m->kernels[i];
		uint32_t ns = strpool_count(m->strs);
		FUZZ_CHECK(ki->short_name < ns && ki->mangled < ns &&
		    ki->comm_coll < ns && ki->comm_dtype < ns &&
		    ki->comm_pg_name < ns && ki->comm_pg_desc < ns &&
		    ki->comm_pg_ranks < ns);
	}
	for (i = 0; i < m->ntracks; i++) {
		t = &m->tracks[i];
		l = &t->lane;
		FUZZ_CHECK(t->type < TRACK_TYPE_COUNT);
		FUZZ_CHECK(REF(t->device, m->ndevices) &&
		    REF(t->stream, m->nstreams) &&
		    REF(t->process, m->nprocesses) &&
		    REF(t->thread, m->nthreads) &&
		    REF(t->domain, m->ndomains));
		FUZZ_CHECK(model_str(m, t->name) != NULL);
		FUZZ_CHECK(m->track_off[i] == nev);
		for (k = 0; k < l->n; k++) {
			FUZZ_CHECK(k == 0 || l->start[k - 1] <= l->start[k]);
			FUZZ_CHECK(l->end[k] >= l->start[k]);
			FUZZ_CHECK(l->kind[k] > EV_NONE &&
			    l->kind[k] < EV_KIND_COUNT);
			FUZZ_CHECK(model_str(m, l->name[k]) != NULL);
			switch (l->kind[k]) {
			case EV_KERNEL:
				lim = m->nkernels;
				break;
			case EV_MEMCPY:
			case EV_MEMSET:
				lim = m->ncopies;
				break;
			case EV_NVTX:
			case EV_MARK:
				lim = m->nnvtx;
				break;
			case EV_COUNTER:
				lim = m->ncounters;
				break;
			default:
				lim = SIZE_MAX;
				break;
			}
			FUZZ_CHECK(l->aux[k] == NONE32 || l->aux[k] < lim);
			FUZZ_CHECK(l->start[k] >= m->origin_ns &&
			    l->end[k] <= m->end_ns);
		}
		nev += l->n;
	}
	FUZZ_CHECK(m->nevents == nev);
	FUZZ_CHECK(!fuzz_bad_names(m));
	/* model.h's time bounds: spans and differences never overflow. */
	FUZZ_CHECK(model_span_ok(m->origin_ns, m->end_ns));
}

int
fuzz_others(const char *name)
{
	struct dirent	*d;
	DIR		*dir;
	int		 n = 0;

	if ((dir = opendir(fuzz_tmpdir())) == NULL)
		abort();
	while ((d = readdir(dir)) != NULL)
		if (strcmp(d->d_name, ".") != 0 &&
		    strcmp(d->d_name, "..") != 0 &&
		    strcmp(d->d_name, name) != 0)
			n++;
	closedir(dir);
	return n;
}

void
fuzz_reader(const uint8_t *data, size_t size, const char *name,
    struct model *(*load)(const char *, struct progress *, char **),
    int strict_dir)
{
	struct model	*m;
	char		*path, *cause = NULL;

	path = fuzz_path(name);
	fuzz_write(path, data, size);
	m = load(path, NULL, &cause);
	if (strict_dir)
		FUZZ_CHECK(fuzz_others(name) == 0);
	if (getenv("GPULENS_FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "load %s\n", m != NULL ? "ok" : cause);
	if (m == NULL) {
		FUZZ_CHECK(cause != NULL && *cause != '\0');
		free(cause);
		free(path);
		return;
	}
	fuzz_check_model(m);
	model_free(m);
	fuzz_run_verb((unsigned)size, path, 1);
	if (strict_dir)
		FUZZ_CHECK(fuzz_others(name) == 0);
	free(path);
}

int
fuzz_bad_names(const struct model *m)
{
	const struct lane	*l;
	uint32_t		 n = strpool_count(m->strs);
	size_t			 t, i;

	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		if (m->tracks[t].name >= n)
			return 1;
		for (i = 0; i < l->n; i++)
			if (l->name[i] >= n)
				return 1;
	}
	return 0;
}

void
fuzz_fail(const char *file, int line, const char *what)
{
	fflush(stdout);
	fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
	abort();
}
