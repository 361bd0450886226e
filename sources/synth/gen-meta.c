/*
 * gen-meta: the export's metadata (META_DATA_EXPORT, ANALYSIS_DETAILS), the
 * target's GPUs, contexts and streams, and the processes and threads.
 */

#include "config.h"

#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>

#include "sources/synth/gen-int.h"
#include "util/xmalloc.h"

/* A stable, made-up UUID for GPU i. */
static void
gpu_uuid(int i, char *buf, size_t len)
{
	uint64_t	x = 0x67706c656e73ULL + (uint64_t)i, a, b;

	a = gen_rng_splitmix64(&x);
	b = gen_rng_splitmix64(&x);
	snprintf(buf, len, "%08x-%04x-%04x-%04x-%012llx",
	    (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
	    (unsigned)a & 0xffff, (unsigned)(b >> 48),
	    (unsigned long long)(b & 0xffffffffffffULL));
}

void
gen_meta_targets(struct gen *g)
{
	static const int	 bus[] = { 0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab,
	    0xba, 0xdb };
	const struct rank	*r;
	const struct proc	*p;
	sqlite3_stmt		*st;
	char			 uuid[64], busloc[32];
	int			 i;

	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,"
	    "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
	    "?,?)");
	for (i = 0; i < g->nranks; i++) {
		gpu_uuid(i, uuid, sizeof uuid);
		snprintf(busloc, sizeof busloc, "0000:%02x:00.0",
		    i < 8 ? bus[i] : (0x0f + 9 * i) & 0xff);
		gen_sql_put(g, st,
		    "ldssdlllldd" "sdsdss" "dddddddddddddddddddddddd",
		    (int64_t)VM_BITS, i, "NVIDIA H100 80GB HBM3", busloc, 1,
		    (int64_t)52428800, (int64_t)85520809984LL,
		    (int64_t)3352320000000LL, (int64_t)1980000000, 132, 0, uuid,
		    0, "GH100", i, "", "", 161, 0, 65536, 4, 65536, 49152,
		    232448, 233472, 65536, 32, 3, 64, 32, 1024, 1024, 1024, 64,
		    2147483647, 65535, 65535, 9, 0, 9, 0);
	}
	gen_sql_finish(st);

	st = gen_sql_prep(g,
	    "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		gpu_uuid(i, uuid, sizeof uuid);
		gen_sql_put(g, st, "dddsd", i, i,
		    (int)g->procs[g->ranks[i].proc].pid, uuid, 132);
	}
	gen_sql_finish(st);

	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES "
	    "(?,?,?,?,?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		gen_sql_put(g, st, "ddddddddd", (int)r->stream[S_COMPUTE], 0, 1,
		    (int)g->procs[r->proc].pid, i, (int)r->ctx, 0, 0, 0);
	}
	gen_sql_finish(st);

	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES "
	    "(?,?,?,?,?,?,?)");
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		p = &g->procs[r->proc];
		gen_sql_put(g, st, "ddddddd", (int)r->stream[S_COMPUTE], 0, 1,
		    (int)p->pid, (int)r->ctx, 0, 3);	/* the null stream */
		gen_sql_put(g, st, "ddddddd", (int)r->stream[S_NCCL], 0, 1,
		    (int)p->pid, (int)r->ctx, 0, 2);	/* non-blocking */
		gen_sql_put(g, st, "ddddddd", (int)r->stream[S_COPY], 0, 1,
		    (int)p->pid, (int)r->ctx, 0, 2);
	}
	gen_sql_finish(st);

	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_SESSION_START_TIME "
	    "VALUES (?,?,?,?)");
	gen_sql_put(g, st, "lssl", (int64_t)UTC_EPOCH, "2026-01-01T00:00:00",
	    "2026-01-01T00:00:00", (int64_t)SESSION_START);
	gen_sql_finish(st);

	st = gen_sql_prep(g,
	    "INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (?,?,?,?,?)");
	gen_sql_put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)", "CpuCores",
	    1, "64");
	gen_sql_put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)",
	    "NvDriverVersion", 205, "580.95.05");
	gen_sql_put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)",
	    "OsDescription", 605, "synthetic trace (gpulens demo)");
	gen_sql_put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)",
	    "CudaDriverVersion", 611, "13000");
	gen_sql_put(g, st, "lssds", (int64_t)VM_BITS, "Local (CLI)", "Hostname",
	    619, "gpulens-demo");
	gen_sql_finish(st);
}

void
gen_meta_processes(struct gen *g)
{
	sqlite3_stmt		*st, *tn;
	const struct rank	*r;
	const struct proc	*p;
	uint64_t		 launcher = VM_BITS | (3100ULL << 24);
	char			*s;
	int			 i;

	st = gen_sql_prep(g, "INSERT INTO PROCESSES VALUES (?, ?, ?)");
	tn = gen_sql_prep(g, "INSERT INTO ThreadNames VALUES (?, ?, ?)");
	gen_sql_put(g, st, "lds", (int64_t)launcher, 3100, "torchrun");
	gen_sql_put(g, tn, "ddl", (int)gen_strings_intern(g, "torchrun"), 20,
	    (int64_t)(launcher | 3100));
	gen_sql_put(g, tn, "ddl", (int)gen_strings_intern(g, "pt_elastic"), 20,
	    (int64_t)(launcher | 3105));
	for (i = 0; i < g->nprocs; i++) {
		p = &g->procs[i];
		gen_sql_put(g, st, "lds", (int64_t)p->gpid, (int)p->pid,
		    "python3");
		gen_sql_put(g, tn, "ddl", (int)gen_strings_intern(g, "[NSys]"),
		    10, (int64_t)(p->gpid | (p->pid + 2)));
		gen_sql_put(g, tn, "ddl",
		    (int)gen_strings_intern(g, "CUPTI worker thread"), 10,
		    (int64_t)(p->gpid | (p->pid + 5)));
		gen_sql_put(g, tn, "ddl",
		    (int)gen_strings_intern(g, "cuda-EvtHandlr"), 20,
		    (int64_t)(p->gpid | (p->pid + 7)));
	}
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		p = &g->procs[r->proc];
		gen_sql_put(g, tn, "ddl", (int)gen_strings_intern(g, "python3"),
		    20, (int64_t)r->gtid[TH_MAIN]);
		s = xasprintf("pt_autograd_%d", r->local);
		gen_sql_put(g, tn, "ddl", (int)gen_strings_intern(g, s), 20,
		    (int64_t)r->gtid[TH_AUTOGRAD]);
		free(s);
		if (g->nranks > 1) {
			gen_sql_put(g, tn, "ddl",
			    (int)gen_strings_intern(g, "pt_nccl_watchdg"), 20,
			    (int64_t)(p->gpid | (p->pid + TID_WATCHDOG +
			    (uint32_t)r->local)));
		}
	}
	gen_sql_finish(st);
	gen_sql_finish(tn);
}

static void	gen_meta_put(struct gen *, sqlite3_stmt *, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));

/* One META_DATA_EXPORT row: key and the value printf() makes of fmt. */
static void
gen_meta_put(struct gen *g, sqlite3_stmt *st, const char *key,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	gen_sql_put(g, st, "ss", key, s);
	free(s);
}

void
gen_meta_export(struct gen *g)
{
	sqlite3_stmt	*st;
	char		*s;

	st = gen_sql_prep(g, "INSERT INTO META_DATA_EXPORT VALUES (?, ?)");
	gen_sql_put(g, st, "ss", "EXPORT_PRODUCT_NAME",
	    "gpulens demo generator");
	gen_sql_put(g, st, "ss", "EXPORT_PRODUCT_VERSION", GEN_PRODUCT_VERSION);
	gen_sql_put(g, st, "ss", "EXPORT_SCHEMA_VERSION", "3.25.0");
	gen_sql_put(g, st, "ss", "EXPORT_SCHEMA_VERSION_MAJOR", "3");
	gen_sql_put(g, st, "ss", "EXPORT_SCHEMA_VERSION_MINOR", "25");
	gen_sql_put(g, st, "ss", "EXPORT_SCHEMA_VERSION_MICRO", "0");
	gen_sql_put(g, st, "ss", "EXPORT_PARAM_EXPORT_TYPE", "SQLite");
	gen_meta_put(g, st, "GPULENS_DEMO_SEED", "%llu",
	    (unsigned long long)g->o.seed);
	gen_meta_put(g, st, "GPULENS_DEMO_EVENTS", "%llu",
	    (unsigned long long)g->o.events);
	gen_meta_put(g, st, "GPULENS_DEMO_GPUS", "%d", g->nranks);
	gen_meta_put(g, st, "GPULENS_DEMO_PROCESSES", "%d", g->nprocs);
	gen_meta_put(g, st, "GPULENS_DEMO_LAYERS", "%d", g->layers);
	gen_meta_put(g, st, "GPULENS_DEMO_ITERATIONS", "%d", g->niters);
	gen_meta_put(g, st, "GPULENS_DEMO_STRAGGLER", "%d", g->straggler);
	if (g->o.clean)
		gen_sql_put(g, st, "ss", "GPULENS_DEMO_CLEAN", "1");
	if (g->o.shape == GEN_SHAPE_THREAD_NAME)
		gen_sql_put(g, st, "ss", "GPULENS_DEMO_SHAPE", "thread-name");
	if (g->o.quirks != 0) {
		s = xasprintf("0x%x", g->o.quirks);
		gen_sql_put(g, st, "ss", "GPULENS_DEMO_QUIRKS", s);
		free(s);
	}
	s = xasprintf("%.3f", g->o.slowdown);
	gen_sql_put(g, st, "ss", "GPULENS_DEMO_SLOWDOWN", s);
	free(s);
	if (g->o.plant != 0) {
		char	buf[256];
		size_t	o = 0;
		int	b;

		buf[0] = '\0';
		for (b = 0; b < GEN_PLANT_COUNT; b++)
			if (g->o.plant & (1u << b))
				o += (size_t)snprintf(buf + o, sizeof buf - o,
				    "%s%s", o > 0 ? "," : "",
				    gen_plant_name(b));
		gen_sql_put(g, st, "ss", "GPULENS_DEMO_PLANT", buf);
	}
	gen_sql_finish(st);
}

void
gen_meta_analysis(struct gen *g)
{
	sqlite3_stmt	*st;
	int64_t		 stop;

	stop = max64(g->last, SESSION_START) + 50 * MS;
	st = gen_sql_prep(g,
	    "INSERT INTO ANALYSIS_DETAILS VALUES (?, ?, ?, ?)");
	gen_sql_put(g, st, "llll", (int64_t)VM_BITS,
	    stop - (int64_t)SESSION_START, (int64_t)SESSION_START, stop);
	gen_sql_finish(st);
}
