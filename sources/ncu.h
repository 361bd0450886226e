/*
 * ncu: the entry point for Nsight Compute reports, which are not
 * timelines and so do not go through source_load(): detection by content
 * (the "NVR\0" magic of a .ncu-rep, plain or compressed, or the header of
 * an ncu CSV export) and loading into a struct report (report.h).
 */
#ifndef GPULENS_NCU_H
#define GPULENS_NCU_H

#include <stddef.h>

struct report;

enum ncu_kind {
	NCU_NONE = 0,		/* not an Nsight Compute report */
	NCU_REP,		/* .ncu-rep or .ncu-repz */
	NCU_CSV,		/* ncu --csv export */
};

/*
 * What path holds, looking at its first (decompressed) bytes. Returns
 * NCU_NONE for other formats and for files that cannot be read (the
 * timeline loader then reports the error).
 */
enum ncu_kind	 ncu_detect(const char *path);
/* Loads a report. Returns it (report_free) or NULL with *cause. */
struct report	*ncu_load(const char *path, char **cause);
/*
 * Reads path whole (plain or compressed, at most max bytes once
 * decompressed) and gives it to parse (name: path). Returns parse's report
 * (report_free) or NULL with *cause.
 */
struct report	*ncu_read(const char *path, size_t max,
		    struct report *(*parse)(const void *, size_t,
		    const char *name, char **cause), char **cause);

#endif
