/*
 * tmpreg: temporary files removed on signals and at exit. See tmpreg.h.
 *
 * The registry is a fixed array of path buffers, so that the signal
 * handler touches no heap: it calls only unlink(), sigaction() and raise(),
 * which are async-signal-safe. A slot is published by setting its flag
 * after the path is written, and retired by clearing the flag first.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/tmpreg.h"
#include "util/xmalloc.h"

#ifndef PATH_MAX
#define PATH_MAX	4096
#endif

static char		 tmpreg_path[TMPREG_MAX][PATH_MAX];
static atomic_int	 tmpreg_used[TMPREG_MAX];
static pthread_mutex_t	 tmpreg_lock = PTHREAD_MUTEX_INITIALIZER;
static int		 tmpreg_installed;
static const int	 tmpreg_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define TMPREG_NSIGS	(sizeof tmpreg_sigs / sizeof tmpreg_sigs[0])
static struct sigaction	 tmpreg_old[TMPREG_NSIGS];

static void
tmpreg_unlink_all(void)
{
	size_t	i;

	for (i = 0; i < TMPREG_MAX; i++)
		if (atomic_load(&tmpreg_used[i]))
			unlink(tmpreg_path[i]);
}

/* Removes the files, puts the previous action back and lets the signal
 * take it once this handler returns (the signal is blocked until then). */
static void
tmpreg_signal(int sig)
{
	int	saved = errno;
	size_t	i;

	tmpreg_unlink_all();
	for (i = 0; i < TMPREG_NSIGS; i++)
		if (tmpreg_sigs[i] == sig) {
			sigaction(sig, &tmpreg_old[i], NULL);
			if (tmpreg_old[i].sa_handler != SIG_IGN)
				raise(sig);
		}
	errno = saved;
}

static void
tmpreg_atexit(void)
{
	tmpreg_unlink_all();
}

/* Installs the handlers once, keeping whatever was there to chain to. A
 * signal that was ignored stays ignored. Called with the lock held. */
static void
tmpreg_install(void)
{
	struct sigaction	sa;
	size_t			i;

	if (tmpreg_installed)
		return;
	tmpreg_installed = 1;
	atexit(tmpreg_atexit);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tmpreg_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < TMPREG_NSIGS; i++) {
		if (sigaction(tmpreg_sigs[i], NULL, &tmpreg_old[i]) != 0 ||
		    tmpreg_old[i].sa_handler == SIG_IGN)
			continue;
		sigaction(tmpreg_sigs[i], &sa, NULL);
	}
}

void
tmpreg_add(const char *path)
{
	size_t	i, len = strlen(path);

	if (len >= PATH_MAX)
		return;
	pthread_mutex_lock(&tmpreg_lock);
	tmpreg_install();
	for (i = 0; i < TMPREG_MAX; i++) {
		if (atomic_load(&tmpreg_used[i]))
			continue;
		memcpy(tmpreg_path[i], path, len + 1);
		atomic_store(&tmpreg_used[i], 1);
		break;
	}
	pthread_mutex_unlock(&tmpreg_lock);
}

void
tmpreg_forget(const char *path)
{
	size_t	i;

	pthread_mutex_lock(&tmpreg_lock);
	for (i = 0; i < TMPREG_MAX; i++)
		if (atomic_load(&tmpreg_used[i]) &&
		    strcmp(tmpreg_path[i], path) == 0) {
			atomic_store(&tmpreg_used[i], 0);
			break;
		}
	pthread_mutex_unlock(&tmpreg_lock);
}

void
tmpreg_discard(const char *path)
{
	unlink(path);
	tmpreg_forget(path);
}

/* This host's name as file-name characters, at most 24 of them. */
static void
tmpreg_host(char *out, size_t size)
{
	char	host[256];
	size_t	i, n = 0;

	if (gethostname(host, sizeof host) != 0)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	for (i = 0; host[i] != '\0' && n + 1 < size && n < 24; i++)
		out[n++] = (host[i] >= 'a' && host[i] <= 'z') ||
		    (host[i] >= 'A' && host[i] <= 'Z') ||
		    (host[i] >= '0' && host[i] <= '9') ? host[i] : '_';
	if (n == 0 && size > 1)
		out[n++] = '_';
	out[n] = '\0';
}

int
tmpreg_create(const char *final, char **tmp)
{
	char	 host[32], *p;
	int	 fd, e;

	tmpreg_host(host, sizeof host);
	p = xasprintf("%s%s%ld-%s-XXXXXX", final, TMPREG_TAG, (long)getpid(),
	    host);
	if ((fd = mkostemp(p, O_CLOEXEC)) == -1) {
		e = errno;
		free(p);
		errno = e;
		return -1;
	}
	tmpreg_add(p);
	*tmp = p;
	return fd;
}

/*
 * Parses name's ".tmp-PID-HOST-XXXXXX" tail: the pid, with *host pointing
 * at HOST (hostlen bytes), or -1 if name has no such tail.
 */
static long
tmpreg_parse(const char *name, const char **host, size_t *hostlen)
{
	const char	*t, *last = NULL, *s, *dash;
	char		*end;
	long		 pid;

	for (t = name; (t = strstr(t, TMPREG_TAG)) != NULL; t++)
		last = t;
	if (last == NULL)
		return -1;
	s = last + strlen(TMPREG_TAG);
	errno = 0;
	pid = strtol(s, &end, 10);
	if (errno != 0 || end == s || pid <= 0 || *end != '-')
		return -1;
	s = end + 1;
	if ((dash = strchr(s, '-')) == NULL || dash == s ||
	    strlen(dash + 1) != 6)
		return -1;
	*host = s;
	*hostlen = (size_t)(dash - s);
	return pid;
}

int
tmpreg_is_tmp(const char *name)
{
	const char	*host;
	size_t		 n = strlen(name), hostlen;

	if (tmpreg_parse(name, &host, &hostlen) > 0)
		return 1;
	/* Older writers: "NAME.gpulens.XXXXXX" and "NAME.tmpXXXXXX". */
	if (n > 15 && memcmp(name + n - 15, ".gpulens.", 9) == 0)
		return 1;
	return n > 10 && memcmp(name + n - 10, ".tmp", 4) == 0 &&
	    strchr(name + n - 6, '.') == NULL;
}

int
tmpreg_stale(const char *name, time_t mtime, time_t now)
{
	const char	*host;
	char		 me[32];
	size_t		 hostlen;
	long		 pid;

	if (!tmpreg_is_tmp(name))
		return 0;
	if (now - mtime >= TMPREG_IDLE)
		return 1;
	/* A writer on another host (a shared home) is judged by age only. */
	if ((pid = tmpreg_parse(name, &host, &hostlen)) <= 0 ||
	    pid == (long)getpid())
		return 0;
	tmpreg_host(me, sizeof me);
	if (hostlen != strlen(me) || memcmp(host, me, hostlen) != 0)
		return 0;
	return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}
