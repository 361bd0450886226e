/*
 * progress_test: what the progress line writes to stderr, when, and that a
 * disabled progress writes nothing. stderr is redirected to a temporary
 * file for each test and read back.
 */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/progress.h"

#include "tsupport.h"

static char	path[] = "/tmp/progress_test.XXXXXX";
static int	saved = -1;

/* Sends stderr to a fresh temporary file. */
static void
capture_start(void)
{
	int	fd;

	fflush(stderr);
	assert_true((fd = mkstemp(path)) != -1);
	saved = dup(STDERR_FILENO);
	assert_true(saved != -1);
	assert_true(dup2(fd, STDERR_FILENO) != -1);
	close(fd);
}

/* Restores stderr and returns what was written (caller frees). */
static char *
capture_end(void)
{
	FILE	*f;
	char	*buf;
	long	 n;

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	saved = -1;
	assert_non_null(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	strcpy(path, "/tmp/progress_test.XXXXXX");
	return buf;
}

/* Captures stderr and starts p (progress_init() with enabled). */
static void
capture_progress(struct progress *p, int enabled)
{
	capture_start();
	progress_init(p, enabled);
}

/* Ends p and the capture, which must hold want. */
static void
done_writes(struct progress *p, const char *want)
{
	char	*out;

	progress_done(p);
	out = capture_end();
	assert_string_equal(out, want);
	free(out);
}

static void
sleep_ms(long ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1)
		;
}

static void
test_disabled_writes_nothing(void **state)
{
	struct progress	 p;

	(void)state;
	capture_progress(&p, 0);
	progress_phase(&p, "kernels", 100);
	progress_rows(&p, 50);
	done_writes(&p, "");
	assert_int_equal(p.enabled, 0);
}

static void
test_auto_follows_isatty(void **state)
{
	struct progress	p;

	(void)state;
	capture_start();	/* stderr is a file now, not a terminal */
	progress_init(&p, -1);
	free(capture_end());
	assert_int_equal(p.enabled, 0);
	progress_init(&p, 1);
	assert_int_equal(p.enabled, 1);
}

static void
test_line_format_and_done(void **state)
{
	struct progress	 p;

	(void)state;
	capture_progress(&p, 1);
	progress_phase(&p, "kernels", 200);
	sleep_ms(120);
	progress_rows(&p, 50);
	done_writes(&p,
	    "\rkernels: 0 rows (0%)\033[K"
	    "\rkernels: 50 rows (25%)\033[K"
	    "\r\033[K");
}

static void
test_unknown_total_and_overflow(void **state)
{
	struct progress	 p;

	(void)state;
	capture_progress(&p, 1);
	progress_phase(&p, "NVTX", 0);
	sleep_ms(120);
	progress_phase(&p, "API", 10);
	sleep_ms(120);
	progress_rows(&p, 15);		/* estimate too low: capped */
	done_writes(&p,
	    "\rNVTX: 0 rows\033[K"
	    "\rAPI: 0 rows (0%)\033[K"
	    "\rAPI: 15 rows (100%)\033[K"
	    "\r\033[K");
}

static void
test_throttled(void **state)
{
	struct progress	 p;
	char		*out, *s;
	int		 lines = 0, i;

	(void)state;
	capture_progress(&p, 1);
	progress_phase(&p, "memcpy", 1000000);
	for (i = 1; i <= 1000; i++)
		progress_rows(&p, (uint64_t)i * 1000);
	out = capture_end();
	/* A thousand quick updates draw the first line and almost no other
	 * (only if this loop ran longer than 100 ms). */
	for (s = out; (s = strchr(s, '\r')) != NULL; s++)
		lines++;
	assert_true(lines >= 1 && lines <= 3);
	assert_int_equal(p.rows, 1000000);
	assert_int_equal(strncmp(out, "\rmemcpy: 0 rows (0%)", 20), 0);
	free(out);
	/* done without anything shown writes nothing. */
	capture_progress(&p, 1);
	done_writes(&p, "");
	/* A NULL progress is accepted everywhere. */
	progress_init(NULL, 1);
	progress_phase(NULL, "x", 1);
	progress_rows(NULL, 1);
	progress_done(NULL);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_disabled_writes_nothing),
	cmocka_unit_test(test_auto_follows_isatty),
	cmocka_unit_test(test_line_format_and_done),
	cmocka_unit_test(test_unknown_total_and_overflow),
	cmocka_unit_test(test_throttled))
