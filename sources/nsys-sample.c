/*
 * nsys-sample: CPU samples and call chains (model/callchain.h).
 *
 * COMPOSITE_EVENTS holds the CPU samples (id, start, globalTid) and
 * SAMPLING_CALLCHAINS their stacks (id, symbol, module, stackDepth; depth 0
 * is the leaf, the sampled instruction's function). CUDA_CALLCHAINS and
 * OSRT_CALLCHAINS hold the stacks of the calls of CUPTI_ACTIVITY_KIND_RUNTIME
 * and OSRT_API, which name them by callchainId: nsys-api.c leaves that id
 * in the event's aux, and this file turns it into the model's chain index
 * (NONE32 where the table has no such chain). OSRT_API's callchainId is
 * the chain's id, 0 for none (the column is NOT NULL; chain ids start at
 * 1). The runtime calls of older exports (nsys 2022.2) number their
 * chains from 0 while CUDA_CALLCHAINS numbers them from 1 (the frames
 * show it: the chain with id k + 1 is the backtrace of the call with
 * callchainId k, with the call's own wrapper and call site), so where
 * some call has callchainId 0 and no chain has id 0, a call's chain is
 * callchainId + 1. Symbols and modules are
 * StringIds ids. Every column but id is optional; a table without the ones
 * it needs is skipped with a warning by nsys_db_select.
 *
 * Runs once every other table is read and the entities are in their final
 * order: a sampled thread refers to the model thread of the same globalTid
 * (if any) without declaring one.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "model/callchain.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "util/hmap.h"
#include "util/timing.h"
#include "util/xmalloc.h"

static const char *const chain_cols[] = {
	"!id", "symbol", "module", "stackDepth"
};
enum { C_ROWID, C_ID, C_SYM, C_MOD, C_DEPTH };

static const char *const sample_cols[] = { "!id", "!start", "globalTid" };
enum { S_ROWID, S_ID, S_START, S_TID };

struct nsys_samp {
	struct nsys		*n;
	struct cpusamp_build	 b;
	struct hmap		 chains[3];	/* source id -> chain */
	struct hmap		 threads;	/* globalTid -> sampled thread */
	struct hmap		 model_thr;	/* globalTid -> model thread */
	uint32_t		*run;
	size_t			 nrun, runcap;
	/* SAMPLING_CALLCHAINS ids are the samples' (COMPOSITE_EVENTS.id),
	 * dense from 1: their chains by id in an array (a map of a million
	 * samples would take eight times the memory), up to dense_max. */
	uint32_t		*dense;
	size_t			 ndense, densecap, dense_max;
};

enum { CH_SAMPLING, CH_CUDA, CH_OSRT };
static const char *const chain_tables[] = {
	"SAMPLING_CALLCHAINS", "CUDA_CALLCHAINS", "OSRT_CALLCHAINS"
};

static void
nsys_samp_flush(struct nsys_samp *s, struct hmap *map, int64_t id)
{
	uint32_t	c;
	size_t		old;

	if (s->nrun == 0)
		return;
	c = cpusamp_add_chain(&s->n->m->cs, &s->b, s->run, s->nrun);
	s->nrun = 0;
	if (map == &s->chains[CH_SAMPLING] && id >= 0 &&
	    (uint64_t)id < s->dense_max) {
		if ((size_t)id >= s->ndense) {
			old = s->ndense;
			XGROW(s->dense, s->densecap, (size_t)id + 1);
			s->ndense = (size_t)id + 1;
			memset(s->dense + old, 0xff, (s->ndense - old) *
			    sizeof *s->dense);
		}
		s->dense[id] = c;
		return;
	}
	hmap_put(map, (uint64_t)id, c);
}

/* The chain of sample id, or NONE32. */
static uint32_t
nsys_samp_of(const struct nsys_samp *s, int64_t id)
{
	uint32_t	c;

	if (id >= 0 && (uint64_t)id < s->dense_max)
		return (size_t)id < s->ndense ? s->dense[id] : NONE32;
	if (!hmap_get(&s->chains[CH_SAMPLING], (uint64_t)id, &c))
		return NONE32;
	return c;
}

/*
 * One call-chain table, its rows by id and depth (leaf first). Exports
 * write them in that order, so the table is read in its own order (a
 * sequential scan; ORDER BY through the primary key's index reads the
 * rows out of place and takes about twice as long); if a row comes out of
 * that order, the table is read again sorted (sorted 1), the chains made
 * so far left unused.
 */
static int
nsys_samp_chains(struct nsys_samp *s, int which, int sorted)
{
	struct nsys	*n = s->n;
	const char	*table = chain_tables[which];
	sqlite3_stmt	*st;
	int64_t		 id, cur = 0, depth, last = 0;
	uint32_t	 func, mod;
	int		 have[4], r, first = 1;

	if (!nsys_db_has(&n->d, table))
		return 0;
	st = nsys_db_select(&n->d, table, chain_cols,
	    sizeof chain_cols / sizeof *chain_cols, have,
	    sorted ? "ORDER BY 2, 5" : NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	progress_phase(n->prog, "call chains", nsys_db_estimate(&n->d, table));
	while ((r = nsys_db_step(&n->d, st, table)) == 1) {
		id = col_i64(st, C_ID);
		depth = col_i64(st, C_DEPTH);
		if (!sorted && !first && (id < cur || (id == cur &&
		    depth <= last))) {
			sqlite3_finalize(st);
			s->nrun = 0;
			hmap_free(&s->chains[which]);
			hmap_init(&s->chains[which]);
			if (which == CH_SAMPLING)
				s->ndense = 0;
			return nsys_samp_chains(s, which, 1);
		}
		last = depth;
		if (first || id != cur)
			nsys_samp_flush(s, &s->chains[which], cur);
		first = 0;
		cur = id;
		func = col_null(st, C_SYM) ? 0 :
		    nsys_db_str(&n->d, col_i64(st, C_SYM));
		mod = col_null(st, C_MOD) ? 0 :
		    nsys_db_str(&n->d, col_i64(st, C_MOD));
		XGROW(s->run, s->runcap, s->nrun + 1);
		s->run[s->nrun++] = cpusamp_frame(&n->m->cs, &s->b, func, mod);
	}
	sqlite3_finalize(st);
	if (r < 0)
		return -1;
	nsys_samp_flush(s, &s->chains[which], cur);
	return 0;
}

/* The sampled thread of a globalTid, made on first use. */
static uint32_t
nsys_samp_thread(struct nsys_samp *s, uint64_t gtid)
{
	struct csthread	 h;
	uint32_t	*v, name;
	int		 isnew;

	v = hmap_upsert(&s->threads, gtid, NONE32, &isnew);
	if (!isnew)
		return *v;
	memset(&h, 0, sizeof h);
	h.source_id = gtid;
	h.tid = NSYS_TID(gtid);
	h.pid = NSYS_PID(gtid);
	if (hmap_get(&s->n->thread_name, gtid, &name))
		h.name = nsys_db_str(&s->n->d, name);
	if (!hmap_get(&s->model_thr, gtid, &h.thread))
		h.thread = NONE32;
	*v = cpusamp_add_thread(&s->n->m->cs, &s->b, &h);
	return *v;
}

static int
nsys_samp_samples(struct nsys_samp *s)
{
	struct nsys	*n = s->n;
	const char	*table = "COMPOSITE_EVENTS";
	sqlite3_stmt	*st;
	uint64_t	 rows = 0, bad = 0;
	uint32_t	 c;
	int64_t		 t;
	int		 r;

	if (!nsys_db_has(&n->d, table))
		return 0;
	st = nsys_db_select(&n->d, table, sample_cols,
	    sizeof sample_cols / sizeof *sample_cols, NULL, NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	progress_phase(n->prog, "CPU samples", nsys_db_estimate(&n->d, table));
	while ((r = nsys_db_step(&n->d, st, table)) == 1) {
		if ((++rows & (NSYS_ROWS_STEP - 1)) == 0)
			progress_rows(n->prog, rows);
		t = col_i64(st, S_START);
		if (sqlite3_column_type(st, S_START) != SQLITE_INTEGER ||
		    t < -MODEL_TIME_MAX || t > MODEL_TIME_MAX) {
			bad++;
			continue;
		}
		c = nsys_samp_of(s, col_i64(st, S_ID));
		cpusamp_add(&n->m->cs, &s->b, t, nsys_samp_thread(s,
		    (uint64_t)col_i64(st, S_TID)), c);
	}
	progress_rows(n->prog, rows);
	sqlite3_finalize(st);
	if (r < 0)
		return -1;
	if (bad != 0)
		builder_warn(n->b, "%s: %llu samples without a usable time "
		    "skipped", table, (unsigned long long)bad);
	return 0;
}

/* Whether a runtime call names chain 0 that CUDA_CALLCHAINS lacks. */
static int
nsys_samp_cuda_shift(struct nsys_samp *s)
{
	struct model	*m = s->n->m;
	struct lane	*l;
	size_t		 t, i;
	uint32_t	 c;

	if (s->chains[CH_CUDA].n == 0 || hmap_get(&s->chains[CH_CUDA], 0, &c))
		return 0;
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_API)
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == EV_API && l->aux[i] == 0)
				return 1;
	}
	return 0;
}

/* The API and OS runtime calls' callchainId (left in aux) to chains. */
static void
nsys_samp_link(struct nsys_samp *s)
{
	struct model	*m = s->n->m;
	struct lane	*l;
	struct hmap	*map;
	size_t		 t, i;
	uint32_t	 c, shift, cuda_shift = nsys_samp_cuda_shift(s);

	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type == TRACK_API) {
			map = &s->chains[CH_CUDA];
			shift = cuda_shift;
		} else if (m->tracks[t].type == TRACK_OSRT) {
			map = &s->chains[CH_OSRT];
			shift = 0;
		} else
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_API && l->kind[i] != EV_OSRT)
				continue;
			if (l->aux[i] == NONE32 || !hmap_get(map,
			    (uint64_t)l->aux[i] + shift, &c))
				c = NONE32;
			l->aux[i] = c;
		}
	}
}

int
nsys_sample_read(struct nsys *n)
{
	struct nsys_samp	 s;
	size_t			 i;
	double			 t0;
	int			 rc = -1, k;

	memset(&s, 0, sizeof s);
	s.n = n;
	cpusamp_build_init(&s.b);
	for (k = 0; k < 3; k++)
		hmap_init(&s.chains[k]);
	hmap_init(&s.threads);
	hmap_init(&s.model_thr);
	/* Ids up to twice the rows of the table (or 64Ki) go in the array. */
	if (nsys_db_has(&n->d, "SAMPLING_CALLCHAINS"))
		s.dense_max = 2 * (size_t)nsys_db_estimate(&n->d,
		    "SAMPLING_CALLCHAINS");
	if (s.dense_max < 65536)
		s.dense_max = 65536;
	for (i = 0; i < n->m->nthreads; i++)
		hmap_put(&s.model_thr, n->m->threads[i].source_id,
		    (uint32_t)i);
	t0 = timing_now();
	for (k = 0; k < 3; k++)
		if (nsys_samp_chains(&s, k, 0) != 0)
			goto out;
	timing_report("nsys-chains", t0);
	t0 = timing_now();
	if (nsys_samp_samples(&s) != 0)
		goto out;
	timing_report("nsys-samples", t0);
	t0 = timing_now();
	nsys_samp_link(&s);
	cpusamp_build_finish(&n->m->cs);
	timing_report("nsys-samples-sort", t0);
	rc = 0;
out:
	for (k = 0; k < 3; k++)
		hmap_free(&s.chains[k]);
	hmap_free(&s.threads);
	hmap_free(&s.model_thr);
	cpusamp_build_free(&s.b);
	free(s.run);
	free(s.dense);
	return rc;
}
