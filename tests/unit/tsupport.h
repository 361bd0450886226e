/*
 * tsupport: the helpers the cmocka unit tests (tests/NAME_test.c) share,
 * linked into each of them as libtsupport.a. Every symbol starts with ts_
 * (test support).
 *
 * Helpers that check something do so with cmocka's assertions (a failed
 * check fails the running test), so call them from a test or from a
 * setup or teardown, never from outside cmocka_run_group_tests().
 *
 * Ownership: a returned char * or buffer is the caller's, freed with
 * free(), unless the comment says it is borrowed; a borrowed pointer stays
 * valid for as long as its comment says. A model from ts_finish() is freed
 * with model_free().
 */
#ifndef GPULENS_TSUPPORT_H
#define GPULENS_TSUPPORT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "model/builder.h"
#include "model/model.h"
#include "headless/opts.h"

struct cJSON;
struct cellgrid;
struct progress;
struct report;
struct sqlite3;
struct tui_key;
struct view_env;
struct view_ops;
struct vopt;
struct view_shared;

/* ---- main() ----------------------------------------------------- */

/*
 * Defines main(): runs the cmocka tests given after setup and teardown
 * (the group's, or NULL) as the group "tests" and returns what
 * cmocka_run_group_tests() returns. The file that uses it includes
 * <cmocka.h>.
 */
#define TS_MAIN(setup, teardown, ...)					\
int									\
main(void)								\
{									\
	const struct CMUnitTest	tests[] = { __VA_ARGS__ };		\
									\
	return cmocka_run_group_tests(tests, setup, teardown);		\
}

/* A group setup that sets LC_CTYPE to C.UTF-8 (for the screens the TUI
 * tests draw) and returns 0. */
int		 ts_utf8_setup(void **state);

/* A (group) teardown that frees the model that is the state, as a setup
 * that sets *state to a model wants. Returns 0. */
int		 ts_model_teardown(void **state);

/* ---- the scratch directory --------------------------------------- */

/*
 * Creates this program's scratch directory, a fresh
 * $TMPDIR/gpulens-test.XXXXXX ($TMPDIR defaults to /tmp). Returns 0, or -1
 * if it could not be made.
 */
int		 ts_tmp_init(void);
/* ts_tmp_init(), then XDG_CACHE_HOME set to DIR/xdg (not made) so that
 * what the program caches stays in the scratch directory. */
int		 ts_tmp_init_cache(void);
/* The scratch directory (borrowed, valid until ts_tmp_free()), or NULL
 * before ts_tmp_init(). */
const char	*ts_tmp(void);
/*
 * "DIR/name" for the scratch directory DIR, in one of eight static buffers
 * used in turn: borrowed, valid for the next seven calls. Fails the test
 * if the path does not fit.
 */
char		*ts_path(const char *name);
/* Removes the scratch directory and everything in it. Returns 0 or -1. */
int		 ts_tmp_free(void);
/* ts_tmp_init() and ts_tmp_free() as cmocka (group) setup and teardown. */
int		 ts_tmp_setup(void **state);
int		 ts_tmp_teardown(void **state);
/*
 * Removes path and, for a directory, everything under it (made writable
 * first; symbolic links are removed, not followed). Returns 0 (also when
 * path does not exist), or -1 if path itself could not be removed.
 */
int		 ts_rm_rf(const char *path);

/* ---- files ------------------------------------------------------- */

/* Writes the n bytes of buf to path (created or truncated). */
void		 ts_write(const char *path, const void *buf, size_t n);
/* Writes the string s, without its NUL, to path. */
void		 ts_write_str(const char *path, const char *s);
/* Writes the n bytes of buf to path as one gzip member. */
void		 ts_write_gz(const char *path, const void *buf, size_t n);
/* The whole of path, which must not be empty; its length in *n. The
 * buffer is the caller's. */
void		*ts_read(const char *path, size_t *n);
/* Everything written to f (rewound first) as a NUL-terminated string (the
 * caller's); closes f. */
char		*ts_read_fp(FILE *f);

/* ---- real-profile fixtures ($GPULENS_FIXTURES) ------------------- */

/* $GPULENS_FIXTURES (borrowed from the environment), or NULL when it is
 * unset, empty or not readable. */
const char	*ts_fixtures(void);
/* ts_fixtures(), or if that is NULL skips the running test (as ts_skip()
 * does) with a message that says so. */
const char	*ts_need_fixtures(void);
/* "$GPULENS_FIXTURES/rel" if that file or directory is readable (the
 * caller's), else NULL. */
char		*ts_fixture(const char *rel);
/* Skips the running test (as ts_skip() does) unless ts_fixture(rel) finds
 * it. */
void		 ts_need_fixture(const char *rel);
/* Prints "# " and the printf-style message as a TAP comment and skips
 * the running test. Does not return. */
void		 ts_skip(const char *fmt, ...)
		    __attribute__((format(printf, 1, 2), noreturn));

/* ---- SQLite ------------------------------------------------------ */

/* Runs the statements made by sqlite3_mprintf(fmt, ...); fails the test
 * with the message and the SQL on error. */
void		 ts_sql(struct sqlite3 *db, const char *fmt, ...);
/* The first column of the first row of query, as an integer; the query
 * must return a row. */
int64_t		 ts_sql_int(struct sqlite3 *db, const char *query);
/* ts_sql_int() of the query printf() makes of fmt. */
int64_t		 ts_sqlf(struct sqlite3 *db, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Opens path read-only as an immutable database (it must exist and not
 * change while open); close with sqlite3_close(). */
struct sqlite3	*ts_sql_open_ro(const char *path);
/* The statement sql prepared on db (finalize it with sqlite3_finalize());
 * fails the test with SQLite's message and the SQL on error. */
struct sqlite3_stmt *ts_sql_prepare(struct sqlite3 *db, const char *sql);
/* Whether db has a table or view called name. */
int		 ts_sql_has_table(struct sqlite3 *db, const char *name);
/* Creates the database DIR/name in the scratch directory with the
 * statements sql (as ts_sql() runs them); returns its path (the caller's). */
char		*ts_sql_file(const char *name, const char *sql);

/* ---- loading traces ---------------------------------------------- */

/* A reader's load function (kineto_load(), nsys_load(), ...). */
typedef struct model *ts_loader(const char *, struct progress *, char **);
/* The trace at path read by load without progress, which must succeed
 * (the test fails with the path and the cause otherwise). The model is
 * the caller's. */
struct model	*ts_load(ts_loader *load, const char *path);

/* The trace at path read by load, or NULL after a line on stderr that
 * says why; for group setups, which run outside the tests. */
struct model	*ts_try_load(ts_loader *load, const char *path);
/* Checks that load refuses the trace at path with a cause that contains
 * want (the cause is freed). */
void		 ts_refused(ts_loader *load, const char *path,
		    const char *want);
/* Checks that cause (a failure's) is not NULL and contains want. */
void		 ts_cause_has(const char *cause, const char *want);
/* ts_refused() of the database other.db that ts_sql_file() makes of the
 * statements sql (the file stays in the scratch directory). */
void		 ts_sql_refused(ts_loader *load, const char *sql,
		    const char *want);

/* ---- building models (builder.h) and reports (report.h) by hand -- */

/* Finishes b (consumed) and checks that it gave a model and no cause.
 * The model is the caller's. */
struct model	*ts_finish(struct builder *b);
/*
 * An event named name (interned in b), of kind over [start, end): no
 * correlation, no flags, rowid -1, aux NONE32. The caller changes what it
 * needs before builder_event().
 */
struct lane_event ts_event(struct builder *b, const char *name, int kind,
		    int64_t start, int64_t end);
/* Pushes ts_event(b, name, kind, start, end) onto track. */
void		 ts_add(struct builder *b, uint32_t track, const char *name,
		    int kind, int64_t start, int64_t end);
/* ts_event() with correlation corr and flags. */
struct lane_event ts_event_cf(struct builder *b, const char *name, int kind,
		    int64_t start, int64_t end, uint32_t corr, uint8_t flags);
/* Pushes ts_event_cf(b, name, kind, start, end, corr, flags) onto track. */
void		 ts_add_cf(struct builder *b, uint32_t track, const char *name,
		    int kind, int64_t start, int64_t end, uint32_t corr,
		    uint8_t flags);
/*
 * Pushes ts_event(b, name, kind, start, end) with correlation corr onto
 * track; an NVTX range or mark gets the aux ts_nvtx(b, track), a kernel
 * ts_kernel(b, name).
 */
void		 ts_add_corr(struct builder *b, uint32_t track, const char *name,
		    int kind, int64_t start, int64_t end, uint32_t corr);
/* A process pid named "train" and its thread tid named "main", with the
 * global ids Nsight Systems gives them (pid << 24, pid << 24 | tid).
 * Returns the thread's index; *process is the process's. */
uint32_t	 ts_nsys_thread(struct builder *b, uint32_t pid, uint32_t tid,
		    uint32_t *process);
/* Declares stream id of device index dev in process (NONE32: none);
 * returns the stream's GPU track. */
uint32_t	 ts_stream(struct builder *b, uint32_t dev, uint32_t id,
		    uint32_t process);
/*
 * A process pid (also its global id) named "train" with a thread tid (also
 * its global id) named "main", and a device named dev_name (NULL: every
 * field 0) with stream 7 in that process. Returns the thread's index; *gpu
 * is the stream's GPU track.
 */
uint32_t	 ts_train(struct builder *b, uint32_t pid, uint32_t tid,
		    const char *dev_name, uint32_t *gpu);
/* ts_train() with an NVTX track (in *nv) and an API track (in *api) on
 * the thread. Returns the thread's index. */
uint32_t	 ts_train_nvtx(struct builder *b, uint32_t pid, uint32_t tid,
		    const char *dev_name, uint32_t *gpu, uint32_t *nv,
		    uint32_t *api);
/*
 * ts_train_nvtx(b, pid, tid, NULL, ...) with, on its NVTX and API tracks
 * and on the stream:
 *   Step#1 [0,100]: fwd [10,40], bwd [50,90]
 *   Step#2 [100,200]: fwd [110,140], bwd [150,190]
 *   init [-50,-10]; a mark at 20
 *   [15,16] -> kernel k1 [20,30]	(Step#1/fwd)
 *   [55,56] -> kernel k2 [60,100]	(Step#1/bwd)
 *   [112,113] -> memcpy [120,125]	(Step#2/fwd)
 *   [300,301] -> kernel k3 [305,310]	(outside every range)
 * with correlation ids corr to corr + 3. Returns the thread's index.
 */
uint32_t	 ts_nvtx_steps(struct builder *b, uint32_t pid, uint32_t tid,
		    uint32_t corr);
/* Declares a device with this source id, no name and no process (every
 * other field 0). Returns its index. */
uint32_t	 ts_device(struct builder *b, uint32_t source_id);
/* Declares a device with every field 0 and on it streams 1 to n without a
 * process; their GPU tracks go in tracks[0] to tracks[n - 1]. Returns the
 * device's index. */
uint32_t	 ts_gpu_streams(struct builder *b, uint32_t *tracks, size_t n);
/* A copy record of kind (enum copy_kind) from src_kind to dst_kind (enum
 * mem_kind) of bytes, devices NONE32 (every other field 0). Returns its
 * aux index. */
uint32_t	 ts_copy(struct builder *b, int kind, int src_kind,
		    int dst_kind, uint64_t bytes);
/* A kernel record with this short name (interned), every other field 0.
 * Returns its aux index. */
uint32_t	 ts_kernel(struct builder *b, const char *short_name);
/* An NVTX record in the domain of track, every other field 0. Returns its
 * aux index. */
uint32_t	 ts_nvtx(struct builder *b, uint32_t track);

/*
 * A trace with a synchronous copy (findings_test, view_findings_test).
 * One GPU (device 0), process 100, thread 1, stream 7. Times in us:
 *   kernel k [0, 100)          launched by cudaLaunchKernel [-10, -5)
 *   memcpy [300, 400)          launched by cudaMemcpy [200, 410): the host
 *                              is blocked 210 us (the cost); 1 MiB from
 *                              pageable memory to the device
 *   kernel k [400, 500)        launched by cudaLaunchKernel [405, 406):
 *                              after the copy, but it starts at 400 ...
 *   cudaStreamSynchronize [500, 600): ends inside the gap [500, 1000)
 *   kernel k [1000, 1100)      launched by cudaLaunchKernel [990, 999)
 *   kernel k [1100.5, 1200)    launched at [1100.2, 1100.4): a launch gap
 *                              of 0.5 us (the API ended after the previous
 *                              kernel ended)
 *   cudaFree [1200, 1990): the trace ends at 1990 us
 * Window: [-10 us, 1990 us) = 2000 us.
 */
struct model	*ts_model_sync_copy(void);	/* the caller's */
/*
 * A model for the activity and busy analyses: devices 5 (no stream), 2 and
 * 9 (indices 0, 1, 2); process 100 owns streams 7 and 8 of device 2:
 *   stream 7  kernels [0, 100) and [150, 250), a memcpy [300, 350), and a
 *             sync record [0, 400) on its sync track
 *   stream 8  an NCCL kernel (EVF_COMM) [50, 200)
 *   device 9, stream 1 (no process): a kernel [1000, 1100)
 */
struct model	*ts_model_activity(void);	/* the caller's */
/* The Nsight Compute report at path, which ncurep_load() must read. The
 * report is the caller's (report_free()). */
struct report	*ts_ncurep(const char *path);
/* ts_ncurep() of $GPULENS_FIXTURES/ncu/rel, or if that is not there skips
 * the running test (as ts_skip() does). */
struct report	*ts_ncu_fixture(const char *rel);
/* Adds to launch of r the metric name (interned) with the double v. */
void		 ts_metric(struct report *r, uint32_t launch, const char *name,
		    double v);

/* ---- looking things up in a model -------------------------------- */

/*
 * Checks m's event counts by kind: want is a list of "kind=count" words,
 * the kinds as ev_kind_parse() names them ("kernel=3 api=5"); the kinds
 * it does not name are not checked.
 */
void		 ts_kind_counts(const struct model *m, const char *want);
/* The global id of the first event of kind at or after global id from,
 * in track then index order (as model_gid() numbers them), or NONE32. */
uint32_t	 ts_next(const struct model *m, int kind, uint32_t from);
/* The name (borrowed from m) of event gid. */
const char	*ts_name_of(const struct model *m, uint32_t gid);
/* How many events have kind and name (any name if name is NULL). */
size_t		 ts_count(const struct model *m, int kind, const char *name);
/* The global id of the first event (by track, then index) of kind and
 * name, or NONE32. */
uint32_t	 ts_find(const struct model *m, int kind, const char *name);
/* The global id of the event named name starting at start, on any track;
 * fails the test if there is none. */
uint32_t	 ts_find_ev(const struct model *m, const char *name,
		    int64_t start);
/* Checks that m has a process i with this OS pid, name and, unless host
 * is NULL, host name. */
void		 ts_process_is(const struct model *m, size_t i, uint32_t pid,
		    const char *name, const char *host);
/* The track (borrowed from m) and the flags of event gid. */
const struct track *ts_track_of(const struct model *m, uint32_t gid);
uint8_t		 ts_flags_of(const struct model *m, uint32_t gid);
/* The kernel record (borrowed from m) of the kernel event gid. */
const struct kernel_info *ts_kernel_of(const struct model *m, uint32_t gid);
/* The copy record (borrowed from m) of the memcpy event gid. */
const struct copy_info *ts_copy_of(const struct model *m, uint32_t gid);
/* Checks a kernel record's grid[0] and [1], block[0], static and dynamic
 * shared memory, local memory and registers. */
void		 ts_kernel_dims(const struct kernel_info *k, uint32_t grid0,
		    uint32_t grid1, uint32_t block0, uint32_t static_smem,
		    uint32_t dynamic_smem, uint32_t local_mem, uint32_t regs);
/* Whether one of m's warnings contains needle. */
int		 ts_has_warning(const struct model *m, const char *needle);

/* Checks that nvtx_family() (nvtxfam.h) folds name to want. */
void		 ts_family(const char *name, const char *want);

/* ---- JSON rows (cJSON) ------------------------------------------- */

/* Field f of the object o (borrowed from o); fails the test if o has
 * none. */
const struct cJSON *ts_jfield(const struct cJSON *o, const char *f);
/* Field f of o, which must be a JSON number (not raw text). */
double		 ts_jdouble(const struct cJSON *o, const char *f);
/* Field f of o, which must be a string (borrowed from o). */
const char	*ts_jstr(const struct cJSON *o, const char *f);
/* Whether field f of o, which must have one, is null. */
int		 ts_jnull(const struct cJSON *o, const char *f);
/*
 * Checks the fields of r that want names, a list of "field=value" words:
 * a value "null" wants JSON null, any other a number (ts_jdouble()) within
 * 1e-9 of it. The fields it does not name are not checked.
 */
void		 ts_jrow_is(const struct cJSON *r, const char *want);
/* Field f of row r as a number; f must be a JSON number or the raw
 * integer text out_int() writes to keep int64 values exact. */
double		 ts_jnum(const struct cJSON *r, const char *f);
/* The element of the array rows whose "key" is the string key (borrowed
 * from rows); fails the test if there is none. */
struct cJSON	*ts_jrow(const struct cJSON *rows, const char *key);
/* Runs out_emit() on out as --json, trace path, with stdout captured, and
 * returns the parsed envelope (the caller's; cJSON_Delete()). Fails the
 * test if out_emit() fails or the output is not JSON. */
struct cJSON	*ts_emit_json(struct out *out, const struct model *m,
		    const char *path);

/* ---- verbs' options (opts.h) ----------------------------------- */

/* Parses the argc words of argv (the verb first) into o with
 * opts_parse() for the option groups accepted; fails the test with the
 * cause if they do not parse. Free o with opts_free(). */
void		 ts_opts(struct opts *o, unsigned accepted, int argc,
		    char **argv);
/* ts_opts(), then out_init(out, verb) and opts_apply_out(o, out). */
void		 ts_opts_out(struct opts *o, unsigned accepted, int argc,
		    char **argv, struct out *out, const char *verb);

/* The compute step of a verb with options of its own (cmd-analyses.h). */
typedef int	 ts_vcompute(const struct model *, const struct opts *,
		    const struct vopt *, size_t nv, struct out *,
		    const char **code, char **cause);
/* A verb's runs: its options, parsed once; the last run's output and
 * cause. */
struct ts_vrun {
	ts_vcompute		*compute;
	const char		*verb;
	struct opts		 o;
	struct out		 out;
	const char		*code;
	char			*cause;
};
/* Parses { verb, "t.sqlite" } for the option groups accepted into r->o. */
void		 ts_vrun_init(struct ts_vrun *r, ts_vcompute *compute,
		    const char *verb, unsigned accepted);
/* Runs the verb on m with its own nv options v into a fresh r->out
 * (out_init()), the cause of a failure in r->cause; returns its status. */
int		 ts_vrun(struct ts_vrun *r, const struct model *m,
		    const struct vopt *v, size_t nv);
void		 ts_vrun_free(struct ts_vrun *r);

/* ---- screens (cellgrid.h) ---------------------------------------- */

/* Row y of g as text (cellgrid_row_text()), in a static buffer: borrowed,
 * valid until the next ts_row() or ts_screen_find(). */
const char	*ts_row(const struct cellgrid *g, int y);
/* Checks that row y of g contains s (ts_row_has()) or does not
 * (ts_row_lacks()); a failure shows the row. */
void		 ts_row_has(const struct cellgrid *g, int y, const char *s);
void		 ts_row_lacks(const struct cellgrid *g, int y, const char *s);
/* The first row of g whose text contains s, or -1. */
int		 ts_screen_find(const struct cellgrid *g, const char *s);
/* Sets env to what a view test needs: zeroed, ASCII glyphs (glyph_get(0)),
 * the title (may be NULL), the shared state sh and the view's arg. */
void		 ts_view_env(struct view_env *env, struct view_shared *sh,
		    const char *title, const void *arg);
/*
 * Opens the view of ops on m with env, sizes it and g (initialised here,
 * freed by the caller with cellgrid_free()) to w x h and draws it whole.
 * Returns the view, freed by the caller with ops->free().
 */
void		*ts_view_open(const struct view_ops *ops, const struct model *m,
		    const struct view_env *env, struct cellgrid *g, int w,
		    int h);
/* The action key is bound to in table of the default keymap (keymap.h),
 * or ACT_NONE. */
int		 ts_key_action(const char *table, int key);
/* A key event (view.h) for key k, at x = y = 0. */
struct tui_key	 ts_tkey(int k);
/* Sends key k (with its action in the view's table of the default keymap)
 * to view v of ops, redraws what it damaged into g and returns its
 * reactions. */
int		 ts_view_key(const struct view_ops *ops, void *v,
		    struct cellgrid *g, int k);

/* A string and what a function of it must give. */
struct ts_str_int {
	const char	*s;
	int		 want;
};
/* Checks fn(c->s) == c->want for each of the n cases; a failure names the
 * string. */
void		 ts_str_ints(int (*fn)(const char *), const struct ts_str_int *c,
		    size_t n);
#define TS_STR_INTS(fn, c)						\
	ts_str_ints((fn), (c), sizeof (c) / sizeof (c)[0])

/* An event filter (arg, track, index within it) that keeps every event:
 * a caller's filter that selects what no filter would. */
int		 ts_every_event(void *arg, uint32_t t, uint32_t i);

/* ---- pseudo-random numbers --------------------------------------- */

/* The next number of the xorshift64 (13, 7, 17) sequence in *state, which
 * must not be 0; the same seed gives the same sequence. */
uint64_t	 ts_xorshift(uint64_t *state);
/* ts_xorshift(state) modulo n (n > 0). */
uint64_t	 ts_rand(uint64_t *state, uint64_t n);

#endif
