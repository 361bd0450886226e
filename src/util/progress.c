/*
 * progress: one self-overwriting status line on stderr while a trace loads.
 *
 * A reader announces each table with progress_phase() and reports its row
 * count every few thousand rows with progress_rows(). The line has the form
 * "\r<phase>: <rows> rows (<pct>%)" (the percentage only when the phase has
 * a total), ends with an erase-to-end-of-line so a shorter line leaves no
 * debris, and is redrawn at most ten times a second so that printing never
 * shows up in a load's profile. progress_done() erases it, leaving the
 * terminal as it was. Nothing is ever written unless the progress is
 * enabled, which by default means stderr is a terminal: redirected output
 * and tests stay clean.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/progress.h"

#define PROGRESS_INTERVAL_MS	100	/* ten updates a second */

static uint64_t
progress_now_ms(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
progress_draw(struct progress *p, uint64_t now)
{
	unsigned long long	rows = (unsigned long long)p->rows;

	if (p->total != 0) {
		unsigned pct;

		pct = p->rows >= p->total ? 100 :
		    (unsigned)(p->rows * 100 / p->total);
		fprintf(stderr, "\r%s: %llu rows (%u%%)\033[K",
		    p->phase != NULL ? p->phase : "loading", rows, pct);
	} else
		fprintf(stderr, "\r%s: %llu rows\033[K",
		    p->phase != NULL ? p->phase : "loading", rows);
	fflush(stderr);
	p->shown = 1;
	p->last_ms = now;
}

/*
 * enable: 1 on, 0 off, -1 automatic (on when stderr is a terminal). A NULL
 * progress is accepted by every function and does nothing.
 */
void
progress_init(struct progress *p, int enable)
{
	if (p == NULL)
		return;
	memset(p, 0, sizeof *p);
	if (enable < 0)
		enable = isatty(STDERR_FILENO);
	p->enabled = enable != 0;
}

/* Tells the watcher, then redraws the line if it is on and not drawn in
 * the last interval. */
static void
progress_tick(struct progress *p)
{
	uint64_t	now;

	if (p->watch != NULL)
		p->watch(p->watch_arg, p);
	if (!p->enabled)
		return;
	now = progress_now_ms();
	if (!p->shown || now - p->last_ms >= PROGRESS_INTERVAL_MS)
		progress_draw(p, now);
}

void
progress_phase(struct progress *p, const char *phase, uint64_t total)
{
	if (p == NULL)
		return;
	p->phase = phase;
	p->total = total;
	p->rows = 0;
	progress_tick(p);
}

void
progress_rows(struct progress *p, uint64_t rows)
{
	if (p == NULL)
		return;
	p->rows = rows;
	progress_tick(p);
}

void
progress_done(struct progress *p)
{
	if (p == NULL)
		return;
	if (p->enabled && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = 0;
	p->phase = NULL;
	p->rows = p->total = 0;
}

void
progress_watch(struct progress *p, void (*fn)(void *,
    const struct progress *), void *arg)
{
	if (p == NULL)
		return;
	p->watch = fn;
	p->watch_arg = arg;
}

void
progress_note(struct progress *p, const char *phase)
{
	if (p == NULL)
		return;
	p->phase = phase;
	p->rows = p->total = 0;
	if (p->watch != NULL)
		p->watch(p->watch_arg, p);
}

void
progress_stop_fn(struct progress *p, int (*stop)(void *))
{
	if (p != NULL)
		p->stop = stop;
}

int
progress_stopped(const struct progress *p)
{
	return p != NULL && p->stop != NULL && p->stop(p->watch_arg) != 0;
}
