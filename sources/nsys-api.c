/*
 * nsys-api: the CPU call tables: CUDA runtime and driver API calls
 * (CUPTI_ACTIVITY_KIND_RUNTIME; a name that starts with "cu" but not with
 * "cuda" is a driver call, EVF_DRIVER) and OS runtime calls (OSRT_API; rows
 * whose eventClass is not the OS runtime class are kept with EVF_NOTOSRT),
 * on per-thread tracks. Each keeps its callchainId in aux until
 * nsys-sample.c links it to its call chain.
 */
#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"

static const char *const api_cols[] = {
	"!start", "!end", "globalTid", "correlationId", "nameId", "eventClass",
	"callchainId"
};
enum { A_ROWID, A_START, A_END, A_TID, A_CORR, A_NAME, A_CLASS, A_CHAIN };

static void
nsys_cpu_row(struct nsys *n, const struct nsys_row *st, int kind,
    enum track_type type)
{
	struct lane_event	ev;
	uint32_t		t;

	t = nsys_track_cpu(n, type, (uint64_t)row_i64(st, A_TID), 0);
	nsys_row_event(st, &ev, A_ROWID, A_START, A_END);
	ev.kind = (uint8_t)kind;
	/* The source's callchainId, for nsys_sample_read() to turn into
	 * the model's chain. */
	ev.aux = NONE32;
	if (!row_null(st, A_CHAIN) && row_i64(st, A_CHAIN) >= 0 &&
	    row_i64(st, A_CHAIN) < NONE32)
		ev.aux = row_u32(st, A_CHAIN);
	if (!row_null(st, A_NAME))
		ev.name = nsys_db_str(&n->d, row_i64(st, A_NAME));
	if (kind == EV_API) {
		ev.corr = row_u32(st, A_CORR);
		if (nsys_sflags(n, ev.name) & SF_DRIVER)
			ev.flags |= EVF_DRIVER;
	} else if (!row_null(st, A_CLASS) &&
	    row_i64(st, A_CLASS) != n->osrt_class)
		ev.flags |= EVF_NOTOSRT;	/* e.g. OSRT start/finish */
	builder_event(n->b, t, &ev);
}

static void
nsys_api_row(struct nsys *n, const struct nsys_row *st)
{
	nsys_cpu_row(n, st, EV_API, TRACK_API);
}

static void
nsys_osrt_row(struct nsys *n, const struct nsys_row *st)
{
	nsys_cpu_row(n, st, EV_OSRT, TRACK_OSRT);
}

/* The CUDA runtime and driver API calls, and the OS runtime calls. */
int
nsys_api_read(struct nsys *n)
{
	static const struct nsys_table	tables[] = {
		NSYS_TABLE("CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA API", api_cols,
		    nsys_api_row),
		NSYS_TABLE("OSRT_API", "OS runtime", api_cols, nsys_osrt_row),
	};

	return nsys_scan_tables(n, tables, sizeof tables / sizeof *tables);
}
