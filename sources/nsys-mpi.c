/*
 * nsys-mpi: the MPI trace tables of newer Nsight Systems exports
 * (`--trace=mpi`; FORMATS.md 1.6): MPI_P2P_EVENTS, MPI_COLLECTIVES_EVENTS,
 * MPI_START_WAIT_EVENTS and MPI_OTHER_EVENTS (start, end, globalTid,
 * textId naming the call, and per table tag, remoteRank, size, rootRank,
 * recvSize), and MPI_RANKS (globalTid, rank).
 *
 * Each call becomes an NVTX range named after the call ("MPI_Send") on its
 * thread, in an NVTX domain "MPI" of its process (source id
 * DOMAIN_MPI_TABLES, model.h): the shape older exports
 * give the same calls (NVTX ranges of domain MPI), so the `mpi` analysis
 * reads either. The bytes a call moved, where the table records them, are
 * the range's unsigned payload: size for point-to-point calls; for
 * collectives the send size, or the receive size where no send size is
 * recorded. MPI_RANKS gives each process its rank (process.rank) where the
 * source gave none.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"

enum { MP_ROWID, MP_START, MP_END, MP_TID, MP_TEXT, MP_SIZE, MP_RECV,
    MP_NCOLS };
static const char *const mp_cols[] = {
	"!start", "end", "!globalTid", "textId", "size", "recvSize"
};

static void
nsys_mpi_row(struct nsys *n, const struct nsys_row *st)
{
	struct lane_event	 ev;
	struct nvtx_info	 info;
	uint64_t		 gtid = (uint64_t)row_i64(st, MP_TID);
	uint32_t		 t;

	/* The domain, named, before the track asks for it unnamed. */
	builder_domain(n->b, nsys_entity_process(n, gtid), DOMAIN_MPI_TABLES,
	    "MPI");
	t = nsys_track_cpu(n, TRACK_NVTX, gtid, DOMAIN_MPI_TABLES);
	nsys_row_event(st, &ev, MP_ROWID, MP_START, MP_END);
	ev.kind = EV_NVTX;
	ev.name = row_null(st, MP_TEXT) ? 0 :
	    nsys_db_str(&n->d, row_i64(st, MP_TEXT));
	memset(&info, 0, sizeof info);
	info.domain = n->m->tracks[t].domain;
	if (!row_null(st, MP_SIZE) && row_i64(st, MP_SIZE) > 0) {
		info.payload_type = NVTX_PAYLOAD_UINT;
		info.payload.u = (uint64_t)row_i64(st, MP_SIZE);
	} else if (!row_null(st, MP_RECV) && row_i64(st, MP_RECV) > 0) {
		info.payload_type = NVTX_PAYLOAD_UINT;
		info.payload.u = (uint64_t)row_i64(st, MP_RECV);
	}
	ev.aux = builder_nvtx(n->b, &info);
	builder_event(n->b, t, &ev);
}

/* MPI_RANKS: the rank of each thread's process, where none is known. */
static int
nsys_mpi_ranks(struct nsys *n)
{
	static const char *const cols[] = { "!globalTid", "!rank" };
	sqlite3_stmt	*st;
	uint32_t	 p;
	int		 r;

	if (!nsys_db_has(&n->d, "MPI_RANKS"))
		return 0;
	st = nsys_db_select(&n->d, "MPI_RANKS", cols, 2, NULL, NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	while ((r = nsys_db_step(&n->d, st, "MPI_RANKS")) == 1) {
		if (col_null(st, 1) || col_null(st, 2) || col_i64(st, 2) < 0 ||
		    col_i64(st, 2) > INT32_MAX)
			continue;
		p = builder_find_process(n->b, (uint64_t)col_i64(st, 1) &
		    NSYS_PROC_MASK);
		if (p != NONE32 && n->m->processes[p].rank < 0)
			n->m->processes[p].rank = (int32_t)col_i64(st, 2);
	}
	sqlite3_finalize(st);
	return r < 0 ? -1 : 0;
}

int
nsys_mpi_read(struct nsys *n)
{
	static const char *const tables[] = { "MPI_P2P_EVENTS",
	    "MPI_COLLECTIVES_EVENTS", "MPI_START_WAIT_EVENTS",
	    "MPI_OTHER_EVENTS" };
	size_t	i;

	for (i = 0; i < sizeof tables / sizeof *tables; i++)
		if (nsys_scan(n, tables[i], "MPI", mp_cols, MP_NCOLS - 1,
		    nsys_mpi_row) != 0)
			return -1;
	return nsys_mpi_ranks(n);
}
