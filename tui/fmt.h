/*
 * fmt: human-readable times for the TUI. Byte counts and rates are
 * units_bytes_sig() and units_rate() (util/units.h).
 *
 * Times are signed nanoseconds shown with an adaptive unit (ns, us, ms, s).
 * fmt_time_res() shows just enough decimals to resolve res nanoseconds,
 * which the ruler and the status line use so that neighbouring ticks and
 * cursor positions read differently at every zoom level. All functions
 * write a NUL-terminated string into buf and return buf.
 */
#ifndef GPULENS_FMT_H
#define GPULENS_FMT_H

#include <stddef.h>
#include <stdint.h>

/* About four significant digits: "850ns", "12.35us", "1.235ms", "2.500s". */
char	*fmt_time(char *buf, size_t len, int64_t ns);
/* Enough decimals to resolve res ns (res >= 1). */
char	*fmt_time_res(char *buf, size_t len, int64_t ns, int64_t res);
/*
 * A point in time for the status line and prompts: "+1.250ms" relative to
 * origin, or with abs "@1.250ms" on the source's clock (origin ignored).
 */
char	*fmt_when(char *buf, size_t len, int64_t t, int64_t origin, int abs,
	    int64_t res);
/* Durations and times typed at prompts: units_parse_dur/_time (units.h). */

#endif
