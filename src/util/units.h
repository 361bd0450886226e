/*
 * units: formatting of durations, times and byte counts for humans, and
 * parsing of the durations and times users type. Output goes into caller
 * buffers; nothing allocates.
 */
#ifndef GPULENS_UNITS_H
#define GPULENS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "950 ns", "12.345 us", "1.500 ms", "2.000 s" (3 decimals, adaptive). */
char	*units_dur(int64_t ns, char *buf, size_t len);
/*
 * Byte counts in binary units, two styles: units_bytes() with one decimal
 * ("512 B", "1.5 KiB", "12.0 MiB"), as the verbs print them, and
 * units_bytes_sig() with three significant digits ("1.50 KiB", "64.0 MiB",
 * "512 MiB"), as the TUI shows them.
 */
char	*units_bytes(uint64_t bytes, char *buf, size_t len);
char	*units_bytes_sig(uint64_t bytes, char *buf, size_t len);
/* A rate in decimal units, three significant digits: "12.3 GB/s". */
char	*units_rate(double bytes_per_s, char *buf, size_t len);
/* Floating-point throughput the same way: "1.48 TFLOP/s". */
char	*units_flops(double flop_per_s, char *buf, size_t len);
/*
 * A profiler's metric value in its unit ("hz", "nsecond", "byte",
 * "Gbyte/second", "cycle/nsecond"; case aside) scaled to the largest
 * decimal prefix that leaves it at least 1: 6230455724.34 hz -> "6.23"
 * "GHz", 431840 ns -> "431.84" "us", 1536 byte -> "1.54" "KB". The value
 * goes into val (two decimals, none for a whole number left unscaled), the
 * unit into ubuf. Returns 1, or 0 (nothing written) for a unit it does not
 * scale (%, cycle, inst, ...) or a value that is not finite.
 */
int	 units_metric(double v, const char *unit, char *val, size_t vlen,
	    char *ubuf, size_t ulen);
/* Integer with thousands separators: "1,234,567". */
char	*units_count(uint64_t n, char *buf, size_t len);

/*
 * Parses a duration "1500", "1.5us", "2ms", "0.5s", "1min" (no unit: ns)
 * into *ns; plain integers are taken exactly, not through a double.
 * Returns 0, or -1 if s is not one. The grammar of the verbs' --min-dur
 * and of the TUI's prompts.
 */
int	 units_parse_dur(const char *s, int64_t *ns);
/*
 * Parses a time as the verbs' --from does: a duration from the trace
 * origin, or with a leading '@' an absolute time on the source's clock
 * (*absolute set to 1). Leading and trailing blanks are ignored.
 */
int	 units_parse_time(const char *s, int64_t *ns, int *absolute);

#endif
