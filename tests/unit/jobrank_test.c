/*
 * jobrank_test: the per-rank comparison of a job (analysis/jobrank.h) from
 * hand-made rank summaries: each rank's figures, collectives matched by
 * name and occurrence (waits, who was last, the straggler, the skew), the
 * spreads (a rank without iterations left out), two files of one rank
 * summed, a file without a process skipped, clock shifts applied; and the
 * job overview (tui/view-job.c) over it: its sort orders and its screen at
 * 80x24 (title, spreads, rows, the straggler marked, file names
 * sanitised), and an unreadable rank's trace refused on the status line.
 * Hosts: each rank's the host of its process's file (from summaries as
 * from a model), in the overview's Host column (only where some rank has
 * one; sanitised), its sort and its filter; a summary keeps its host and
 * one of another version is not read. A rank of several files lists them
 * all, the overview opens them all, and rankload loads them as one model
 * (the state says which file; a held load cancels).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/jobfilter.h"
#include "analysis/jobrank.h"
#include "model/cachedir.h"
#include "sources/source.h"
#include "sources/synth/kgen.h"
#include "tui/app.h"
#include "tui/glyph.h"
#include "tui/rankload.h"
#include "tui/view-job.h"
#include "tsupport.h"
#include "util/xmalloc.h"

/*
 * A summary of one GPU: busy, its AllReduce starts (each 50 ns long), its
 * iteration durations (back to back from 0) and its top kernel.
 */
static void
sum(struct ranksum *s, const char *pname, int64_t busy, const int64_t *ar,
    size_t nar, const int64_t *it, size_t nit, const char *top,
    int64_t top_ns)
{
	size_t	i;
	int64_t	t = 0;

	memset(s, 0, sizeof *s);
	s->nprocs = 1;
	s->pid = 100;
	s->pname = xstrdup(pname);
	s->has_pname = 1;
	s->nvtx_rank = -1;
	s->parallel = xstrdup("");
	s->gpus = 1;
	s->first = 0;
	s->last = 2000;
	s->busy = busy;
	s->kernel_ns = busy;
	s->comm_ns = 50 * (int64_t)nar;
	s->kernels = 10;
	s->comm = nar;
	s->marker = xstrdup("ProfilerStep#*");
	s->nnames = 2;
	s->names = xcalloc(2, sizeof *s->names);
	s->names[0] = xstrdup("AllReduce");
	s->names[1] = xstrdup(top);
	s->nc = nar;
	s->c = xcalloc(nar + 1, sizeof *s->c);
	for (i = 0; i < nar; i++) {
		s->c[i].coll = 0;
		s->c[i].start = ar[i];
		s->c[i].end = ar[i] + 50;
		s->c[i].bytes = -1;
	}
	s->niter = nit;
	s->iter = xcalloc(2 * nit + 1, sizeof *s->iter);
	for (i = 0; i < nit; i++) {
		s->iter[2 * i] = t;
		t += it[i];
		s->iter[2 * i + 1] = t;
	}
	s->ntop = 1;
	s->top = xcalloc(1, sizeof *s->top);
	s->top[0].name = 1;
	s->top[0].count = 3;
	s->top[0].total_ns = top_ns;
}

static void
take(struct jobrank *j, size_t i, struct ranksum *s)
{
	jobrank_take(j, i, s);
	ranksum_free(s);
}

/*
 * Files: 0 rank 0, 1 rank 1, 2 rank 2 (the straggler: last at both
 * AllReduces), 3 no process, 4 rank 1 again (a second GPU).
 */
static void
job(struct jobrank *j, const char *file2)
{
	static const int64_t	 ar0[] = { 100, 1100 }, ar1[] = { 150, 1120 },
				 ar2[] = { 300, 1500 }, ar4[] = { 1000 };
	static const int64_t	 it0[] = { 1000, 1000 }, it1[] = { 1000, 1200 };
	struct ranksum		 s;

	jobrank_init(j, 5);
	sum(&s, "train", 800, ar0, 2, it0, 2, "gemm", 500);
	take(j, 0, &s);
	sum(&s, "train", 900, ar1, 2, it1, 2, "gemm", 400);
	take(j, 1, &s);
	sum(&s, "train", 1000, ar2, 2, NULL, 0, "conv", 700);
	take(j, 2, &s);
	memset(&s, 0, sizeof s);		/* no process */
	take(j, 3, &s);
	sum(&s, "train", 100, ar4, 1, NULL, 0, "softmax", 900);
	take(j, 4, &s);
	/* Placed in rank order, then file (jobsum.h). */
	jobrank_place(j, 0, 0, 0, "job/r0.json");
	jobrank_place(j, 1, 1, 0, "job/r1.json");
	jobrank_place(j, 4, 1, 5, "job/r1b.json");
	jobrank_place(j, 2, 2, 0, file2);
	jobrank_place(j, 3, 3, 0, "job/empty.json");
	jobrank_finish(j);
}

static void
test_figures(void **state)
{
	struct jobrank	 j;

	(void)state;
	job(&j, "job/r2.json");
	assert_int_equal(j.nr, 3);
	assert_int_equal(j.r[0].rank, 0);
	assert_int_equal(j.r[1].rank, 1);
	assert_int_equal(j.r[2].rank, 2);
	assert_string_equal(j.r[0].name, "rank 0 train");
	assert_string_equal(j.r[1].file, "job/r1.json");
	/* Rank 1: two files, one shifted by 5. */
	assert_int_equal(j.r[1].gpus, 2);
	assert_int_equal(j.r[1].busy, 1000);
	assert_int_equal(j.r[1].first, 0);
	assert_int_equal(j.r[1].last, 2005);
	assert_int_equal(j.r[1].span, 2005);
	assert_string_equal(j.r[1].top_kernel, "softmax");
	assert_int_equal(j.r[1].top_kernel_ns, 900);
	assert_string_equal(j.r[0].top_kernel, "gemm");
	/* Iterations. */
	assert_int_equal(j.r[0].iter.count, 2);
	assert_true(j.r[1].iter.median == 1100.0);
	assert_true(j.r[1].iter.mean == 1100.0);
	assert_int_equal(j.r[2].iter.count, 0);
	assert_int_equal(j.noiter, 1);
	assert_int_equal(j.iter.count, 4);
	assert_string_equal(j.marker, "ProfilerStep#*");
	/* Shares. */
	assert_true(j.r[0].util_pct == 40.0);		/* 800 / 2000 */
	assert_true(j.r[0].comm_pct == 12.5);		/* 100 / 800 */
	/*
	 * Collectives: rank 1's AllReduces are 150, 1000+5 and 1120 (three):
	 * two matched; the last starts are rank 2's (300, 1500).
	 */
	assert_int_equal(j.matched, 2);
	assert_int_equal(j.straggler, 2);
	assert_true(j.straggler_last_pct == 100.0);
	assert_int_equal(j.r[2].nlast, 2);
	assert_int_equal(j.r[0].wait, 200 + 400);
	assert_int_equal(j.r[1].wait, 150 + 495);
	assert_int_equal(j.r[2].wait, 0);
	assert_int_equal(j.r[2].caused, 600 + 645);
	/* Skews: 300 - 100 and 1500 - 1005. */
	assert_true(j.skew.median == 347.5);
	assert_int_equal(j.skew.max, 495);
	/* Spreads: iteration medians 1000 and 1100 (rank 2 has none). */
	assert_true(j.iter_spread_pct > 9.52 && j.iter_spread_pct < 9.53);
	/* Busy 800, 1000, 1000: (1000 - 800) / 1000. */
	assert_true(j.busy_spread_pct == 20.0);
	jobrank_free(&j);
}

/* Checks that view_job_order() puts the three ranks of j in the order a,
 * b, c for key and desc. */
static void
order_is(const struct jobrank *j, int key, int desc, uint32_t a, uint32_t b,
    uint32_t c)
{
	uint32_t	 idx[3];

	view_job_order(j, key, desc, idx);
	assert_int_equal(idx[0], a);
	assert_int_equal(idx[1], b);
	assert_int_equal(idx[2], c);
}

static void
test_order(void **state)
{
	struct jobrank	 j;

	(void)state;
	job(&j, "job/r2.json");
	order_is(&j, VJ_SORT_RANK, 0, 0, 1, 2);
	order_is(&j, VJ_SORT_RANK, 1, 2, 1, 0);
	/* A rank without iterations is last either way. */
	order_is(&j, VJ_SORT_MEDIAN, 1, 1, 0, 2);
	order_is(&j, VJ_SORT_MEDIAN, 0, 0, 1, 2);
	/* Collective wait, descending: rank 1 (645), 0 (600), 2. */
	order_is(&j, VJ_SORT_WAIT, 1, 1, 0, 2);
	/* Ties (GPUs 1, 2, 1) by rank. */
	order_is(&j, VJ_SORT_GPUS, 0, 0, 2, 1);
	assert_string_equal(view_job_sort_name(VJ_SORT_BUSY), "busy");
	jobrank_free(&j);
}

/* Adds every kernel name's total (kall) to summary s: names[2...]. */
static void
kall(struct ranksum *s, const char *const *names, const int64_t *ns,
    size_t n)
{
	size_t	i;

	s->names = xreallocarray(s->names, s->nnames + n, sizeof *s->names);
	s->kall = xcalloc(n + 1, sizeof *s->kall);
	for (i = 0; i < n; i++) {
		s->names[s->nnames] = xstrdup(names[i]);
		s->kall[i].name = (uint32_t)s->nnames++;
		s->kall[i].count = 1;
		s->kall[i].total_ns = ns[i];
	}
	s->nkall = n;
}

/*
 * A rank of two files: its top kernel is the one with the most time over
 * both (softmax, 300 + 200), not the top kernel of the file whose own top
 * is largest (conv, 450); a rank of one file keeps its own top; ties go
 * to the name first in order.
 */
static void
test_top_kernel(void **state)
{
	static const char *const a[] = { "gemm", "softmax" };
	static const char *const b[] = { "softmax", "conv" };
	static const char *const c[] = { "zeta", "alpha" };
	static const int64_t	 an[] = { 400, 300 }, bn[] = { 200, 450 },
				 cn[] = { 100, 100 };
	struct jobrank		 j;
	struct ranksum		 s;

	(void)state;
	jobrank_init(&j, 3);
	sum(&s, "train", 800, NULL, 0, NULL, 0, "gemm", 400);
	kall(&s, a, an, 2);
	take(&j, 0, &s);
	sum(&s, "train", 800, NULL, 0, NULL, 0, "conv", 450);
	kall(&s, b, bn, 2);
	take(&j, 1, &s);
	sum(&s, "train", 800, NULL, 0, NULL, 0, "zeta", 100);
	kall(&s, c, cn, 2);
	take(&j, 2, &s);
	jobrank_place(&j, 0, 0, 0, "job/a.json");
	jobrank_place(&j, 1, 0, 0, "job/b.json");
	jobrank_place(&j, 2, 1, 0, "job/c.json");
	jobrank_finish(&j);
	assert_int_equal(j.nr, 2);
	assert_string_equal(j.r[0].top_kernel, "softmax");
	assert_int_equal(j.r[0].top_kernel_ns, 500);
	assert_string_equal(j.r[1].top_kernel, "alpha");
	assert_int_equal(j.r[1].top_kernel_ns, 100);
	jobrank_free(&j);
}

/* The overview's filter: rank numbers, ranges, names and paths. */
static void
test_filter(void **state)
{
	struct jobrank_rank	r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.rank = 12;
	r.name = (char *)"rank 12 Node07:python3";
	r.file = (char *)"/jobs/run4/host-b_rank12.json";
	assert_true(jobfilter_match("", &r));
	assert_true(jobfilter_match("  , ", &r));
	assert_true(jobfilter_match("12", &r));
	assert_false(jobfilter_match("1", &r));		/* a number: exact */
	assert_false(jobfilter_match("2", &r));
	assert_true(jobfilter_match("10-15", &r));
	assert_true(jobfilter_match("12-12", &r));
	assert_false(jobfilter_match("13-20", &r));
	assert_false(jobfilter_match("0-", &r));	/* not a range: text */
	assert_true(jobfilter_match("node07", &r));	/* any case */
	assert_true(jobfilter_match("HOST-B", &r));
	assert_true(jobfilter_match("run4/", &r));
	assert_false(jobfilter_match("node08", &r));
	/* Any term. */
	assert_true(jobfilter_match("3, node07", &r));
	assert_true(jobfilter_match("0-3 12", &r));
	assert_false(jobfilter_match("0-3,node08", &r));
	assert_false(jobfilter_match("99999999999999999999", &r));
	r.file = NULL;
	assert_false(jobfilter_match("host-b", &r));
	assert_true(jobfilter_match("python", &r));
}

/* A load given up (load_opts.stop): the Kineto reader stops and says so;
 * the watcher hears of the phases. */
static int	stop_now;
static int	phases;

static int
stop_fn(void *arg)
{
	(void)arg;
	return stop_now;
}

static void
watch_fn(void *arg, const struct progress *p)
{
	(void)arg;
	if (p->phase != NULL)
		phases++;
}

static void
test_load_stop(void **state)
{
	struct kgen_opts	 ko;
	struct load_opts	 lo;
	struct model		*m;
	const char		*path;
	char			*cause = NULL;

	(void)state;
	path = ts_path("stop.json");
	kgen_opts_default(&ko);
	ko.events = 2000;
	if (kgen_write(path, &ko, NULL, &cause) != 0)
		fail_msg("%s", cause);
	memset(&lo, 0, sizeof lo);
	lo.no_cache = 1;
	lo.watch = watch_fn;
	lo.stop = stop_fn;
	stop_now = 1;
	assert_null(source_load(path, &lo, &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, "given up"));
	free(cause);
	cause = NULL;
	assert_true(phases >= 2);	/* reading the trace, kineto */
	stop_now = 0;
	m = source_load(path, &lo, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	model_free(m);
}

/* The overview of j on an 80x24 grid g, drawn; the caller frees both. */
static struct app *
overview(struct jobrank *j, struct cellgrid *g)
{
	struct app_opts	 o;
	struct app	*a;
	char		*cause = NULL;

	memset(&o, 0, sizeof o);
	o.gl = glyph_get(0);
	o.job = j;
	o.view = "job";
	if ((a = app_new(NULL, &o, &cause)) == NULL)
		fail_msg("%s", cause);
	cellgrid_init(g);
	cellgrid_resize(g, 80, 24);
	app_resize(a, 80, 24);
	app_draw(a, g, REDRAW_ALL);
	return a;
}

/* No row of g holds a raw escape. */
static void
no_escape(struct cellgrid *g)
{
	int	y;

	for (y = 0; y < 24; y++)
		assert_null(strchr(ts_row(g, y), '\x1b'));
}

static void
test_screen(void **state)
{
	struct jobrank		 j;
	struct app		*a;
	struct cellgrid		 g;
	struct tui_key		 k;
	const struct view_ops	*ops;
	void			*v;

	(void)state;
	/* A file name with a terminal escape in it. */
	job(&j, "job/r2\x1b]0;pwned\x07.json");
	a = overview(&j, &g);
	ops = app_current(a, &v);
	assert_string_equal(ops->name, "job");
	ts_row_has(&g, 0,
	    "Job: 3 ranks, 4 GPUs, straggler rank 2; sorted by rank");
	ts_row_has(&g, 1, "Spread: iteration 9.5%");
	ts_row_has(&g, 1, "busy 20.0%");
	ts_row_has(&g, 2, "Rank");
	ts_row_has(&g, 2, "Iter med");
	/* Rows: rank, GPUs, iterations, median, busy share; ! marks rank 2. */
	ts_row_has(&g, 3, "     0    1      2");
	ts_row_has(&g, 3, "r0.json");
	ts_row_has(&g, 4, "     1    2      2");
	ts_row_has(&g, 4, "1.100us");
	assert_true(ts_row(&g, 5)[0] == '!');
	ts_row_has(&g, 5, "     2    1      0         -");
	assert_true(ts_row(&g, 4)[0] == ' ');
	no_escape(&g);
	ts_row_has(&g, 22, "rank 0: job/r0.json; top kernel gemm");
	/* Sorting: by median iteration, descending. */
	memset(&k, 0, sizeof k);
	k.key = 's';
	assert_true(app_key(a, &k) & REDRAW_ALL);
	app_draw(a, &g, REDRAW_ALL);
	ts_row_has(&g, 0, "sorted by median iteration");
	ts_row_has(&g, 3, "     1    2");
	/* Opening a rank whose trace cannot be read: said, no quitting. */
	k.key = TK_ENTER;
	assert_false(app_key(a, &k) & REACT_QUIT);
	while (app_busy(a))
		app_tick(a);
	app_draw(a, &g, REDRAW_ALL);
	ts_row_has(&g, 23, "rank 0: ");
	ops = app_current(a, &v);
	assert_string_equal(ops->name, "job");
	/* The timeline keys say what the overview is. */
	k.key = '1';
	app_key(a, &k);
	app_draw(a, &g, REDRAW_ALL);
	ts_row_has(&g, 23, "a job overview");
	/* 80x24 and smaller: nothing drawn outside. */
	cellgrid_resize(&g, 40, 8);
	app_resize(a, 40, 8);
	app_draw(a, &g, REDRAW_ALL);
	cellgrid_free(&g);
	app_free(a);
	jobrank_free(&j);
}

/* A summary of one GPU on host (a process without GPUs when gpus 0). */
static void
hsum(struct ranksum *s, const char *host, uint32_t gpus)
{
	sum(s, "train", 800, NULL, 0, NULL, 0, "gemm", 400);
	s->host = xstrdup(host);
	s->gpus = gpus;
}

/*
 * Files: 0 rank 0 on node01; 1 rank 1 without GPUs on login7, 2 rank 1
 * on node02 (its process: the one with GPUs); 3 rank 2 on a host with a
 * terminal escape in its name; 4 rank 3 without a host.
 */
static void
hjob(struct jobrank *j)
{
	struct ranksum	s;

	jobrank_init(j, 5);
	hsum(&s, "node01", 1);
	take(j, 0, &s);
	hsum(&s, "login7", 0);
	take(j, 1, &s);
	hsum(&s, "node02", 1);
	take(j, 2, &s);
	hsum(&s, "evil\x1b]0;pwned\x07host", 1);
	take(j, 3, &s);
	hsum(&s, "", 1);
	take(j, 4, &s);
	jobrank_place(j, 0, 0, 0, "job/a.json");
	jobrank_place(j, 1, 1, 0, "job/b1.json");
	jobrank_place(j, 2, 1, 0, "job/b2.json");
	jobrank_place(j, 3, 2, 0, "job/c.json");
	jobrank_place(j, 4, 3, 0, "job/d.json");
	jobrank_finish(j);
}

static void
test_hosts(void **state)
{
	static const uint32_t	 by_host[] = { 3, 2, 0, 1 };
	struct jobrank		 j;
	uint32_t		 idx[4];
	size_t			 i;

	(void)state;
	hjob(&j);
	assert_int_equal(j.nr, 4);
	assert_string_equal(j.r[0].host, "node01");
	assert_string_equal(j.r[1].host, "node02");
	assert_null(j.r[3].host);
	/* Every file of rank 1, in order. */
	assert_int_equal(j.r[1].nfiles, 2);
	assert_string_equal(j.r[1].files[0], "job/b1.json");
	assert_string_equal(j.r[1].files[1], "job/b2.json");
	assert_string_equal(j.r[1].file, "job/b1.json");
	assert_int_equal(j.r[0].nfiles, 1);
	/* The filter: hosts, and any of a rank's files. */
	assert_true(jobfilter_match("NODE02", &j.r[1]));
	assert_false(jobfilter_match("node02", &j.r[0]));
	assert_true(jobfilter_match("node0", &j.r[0]));
	assert_false(jobfilter_match("login7", &j.r[1]));
	assert_true(jobfilter_match("b2.json", &j.r[1]));
	assert_false(jobfilter_match("node", &j.r[3]));
	/* By host, ascending: none first, then by name. */
	view_job_order(&j, VJ_SORT_HOST, 0, idx);
	for (i = 0; i < 4; i++)
		assert_int_equal(idx[i], by_host[i]);
	assert_string_equal(view_job_sort_name(VJ_SORT_HOST), "host");
	jobrank_free(&j);
}

/* The overview of a job with hosts: the column, sanitised; the footer. */
static void
test_host_screen(void **state)
{
	/* Row, and what it shows. */
	static const struct { int y; const char *s; } want[] = {
		{ 2, "Rank Host " }, { 3, "     0 node01 " },
		{ 4, "     1 node02 " }, { 4, "b1.json +1" },
		{ 5, "evil\\x1b]0;" }, { 6, "     3 -  " },
		{ 22, "rank 0: job/a.json on node01" },
	};
	struct jobrank		 j;
	struct app		*a;
	struct cellgrid		 g;
	struct tui_key		 k;
	size_t			 i;

	(void)state;
	hjob(&j);
	a = overview(&j, &g);
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		ts_row_has(&g, want[i].y, want[i].s);
	no_escape(&g);
	/* Rank 1: both files in the footer. */
	memset(&k, 0, sizeof k);
	k.key = 'j';
	app_key(a, &k);
	app_draw(a, &g, REDRAW_ALL);
	ts_row_has(&g, 22, "rank 1: job/b1.json and 1 more on node02");
	cellgrid_free(&g);
	app_free(a);
	jobrank_free(&j);
}

/* A summary keeps its host; one of another version is not read. */
static void
test_summary_host(void **state)
{
	struct cachedir_ident	 id;
	struct ranksum		 s, r;
	FILE			*f;
	char			*cause = NULL, *path;
	uint32_t		 v = RANKSUM_VERSION - 1;

	(void)state;
	assert_int_equal(setenv("XDG_CACHE_HOME", ts_path("xdg"), 1), 0);
	ts_write_str(ts_path("t.json"), "{}");
	if (cachedir_ident(ts_path("t.json"), &id, &cause) != 0)
		fail_msg("%s", cause);
	hsum(&s, "node42", 1);
	if (ranksum_write(ts_path("t.json"), &id, &s, &cause) != 0)
		fail_msg("%s", cause);
	ranksum_free(&s);
	assert_int_equal(ranksum_read(ts_path("t.json"), &r), 1);
	assert_string_equal(r.host, "node42");
	assert_string_equal(r.pname, "train");
	ranksum_free(&r);
	/* The version field (after the magic) of the version before. */
	path = ranksum_path(ts_path("t.json"), 0);
	assert_non_null(path);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 8, SEEK_SET), 0);
	assert_int_equal(fwrite(&v, sizeof v, 1, f), 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ranksum_read(ts_path("t.json"), &r), 0);
	free(path);
	unsetenv("XDG_CACHE_HOME");
}

/* Two files of one rank loaded as one model; a held load cancelled. */
static void
test_rankload_files(void **state)
{
	struct kgen_opts	 ko;
	struct load_opts	 lo;
	struct rankload_state	 st;
	struct rankload		*rl;
	struct model		*m;
	char			*cause = NULL, *paths[2];
	size_t			 i, gpus = 0;

	(void)state;
	paths[0] = xstrdup(ts_path("r1a.json"));
	paths[1] = xstrdup(ts_path("r1b.json"));
	for (i = 0; i < 2; i++) {
		kgen_opts_default(&ko);
		ko.events = 600;
		ko.world = 2;
		ko.rank = 1;
		ko.seed = 1 + i;
		if (kgen_write(paths[i], &ko, NULL, &cause) != 0)
			fail_msg("%s", cause);
	}
	memset(&lo, 0, sizeof lo);
	lo.no_cache = 1;
	rl = rankload_start(paths, 2, &lo, &cause);
	assert_non_null(rl);
	while (!rankload_done(rl))
		;
	rankload_peek(rl, &st);
	assert_int_equal(st.nfiles, 2);
	assert_int_equal(st.file, 1);
	m = rankload_take(rl, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	rankload_free(rl);
	/* Both files' processes, as rank 1; each file's GPU. */
	assert_int_equal(m->nprocesses, 2);
	assert_int_equal(m->processes[0].rank, 1);
	assert_int_equal(m->processes[1].rank, 1);
	for (i = 0; i < m->ndevices; i++)
		gpus += m->devices[i].used != 0;
	assert_int_equal(gpus, 2);
	model_free(m);
	/* Held, then cancelled: nothing to take. */
	assert_int_equal(setenv("GPULENS_TUI_LOAD_HOLD", "1", 1), 0);
	rl = rankload_start(paths, 2, &lo, &cause);
	assert_non_null(rl);
	rankload_peek(rl, &st);
	assert_true(st.held);
	assert_int_equal(st.file, 0);
	rankload_cancel(rl);
	while (!rankload_done(rl))
		;
	rankload_free(rl);
	unsetenv("GPULENS_TUI_LOAD_HOLD");
	assert_null(rankload_start(paths, 0, &lo, &cause));
	free(cause);
	free(paths[0]);
	free(paths[1]);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_figures),
	cmocka_unit_test(test_order),
	cmocka_unit_test(test_top_kernel),
	cmocka_unit_test(test_filter),
	cmocka_unit_test(test_load_stop),
	cmocka_unit_test(test_screen),
	cmocka_unit_test(test_hosts),
	cmocka_unit_test(test_host_screen),
	cmocka_unit_test(test_summary_host),
	cmocka_unit_test(test_rankload_files))
