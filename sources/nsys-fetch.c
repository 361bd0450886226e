/*
 * nsys-fetch: the threads that read the event tables of an Nsight Systems
 * export for nsys_scan() (nsys.c), when a table is big enough and more
 * than one thread is allowed (nsys_fetch_threads()).
 *
 * A scan's rows are read in chunks of consecutive rowids ("WHERE rowid
 * BETWEEN ?1 AND ?2"), each chunk by one thread through a read-only
 * connection of its own (source_sqlite_open(), opened the first time the
 * thread reads, with a small page cache), its values copied into the
 * chunk's buffers as SQLite gives them (struct nsys_val, nsys-int.h). The
 * scanning thread takes the chunks back in rowid order and replays their
 * rows into the builder, so the model is the same whatever the number of
 * threads: only SQLite's work is shared out, never the builder's. At most
 * NSYS_FETCH_AHEAD chunks per thread are read ahead of the one being
 * replayed, which bounds the memory. When no thread has taken the next
 * chunk yet, the scanning thread reads it itself on the reader's own
 * connection, so a busy machine never leaves it waiting for a thread to be
 * scheduled; threads - 1 more threads read ahead.
 *
 * Chunks start small so that the first rows of a table are replayed early,
 * and double up to NSYS_FETCH_ROWS rowids; a table whose rowids are sparse
 * over a huge range is cut in at most NSYS_FETCH_MAXCHUNKS chunks.
 *
 * Errors: a chunk's error (SQLite's, through srcerr, prefixed with the
 * path) is handed back when its turn comes, so the error reported is the
 * one the first failing chunk in rowid order met, as one thread reading
 * the whole table would; nsys_fetch_end() then stops the other reads. The
 * threads block every signal, so that signals (Ctrl-C) are handled by the
 * loading thread as without them.
 *
 * Shared state (the scan, the chunk ring) is behind one mutex; a chunk's
 * buffers belong to the thread reading it until it is marked done, then
 * to the scanning thread until it takes the next chunk.
 */
#include "config.h"

#include <sys/types.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "sources/source.h"
#include "util/pool.h"
#include "util/xmalloc.h"

#define NSYS_FETCH_MAX		POOL_MAX /* threads at most */
#define NSYS_FETCH_AHEAD	1	/* chunks per thread read ahead */
#define NSYS_FETCH_RING		(NSYS_FETCH_MAX * NSYS_FETCH_AHEAD + 2)
#define NSYS_FETCH_FIRST	256	/* rowids of a scan's first chunk */
#define NSYS_FETCH_ROWS		1024	/* rowids of a chunk at most */
#define NSYS_FETCH_MAXCHUNKS	65536	/* chunks of a scan at most */
#define NSYS_FETCH_MIN		8192	/* rowids of a table read in parallel */

enum { CH_FREE, CH_RUN, CH_DONE };

struct nsys_chunk {
	int64_t		  lo, hi;	/* rowids */
	int		  state;
	struct nsys_val	 *v;		/* nrows * ncols values */
	size_t		  nv, vcap;
	char		 *arena;	/* text, NUL-terminated */
	size_t		  alen, acap;
	size_t		  nrows;
	char		 *err;		/* "PATH: what went wrong" */
};

/* A connection and the scan's statement on it, prepared once a scan. */
struct nsys_conn {
	sqlite3		 *db;
	sqlite3_stmt	 *st;
	unsigned	  gen;		/* the scan st was prepared for */
};

struct nsys_worker {
	struct nsys_fetch *f;
	struct nsys_conn   c;
};

struct nsys_fetch {
	const char	  *path;
	unsigned	   nthreads;
	unsigned	   nstarted;
	pthread_t	   th[NSYS_FETCH_MAX];
	struct nsys_worker w[NSYS_FETCH_MAX];
	pthread_mutex_t	   mu;
	pthread_cond_t	   cv_work;	/* a chunk may be taken, or quit */
	pthread_cond_t	   cv_done;	/* a chunk was read */
	int		   quit;

	/* The scan in progress. */
	int		   active;
	unsigned	   gen;		/* scans begun */
	struct nsys_conn   own;		/* the scanning thread's reads */
	char		  *sql;
	int		   ncols;
	char		  *what;
	int64_t		   nextlo, hi;
	uint64_t	   width, maxwidth;
	int		   planned;	/* every chunk handed out */
	size_t		   taken;	/* chunks handed out */
	size_t		   cur;		/* chunks given back to the scanner */
	int		   held;	/* it holds the last one given */
	size_t		   window;	/* chunks in the ring in use */
	int		   running;
	atomic_int	   abort;
	struct nsys_chunk  ring[NSYS_FETCH_RING];
};

unsigned
nsys_fetch_threads(void)
{
	unsigned	n = pool_threads();

	/* An SQLite built single-threaded cannot have connections in
	 * several threads. */
	if (sqlite3_threadsafe() == 0)
		return 1;
	return n > NSYS_FETCH_MAX ? NSYS_FETCH_MAX : n;
}

int
nsys_fetch_worth(int64_t lo, int64_t hi)
{
	return lo <= hi && (uint64_t)hi - (uint64_t)lo >= NSYS_FETCH_MIN - 1;
}

/* Plans the next chunk of the scan into c (under the lock). */
static void
nsys_fetch_plan(struct nsys_fetch *f, struct nsys_chunk *c)
{
	uint64_t	span;

	f->taken++;
	c->lo = f->nextlo;
	span = (uint64_t)f->hi - (uint64_t)f->nextlo;
	if (span < f->width) {
		c->hi = f->hi;
		f->planned = 1;
	} else {
		c->hi = (int64_t)((uint64_t)f->nextlo + f->width - 1);
		f->nextlo = (int64_t)((uint64_t)c->hi + 1);
	}
	if (f->width < f->maxwidth)
		f->width = f->width * 2 > f->maxwidth ? f->maxwidth :
		    f->width * 2;
}

/* Appends text (len bytes) to c's arena; its offset. */
static size_t
nsys_fetch_text(struct nsys_chunk *c, const void *p, size_t len)
{
	size_t	off = c->alen;

	if (c->alen + len + 1 > c->acap)
		XGROW(c->arena, c->acap, c->alen + len + 1);
	if (len > 0)
		memcpy(c->arena + c->alen, p, len);
	c->arena[c->alen + len] = '\0';
	c->alen += len + 1;
	return off;
}

/*
 * Appends a copy of the current row of st to c: what the row functions
 * would read from the live row with sqlite3_column_int64(), _double() and
 * _text() (nsys_row_intern()).
 */
static void
nsys_fetch_row(struct nsys_chunk *c, sqlite3_stmt *st, int ncols)
{
	struct nsys_val	*v;
	sqlite3_value	*sv;
	const void	*p;
	int		 i;
	size_t		 len;

	if (c->nv + (size_t)ncols > c->vcap)
		XGROW(c->v, c->vcap, c->nv + (size_t)ncols);
	v = c->v + c->nv;
	c->nv += (size_t)ncols;
	for (i = 0; i < ncols; i++, v++) {
		sv = sqlite3_column_value(st, i);
		v->type = sqlite3_value_type(sv);
		v->len = 0;
		v->off = 0;
		switch (v->type) {
		case SQLITE_NULL:
			v->i = 0;
			v->d = 0.0;
			break;
		case SQLITE_INTEGER:
			v->i = sqlite3_value_int64(sv);
			v->d = sqlite3_value_double(sv);
			break;
		default:
			/* A real, text or a blob: its numbers, and its text
			 * as SQLite renders it (a blob's bytes). */
			v->i = sqlite3_value_int64(sv);
			v->d = sqlite3_value_double(sv);
			p = sqlite3_value_text(sv);
			len = p != NULL ? (size_t)sqlite3_value_bytes(sv) : 0;
			v->off = nsys_fetch_text(c, p, len);
			v->len = (uint32_t)len;
			break;
		}
	}
	c->nrows++;
}

/* Finalizes a connection's statement, and closes it when done. */
static void
nsys_conn_close(struct nsys_conn *k, int done)
{
	sqlite3_finalize(k->st);
	k->st = NULL;
	if (done && k->db != NULL)
		sqlite3_close(k->db);
	if (done)
		k->db = NULL;
}

/*
 * Reads chunk c of scan gen with connection k (opened here when it has
 * none: owned is 0 for the reader's own, which the scanning thread
 * borrows).
 */
static void
nsys_fetch_read(struct nsys_fetch *f, struct nsys_conn *k,
    struct nsys_chunk *c, unsigned gen, const char *sql, int ncols,
    const char *what)
{
	struct nsys_db	 tmp;
	char		*cause = NULL;
	int		 rc = SQLITE_OK;

	c->nv = c->alen = c->nrows = 0;
	free(c->err);
	c->err = NULL;
	if (k->db == NULL) {
		if ((k->db = source_sqlite_open(f->path, &cause)) == NULL) {
			c->err = cause != NULL ? cause :
			    xasprintf("%s: cannot open", f->path);
			return;
		}
		/*
		 * A small page cache: a thread reads its rowids once. Pages
		 * are not mapped, which would count the whole file as
		 * resident.
		 */
		sqlite3_exec(k->db, "PRAGMA cache_size = -512", NULL, NULL,
		    NULL);
	}
	if (k->st != NULL && k->gen != gen)
		nsys_conn_close(k, 0);
	if (k->st == NULL) {
		rc = sqlite3_prepare_v2(k->db, sql, -1, &k->st, NULL);
		k->gen = gen;
	}
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(k->st, 1, c->lo);
		sqlite3_bind_int64(k->st, 2, c->hi);
		while ((rc = sqlite3_step(k->st)) == SQLITE_ROW) {
			nsys_fetch_row(c, k->st, ncols);
			if ((c->nrows & 1023) == 0 &&
			    atomic_load(&f->abort))
				break;
		}
	}
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		memset(&tmp, 0, sizeof tmp);
		tmp.path = f->path;
		tmp.db = k->db;
		nsys_db_sqlerr(&tmp, rc, what);
		c->err = tmp.err;
	}
	if (k->st != NULL)
		sqlite3_reset(k->st);	/* ends the read transaction */
}

/* Whether a worker may take a chunk now (under the lock). */
static int
nsys_fetch_ready(const struct nsys_fetch *f)
{
	return f->active && !f->planned && !atomic_load(&f->abort) &&
	    f->taken + (size_t)f->held < f->cur + f->window;
}

static void *
nsys_fetch_main(void *arg)
{
	struct nsys_worker	*w = arg;
	struct nsys_fetch	*f = w->f;
	struct nsys_chunk	*c;
	const char		*sql, *what;
	unsigned		 gen;
	int			 ncols;

	pthread_mutex_lock(&f->mu);
	for (;;) {
		while (!f->quit && !nsys_fetch_ready(f))
			pthread_cond_wait(&f->cv_work, &f->mu);
		if (f->quit)
			break;
		c = &f->ring[f->taken % f->window];
		nsys_fetch_plan(f, c);
		c->state = CH_RUN;
		f->running++;
		sql = f->sql;
		what = f->what;
		ncols = f->ncols;
		gen = f->gen;
		pthread_mutex_unlock(&f->mu);

		nsys_fetch_read(f, &w->c, c, gen, sql, ncols, what);

		pthread_mutex_lock(&f->mu);
		c->state = CH_DONE;
		f->running--;
		pthread_cond_broadcast(&f->cv_done);
	}
	pthread_mutex_unlock(&f->mu);
	nsys_conn_close(&w->c, 1);
	return NULL;
}

struct nsys_fetch *
nsys_fetch_new(const char *path, unsigned threads)
{
	struct nsys_fetch	*f;
	pthread_attr_t		 attr;
	sigset_t		 all, old;
	unsigned		 i;

	f = xcalloc(1, sizeof *f);
	f->path = path;
	if (threads > NSYS_FETCH_MAX)
		threads = NSYS_FETCH_MAX;
	f->nthreads = threads < 1 ? 1 : threads;
	atomic_init(&f->abort, 0);
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv_work, NULL);
	pthread_cond_init(&f->cv_done, NULL);
	pthread_attr_init(&attr);
	/* The threads only step SQLite: a modest stack is plenty. */
	(void)pthread_attr_setstacksize(&attr, 1024 * 1024);
	/* Signals stay with the loading thread: the threads block them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* The scanning thread reads too: threads - 1 more. */
	for (i = 0; i + 1 < f->nthreads; i++) {
		f->w[i].f = f;
		if (pthread_create(&f->th[i], &attr, nsys_fetch_main,
		    &f->w[i]) != 0)
			break;
		f->nstarted++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	f->nthreads = f->nstarted + 1;	/* fewer threads do the same */
	return f;
}

void
nsys_fetch_free(struct nsys_fetch *f)
{
	unsigned	i;

	if (f == NULL)
		return;
	nsys_fetch_end(f);
	pthread_mutex_lock(&f->mu);
	f->quit = 1;
	pthread_cond_broadcast(&f->cv_work);
	pthread_mutex_unlock(&f->mu);
	for (i = 0; i < f->nstarted; i++)
		pthread_join(f->th[i], NULL);
	for (i = 0; i < NSYS_FETCH_RING; i++) {
		free(f->ring[i].v);
		free(f->ring[i].arena);
		free(f->ring[i].err);
	}
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv_work);
	pthread_cond_destroy(&f->cv_done);
	free(f);
}

void
nsys_fetch_begin(struct nsys_fetch *f, sqlite3 *db, const char *sql,
    int64_t lo, int64_t hi, int ncols, const char *what)
{
	uint64_t	span;
	size_t		i;

	pthread_mutex_lock(&f->mu);
	f->gen++;
	f->own.db = db;
	f->own.st = NULL;
	f->sql = xstrdup(sql);
	f->what = xstrdup(what);
	f->ncols = ncols;
	f->nextlo = lo;
	f->hi = hi;
	f->width = NSYS_FETCH_FIRST;
	f->maxwidth = NSYS_FETCH_ROWS;
	f->planned = lo > hi;		/* an empty table */
	if (lo <= hi) {
		span = (uint64_t)hi - (uint64_t)lo;
		if (span / NSYS_FETCH_MAXCHUNKS >= f->maxwidth)
			f->maxwidth = span / NSYS_FETCH_MAXCHUNKS + 1;
	}
	f->taken = f->cur = 0;
	f->held = 0;
	f->window = (size_t)f->nthreads * NSYS_FETCH_AHEAD + 2;
	for (i = 0; i < f->window; i++)
		f->ring[i].state = CH_FREE;
	f->running = 0;
	atomic_store(&f->abort, 0);
	f->active = 1;
	pthread_cond_broadcast(&f->cv_work);
	pthread_mutex_unlock(&f->mu);
}

int
nsys_fetch_next(struct nsys_fetch *f, struct nsys_rows *out, char **cause)
{
	struct nsys_chunk	*c;

	memset(out, 0, sizeof *out);
	pthread_mutex_lock(&f->mu);
	/* The chunk given last time is free again. */
	if (f->held)
		f->ring[(f->cur - 1) % f->window].state = CH_FREE;
	f->held = 0;
	pthread_cond_broadcast(&f->cv_work);
	if (f->planned && f->cur == f->taken) {
		pthread_mutex_unlock(&f->mu);
		return 0;
	}
	c = &f->ring[f->cur % f->window];
	if (f->cur == f->taken) {
		/*
		 * No thread has taken the next chunk (they are behind, or
		 * the machine is busy): read it here rather than wait for
		 * one to be scheduled.
		 */
		nsys_fetch_plan(f, c);
		c->state = CH_RUN;
		f->running++;
		pthread_mutex_unlock(&f->mu);
		nsys_fetch_read(f, &f->own, c, f->gen, f->sql, f->ncols,
		    f->what);
		pthread_mutex_lock(&f->mu);
		c->state = CH_DONE;
		f->running--;
	}
	while (c->state != CH_DONE)
		pthread_cond_wait(&f->cv_done, &f->mu);
	f->cur++;
	f->held = 1;
	pthread_mutex_unlock(&f->mu);
	if (c->err != NULL) {
		*cause = c->err;
		c->err = NULL;
		return -1;
	}
	out->v = c->v;
	out->arena = c->arena;
	out->nrows = c->nrows;
	return 1;
}

void
nsys_fetch_end(struct nsys_fetch *f)
{
	pthread_mutex_lock(&f->mu);
	if (!f->active) {
		pthread_mutex_unlock(&f->mu);
		return;
	}
	atomic_store(&f->abort, 1);
	while (f->running > 0)
		pthread_cond_wait(&f->cv_done, &f->mu);
	f->active = 0;
	free(f->sql);
	free(f->what);
	f->sql = f->what = NULL;
	pthread_mutex_unlock(&f->mu);
	/* The reader's own connection stays open: only its statement. */
	nsys_conn_close(&f->own, 0);
	f->own.db = NULL;
}

/* Row access beyond the inline ones of nsys-int.h. */

uint32_t
nsys_row_intern(struct nsys *n, const struct nsys_row *r, int i)
{
	const struct nsys_val	*v;
	char			 buf[32];

	if (r->st != NULL)
		return nsys_text(n, r->st, i);
	v = &r->v[i];
	switch (v->type) {
	case SQLITE_NULL:
		return 0;
	case SQLITE_INTEGER:
		/* As SQLite renders an integer as text. */
		sqlite3_snprintf((int)sizeof buf, buf, "%lld",
		    (long long)v->i);
		return builder_intern(n->b, buf);
	default:
		if (v->len == 0 || r->arena[v->off] == '\0')
			return 0;
		return builder_intern_n(n->b, r->arena + v->off, v->len);
	}
}

/* Whether column i is a usable time (source_time_value()). */
static int
nsys_row_time(const struct nsys_row *r, int i)
{
	int	type = row_type(r, i);

	return source_time_value(type, type == SQLITE_FLOAT ?
	    row_double(r, i) : 0);
}

void
nsys_row_event(const struct nsys_row *r, struct lane_event *ev, int rowid,
    int start, int end)
{
	memset(ev, 0, sizeof *ev);
	ev->rowid = row_i64(r, rowid);
	ev->start = row_i64(r, start);
	if (end < 0)
		ev->end = ev->start;
	else if (row_null(r, end)) {
		ev->end = ev->start;
		ev->flags |= EVF_OPEN;
	} else
		ev->end = row_i64(r, end);
}

int
nsys_row_times_ok(const struct nsys_row *r, struct source_times *t)
{
	int	endnull = row_null(r, 2);

	t->rows++;
	if (!nsys_row_time(r, 1) || (!endnull && !nsys_row_time(r, 2))) {
		t->notint++;
		return 0;
	}
	if (!endnull && row_i64(r, 1) > row_i64(r, 2)) {
		t->reversed++;
		return 0;
	}
	return 1;
}
