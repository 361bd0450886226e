/*
 * rss: runs a command and reports its peak resident set size, for
 * bench/bench.sh on systems without GNU time. "rss -o FILE CMD [ARG...]"
 * behaves like "/usr/bin/time -f %M -o FILE CMD [ARG...]": the command's
 * output passes through, FILE receives the peak RSS in KiB (ru_maxrss of the
 * child) on one line, and rss exits with the command's status (128 + the
 * signal if it was killed, 127 if it could not be run).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: rss -o FILE COMMAND [ARG...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct rusage	 ru;
	const char	*out = NULL;
	FILE		*f;
	pid_t		 pid;
	int		 status;

	if (argc < 4 || strcmp(argv[1], "-o") != 0)
		usage();
	out = argv[2];
	switch (pid = fork()) {
	case -1:
		fprintf(stderr, "rss: fork: %s\n", strerror(errno));
		return 127;
	case 0:
		execvp(argv[3], argv + 3);
		fprintf(stderr, "rss: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) == -1) {
		if (errno != EINTR) {
			fprintf(stderr, "rss: wait4: %s\n", strerror(errno));
			return 127;
		}
	}
	if ((f = fopen(out, "w")) == NULL) {
		fprintf(stderr, "rss: %s: %s\n", out, strerror(errno));
		return 127;
	}
	fprintf(f, "%ld\n", (long)ru.ru_maxrss);	/* KiB on Linux */
	fclose(f);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
