/*
 * group_test: the grouping helpers of the aggregating verbs (group.h):
 * --group-by parsing and its messages, key parts, derived names, and the
 * key map (first-seen numbering, whole-key comparison, growth, the direct
 * table of one-component keys).
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

#include "model/builder.h"
#include "analysis/group.h"
#include "model/model.h"

#include "tsupport.h"

static const char *names[] = { "api", "name", "stream" };

static void
test_parse_axes(void **state)
{
	int	 axes[3], n;
	char	*cause = NULL;

	(void)state;
	assert_int_equal(group_parse_axes(NULL, "name,api", names, 3, 0,
	    axes, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_int_equal(axes[0], 1);
	assert_int_equal(axes[1], 0);
	/* Repeats count, up to the number of axes, then parsing stops. */
	assert_int_equal(group_parse_axes("stream,stream,stream,bogus", "",
	    names, 3, 0, axes, &n, &cause), 0);
	assert_int_equal(n, 3);
	assert_int_equal(axes[2], 2);
	/* GROUP_UNIQUE: once each; GROUP_NONE: none and all are no axis. */
	assert_int_equal(group_parse_axes("api,none,api,all,stream", "",
	    names, 3, GROUP_NONE | GROUP_UNIQUE, axes, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_int_equal(axes[0], 0);
	assert_int_equal(axes[1], 2);
	assert_int_equal(group_parse_axes("", "api", names, 3, 0, axes, &n,
	    &cause), 0);
	assert_int_equal(n, 0);
	/* Unknown axes name the choices. */
	assert_int_equal(group_parse_axes("api,x", "", names, 3, 0, axes, &n,
	    &cause), -1);
	assert_string_equal(cause,
	    "unknown --group-by axis 'x' (api, name, stream)");
	free(cause);
	cause = NULL;
	assert_int_equal(group_parse_axes("none", "", names, 3, 0, axes, &n,
	    &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(group_parse_axes("y", "", names, 3, GROUP_NONE |
	    GROUP_UNIQUE, axes, &n, &cause), -1);
	assert_string_equal(cause,
	    "unknown --group-by axis 'y' (api, name, stream, none)");
	free(cause);
}

static void
test_key_part(void **state)
{
	char	buf[16];
	size_t	o = 0;

	(void)state;
	group_key_part(buf, sizeof buf, &o, "a", "1");
	assert_string_equal(buf, "a=1");
	assert_int_equal(o, 3);
	group_key_part(buf, sizeof buf, &o, "bb", "22");
	assert_string_equal(buf, "a=1|bb=22");
	/* Truncated at the buffer, and stays there. */
	group_key_part(buf, sizeof buf, &o, "ccc", "333");
	assert_string_equal(buf, "a=1|bb=22|ccc=3");
	assert_int_equal(o, sizeof buf - 1);
	group_key_part(buf, sizeof buf, &o, "d", "4");
	assert_string_equal(buf, "a=1|bb=22|ccc=3");
}

static void
test_names(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct model		*m;
	struct group_names	 gn;
	uint32_t		 sid[5], a, c;
	char			*cause = NULL;
	size_t			 i, k;
	static const char	*strs[5] = { "cudaLaunchKernel_v7000",
				    "cudaLaunchKernel", "gemm_v2x", "k_v",
				    "cudaMemcpy_v3020" };

	(void)state;
	for (k = 0; k < 5; k++)
		builder_intern(b, strs[k]);
	m = builder_finish(b, &cause);
	assert_non_null(m);
	/* The model's ids of the strings. */
	for (k = 0; k < 5; k++) {
		sid[k] = 0;
		for (i = 0; i < strpool_count(m->strs); i++)
			if (strcmp(model_str(m, (uint32_t)i), strs[k]) == 0)
				sid[k] = (uint32_t)i;
		assert_int_not_equal(sid[k], 0);
	}
	group_names_init(&gn, m);
	a = group_api(&gn, sid[0]);
	assert_string_equal(group_str(&gn, a), "cudaLaunchKernel");
	/* The same string from either way is one id. */
	assert_int_equal(group_local(&gn, sid[1]), a);
	assert_int_equal(group_api(&gn, sid[1]), a);
	assert_int_equal(group_api(&gn, sid[0]), a);
	/* Only a trailing "_v<digits>" goes. */
	assert_string_equal(group_str(&gn, group_api(&gn, sid[2])),
	    "gemm_v2x");
	assert_string_equal(group_str(&gn, group_api(&gn, sid[3])), "k_v");
	c = group_api(&gn, sid[4]);
	assert_string_equal(group_str(&gn, c), "cudaMemcpy");
	assert_string_equal(group_str(&gn, group_local(&gn, sid[4])),
	    "cudaMemcpy_v3020");
	/* Ids beyond the model's strings (none in practice) still work. */
	assert_string_equal(group_str(&gn, group_local(&gn, gn.nloc + 7)),
	    "");
	group_names_free(&gn);
	assert_null(gn.local);
	model_free(m);
}

static void
test_map(void **state)
{
	struct group_map	 gm;
	uint32_t		 v[3];
	size_t			 g, k;
	int			 isnew;

	(void)state;
	group_map_init(&gm, 3);
	/* Numbered in first-seen order; whole keys compared. */
	for (k = 0; k < 5000; k++) {
		v[0] = (uint32_t)(k % 7);
		v[1] = (uint32_t)(k / 7);
		v[2] = NONE32;
		g = group_map_find(&gm, v, &isnew);
		assert_true(isnew);
		assert_int_equal(g, k);
	}
	assert_int_equal(gm.ng, 5000);
	for (k = 0; k < 5000; k++) {
		v[0] = (uint32_t)(k % 7);
		v[1] = (uint32_t)(k / 7);
		v[2] = NONE32;
		assert_int_equal(group_map_find(&gm, v, &isnew), k);
		assert_false(isnew);
		assert_memory_equal(group_map_key(&gm, k), v, sizeof v);
	}
	v[2] = 0;
	assert_int_equal(group_map_find(&gm, v, &isnew), 5000);
	assert_true(isnew);
	group_map_free(&gm);
	assert_null(gm.keys);
}

/*
 * A map large enough to keep its memo (group.c): keys of two components
 * asked in steps that come back to recent keys (as a grouping's runs do),
 * that collide in the memo (keys whose hashes share low bits are every
 * key past 4096 of them), and new keys between (each new key is new: its
 * components are its number's); every answer against the key's number,
 * both before and after the memo starts (8192 groups).
 */
static void
test_map_memo(void **state)
{
	struct group_map	 gm;
	uint32_t		*made, v[2], x = 12345;
	size_t			 n = 0, i, k, g, want;
	int			 isnew;

	(void)state;
	group_map_init(&gm, 2);
	made = xcalloc(2 * 40000, sizeof *made);
	for (i = 0; i < 200000; i++) {
		x = x * 1103515245u + 12345u;
		if (n > 0 && (x >> 16) % 4 != 0) {
			/* An old key: mostly one of the last 64, else any. */
			k = (x >> 8) % 8 == 0 ? (x >> 4) % n :
			    n - 1 - (x >> 10) % (n < 64 ? n : 64);
			v[0] = made[2 * k];
			v[1] = made[2 * k + 1];
			want = k;
		} else {
			v[0] = (uint32_t)(n % 97);
			v[1] = (uint32_t)(n / 97);
			want = n;
		}
		g = group_map_find(&gm, v, &isnew);
		assert_int_equal(g, want);
		assert_int_equal(isnew, want == n);
		if (want == n) {
			made[2 * n] = v[0];
			made[2 * n + 1] = v[1];
			n++;
		}
		if (n == 40000)
			break;
	}
	assert_true(n > 8192);
	assert_non_null(gm.memo);
	assert_int_equal(gm.ng, n);
	for (k = 0; k < n; k++) {
		assert_int_equal(group_map_find(&gm, made + 2 * k, &isnew), k);
		assert_false(isnew);
	}
	free(made);
	group_map_free(&gm);
	assert_null(gm.memo);
}

/*
 * Keys asked again in the order they were made, with gaps of 0 to 9 keys
 * (the map looks a few groups past the last one found: a gap within that
 * reach is found there, a longer one in the table), backwards, and
 * repeated; a new key between; every answer against the key's number.
 */
static void
test_map_ahead(void **state)
{
	struct group_map	 gm;
	uint32_t		 v[2];
	size_t			 k, n = 3000, g, gap;
	int			 isnew, pass;

	(void)state;
	group_map_init(&gm, 2);
	for (k = 0; k < n; k++) {
		v[0] = (uint32_t)(k % 13);
		v[1] = (uint32_t)(k / 13);
		assert_int_equal(group_map_find(&gm, v, &isnew), k);
		assert_true(isnew);
	}
	for (pass = 0; pass < 3; pass++)
		for (k = 0, gap = 0; k < n; k += 1 + gap, gap = (gap + 1) % 10) {
			g = pass == 1 ? n - 1 - k : k;
			v[0] = (uint32_t)(g % 13);
			v[1] = (uint32_t)(g / 13);
			assert_int_equal(group_map_find(&gm, v, &isnew), g);
			assert_false(isnew);
			if (pass == 2)	/* the same key twice */
				assert_int_equal(group_map_find(&gm, v,
				    &isnew), g);
			if (k == n / 2) {
				/* A key past the others: new, the next. */
				v[0] = 99;
				v[1] = (uint32_t)(n + pass);
				assert_int_equal(group_map_find(&gm, v,
				    &isnew), n + (size_t)pass);
				assert_true(isnew);
			}
		}
	assert_int_equal(gm.ng, n + 3);
	group_map_free(&gm);
}

static void
test_map_one(void **state)
{
	/* One component: small values in the direct table, others hashed;
	 * each value in turn, the group it finds and whether it is new. */
	static const struct {
		uint32_t	v, group;
		int		isnew;
	} steps[] = {
		{ 5, 0, 1 }, { NONE32, 1, 1 }, { GROUP_DIRECT, 2, 1 },
		{ 0, 3, 1 }, { 1000, 4, 1 }, { 5, 0, 0 }, { NONE32, 1, 0 },
		{ GROUP_DIRECT, 2, 0 }, { 0, 3, 0 }, { 999, 5, 1 },
	};
	struct group_map	gm;
	uint32_t		v;
	size_t			i;
	int			isnew;

	(void)state;
	group_map_init(&gm, 1);
	for (i = 0; i < sizeof steps / sizeof *steps; i++) {
		v = steps[i].v;
		assert_int_equal(group_map_find(&gm, &v, &isnew),
		    steps[i].group);
		assert_int_equal(isnew, steps[i].isnew);
	}
	assert_int_equal(gm.ng, 6);
	assert_int_equal(*group_map_key(&gm, 2), GROUP_DIRECT);
	group_map_free(&gm);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_parse_axes),
	cmocka_unit_test(test_key_part),
	cmocka_unit_test(test_names),
	cmocka_unit_test(test_map),
	cmocka_unit_test(test_map_memo),
	cmocka_unit_test(test_map_ahead),
	cmocka_unit_test(test_map_one))
