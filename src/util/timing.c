/*
 * timing: phase timings on stderr for the benchmark script.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/timing.h"

double
timing_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
timing_enabled(void)
{
	static int	 enabled = -1;
	const char	*s;

	if (enabled == -1) {
		s = getenv("GPULENS_TIMING");
		enabled = s != NULL && *s != '\0' && strcmp(s, "0") != 0;
	}
	return enabled;
}

void
timing_report(const char *phase, double since)
{
	if (timing_enabled())
		fprintf(stderr, "timing: %s %.6f\n", phase, timing_now() - since);
}
