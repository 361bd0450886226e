/*
 * kgen_test: generated Kineto traces read back by the Kineto reader (event
 * counts and kernel time equal to what the generator reports), byte-for-
 * byte determinism, plain and gzip forms, the coupling of ranks (the
 * straggler arrives last at every all-reduce, which ends at the same time
 * on every rank), the event count target, the overwrite rules, and the
 * merged form read back as its ranks.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sources/synth/kgen.h"
#include "sources/kineto.h"
#include "model/model.h"
#include "tsupport.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

/* The default options, but about events trace events, in a job of world
 * ranks. */
static void
job_opts(struct kgen_opts *o, uint64_t events, int world)
{
	kgen_opts_default(o);
	o->events = events;
	o->world = world;
}

static void
test_read_back(void **state)
{
	struct kgen_opts	 o;
	struct kgen_stats	 st;
	struct model		*m;
	char			*cause = NULL, *a, *b;
	size_t			 na, nb, t, i;
	int64_t			 kns = 0;
	uint64_t		 sum;

	(void)state;
	job_opts(&o, 5000, 2);
	o.rank = 1;
	o.straggler = 0;
	assert_int_equal(kgen_write(ts_path("r1.json"), &o, &st, &cause), 0);
	sum = st.kernels + st.memcpys + st.memsets + st.syncs + st.runtime +
	    st.cpu_ops + st.annotations + st.gpu_annotations + st.flows +
	    st.metadata;
	assert_int_equal(st.events, sum);
	/* 2 iterations of 29 + 24 x layers events, plus 8 metadata. */
	assert_int_equal(st.iterations, 2);
	assert_int_equal(st.events, 8 + 2 * (29 + 24 * (uint64_t)st.layers));
	assert_true(st.events <= 5000 && st.events > 5000 - 2 * 24 - 60);
	assert_int_equal(st.nccl, 2);
	assert_int_equal(st.flows, 2 * st.runtime);

	m = ts_load(kineto_load, ts_path("r1.json"));
	assert_int_equal(m->kind_count[EV_KERNEL], st.kernels);
	assert_int_equal(m->kind_count[EV_MEMCPY], st.memcpys);
	assert_int_equal(m->kind_count[EV_MEMSET], st.memsets);
	assert_int_equal(m->kind_count[EV_SYNC], st.syncs);
	assert_int_equal(m->kind_count[EV_API], st.runtime);
	assert_int_equal(m->kind_count[EV_NVTX], st.cpu_ops + st.annotations +
	    st.gpu_annotations);
	for (t = 0; t < m->ntracks; t++)
		for (i = 0; i < m->tracks[t].lane.n; i++)
			if (m->tracks[t].lane.kind[i] == EV_KERNEL)
				kns += m->tracks[t].lane.end[i] -
				    m->tracks[t].lane.start[i];
	assert_true(kns == st.kernel_ns);
	assert_int_equal(m->processes[0].rank, 1);
	assert_int_equal(m->devices[0].source_id, 0);
	assert_int_equal(m->ndevices, 2);
	assert_string_equal(model_meta(m, "world_size"), "2");
	assert_string_equal(model_str(m, m->source_version), "CUPTI 24");
	model_free(m);

	/* Deterministic, and the gzip form holds the same bytes. */
	assert_int_equal(kgen_write(ts_path("r1b.json"), &o, NULL, &cause), 0);
	o.gzip = 6;
	assert_int_equal(kgen_write(ts_path("r1.json.gz"), &o, NULL, &cause),
	    0);
	assert_int_equal(zfile_slurp(ts_path("r1.json"), &a, &na, 0, &cause),
	    0);
	assert_int_equal(zfile_slurp(ts_path("r1b.json"), &b, &nb, 0, &cause),
	    0);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	free(b);
	assert_int_equal(zfile_slurp(ts_path("r1.json.gz"), &b, &nb, 0, &cause),
	    0);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	free(a);
	free(b);
	/* Another seed, other durations. */
	o.gzip = 0;
	o.seed = 2;
	assert_int_equal(kgen_write(ts_path("s2.json"), &o, &st, &cause), 0);
	m = ts_load(kineto_load, ts_path("s2.json"));
	assert_true(m->end_ns - m->origin_ns != kns);
	model_free(m);
}

/* The start of the k-th all-reduce kernel of a rank's file, and its end. */
static void
nccl_times(const struct model *m, int64_t *start, int64_t *end, int max)
{
	size_t	t, i;
	int	k = 0;

	for (t = 0; t < m->ntracks; t++)
		for (i = 0; i < m->tracks[t].lane.n && k < max; i++)
			if (m->tracks[t].lane.flags[i] & EVF_COMM) {
				start[k] = m->tracks[t].lane.start[i];
				end[k] = m->tracks[t].lane.end[i];
				k++;
			}
	assert_int_equal(k, max);
}

static void
test_straggler(void **state)
{
	struct kgen_opts	 o;
	struct kgen_stats	 st;
	struct model		*m;
	char			*cause = NULL, name[32];
	int64_t			 s[3][2], e[3][2];
	int			 r, k;

	(void)state;
	job_opts(&o, 3000, 3);
	o.straggler = 2;
	o.slowdown = 1.5;
	for (r = 0; r < 3; r++) {
		o.rank = r;
		snprintf(name, sizeof name, "rank%d.json", r);
		assert_int_equal(kgen_write(ts_path(name), &o, &st, &cause), 0);
		m = ts_load(kineto_load, ts_path(name));
		nccl_times(m, s[r], e[r], 2);
		model_free(m);
	}
	for (k = 0; k < 2; k++) {
		/* The straggler arrives last; everyone leaves together. */
		assert_true(s[2][k] > s[0][k] && s[2][k] > s[1][k]);
		assert_true(e[0][k] == e[1][k] && e[1][k] == e[2][k]);
		/* Its compute is 1.5x: others wait a good part of it. */
		assert_true(s[2][k] - s[0][k] > (e[0][k] - s[0][k]) / 2);
	}
}

static void
test_overwrite(void **state)
{
	struct kgen_opts	 o;
	char			*cause = NULL;
	FILE			*f;

	(void)state;
	kgen_opts_default(&o);
	o.events = 500;
	f = fopen(ts_path("precious.json"), "w");
	fputs("{\"traceEvents\": []}", f);
	fclose(f);
	assert_int_equal(kgen_write(ts_path("precious.json"), &o, NULL, &cause),
	    -1);
	assert_non_null(strstr(cause, "not a kgen trace"));
	free(cause);
	o.force = 1;
	assert_int_equal(kgen_write(ts_path("precious.json"), &o, NULL, &cause),
	    0);
	o.force = 0;		/* now a kgen trace: replaced freely */
	assert_int_equal(kgen_write(ts_path("precious.json"), &o, NULL, &cause),
	    0);
	o.rank = 1;		/* rank >= world */
	assert_int_equal(kgen_write(ts_path("x.json"), &o, NULL, &cause), -1);
	assert_non_null(strstr(cause, "bad options"));
	free(cause);
	assert_int_not_equal(access(ts_path("x.json"), F_OK), 0);
	o.rank = 0;
	assert_int_equal(kgen_write(ts_path("nodir/x.json"), &o, NULL, &cause),
	    -1);
	free(cause);
}

/*
 * The merged form: one file of every rank, as TraceFuse merges them,
 * reads back as those ranks with the kernels of the separate files.
 */
static void
test_merged(void **state)
{
	struct kgen_opts	 o;
	struct kgen_stats	 st, one;
	struct model		*m;
	char			*cause = NULL, *text, *raw;
	uint64_t		 kernels = 0, n;
	size_t			 i, len;
	int			 r;

	(void)state;
	job_opts(&o, 2000, 3);
	for (r = 0; r < 3; r++) {
		o.rank = r;
		assert_int_equal(kgen_write(ts_path("one.json"), &o, &one,
		    &cause), 0);
		kernels += one.kernels;
	}
	o.rank = 0;
	o.merged = 1;
	assert_int_equal(kgen_write(ts_path("merged.json"), &o, &st, &cause),
	    0);
	assert_true(st.kernels == kernels);
	raw = ts_read(ts_path("merged.json"), &len);
	text = xmalloc(len + 1);	/* ts_read's buffer has no NUL */
	memcpy(text, raw, len);
	text[len] = '\0';
	free(raw);
	assert_non_null(strstr(text, "\"pid\":104001,"));	/* rank 1 */
	assert_non_null(strstr(text, "\"pid_raw\":4001"));
	assert_non_null(strstr(text, "\"RANK 2 - GPU\""));
	assert_null(strstr(text, "deviceProperties"));
	free(text);
	/* Written again over itself: an earlier kgen trace. */
	assert_int_equal(kgen_write(ts_path("merged.json"), &o, &st, &cause),
	    0);
	m = ts_load(kineto_load, ts_path("merged.json"));
	assert_int_equal(m->nprocesses, 3);
	assert_int_equal(m->ndevices, 3);
	for (i = 0, n = 0; i < m->nprocesses; i++) {
		assert_int_equal(m->processes[i].rank, (int)i);
		assert_int_equal(m->processes[i].pid, 4000 + i);
		assert_int_equal(m->devices[i].source_id, i);
	}
	for (i = 0; i < m->ntracks; i++)
		if (m->tracks[i].type == TRACK_GPU)
			for (r = 0; r < (int)m->tracks[i].lane.n; r++)
				n += m->tracks[i].lane.kind[r] == EV_KERNEL;
	assert_true(n == kernels);
	model_free(m);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_read_back),
	cmocka_unit_test(test_straggler),
	cmocka_unit_test(test_overwrite),
	cmocka_unit_test(test_merged))
