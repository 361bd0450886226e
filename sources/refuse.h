/*
 * refuse: the one-line refusals for a file that the verb asked cannot
 * read. Each names what the file was recognised as and which verbs or
 * formats apply instead:
 *   - an SQLite database of no schema gpulens reads: what it is where that
 *     can be told (a rocprof-compute/Omniperf analysis database), else its
 *     first tables, and the SQLite formats gpulens reads;
 *   - an Nsight Compute report or CSV export given to a timeline verb: the
 *     report verbs that read it;
 *   - a timeline given to a report verb: what timeline it is, and that the
 *     timeline verbs read it.
 * Table names are profile strings: they are sanitised.
 */
#ifndef GPULENS_REFUSE_H
#define GPULENS_REFUSE_H

/* The verbs that read Nsight Compute reports. */
#define REFUSE_REPORT_VERBS \
	"launches, metrics, rules, roofline, info, summary and inspect"
/* The SQLite formats gpulens reads, as a refusal says them. */
#define REFUSE_SQLITE_FORMATS \
	"not an Nsight Systems export (nsys export --type sqlite), a " \
	"rocprofv3 rocpd database or a rocmProfileData (RPD) file, the " \
	"SQLite databases gpulens reads"

/* An SQLite database gpulens has no reader for (caller frees). */
char	*refuse_sqlite(const char *path);
/* An Nsight Compute report (csv: its CSV export) given to a timeline
 * verb (caller frees). */
char	*refuse_report(const char *path, int csv);
/* A file given to a report verb that is not an Nsight Compute report
 * (caller frees). */
char	*refuse_not_report(const char *path);

#endif
