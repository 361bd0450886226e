/*
 * ncurep: the reader of Nsight Compute's binary reports (.ncu-rep, and
 * .ncu-repz, the same inside zstd), into a struct report (report.h).
 *
 * Container (version 7): "NVR\0", a uint32 (little endian) size and a
 * FileHeader message, then blocks until the end: a uint32 size and a
 * BlockHeader message (entry counts, session details, string table,
 * payload size, process), then the payload: NumSources source entries,
 * NumResults ProfileResult entries and NumRangeResults range entries,
 * each a uint32 size and a message. Field numbers are in FORMATS.md
 * section 4. Metric names are indices into one string table that every
 * block's table extends in file order (a table that restates the strings
 * so far adds only what follows them); a result may name a string that a
 * later block brings, so the tables are gathered first. What is decoded: session details (device attributes,
 * versions, host, command line), and per result the kernel names, grid
 * and block, context and stream, process and thread, NVTX state, every
 * metric with its instanced values, the sections with the metrics they
 * list, and the rule results. Source entries and range results are
 * counted, not decoded.
 *
 * Robustness: every size is checked against the bytes that remain; a
 * truncated or corrupt container is an error naming the byte offset.
 * Unknown fields are skipped and listed in report->skipped; a format
 * version newer than 7 loads what it can, with a warning. A launch that
 * ncu could not measure (no launch statistics, NaN values) is kept and
 * named in a warning.
 */
#ifndef GPULENS_NCUREP_H
#define GPULENS_NCUREP_H

#include <stddef.h>

struct report;

#define NCUREP_MAGIC		"NVR"	/* plus its NUL: 4 bytes */
#define NCUREP_KNOWN_VERSION	7

/* 1 if head starts with the .ncu-rep magic. */
int		 ncurep_probe(const void *head, size_t len);
/*
 * Decodes a whole report image. name is used in messages. Returns a
 * finished report (report_free) or NULL with *cause (caller frees).
 */
struct report	*ncurep_parse(const void *buf, size_t len, const char *name,
		    char **cause);
/* Reads path (plain, or zstd/gzip-compressed) and decodes it. */
struct report	*ncurep_load(const char *path, char **cause);

#endif
