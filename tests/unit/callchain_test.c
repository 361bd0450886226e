/*
 * callchain_test: the CPU sample tables (model/callchain.h) and the
 * hotspot analysis (analysis/samples.h) on a model built by hand: frames
 * and chains stored once, samples ordered per thread with each thread's
 * run, time ranges, the checks a cache load relies on, and self and total
 * counts (a recursive function once per sample), per module and thread,
 * in a window and in overlapping --nvtx windows (a sample counted once).
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

#include "analysis/samples.h"
#include "model/builder.h"
#include "model/callchain.h"
#include "tsupport.h"

/* Two threads of one process; frames a, b, c in module m, d in n. */
static struct model *
cc_model(uint32_t *chains)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct model		*m;
	struct cpusamp_build	 cb;
	struct csthread		 h;
	uint32_t		 p, fa, fb, fc, fd, run[4], t0, t1;
	int			 k;

	p = builder_process(b, 0x1000000, 1, "app");
	builder_thread(b, 0x1000001, 1, p, "main");
	ts_add(b, builder_cpu_track(b, TRACK_API, 0, 0), "cudaFoo", EV_API,
	    0, 1000);
	m = ts_finish(b);
	cpusamp_build_init(&cb);
	fa = cpusamp_frame(&m->cs, &cb, strpool_intern0(m->strs, "a"),
	    strpool_intern0(m->strs, "m"));
	fb = cpusamp_frame(&m->cs, &cb, strpool_intern0(m->strs, "b"),
	    strpool_intern0(m->strs, "m"));
	fc = cpusamp_frame(&m->cs, &cb, strpool_intern0(m->strs, "c"),
	    strpool_intern0(m->strs, "m"));
	fd = cpusamp_frame(&m->cs, &cb, strpool_intern0(m->strs, "d"),
	    strpool_intern0(m->strs, "n"));
	assert_int_equal(cpusamp_frame(&m->cs, &cb, strpool_intern0(m->strs,
	    "a"), strpool_intern0(m->strs, "m")), fa);
	assert_int_equal(m->cs.nframes, 4);
	/* chain 0: a < b < c; chain 1: b < b < c (recursion); chain 2: d. */
	run[0] = fa, run[1] = fb, run[2] = fc;
	chains[0] = cpusamp_add_chain(&m->cs, &cb, run, 3);
	run[0] = fb;
	chains[1] = cpusamp_add_chain(&m->cs, &cb, run, 3);
	run[0] = fd;
	chains[2] = cpusamp_add_chain(&m->cs, &cb, run, 1);
	run[0] = fa, run[1] = fb, run[2] = fc;
	assert_int_equal(cpusamp_add_chain(&m->cs, &cb, run, 3), chains[0]);
	assert_int_equal(cpusamp_add_chain(&m->cs, &cb, run, 0), NONE32);
	assert_int_equal(m->cs.nchains, 3);
	assert_int_equal(m->cs.nfr, 7);
	memset(&h, 0, sizeof h);
	h.source_id = 0x1000002;
	h.tid = 2;
	h.pid = 1;
	h.thread = NONE32;
	t1 = cpusamp_add_thread(&m->cs, &cb, &h);	/* not a model thread */
	h.source_id = 0x1000001;
	h.tid = 1;
	h.thread = 0;
	t0 = cpusamp_add_thread(&m->cs, &cb, &h);
	/* Out of order: thread 1 at 100, 200, ...; thread 0 d at 50 .. */
	for (k = 9; k >= 0; k--)
		cpusamp_add(&m->cs, &cb, 100 * (k + 1), t0, chains[k % 2]);
	for (k = 0; k < 4; k++)
		cpusamp_add(&m->cs, &cb, 50 + 100 * k, t1, chains[2]);
	cpusamp_add(&m->cs, &cb, 75, t1, NONE32);
	cpusamp_build_finish(&m->cs);
	cpusamp_build_free(&cb);
	return m;
}

static void
test_tables(void **state)
{
	struct model	*m;
	uint32_t	 ch[3];
	const uint32_t	*fr;
	size_t		 i, i0, i1;

	(void)state;
	m = cc_model(ch);
	assert_int_equal(cpusamp_chain(&m->cs, ch[1], &fr), 3);
	assert_string_equal(model_str(m, m->cs.frame[fr[0]].func), "b");
	assert_string_equal(model_str(m, m->cs.frame[fr[2]].func), "c");
	assert_int_equal(cpusamp_chain(&m->cs, NONE32, &fr), 0);
	/* Runs tile the samples, by thread in order, times ascending. */
	assert_int_equal(m->cs.th[0].first, 0);
	assert_int_equal(m->cs.th[0].n, 5);
	assert_int_equal(m->cs.th[1].first, 5);
	assert_int_equal(m->cs.th[1].n, 10);
	for (i = 6; i < 15; i++)
		assert_true(m->cs.s[i].t > m->cs.s[i - 1].t);
	cpusamp_range(&m->cs, 1, 200, 500, &i0, &i1);
	assert_int_equal(i1 - i0, 3);		/* 200, 300, 400 */
	assert_int_equal(m->cs.s[i0].t, 200);
	cpusamp_range(&m->cs, 1, 500, 500, &i0, &i1);
	assert_int_equal(i1 - i0, 0);
	assert_int_equal(cpusamp_of_thread(&m->cs, 0), 1);
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), 0);
	/* What a forged cache could hold is refused. */
	m->cs.s[7].t = 0;
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), -1);
	m->cs.s[7].t = 300;
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), 0);
	m->cs.fr[2] = 9;
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), -1);
	m->cs.fr[2] = 2;
	m->cs.th[1].n = 11;
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), -1);
	m->cs.th[1].n = 10;
	m->cs.th[0].thread = 5;
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), -1);
	m->cs.th[0].thread = NONE32;
	assert_int_equal(cpusamp_check(&m->cs, strpool_count(m->strs),
	    m->nthreads), 0);
	model_free(m);
}

static const struct samples_row *
row_of(const struct model *m, const struct samples_result *r,
    const char *func)
{
	size_t	i;

	for (i = 0; i < r->nrows; i++)
		if (strcmp(model_str(m, r->rows[i].func), func) == 0)
			return &r->rows[i];
	return NULL;
}

static void
test_hotspots(void **state)
{
	struct model		*m;
	struct samples_query	 q;
	struct samples_result	 r;
	struct samples_win	 w[3];
	uint32_t		 ch[3];

	(void)state;
	m = cc_model(ch);
	memset(&q, 0, sizeof q);
	q.t0 = INT64_MIN;
	q.t1 = INT64_MAX;
	q.tid = -1;
	samples_build(m, &q, &r);
	assert_int_equal(r.samples, 15);
	assert_int_equal(r.without_chain, 1);
	assert_int_equal(r.threads, 2);
	/* a: self 5; b: self 5, total 10 (once per sample); c: total 10. */
	assert_int_equal(row_of(m, &r, "a")->self, 5);
	assert_int_equal(row_of(m, &r, "a")->total, 5);
	assert_int_equal(row_of(m, &r, "b")->self, 5);
	assert_int_equal(row_of(m, &r, "b")->total, 10);
	assert_int_equal(row_of(m, &r, "c")->self, 0);
	assert_int_equal(row_of(m, &r, "c")->total, 10);
	assert_int_equal(row_of(m, &r, "d")->self, 4);
	/* By self, then total, then name: b, a, d, c. */
	assert_string_equal(model_str(m, r.rows[0].func), "b");
	assert_string_equal(model_str(m, r.rows[1].func), "a");
	assert_string_equal(model_str(m, r.rows[3].func), "c");
	samples_free(&r);

	q.group = SAMPLES_BY_MODULE;
	samples_build(m, &q, &r);
	assert_int_equal(r.nrows, 2);
	assert_string_equal(model_str(m, r.rows[0].module), "m");
	assert_int_equal(r.rows[0].self, 10);
	assert_int_equal(r.rows[0].total, 10);
	samples_free(&r);

	q.group = SAMPLES_BY_TID;
	q.t0 = 100;
	q.t1 = 340;			/* 100, 200, 300 and 150, 250 */
	samples_build(m, &q, &r);
	assert_int_equal(r.samples, 5);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(m->cs.th[r.rows[0].sthread].tid, 1);
	assert_int_equal(r.rows[0].self, 3);
	samples_free(&r);

	/* Overlapping windows of the process count a sample once. */
	w[0].process = w[1].process = w[2].process = 0;
	w[0].start = 100, w[0].end = 350;
	w[1].start = 300, w[1].end = 450;
	w[2].start = 900, w[2].end = 901;
	q.group = SAMPLES_BY_FUNCTION;
	q.t0 = INT64_MIN;
	q.t1 = INT64_MAX;
	q.win = w;
	q.nwin = 3;
	q.has_win = 1;
	samples_build(m, &q, &r);
	/* thread 1: 100, 200, 300, 400, 900; thread 2: 150, 250, 350. */
	assert_int_equal(r.samples, 8);
	samples_free(&r);
	q.nwin = 0;
	samples_build(m, &q, &r);
	assert_int_equal(r.samples, 0);
	assert_int_equal(r.nrows, 0);
	samples_free(&r);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_tables),
	cmocka_unit_test(test_hotspots))
