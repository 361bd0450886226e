/*
 * chrome_test: generic Chrome traces. A generated one (kgen's chrome form,
 * nsightful's layout) loads through source_read() as a chrome-trace with
 * the generator's kernel count and kernel time, its API calls, NVTX
 * ranges from B/E pairs, their GPU projection on a track of its own, one
 * device and stream from the pid/tid names, and a warning of what was
 * assumed; the object form with args device/stream, copies named Memcpy,
 * instants, counters, an unclosed B and a stray E; errors with offsets;
 * and the probe that tells generic traces from Kineto ones.
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

#include "sources/chrome.h"
#include "sources/synth/kgen.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"

/* Events of a kind (and name, if not NULL): their count and total time. */
static int
count(const struct model *m, int kind, const char *name, int64_t *ns,
    int type)
{
	size_t	t, i;
	int	n = 0;

	if (ns != NULL)
		*ns = 0;
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (type >= 0 && m->tracks[t].type != type)
			continue;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == kind && (name == NULL ||
			    strcmp(model_str(m, l->name[i]), name) == 0)) {
				n++;
				if (ns != NULL)
					*ns += l->end[i] - l->start[i];
			}
	}
	return n;
}

static void
test_generated(void **state)
{
	struct kgen_opts	 o;
	struct kgen_stats	 st;
	struct model		*m;
	char			*cause = NULL;
	int64_t			 ns;

	(void)state;
	kgen_opts_default(&o);
	o.chrome = 1;
	o.events = 400;
	assert_int_equal(kgen_write(ts_path("c.json"), &o, &st, &cause), 0);
	assert_int_equal(chrome_probe(ts_path("c.json"), &cause), 1);
	m = source_read(ts_path("c.json"), NULL, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_int_equal(m->source, SOURCE_CHROME);
	assert_string_equal(source_kind_name(m->source), "chrome-trace");
	assert_int_equal(count(m, EV_KERNEL, NULL, &ns, TRACK_GPU),
	    (int)st.kernels);
	assert_true(ns == st.kernel_ns);
	assert_int_equal(count(m, EV_API, "cudaLaunchKernel", NULL, TRACK_API),
	    (int)st.runtime);
	assert_int_equal(count(m, EV_NVTX, NULL, NULL, TRACK_NVTX),
	    (int)st.annotations);
	assert_int_equal(count(m, EV_NVTX, NULL, NULL, TRACK_OTHER),
	    (int)st.gpu_annotations);
	assert_int_equal(count(m, EV_MARK, "done", NULL, TRACK_NVTX), 1);
	assert_int_equal(count(m, EV_COUNTER, "memory MiB", NULL, -1), 1);
	assert_int_equal(m->ndevices, 1);
	assert_int_equal(m->devices[0].source_id, 0);
	assert_string_equal(model_str(m, m->devices[0].vendor), "NVIDIA");
	assert_int_equal(m->nstreams, 1);
	assert_int_equal(m->streams[0].source_id, 7);
	/* Streams belong to the process making the API calls. */
	assert_string_equal(model_str(m,
	    m->processes[m->streams[0].process].name), "python");
	assert_true(m->nwarnings >= 1);
	assert_non_null(strstr(m->warnings[0], "a generic Chrome trace"));
	assert_non_null(strstr(m->warnings[0], "\"cuda\" as kernels (80)"));
	assert_non_null(strstr(m->warnings[0], "\"cuda_api\" as API calls"));
	model_free(m);
}

static struct model *
load_doc(const char *doc)
{
	struct model	*m;
	char		*cause = NULL;

	ts_write_str(ts_path("d.json"), doc);
	assert_int_equal(chrome_probe(ts_path("d.json"), &cause), 1);
	if ((m = source_read(ts_path("d.json"), NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	return m;
}

static void
test_object_form(void **state)
{
	struct model	*m;
	char		*cause = NULL;
	int64_t		 ns;
	size_t		 i;
	int		 open = 0;

	(void)state;
	m = load_doc("{\"traceEvents\": [\n"
	    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 5, \"tid\": 9, "
	    "\"args\": {\"name\": \"worker\"}},\n"
	    "{\"ph\": \"X\", \"cat\": \"gpu,kernel\", \"name\": \"k\", \"pid\": 5,"
	    " \"tid\": 9, \"ts\": 10, \"dur\": 2.5, \"args\": {\"device\": 3, "
	    "\"stream\": 12, \"grid\": [4, 1, 1], \"block\": [64, 1, 1]}},\n"
	    "{\"ph\": \"X\", \"cat\": \"gpu\", \"name\": \"Memcpy HtoD\", "
	    "\"pid\": 5, \"tid\": 9, \"ts\": 20, \"dur\": 1, \"args\": "
	    "{\"device\": 3, \"stream\": 12, \"bytes\": 4096}},\n"
	    "{\"ph\": \"B\", \"cat\": \"app\", \"name\": \"outer\", \"pid\": 5, "
	    "\"tid\": 9, \"ts\": 1},\n"
	    "{\"ph\": \"B\", \"name\": \"inner\", \"pid\": 5, \"tid\": 9, "
	    "\"ts\": 2},\n"
	    "{\"ph\": \"E\", \"pid\": 5, \"tid\": 9, \"ts\": 4},\n"
	    "{\"ph\": \"E\", \"pid\": 6, \"tid\": 1, \"ts\": 4},\n"
	    "{\"ph\": \"i\", \"name\": \"tick\", \"pid\": 5, \"tid\": 9, "
	    "\"ts\": 3, \"s\": \"t\"},\n"
	    "{\"ph\": \"b\", \"name\": \"async\", \"id\": 1, \"pid\": 5, "
	    "\"tid\": 9, \"ts\": 3}\n"
	    "], \"displayTimeUnit\": \"ns\", \"otherData\": {\"v\": 1}}\n");
	assert_int_equal(count(m, EV_KERNEL, "k", &ns, TRACK_GPU), 1);
	assert_true(ns == 2500);
	assert_int_equal(count(m, EV_MEMCPY, "Memcpy HtoD", NULL, TRACK_GPU),
	    1);
	assert_int_equal(m->ndevices, 1);
	assert_int_equal(m->devices[0].source_id, 3);
	assert_int_equal(m->streams[0].source_id, 12);
	assert_int_equal(m->kernels[0].grid[0], 4);
	assert_int_equal(m->kernels[0].block[0], 64);
	assert_int_equal(count(m, EV_NVTX, "inner", &ns, TRACK_NVTX), 1);
	assert_true(ns == 2000);
	assert_int_equal(count(m, EV_NVTX, "outer", NULL, TRACK_NVTX), 1);
	for (i = 0; i < m->ntracks; i++) {
		const struct lane *l = &m->tracks[i].lane;
		size_t j;
		for (j = 0; j < l->n; j++)
			if (l->flags[j] & EVF_OPEN)
				open++;
	}
	assert_int_equal(open, 1);	/* "outer" */
	assert_int_equal(count(m, EV_MARK, "tick", NULL, TRACK_NVTX), 1);
	assert_int_equal(m->nthreads, 1);
	assert_string_equal(model_str(m, m->threads[0].name), "worker");
	assert_string_equal(model_meta(m, "displayTimeUnit"), "ns");
	assert_int_equal(m->nwarnings, 3);
	assert_non_null(strstr(m->warnings[1], "1 events of unsupported "
	    "phases (b)"));
	assert_non_null(strstr(m->warnings[2], "1 E events without"));
	model_free(m);

	/* Errors name the event and its offset. */
	ts_write_str(ts_path("e.json"), "[{\"ph\": \"X\", \"ts\": 1, \"pid\": "
	    "1}]");
	assert_null(source_read(ts_path("e.json"), NULL, &cause));
	assert_non_null(strstr(cause, "event 0 at byte 1: an X event without "
	    "a numeric 'dur'"));
	free(cause);
	ts_write_str(ts_path("e.json"), "[{\"ph\": \"X\", \"ts\": 1, \"dur\": "
	    "1, \"pid\": 1, \"cat\": 7}]");
	assert_null(source_read(ts_path("e.json"), NULL, &cause));
	assert_non_null(strstr(cause, "'cat' is not a string"));
	free(cause);
}

static void
test_probe(void **state)
{
	struct kgen_opts	 o;
	char			*cause = NULL;

	(void)state;
	kgen_opts_default(&o);
	o.events = 300;
	assert_int_equal(kgen_write(ts_path("k.json"), &o, NULL, &cause), 0);
	assert_int_equal(chrome_probe(ts_path("k.json"), &cause), 0);
	o.merged = 1;
	o.world = 2;
	assert_int_equal(kgen_write(ts_path("m.json"), &o, NULL, &cause), 0);
	assert_int_equal(chrome_probe(ts_path("m.json"), &cause), 0);
	ts_write_str(ts_path("p.json"), "[{\"ph\": \"X\", \"cat\": \"cpu_op\", "
	    "\"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
	    "\"dur\": 1}]");
	assert_int_equal(chrome_probe(ts_path("p.json"), &cause), 0);
	ts_write_str(ts_path("p.json"), "{\"schemaVersion\": 1, "
	    "\"traceEvents\": []}");
	assert_int_equal(chrome_probe(ts_path("p.json"), &cause), 0);
	ts_write_str(ts_path("p.json"), "[{\"ph\": \"X\", \"cat\": \"v8\", "
	    "\"name\": \"Run\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}]");
	assert_int_equal(chrome_probe(ts_path("p.json"), &cause), 1);
	assert_int_equal(chrome_probe(ts_path("missing.json"), &cause), -1);
	free(cause);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_generated),
	cmocka_unit_test(test_object_form),
	cmocka_unit_test(test_probe))
