/*
 * nsys-sched: thread scheduling from SCHED_EVENTS (nsys --cpuctxsw).
 *
 * Each row is one switch of a thread (globalTid) onto or off a CPU at a
 * time (start): isSchedIn non-zero for in, 0 for out; newer exports add
 * the thread's state at the switch (threadState, ENUM_SAMPLING_THREAD_STATE)
 * and what it blocked on (threadBlock), older ones had an id column
 * (FORMATS.md 1.6, 1.7). Only start, cpu, isSchedIn and globalTid are
 * needed; threadState is kept where present.
 *
 * The rows of each thread, in time order (ties in row order), become runs
 * (model.h, struct sched_run): a sched-in opens one, the next sched-out
 * closes it. A sched-out while not running and a sched-in while running
 * are ignored; a run still open at the thread's last row ends at the
 * table's last time (SCHEDF_OPEN). Rows with a NULL globalTid, or whose
 * start is not an integer within the model's time bound, are not loaded and
 * counted in one warning.
 *
 * The runs go into the model's side table, not onto tracks: they do not
 * move the trace's span or event counts, and threads seen only here are
 * not declared as entities (the table lists every thread of the profiled
 * processes, most of which did nothing else); each keeps its own ids and
 * names. This runs after every event table, so it interns no string
 * before theirs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "util/hmap.h"
#include "util/xmalloc.h"

#define NSYS_SCHED_RESERVE	((size_t)1 << 24)	/* rows, at most */

struct sched_row {
	uint64_t	 gtid;
	int64_t		 t;
	uint32_t	 seq;		/* row order, for ties */
	uint16_t	 cpu;
	uint8_t		 in;
	uint8_t		 state;
};

static int
nsys_sched_cmp(const void *a, const void *b)
{
	const struct sched_row	*x = a, *y = b;

	if (x->gtid != y->gtid)
		return x->gtid < y->gtid ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The thread entry of gtid: ids and names as the other tables give them. */
static void
nsys_sched_thread(struct nsys *n, uint64_t gtid, struct sched_thread *th)
{
	uint64_t	 gpid = gtid & NSYS_PROC_MASK;
	uint32_t	 v;
	const char	*s;

	memset(th, 0, sizeof *th);
	th->source_id = gtid;
	th->tid = NSYS_TID(gtid);
	th->pid = NSYS_PID(gtid);
	if (hmap_get(&n->thread_name, gtid, &v) &&
	    (s = nsys_db_str_text(&n->d, v)) != NULL && *s != '\0')
		th->name = builder_intern(n->b, s);
	s = NULL;
	if (hmap_get(&n->proc_info, gpid, &v))
		s = n->pnames[v];
	else if (hmap_get(&n->thread_name, gpid | NSYS_PID(gpid), &v))
		s = nsys_db_str_text(&n->d, v);
	if (s != NULL && *s != '\0')
		th->pname = builder_intern(n->b, s);
}

/* Turns the sorted rows into threads and runs in the model. */
static void
nsys_sched_build(struct nsys *n, struct sched_row *r, size_t nr, int64_t last)
{
	struct model		*m = n->m;
	struct sched_thread	*th;
	struct sched_run	*run;
	size_t			 i, j, nth = 0, thcap = 0, rcap = 0;
	int			 open;

	/* At most one run per two rows, nearly always. */
	XGROW(m->sched_runs, rcap, nr / 2 + 1);

	for (i = 0; i < nr; i = j) {
		for (j = i; j < nr && r[j].gtid == r[i].gtid; j++)
			;
		XGROW(m->sched_threads, thcap, nth + 1);
		th = &m->sched_threads[nth];
		nsys_sched_thread(n, r[i].gtid, th);
		th->run0 = (uint32_t)m->nsched_runs;
		open = 0;
		for (; i < j; i++) {
			if (r[i].in && !open) {
				XGROW(m->sched_runs, rcap,
				    m->nsched_runs + 1);
				run = &m->sched_runs[m->nsched_runs++];
				memset(run, 0, sizeof *run);
				run->start = run->end = r[i].t;
				run->thread = (uint32_t)nth;
				run->cpu = r[i].cpu;
				open = 1;
			} else if (!r[i].in && open) {
				run = &m->sched_runs[m->nsched_runs - 1];
				run->end = r[i].t;
				run->state = r[i].state;
				open = 0;
			}
		}
		if (open) {
			run = &m->sched_runs[m->nsched_runs - 1];
			run->end = last;
			run->flags |= SCHEDF_OPEN;
		}
		th->nrun = (uint32_t)(m->nsched_runs - th->run0);
		nth++;
	}
	m->nsched_threads = nth;
}

int
nsys_sched_read(struct nsys *n)
{
	static const char *const cols[] = {
		"!start", "!cpu", "!isSchedIn", "!globalTid", "threadState"
	};
	struct sched_row	*rows = NULL;
	sqlite3_stmt		*st;
	size_t			 nr = 0, cap = 0;
	uint64_t		 bad = 0;
	int64_t			 t, last = INT64_MIN, s;
	uint64_t		 est;
	int			 rc, have[5];

	if (!nsys_db_has(&n->d, "SCHED_EVENTS"))
		return 0;
	st = nsys_db_select(&n->d, "SCHED_EVENTS", cols, 5, have, NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	est = nsys_db_estimate(&n->d, "SCHED_EVENTS");
	progress_phase(n->prog, "scheduling", est);
	/* Room for the rows the table says it has (its largest rowid, capped:
	 * untouched room costs no memory, growing copies). */
	XGROW(rows, cap, est < NSYS_SCHED_RESERVE ? (size_t)est + 1 :
	    NSYS_SCHED_RESERVE);
	while ((rc = nsys_db_step(&n->d, st, "SCHED_EVENTS")) == 1) {
		if (sqlite3_column_type(st, 1) != SQLITE_INTEGER ||
		    sqlite3_column_type(st, 4) != SQLITE_INTEGER ||
		    (t = col_i64(st, 1)) < -MODEL_TIME_MAX ||
		    t > MODEL_TIME_MAX || nr >= UINT32_MAX - 1) {
			bad++;
			continue;
		}
		XGROW(rows, cap, nr + 1);
		rows[nr].gtid = (uint64_t)col_i64(st, 4);
		rows[nr].t = t;
		rows[nr].seq = (uint32_t)nr;
		s = col_i64(st, 2);
		rows[nr].cpu = s < 0 || s > UINT16_MAX ? UINT16_MAX :
		    (uint16_t)s;
		rows[nr].in = col_i64(st, 3) != 0;
		s = have[4] && !col_null(st, 5) ? col_i64(st, 5) : 0;
		rows[nr].state = s < 0 || s > UINT8_MAX ? 0 : (uint8_t)s;
		if (t > last)
			last = t;
		if ((++nr & (NSYS_ROWS_STEP - 1)) == 0)
			progress_rows(n->prog, nr);
	}
	progress_rows(n->prog, nr);
	sqlite3_finalize(st);
	if (rc < 0) {
		free(rows);
		return -1;
	}
	if (bad != 0)
		builder_warn(n->b, "SCHED_EVENTS: %llu rows not loaded (time or "
		    "thread missing or out of range)", (unsigned long long)bad);
	if (nr > 0) {
		qsort(rows, nr, sizeof *rows, nsys_sched_cmp);
		nsys_sched_build(n, rows, nr, last);
	}
	free(rows);
	return 0;
}
