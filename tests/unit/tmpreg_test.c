/*
 * tmpreg_test: temporary files do not outlive their writer. A registered
 * file is removed when the process gets SIGINT or SIGTERM (and the signal
 * then takes its previous course: death, or the handler that was there)
 * and at exit(); names are recognised as ours, and a temporary is stale
 * when its writer is gone from this host or it has been idle an hour.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/tmpreg.h"
#include "tsupport.h"
#include "util/xmalloc.h"

static int
exists(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0;
}

/* fork() with stdio flushed first; fails the test if it fails. */
static pid_t
fork_child(void)
{
	pid_t	pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	return pid;
}

/* In a child: tmpreg_create(final, t), or the child exits 3. */
static int
child_create(const char *final, char **t)
{
	int	fd;

	if ((fd = tmpreg_create(final, t)) == -1)
		_exit(3);
	return fd;
}

static void
child_handler(int sig)
{
	(void)sig;
	_exit(42);
}

/*
 * Forks a child that creates a temporary for the file base in the scratch
 * directory (after installing a SIGTERM handler of its own when
 * own_handler), tells the parent its name and waits; the parent sends sig
 * and checks that neither the temporary nor the file is left, and that the
 * child died of sig (want_exit -1) or exited with status want_exit.
 */
static void
signalled(const char *base, int sig, int own_handler, int want_exit)
{
	char	*final = xasprintf("%s/%s", ts_tmp(), base);
	char	 name[4096];
	int	 fds[2], status;
	ssize_t	 n;
	pid_t	 pid;

	assert_int_equal(pipe(fds), 0);
	if ((pid = fork_child()) == 0) {
		char	*t;
		int	 fd;

		close(fds[0]);
		/* The signals' own course first: a test run in the background
		 * of a shell starts with SIGINT ignored, and an ignored signal
		 * stays ignored (the child would wait for ever). */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (own_handler)
			signal(SIGTERM, child_handler);
		fd = child_create(final, &t);
		if (write(fd, "partial", 7) != 7)
			_exit(4);
		if (write(fds[1], t, strlen(t) + 1) < 0)
			_exit(5);
		for (;;)
			pause();
	}
	close(fds[1]);
	n = read(fds[0], name, sizeof name);
	assert_true(n > 0);
	close(fds[0]);
	assert_true(exists(name));
	assert_int_equal(kill(pid, sig), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_non_null(strstr(name, ".tmp-"));
	assert_false(exists(name));
	assert_false(exists(final));
	free(final);
	if (want_exit == -1) {
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sig);
	} else {
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), want_exit);
	}
}

static void
test_sigint_removes(void **state)
{
	(void)state;
	/* The default action follows: the child dies of SIGINT. */
	signalled("a.gpulens", SIGINT, 0, -1);
}

static void
test_sigterm_chains(void **state)
{
	(void)state;
	/* The handler that was installed before runs after the removal. */
	signalled("b.gpulens", SIGTERM, 1, 42);
}

static void
test_exit_removes(void **state)
{
	char	*final = xasprintf("%s/c.gpulens", ts_tmp());
	char	*kept = xasprintf("%s.kept", final);
	int	 status;
	pid_t	 pid;

	(void)state;
	if ((pid = fork_child()) == 0) {
		char	*t;
		int	 fd;

		fd = child_create(final, &t);
		close(fd);
		free(t);
		/* A name of a file renamed into place is forgotten. */
		fd = child_create(final, &t);
		close(fd);
		if (rename(t, kept) != 0)
			_exit(4);
		tmpreg_forget(t);
		free(t);
		free(kept);
		free(final);
		exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(exists(kept));
	/* Nothing else is left in the directory. */
	{
		char	*cmd = xasprintf("ls -A %s | grep -c '\\.tmp-' "
		    ">/dev/null", ts_tmp());
		assert_int_not_equal(system(cmd), 0);
		free(cmd);
	}
	unlink(kept);
	free(kept);
	free(final);
}

static void
test_names(void **state)
{
	char	 host[64], name[256], *t;
	time_t	 now = time(NULL);
	pid_t	 dead;
	int	 fd, status;

	(void)state;
	/* Ours, by shape. */
	assert_true(tmpreg_is_tmp("t.gpulens.tmp-123-box-AbC123"));
	assert_true(tmpreg_is_tmp(".t.sqlite.gpulens.Zz9876"));
	assert_true(tmpreg_is_tmp("t.sqlite.tmpQw3rty"));
	assert_false(tmpreg_is_tmp("t.sqlite-0123456789abcdef.gpulens"));
	assert_false(tmpreg_is_tmp("trace.sqlite"));
	assert_false(tmpreg_is_tmp("t.gpulens.tmp-x-box-AbC123"));
	/* Idle an hour: stale whoever wrote it; not ours: never. */
	assert_true(tmpreg_stale("t.gpulens.tmp-1-box-AbC123",
	    now - TMPREG_IDLE, now));
	assert_false(tmpreg_stale("trace.sqlite", now - 10 * TMPREG_IDLE,
	    now));
	/* A writer on another host is judged by age only. */
	assert_false(tmpreg_stale("t.gpulens.tmp-999999-elsewherehostname"
	    "1-AbC123", now, now));

	/* This host's live and dead writers. */
	assert_int_equal(tmpreg_create("/nonexistent/x", &t), -1);
	{
		char *final = xasprintf("%s/probe", ts_tmp());
		assert_true((fd = tmpreg_create(final, &t)) >= 0);
		close(fd);
		free(final);
	}
	/* ".../probe.tmp-PID-HOST-XXXXXX": take HOST from it. */
	{
		const char *s = strstr(t, ".tmp-") + 5, *d1, *d2;
		d1 = strchr(s, '-');
		d2 = strrchr(t, '-');
		assert_true(d2 > d1);
		snprintf(host, sizeof host, "%.*s", (int)(d2 - d1 - 1),
		    d1 + 1);
	}
	tmpreg_discard(t);
	free(t);
	snprintf(name, sizeof name, "x.gpulens.tmp-%ld-%s-AbC123",
	    (long)getpid(), host);
	assert_false(tmpreg_stale(name, now, now));
	fflush(NULL);
	if ((dead = fork()) == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, &status, 0), dead);
	snprintf(name, sizeof name, "x.gpulens.tmp-%ld-%s-AbC123",
	    (long)dead, host);
	assert_true(tmpreg_stale(name, now, now));
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_sigint_removes),
	cmocka_unit_test(test_sigterm_chains),
	cmocka_unit_test(test_exit_removes),
	cmocka_unit_test(test_names))
