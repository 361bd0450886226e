/*
 * gen-sched: plant sched, the thread scheduling Nsight Systems records with
 * --cpuctxsw (SCHED_EVENTS), made from the API calls already written so
 * its answers are known from them:
 *   - every thread with API calls is scheduled in 1 us before its first
 *     call and out 1 us after its last (the last out Terminated);
 *   - it is scheduled out (Interruptible) during each blocking call longer
 *     than 4 us (cudaStreamSynchronize, cudaDeviceSynchronize, synchronous
 *     cudaMemcpy), from 2 us after the call starts to 2 us before it ends;
 *   - after every fourth kernel launch it is preempted for 3 us (the gap
 *     before the next call is at least 4 us);
 *   - it runs on CPU (pid + tid) mod 16, wakes from its k-th wait on that
 *     CPU + k (mod 16), and comes back from a preemption on the first.
 * A thread's running time is then its [first - 1 us, last + 1 us] less its
 * waits and preemptions, which the tests check against SQL over the rows.
 */

#include "config.h"

#include <stdio.h>

#include "sources/synth/gen-int.h"

void
gen_sched_write(struct gen *g)
{
	char	sql[4096];
	long long a = g->asid[A_STREAM_SYNC], b = g->asid[A_DEVICE_SYNC],
		  c = g->asid[A_MEMCPY_SYNC], l = g->asid[A_LAUNCH];

	gen_sql_exec(g, "CREATE TABLE SCHED_EVENTS (start INTEGER NOT NULL, "
	    "cpu INTEGER NOT NULL, isSchedIn INTEGER NOT NULL, "
	    "globalTid INTEGER, threadState INTEGER, threadBlock INTEGER);");
	/* The waits, numbered per thread for the CPU moves. */
	snprintf(sql, sizeof sql,
	    "CREATE TEMP TABLE w AS SELECT globalTid AS g, start AS s, end AS e,"
	    " row_number() OVER (PARTITION BY globalTid ORDER BY start) AS k"
	    " FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE nameId IN (%lld, %lld,"
	    " %lld) AND end - start > 4000;"
	    "CREATE TEMP TABLE b AS SELECT globalTid AS g, min(start) AS s,"
	    " max(end) AS e, (((globalTid >> 24) & 16777215) +"
	    " (globalTid & 16777215)) %% 16 AS cpu"
	    " FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY globalTid;"
	    "INSERT INTO SCHED_EVENTS SELECT s - 1000, cpu, 1, g, 1, NULL"
	    " FROM b;"
	    "INSERT INTO SCHED_EVENTS SELECT b.e + 1000,"
	    " (b.cpu + (SELECT count(*) FROM w WHERE w.g = b.g)) %% 16, 0,"
	    " b.g, 5, NULL FROM b;"
	    "INSERT INTO SCHED_EVENTS SELECT w.s + 2000, (b.cpu + w.k - 1) %% 16,"
	    " 0, w.g, 2, 0 FROM w JOIN b ON b.g = w.g;"
	    "INSERT INTO SCHED_EVENTS SELECT w.e - 2000, (b.cpu + w.k) %% 16,"
	    " 1, w.g, 1, NULL FROM w JOIN b ON b.g = w.g;"
	    "INSERT INTO SCHED_EVENTS SELECT r.end, b.cpu, 0, r.globalTid, 1,"
	    " 0 FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN b ON b.g = r.globalTid"
	    " WHERE r.nameId = %lld AND r.rowid %% 4 = 0 AND r.end < b.e;"
	    "INSERT INTO SCHED_EVENTS SELECT r.end + 3000, b.cpu, 1,"
	    " r.globalTid, 1, NULL FROM CUPTI_ACTIVITY_KIND_RUNTIME r"
	    " JOIN b ON b.g = r.globalTid WHERE r.nameId = %lld AND"
	    " r.rowid %% 4 = 0 AND r.end < b.e;"
	    "DROP TABLE w; DROP TABLE b;", a, b, c, l, l);
	gen_sql_exec(g, sql);
}
