/*
 * replay: the main() that runs a libFuzzer harness without libFuzzer, so
 * `make check` replays every seed corpus in every build (see fuzz.h).
 *
 * Usage: NAME_replay [FILE|DIR]...; without arguments it replays
 * $GPULENS_SRCDIR/tests/fuzz/NAME/ (NAME from its own program name, less
 * "_replay"; GPULENS_SRCDIR defaults to "."). Each input is one TAP test
 * point, run in a child process: an input that makes the harness crash,
 * fail a check or leak (under AddressSanitizer) is "not ok", and the
 * others still run.
 *
 * Inputs under the corpus's known/ subdirectory reproduce a reported bug
 * in code the harness does not own, not fixed yet: their failure is
 * reported as a skip ("known bug"), so that the suite stays green while
 * the input keeps being replayed; once the bug is fixed the input passes
 * and belongs in the corpus proper.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "util/xmalloc.h"

static FILE	*tap;		/* the original stdout */

static int
replay_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends path, or the files of the directory path, to *v (sorted). */
static int
replay_collect(const char *path, char ***v, size_t *n, size_t *cap)
{
	struct stat	 sb;
	char		*f;
	struct stat	 st;
	struct dirent	*d;
	DIR		*dir;
	size_t		 first = *n;

	if (stat(path, &st) != 0) {
		fprintf(tap, "Bail out! %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		XGROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = xstrdup(path);
		return 0;
	}
	if ((dir = opendir(path)) == NULL) {
		fprintf(tap, "Bail out! %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		f = xasprintf("%s/%s", path, d->d_name);
		if (stat(f, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			free(f);
			continue;
		}
		XGROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = f;
	}
	closedir(dir);
	qsort(*v + first, *n - first, sizeof **v, replay_cmp);
	return 0;
}

static int
replay_read(const char *path, uint8_t **buf, size_t *len)
{
	FILE	*f;
	size_t	 cap = 4096, r;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	*buf = xmalloc(cap);
	*len = 0;
	while ((r = fread(*buf + *len, 1, cap - *len, f)) > 0) {
		*len += r;
		if (*len == cap)
			XGROW(*buf, cap, cap + 1);
	}
	r = ferror(f);
	fclose(f);
	return r ? -1 : 0;
}

int
main(int argc, char **argv)
{
	const char	*src = getenv("GPULENS_SRCDIR"), *base;
	char		**files = NULL, *dir, *known_dir, *name, *p;
	uint8_t		*buf;
	size_t		 n = 0, cap = 0, i, len;
	pid_t		 pid;
	int		 fd, a, known, status, failed = 0;

	/* TAP goes to a copy of stdout: the harnesses may redirect it. */
	fflush(stdout);
	if ((fd = dup(STDOUT_FILENO)) == -1 || (tap = fdopen(fd, "w")) ==
	    NULL)
		return 99;
	setvbuf(tap, NULL, _IOLBF, 0);

	if (argc > 1) {
		for (a = 1; a < argc; a++)
			if (replay_collect(argv[a], &files, &n, &cap) != 0)
				return 1;
	} else {
		base = strrchr(argv[0], '/') != NULL ?
		    strrchr(argv[0], '/') + 1 : argv[0];
		name = xstrdup(base);
		if ((p = strstr(name, "_replay")) != NULL)
			*p = '\0';
		dir = xasprintf("%s/tests/fuzz/%s", src != NULL ? src : ".",
		    name);
		free(name);
		if (replay_collect(dir, &files, &n, &cap) != 0)
			return 1;
		known_dir = xasprintf("%s/known", dir);
		if (access(known_dir, F_OK) == 0 &&
		    replay_collect(known_dir, &files, &n, &cap) != 0)
			return 1;
		free(known_dir);
		free(dir);
	}

	LLVMFuzzerInitialize(&argc, &argv);
	fprintf(tap, "1..%zu\n", n);
	for (i = 0; i < n; i++) {
		known = strstr(files[i], "/known/") != NULL;
		fflush(stdout);
		if ((pid = fork()) == -1) {
			fprintf(tap, "Bail out! fork: %s\n", strerror(errno));
			return 1;
		}
		if (pid == 0) {
			if (replay_read(files[i], &buf, &len) != 0) {
				fprintf(stderr, "%s: %s\n", files[i],
				    strerror(errno));
				_exit(1);
			}
			LLVMFuzzerTestOneInput(buf, len);
			free(buf);
			fflush(stdout);
			exit(0);	/* LeakSanitizer checks here */
		}
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			continue;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			fprintf(tap, "ok %zu - %s\n", i + 1, files[i]);
		else if (known)
			fprintf(tap, "ok %zu - %s # SKIP known bug (%s %d)\n",
			    i + 1, files[i], WIFEXITED(status) ? "exit" :
			    "signal", WIFEXITED(status) ? WEXITSTATUS(status) :
			    WTERMSIG(status));
		else {
			fprintf(tap, "not ok %zu - %s (%s %d)\n", i + 1,
			    files[i], WIFEXITED(status) ? "exit" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) :
			    WTERMSIG(status));
			failed = 1;
		}
		free(files[i]);
	}
	free(files);
	fclose(tap);
	return failed;
}
