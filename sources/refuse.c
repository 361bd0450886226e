/*
 * refuse: what a file gpulens cannot read for this verb is (see refuse.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sources/ncu.h"
#include "sources/refuse.h"
#include "util/sanitize.h"
#include "sources/source.h"
#include "util/xmalloc.h"

#define REFUSE_TABLES	6	/* table names an unknown database shows */

/*
 * rocprof-compute's analysis database (`rocprof-compute analyze
 * --output-format db`, read by ROCm Optiq): a workload table whose rows
 * carry the system information, roofline benchmark and profiling
 * configuration as JSON columns, and dispatch and metric tables beside it.
 */
static int
refuse_is_rocprof_compute(sqlite3 *db)
{
	sqlite3_stmt	*st;
	int		 n = 0;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master m, "
	    "pragma_table_info(m.name) c WHERE m.type IN ('table','view') AND "
	    "((lower(m.name) LIKE '%workload' AND c.name IN "
	    "('sys_info_extdata','roofline_bench_extdata',"
	    "'profiling_config_extdata')) OR (lower(m.name) LIKE '%dispatch' "
	    "AND c.name = 'dispatch_id') OR (lower(m.name) LIKE '%metric' AND "
	    "c.name = 'metric_id'))", -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	/* The workload's JSON columns, with a dispatch or metric table. */
	return n >= 3;
}

/* "tables a, b, c and 4 more", sanitised; NULL if it has none. */
static char *
refuse_tables(sqlite3 *db)
{
	sqlite3_stmt	*st;
	const char	*name;
	char		*s = NULL, *t, *safe;
	int		 n = 0;

	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", -1,
	    &st, NULL) != SQLITE_OK)
		return NULL;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if ((name = (const char *)sqlite3_column_text(st, 0)) == NULL)
			continue;
		if (n++ >= REFUSE_TABLES)
			continue;
		safe = sanitize_dup(name, 0);
		if (strlen(safe) > 40)
			strcpy(safe + 37, "...");
		t = xasprintf("%s%s%s", s != NULL ? s : "", s != NULL ? ", " :
		    "", safe);
		free(safe);
		free(s);
		s = t;
	}
	sqlite3_finalize(st);
	if (s == NULL)
		return NULL;
	if (n > REFUSE_TABLES) {
		t = xasprintf("%s and %d more", s, n - REFUSE_TABLES);
		free(s);
		s = t;
	}
	t = xasprintf("table%s %s", n == 1 ? "" : "s", s);
	free(s);
	return t;
}

char *
refuse_sqlite(const char *path)
{
	sqlite3	*db;
	char	*cause = NULL, *tables = NULL, *s;
	int	 rcp = 0;

	if ((db = source_sqlite_open(path, &cause)) != NULL) {
		rcp = refuse_is_rocprof_compute(db);
		if (!rcp)
			tables = refuse_tables(db);
		sqlite3_close(db);
	}
	free(cause);
	if (rcp)
		s = xasprintf("%s: a rocprof-compute (Omniperf) analysis "
		    "database, metrics derived per kernel and not a timeline: "
		    REFUSE_SQLITE_FORMATS "; rocprofv3 --kernel-trace "
		    "--output-format rocpd records the workload's timeline",
		    path);
	else
		s = xasprintf("%s: an SQLite database gpulens has no reader "
		    "for (%s): " REFUSE_SQLITE_FORMATS, path,
		    tables != NULL ? tables : "no tables");
	free(tables);
	return s;
}

char *
refuse_report(const char *path, int csv)
{
	return xasprintf("%s: an Nsight Compute %s, not a timeline: the "
	    "report verbs " REFUSE_REPORT_VERBS " read it, and so does the "
	    "terminal interface", path, csv ? "CSV export (ncu --csv)" :
	    "report");
}

char *
refuse_not_report(const char *path)
{
	const char	*what;
	char		*why = NULL, *s, *db;

	switch (source_detect(path, &what, &why)) {
	case DETECT_NSYS_SQLITE:
	case DETECT_NSYS_REP:
	case DETECT_ROCPD:
	case DETECT_RPD:
	case DETECT_ROCPROF_JSON:
		s = xasprintf("%s: not an Nsight Compute report but a "
		    "timeline (%s): the report verbs read .ncu-rep, .ncu-repz "
		    "and ncu --csv exports; a timeline is read by the timeline "
		    "verbs (summary, stats, timeline, findings and the others "
		    "'gpulens --help' lists)", path, what);
		break;
	case DETECT_SQLITE_OTHER:
		db = refuse_sqlite(path);
		s = xasprintf("%s; it is not an Nsight Compute report "
		    "(.ncu-rep, .ncu-repz or an ncu --csv export) either", db);
		free(db);
		break;
	case DETECT_JSON:
	case DETECT_GZIP:
	case DETECT_ZSTD:
		s = xasprintf("%s: not an Nsight Compute report (.ncu-rep, "
		    ".ncu-repz or an ncu --csv export) but a %s; a Kineto or "
		    "Chrome trace is read by the timeline verbs (summary, "
		    "stats, timeline, findings and the others 'gpulens --help' "
		    "lists)", path, what);
		break;
	default:
		s = xasprintf("%s: not an Nsight Compute report (.ncu-rep, "
		    ".ncu-repz or an ncu --csv export)%s%s", path,
		    why != NULL ? ": " : "", why != NULL ? why : "");
		break;
	}
	free(why);
	return s;
}
