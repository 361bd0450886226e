/*
 * kstats_agree_test: the TUI's kernel table and `gpulens stats --type
 * kernel` show the same numbers. The verb runs as the driver runs it (its
 * cmd_entry, options parsed from an argv) and its rows are read back from
 * the struct out; the kernel table is built as the view builds it, and the
 * view is opened and drawn. Every verb row must have the table row of the
 * same full name with the same count, total, min and max and, to the
 * verb's three decimals, mean, median, standard deviation and share; the
 * table has no other row; the view's title gives the verb's number of
 * names, of kernels and total, and its first row the verb's heaviest
 * kernel's count. Inputs: a trace written by the generator
 * (sources/synth/gen.c), and real profiles from $GPULENS_FIXTURES.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "sources/input.h"
#include "sources/source.h"
#include "sources/synth/gen.h"
#include "tui/cellgrid.h"
#include "tui/fmt.h"
#include "tui/ktable.h"
#include "tui/view-kernels.h"
#include "tui/view.h"
#include "tsupport.h"

/* The verb's rows for m (the caller frees out). */
static void
run_stats(struct model *m, struct out *out)
{
	const struct cmd_entry	*e = cmd_find("stats");
	struct cmd_ctx		 ctx;
	struct opts		 o;
	struct input		 in;
	char			*argv[] = { (char *)"stats", (char *)"--limit",
				    (char *)"0", (char *)"TRACE", NULL };
	char			*cause = NULL;
	const char		*code = NULL;

	assert_non_null(e);
	ts_opts(&o, e->options, 4, argv);
	memset(&in, 0, sizeof in);
	in.kind = INPUT_TIMELINE;
	in.m = m;
	in.path = "TRACE";
	memset(&ctx, 0, sizeof ctx);
	ctx.entry = e;
	ctx.o = &o;
	ctx.in = &in;
	out_init(out, "stats");
	opts_apply_out(&o, out);
	if (e->run(&ctx, out, &code, &cause) != 0)
		fail_msg("stats: %s", cause);
	opts_free(&o);
}

static int64_t
jint(const cJSON *r, const char *f)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(r, f);

	if (it == NULL || !cJSON_IsRaw(it))
		fail_msg("no integer field %s", f);
	return strtoll(it->valuestring, NULL, 10);
}

/* The verb prints three decimals. */
static void
near3(const char *what, double json, double table)
{
	if (fabs(json - table) > 0.0005 + 1e-12 * fabs(table))
		fail_msg("%s: stats %.6f, kernel table %.6f", what, json,
		    table);
}

static void
agree(const char *label, struct model *m)
{
	struct out			 out;
	struct ktable			*kt;
	const struct gstats_group	*g;
	const cJSON			*r, *name;
	struct cellgrid			 grid;
	struct view_env			 env;
	struct view_shared		 sh;
	void				*v;
	char				 want[256], t[32];
	size_t				 i, nrows = 0, matched = 0;
	uint64_t			 kernels = 0;
	int64_t				 top = -1, topcount = 0, grand;

	run_stats(m, &out);
	kt = ktable_build(m);
	grand = kt->gs->grand;
	cJSON_ArrayForEach(r, out.rows) {
		name = cJSON_GetObjectItemCaseSensitive(r, "name");
		assert_true(cJSON_IsString(name));
		for (i = 0; i < kt->gs->ng; i++)
			if (strcmp(model_str(m, kt->gs->g[i].name),
			    name->valuestring) == 0)
				break;
		if (i == kt->gs->ng)
			fail_msg("%s: '%s' is not in the kernel table", label,
			    name->valuestring);
		g = &kt->gs->g[i];
		assert_int_equal(jint(r, "count"), g->dur.count);
		assert_int_equal(jint(r, "total_ns"), g->dur.total);
		assert_int_equal(jint(r, "min_ns"), g->dur.min);
		assert_int_equal(jint(r, "max_ns"), g->dur.max);
		near3("mean", ts_jnum(r, "mean_ns"), g->dur.mean);
		near3("median", ts_jnum(r, "median_ns"), g->dur.median);
		near3("stddev", ts_jnum(r, "stddev_ns"), g->dur.stddev);
		near3("share", ts_jnum(r, "share_pct"), grand > 0 ? 100.0 *
		    (double)g->dur.total / (double)grand : 0.0);
		kernels += g->dur.count;
		if (g->dur.total > top) {
			top = g->dur.total;
			topcount = (int64_t)g->dur.count;
		}
		nrows++;
		matched++;
	}
	assert_int_equal(nrows, kt->gs->ng);
	assert_int_equal(matched, kt->gs->ng);
	assert_int_equal(kernels, kt->gs->nevents);
	assert_int_equal(jint(out.aux, "grand_total_ns"), grand);
	/* The view shows the same: its title, its first row's count. */
	memset(&sh, 0, sizeof sh);
	ts_view_env(&env, &sh, "t", NULL);
	v = ts_view_open(&view_kernels_ops, m, &env, &grid, 200, 30);
	snprintf(want, sizeof want, " Kernels: %zu names, %llu launches, %s;",
	    nrows, (unsigned long long)kernels, fmt_time(t, sizeof t, grand));
	if (strstr(ts_row(&grid, 0), want) == NULL)
		fail_msg("%s: title '%s', want '%s'", label, ts_row(&grid, 0),
		    want);
	if (nrows > 0) {
		snprintf(want, sizeof want, " %lld ", (long long)topcount);
		if (strstr(ts_row(&grid, 2), want) == NULL)
			fail_msg("%s: first row '%s' has no count %s", label,
			    ts_row(&grid, 2), want);
	}
	view_kernels_ops.free(v);
	cellgrid_free(&grid);
	ktable_free(kt);
	out_free(&out);
}

static void
test_generated(void **state)
{
	struct gen_opts	 o;
	struct model	*m;
	char		*cause = NULL, *path;

	(void)state;
	path = ts_path("agree.sqlite");
	gen_opts_default(&o);
	o.events = 30000;
	o.gpus = 2;
	if (gen_write_nsys(path, &o, NULL, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	agree("generated", m);
	model_free(m);
}

static void
test_fixtures(void **state)
{
	static const char	*rel[] = {
		"nsys/nsys-ai/mfu_2gpu_before.sqlite",
		"nsys/nsightful/power_iteration__baseline.sqlite",
		"kineto/hta/nccl_parser_config__nccl_data.json.gz",
	};
	struct model	*m;
	char		*path, *cause = NULL;
	size_t		 i;

	(void)state;
	ts_need_fixtures();
	for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		if ((path = ts_fixture(rel[i])) == NULL)
			fail_msg("%s is missing", rel[i]);
		m = source_read(path, NULL, &cause);
		if (m == NULL)
			fail_msg("%s: %s", rel[i], cause);
		agree(rel[i], m);
		model_free(m);
		free(path);
	}
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_generated),
	cmocka_unit_test(test_fixtures))
