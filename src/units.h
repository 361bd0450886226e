/*
 * units: formatting of durations, times and byte counts for humans.
 * Output goes into caller buffers; nothing allocates.
 */
#ifndef GPULENS_UNITS_H
#define GPULENS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "950 ns", "12.345 us", "1.500 ms", "2.000 s" (3 decimals, adaptive). */
char	*units_dur(int64_t ns, char *buf, size_t len);
/* "1.5 KiB", "12.0 MiB", "512 B". */
char	*units_bytes(uint64_t bytes, char *buf, size_t len);
/* Integer with thousands separators: "1,234,567". */
char	*units_count(uint64_t n, char *buf, size_t len);

#endif
