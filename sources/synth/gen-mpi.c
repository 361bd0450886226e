/*
 * gen-mpi: the planted MPI calls (plant mpi; gen.h), written after the
 * training rows as newer Nsight Systems exports them: MPI_P2P_EVENTS,
 * MPI_COLLECTIVES_EVENTS, MPI_START_WAIT_EVENTS, MPI_OTHER_EVENTS and
 * MPI_RANKS, on each rank's main thread. Each rank r (of n) makes
 * GEN_MPI_ROUNDS rounds, spread evenly over the trace's span, each of:
 *   MPI_Allreduce  200 us, size 1 MiB, recvSize 1 MiB
 *   MPI_Send        20 us, size 4096 to rank (r + 1) mod n
 *   MPI_Recv        30 us, size 4096 from rank (r - 1) mod n
 *   MPI_Wait        50 (r + 1) us
 *   MPI_Comm_rank    1 us
 * one after the other, so a rank's MPI time outside set-up is
 * GEN_MPI_ROUNDS * (250 + 50 (r + 1)) us, and MPI_RANKS gives rank r.
 */

#include "config.h"

#include "sources/synth/gen.h"
#include "sources/synth/gen-int.h"

static const char gen_mpi_ddl[] =
"CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL);"
"CREATE TABLE MPI_P2P_EVENTS (start INTEGER NOT NULL, end INTEGER,"
" globalTid INTEGER, textId INTEGER, commHandle INTEGER, tag INTEGER,"
" remoteRank INTEGER, size INTEGER, requestHandle INTEGER);"
"CREATE TABLE MPI_COLLECTIVES_EVENTS (start INTEGER NOT NULL, end INTEGER,"
" globalTid INTEGER, textId INTEGER, commHandle INTEGER, rootRank INTEGER,"
" size INTEGER, recvSize INTEGER, requestHandle INTEGER);"
"CREATE TABLE MPI_START_WAIT_EVENTS (start INTEGER NOT NULL, end INTEGER,"
" globalTid INTEGER, textId INTEGER, requestHandle INTEGER);"
"CREATE TABLE MPI_OTHER_EVENTS (start INTEGER NOT NULL, end INTEGER,"
" globalTid INTEGER, textId INTEGER);";

enum { GM_ALLREDUCE, GM_SEND, GM_RECV, GM_WAIT, GM_COMM_RANK, GM_COUNT };
static const char *const gen_mpi_names[GM_COUNT] = {
	"MPI_Allreduce", "MPI_Send", "MPI_Recv", "MPI_Wait", "MPI_Comm_rank"
};

void
gen_mpi_write(struct gen *g)
{
	sqlite3_stmt	*st, *p2p, *coll, *wait, *other;
	uint32_t	 sid[GM_COUNT];
	size_t		 n0 = g->nstrs, i;
	int64_t		 t, span = g->last - g->first;
	uint64_t	 gtid;
	int		 r, k, n = g->nranks;

	if (!gen_plant_on(g, GEN_PLANT_MPI))
		return;
	gen_sql_exec(g, gen_mpi_ddl);
	for (k = 0; k < GM_COUNT; k++)
		sid[k] = gen_strings_intern(g, gen_mpi_names[k]);
	st = gen_sql_prep(g, "INSERT INTO StringIds VALUES (?, ?)");
	for (i = n0; i < g->nstrs; i++)
		gen_sql_put(g, st, "ds", (int)i, g->strs[i]);
	gen_sql_finish(st);

	st = gen_sql_prep(g, "INSERT INTO MPI_RANKS VALUES (?, ?)");
	for (r = 0; r < n; r++)
		gen_sql_put(g, st, "ld", (int64_t)g->ranks[r].gtid[TH_MAIN], r);
	gen_sql_finish(st);

	coll = gen_sql_prep(g, "INSERT INTO MPI_COLLECTIVES_EVENTS VALUES "
	    "(?, ?, ?, ?, 1, 0, 1048576, 1048576, NULL)");
	p2p = gen_sql_prep(g, "INSERT INTO MPI_P2P_EVENTS VALUES "
	    "(?, ?, ?, ?, 1, 7, ?, 4096, NULL)");
	wait = gen_sql_prep(g, "INSERT INTO MPI_START_WAIT_EVENTS VALUES "
	    "(?, ?, ?, ?, NULL)");
	other = gen_sql_prep(g, "INSERT INTO MPI_OTHER_EVENTS VALUES "
	    "(?, ?, ?, ?)");
	for (r = 0; r < n; r++) {
		gtid = g->ranks[r].gtid[TH_MAIN];
		for (k = 0; k < GEN_MPI_ROUNDS; k++) {
			t = g->first + span / (GEN_MPI_ROUNDS + 1) * (k + 1);
			gen_sql_put(g, coll, "llld", t, (int64_t)(t + 200 * US),
			    (int64_t)gtid, (int)sid[GM_ALLREDUCE]);
			t += 200 * US;
			gen_sql_put(g, p2p, "llldd", t, (int64_t)(t + 20 * US),
			    (int64_t)gtid, (int)sid[GM_SEND], (r + 1) % n);
			t += 20 * US;
			gen_sql_put(g, p2p, "llldd", t, (int64_t)(t + 30 * US),
			    (int64_t)gtid, (int)sid[GM_RECV], (r + n - 1) % n);
			t += 30 * US;
			gen_sql_put(g, wait, "llld", t,
			    (int64_t)(t + 50 * US * (r + 1)),
			    (int64_t)gtid, (int)sid[GM_WAIT]);
			t += 50 * US * (r + 1);
			gen_sql_put(g, other, "llld", t, (int64_t)(t + US),
			    (int64_t)gtid, (int)sid[GM_COMM_RANK]);
		}
	}
	gen_sql_finish(coll);
	gen_sql_finish(p2p);
	gen_sql_finish(wait);
	gen_sql_finish(other);
}
