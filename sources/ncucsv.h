/*
 * ncucsv: the reader of Nsight Compute's CSV exports into a struct report
 * (report.h):
 *   ncu --import R.ncu-rep --csv --page details   (the default page)
 *     long form, one row per metric or rule result: ID, Process ID,
 *     Process Name, Host Name, Kernel Name, Context, Stream, Block Size,
 *     Grid Size, Device, CC, Section Name, Metric Name, Metric Unit,
 *     Metric Value, and in newer versions Rule Name, Rule Type, Rule
 *     Description, Estimated Speedup Type, Estimated Speedup;
 *   ncu --import R.ncu-rep --csv --page raw
 *     wide form: the identity columns, then one column per metric name;
 *     the second row holds the units; then one row per launch.
 * Columns are found by their header names, in any order. Lines before the
 * header (==PROF== messages of a live run) are skipped. Values are
 * English-locale numbers with thousands separators ("1,215,000.00");
 * anything else is kept as text. Durations, frequencies, sizes and
 * bandwidths are scaled to ns, hz, byte and byte/s. In the details form
 * the metric names are display labels: the labels of the standard
 * sections are mapped back to ncu's metric names (Duration in GPU Speed
 * Of Light Throughput is gpu__time_duration.sum), others keep their label
 * as their name.
 */
#ifndef GPULENS_NCUCSV_H
#define GPULENS_NCUCSV_H

#include <stddef.h>

struct report;

/* 1 if text (the start of a file) is an ncu CSV export. */
int		 ncucsv_probe(const char *text, size_t len);
/* Parses a whole CSV text; name is for messages. Returns a finished
 * report or NULL with *cause (caller frees). */
struct report	*ncucsv_parse(const void *text, size_t len, const char *name,
		    char **cause);
/* Reads path (plain or compressed) and parses it. */
struct report	*ncucsv_load(const char *path, char **cause);

#endif
