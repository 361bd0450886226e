/*
 * merge_test: two ranks' traces merged into one model (entities, ranks,
 * renumbered devices, re-interned strings, side tables, correlation kept
 * within each rank, metadata and warnings), and multi-trace loading of a
 * directory (which files count, rank assignment, parallel load).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/correlate.h"
#include "sources/kineto.h"
#include "model/merge.h"
#include "model/model.h"
#include "sources/multi.h"
#include "tsupport.h"

/*
 * One rank: pid 100 (both ranks: another host), GPU `dev` of 4 listed,
 * a launch with correlation 1, a kernel named after the rank and a shared
 * one, an annotation, a memory counter and an unsupported phase.
 */
static void
write_rank(const char *p, int rank, int dev, int with_rank)
{
	FILE	*f = fopen(p, "w");
	int	 i;

	assert_non_null(f);
	fprintf(f, "{\"deviceProperties\": [");
	for (i = 0; i < 4; i++)
		fprintf(f, "%s{\"id\": %d, \"name\": \"GPU-%d\", \"numSms\": 10}",
		    i > 0 ? "," : "", i, i);
	fprintf(f, "],\n");
	if (with_rank)
		fprintf(f, "\"distributedInfo\": {\"rank\": %d, \"world_size\": "
		    "2},\n", rank);
	fprintf(f, "\"traceEvents\": [\n"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":100,\"tid\":0,"
	    "\"args\":{\"name\":\"python\"}},\n"
	    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\","
	    "\"pid\":100,\"tid\":100,\"ts\":%d,\"dur\":100},\n"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
	    "\"pid\":100,\"tid\":100,\"ts\":%d,\"dur\":2,\"args\":"
	    "{\"correlation\":1}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k_rank%d\",\"pid\":%d,"
	    "\"tid\":7,\"ts\":%d,\"dur\":10,\"args\":{\"device\":%d,\"stream\":7,"
	    "\"correlation\":1,\"grid\":[%d,1,1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"shared\",\"pid\":%d,"
	    "\"tid\":7,\"ts\":%d,\"dur\":5,\"args\":{\"device\":%d,\"stream\":7}},"
	    "\n{\"ph\":\"i\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,"
	    "\"ts\":%d,\"args\":{\"Device Type\":1,\"Device Id\":%d,"
	    "\"Total Allocated\":%d}},\n"
	    "{\"ph\":\"Z\",\"pid\":100,\"tid\":100,\"ts\":1}\n"
	    "]}\n", 1000 + rank, 1001 + rank, rank, dev, 1010 + rank, dev,
	    rank + 5, dev, 1030 + rank, dev, 1040 + rank, dev, 4096 * (rank + 1));
	fclose(f);
}

/* The kernel named name: sets *track and *idx; returns how many. */
static int
find(const struct model *m, const char *name, uint32_t *track, uint32_t *idx)
{
	size_t	t, i;
	int	n = 0;

	for (t = 0; t < m->ntracks; t++)
		for (i = 0; i < m->tracks[t].lane.n; i++)
			if (strcmp(model_str(m, m->tracks[t].lane.name[i]),
			    name) == 0) {
				*track = (uint32_t)t;
				*idx = (uint32_t)i;
				n++;
			}
	return n;
}

static void
test_merge(void **state)
{
	struct merge_in	 in[2];
	struct model	*m;
	char		*cause = NULL;
	uint32_t	 t, i, t2, i2, api;
	size_t		 k;

	(void)state;
	memset(in, 0, sizeof in);
	write_rank(ts_path("a.json"), 0, 0, 1);
	write_rank(ts_path("b.json"), 1, 0, 1);	/* the same GPU id */
	in[0].m = ts_load(kineto_load, ts_path("a.json"));
	in[0].rank = 0;
	in[0].label = "a.json";
	in[1].m = ts_load(kineto_load, ts_path("b.json"));
	in[1].rank = 1;
	in[1].label = "b.json";
	m = merge_models(in, 2, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_null(in[0].m);
	assert_null(in[1].m);

	assert_int_equal(m->source, SOURCE_KINETO);
	assert_int_equal(m->nprocesses, 2);
	assert_int_equal(m->processes[0].rank, 0);
	assert_int_equal(m->processes[1].rank, 1);
	ts_process_is(m, 0, 100, "rank 0 python", NULL);
	ts_process_is(m, 1, 100, "rank 1 python", NULL);
	/* Only the used GPU of each rank; rank 1's GPU 0 renumbered. */
	assert_int_equal(m->ndevices, 2);
	assert_int_equal(m->devices[0].source_id, 0);
	assert_int_equal(m->devices[1].source_id, 2000);
	assert_string_equal(model_str(m, m->devices[1].name), "GPU-0");
	assert_int_equal(m->devices[1].process, 1);

	ts_kind_counts(m, "kernel=4 api=2 nvtx=2 counter=2");
	assert_int_equal(find(m, "shared", &t, &i), 2);
	/* Correlation 1 twice: each kernel links to its own rank's call. */
	assert_int_equal(find(m, "k_rank1", &t, &i), 1);
	assert_int_equal(m->tracks[t].process, 1);
	assert_int_equal(m->kernels[m->tracks[t].lane.aux[i]].grid[0], 6);
	api = correlate_launch(m, model_gid(m, t, i));
	assert_int_not_equal(api, NONE32);
	assert_int_equal(m->tracks[model_ev(m, api).track].process, 1);
	assert_true(model_ev_start(m, api) == 1002000);
	assert_int_equal(find(m, "k_rank0", &t2, &i2), 1);
	assert_int_equal(m->kernels[m->tracks[t2].lane.aux[i2]].grid[0], 5);
	api = correlate_launch(m, model_gid(m, t2, i2));
	assert_int_equal(m->tracks[model_ev(m, api).track].process, 0);
	/* Side tables follow their events. */
	for (k = 0; k < m->ntracks; k++)
		if (m->tracks[k].type == TRACK_COUNTER) {
			double v = m->counters[m->tracks[k].lane.aux[0]];
			assert_true(v == 4096.0 * (m->tracks[k].process + 1));
		}
	assert_int_equal(find(m, "ProfilerStep#1", &t, &i), 2);
	assert_string_equal(model_str(m,
	    m->domains[m->tracks[t].domain].name), "pytorch");

	assert_string_equal(model_meta(m, "ranks"), "0,1");
	assert_string_equal(model_meta(m, "rank.1.trace"), "b.json");
	assert_string_equal(model_meta(m, "world_size"), "2");
	assert_int_equal(m->nwarnings, 3);
	assert_non_null(strstr(m->warnings[0], "rank 0: 1 events of "
	    "unsupported phases"));
	assert_non_null(strstr(m->warnings[1], "rank 1: GPU 0 shown as device "
	    "2000"));
	model_free(m);

	/* A single input keeps its names. */
	in[0].m = ts_load(kineto_load, ts_path("a.json"));
	in[0].rank = -1;
	m = merge_models(in, 1, &cause);
	assert_non_null(m);
	assert_string_equal(model_str(m, m->processes[0].name), "python");
	assert_int_equal(m->processes[0].rank, 0);
	assert_int_equal(m->nwarnings, 1);
	model_free(m);
}

static void
test_multi(void **state)
{
	struct load_opts	 lo;
	struct model		*m;
	char			*cause = NULL, **files, *one[1], *two[2];
	int			 n, i;
	FILE			*f;

	(void)state;
	memset(&lo, 0, sizeof lo);
	lo.no_cache = 1;
	mkdir(ts_path("job"), 0700);
	/* Rank 1 stated by the trace, rank 0 by the name, one without. */
	write_rank(ts_path("job/x.json"), 1, 1, 1);
	write_rank(ts_path("job/worker_rank_0.json"), 0, 0, 0);
	write_rank(ts_path("job/zz.json"), 7, 3, 0);
	f = fopen(ts_path("job/notes.txt"), "w");
	fclose(f);
	f = fopen(ts_path("job/.x.json.gpulens"), "w");
	fclose(f);

	one[0] = ts_path("job");
	n = multi_expand(one, 1, &files, &cause);
	assert_int_equal(n, 3);
	assert_string_equal(files[0], ts_path("job/worker_rank_0.json"));
	assert_string_equal(files[1], ts_path("job/x.json"));
	assert_string_equal(files[2], ts_path("job/zz.json"));
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);

	m = multi_load(one, 1, &lo, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_int_equal(m->nprocesses, 3);
	assert_int_equal(m->processes[0].rank, 0);
	assert_int_equal(m->processes[1].rank, 1);
	assert_int_equal(m->processes[2].rank, 2);	/* the first free */
	assert_string_equal(model_meta(m, "rank.2.trace"),
	    ts_path("job/zz.json"));
	assert_int_equal(m->ndevices, 3);
	model_free(m);

	/* Several files given one by one; one bad file names itself. */
	two[0] = ts_path("job/x.json");
	two[1] = ts_path("job/zz.json");
	m = multi_load(two, 2, &lo, &cause);
	assert_non_null(m);
	assert_int_equal(m->processes[0].rank, 0);	/* zz: first free */
	assert_int_equal(m->processes[1].rank, 1);
	model_free(m);
	f = fopen(ts_path("job/bad.json"), "w");
	fputs("{\"traceEvents\": [{\"ph\": \"X\"", f);
	fclose(f);
	m = multi_load(one, 1, &lo, &cause);
	assert_null(m);
	assert_non_null(strstr(cause, "bad.json"));
	assert_non_null(strstr(cause, "truncated JSON"));
	free(cause);

	one[0] = ts_path("empty");
	mkdir(one[0], 0700);
	assert_null(multi_load(one, 1, &lo, &cause));
	assert_non_null(strstr(cause, "no trace files"));
	free(cause);
	one[0] = ts_path("job/x.json");	/* one file: a plain load */
	m = multi_load(one, 1, &lo, &cause);
	assert_non_null(m);
	assert_string_equal(model_str(m, m->processes[0].name), "python");
	model_free(m);
}

/* in[i].shift_ns moves every time of input i; multi_check() refuses
 * traces of two kinds or decades apart and aligns nsys exports by UTC. */
static void
test_shift(void **state)
{
	struct merge_in	 in[2];
	struct model	*m, *v[2];
	char		*cause = NULL, *names[2] = { "a.json", "b.json" };
	int64_t		 shift[2];
	uint32_t	 t, i;

	(void)state;
	memset(in, 0, sizeof in);
	write_rank(ts_path("a.json"), 0, 0, 1);
	write_rank(ts_path("b.json"), 1, 1, 1);
	in[0].m = ts_load(kineto_load, ts_path("a.json"));
	in[1].m = ts_load(kineto_load, ts_path("b.json"));
	in[1].rank = 1;
	in[1].shift_ns = 5000;
	m = merge_models(in, 2, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_int_equal(find(m, "k_rank1", &t, &i), 1);
	assert_true(m->tracks[t].lane.start[i] == 1011000 + 5000);
	assert_int_equal(find(m, "k_rank0", &t, &i), 1);
	assert_true(m->tracks[t].lane.start[i] == 1010000);
	model_free(m);

	v[0] = ts_load(kineto_load, ts_path("a.json"));
	v[1] = ts_load(kineto_load, ts_path("b.json"));
	assert_int_equal(multi_check(names, v, 2, shift, &cause), 0);
	assert_true(shift[0] == 0 && shift[1] == 0);
	/* Decades apart: b is the odd one (ties: the later). */
	v[1]->origin_ns += INT64_C(1600000000) * 1000000000;
	v[1]->end_ns += INT64_C(1600000000) * 1000000000;
	assert_int_equal(multi_check(names, v, 2, shift, &cause), -1);
	assert_non_null(strstr(cause, "b.json's clock starts 51 years after "
	    "the other's"));
	free(cause);
	/* Nsight Systems exports: aligned by the UTC of their time 0. */
	v[0]->source = v[1]->source = SOURCE_NSYS;
	v[0]->utc_epoch_ns = INT64_C(1767225600000000000);
	v[1]->utc_epoch_ns = v[0]->utc_epoch_ns -
	    INT64_C(1600000000) * 1000000000;
	assert_int_equal(multi_check(names, v, 2, shift, &cause), 0);
	assert_true(shift[1] == -INT64_C(1600000000) * 1000000000);
	/* Two kinds. */
	v[1]->source = SOURCE_KINETO;
	assert_int_equal(multi_check(names, v, 2, shift, &cause), -1);
	assert_string_equal(cause, "b.json is a PyTorch profiler trace, the "
	    "other is an Nsight Systems export: the traces of one job must "
	    "be of one kind");
	free(cause);
	model_free(v[0]);
	model_free(v[1]);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_merge),
	cmocka_unit_test(test_multi),
	cmocka_unit_test(test_shift))
