/*
 * timing: wall-clock phase timings for benchmarks.
 *
 * When the environment variable GPULENS_TIMING is set to a non-empty value
 * other than "0", timing_report() writes "timing: PHASE SECONDS" to stderr.
 * bench/bench.sh parses those lines; nothing else prints them.
 */
#ifndef GPULENS_TIMING_H
#define GPULENS_TIMING_H

/* Monotonic seconds. */
double	timing_now(void);
/* Reports phase duration (now - since) if timing is enabled. */
void	timing_report(const char *phase, double since);
int	timing_enabled(void);

#endif
