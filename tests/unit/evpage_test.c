/*
 * evpage_test: the page a verb keeps apart (headless/evpage.h) is the
 * first offset + limit events of a full sort in out.c's order: by value,
 * ascending or descending, ties by the row key "ev|id=<gid>" compared as
 * a string (so 10 comes before 9). Checked against such a sort on values
 * with many ties and ids of every decimal length, for pages from one
 * event to more than all of them; and which sort specs and pages it takes.
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

#include "headless/evpage.h"

#include "tsupport.h"

#define NITEMS	300

struct ref {
	int64_t		 v;
	uint32_t	 gid;
	char		 key[32];
};

static int	ref_desc;

/* out.c's order: the value, then the key as a string. */
static int
ref_cmp(const void *a, const void *b)
{
	const struct ref	*x = a, *y = b;
	int			 r;

	r = (x->v > y->v) - (x->v < y->v);
	if (ref_desc)
		r = -r;
	return r != 0 ? r : strcmp(x->key, y->key);
}

static void
check_page(struct ref *items, size_t n, size_t k, int desc)
{
	struct evpage	pg;
	size_t		i;

	assert_int_equal(evpage_init(&pg, (long long)k / 3,
	    (long long)(k - k / 3), desc), 1);
	for (i = 0; i < n; i++)
		evpage_add(&pg, items[i].v, items[i].gid);
	evpage_sort(&pg);
	ref_desc = desc;
	qsort(items, n, sizeof *items, ref_cmp);
	assert_int_equal(pg.n, k < n ? k : n);
	for (i = 0; i < pg.n; i++) {
		if (pg.h[i].v != items[i].v || pg.h[i].gid != items[i].gid)
			fail_msg("k %zu desc %d: row %zu is %lld/%u, not "
			    "%lld/%u", k, desc, i, (long long)pg.h[i].v,
			    pg.h[i].gid, (long long)items[i].v, items[i].gid);
	}
	evpage_free(&pg);
}

static void
test_order(void **state)
{
	static const uint32_t	 base[] = { 0, 90, 990, 9990, 99990,
	    4294967200u };
	struct ref		*items = calloc(NITEMS, sizeof *items);
	static const size_t	 ks[] = { 1, 2, 3, 7, 50, 299, 300, 301,
	    1000 };
	size_t			 i, j;
	int			 desc;
	unsigned		 seed = 12345;

	(void)state;
	assert_non_null(items);
	for (desc = 0; desc <= 1; desc++)
		for (j = 0; j < sizeof ks / sizeof ks[0]; j++) {
			/* A fixed shuffle each time: the input order must
			 * not matter. */
			for (i = 0; i < NITEMS; i++) {
				seed = seed * 1103515245u + 12345u;
				items[i].v = (int64_t)((seed >> 16) % 7) - 3;
				items[i].gid = base[i % 6] + (uint32_t)(i / 6);
				snprintf(items[i].key, sizeof items[i].key,
				    "ev|id=%u", items[i].gid);
			}
			check_page(items, NITEMS, ks[j], desc);
		}
	free(items);
}

static void
test_field(void **state)
{
	static const char *const fields[] = { "start_ns", "duration_ns", "id",
	    NULL };
	int	desc = -1;

	(void)state;
	assert_int_equal(evpage_field("start_ns:asc", fields, &desc), 0);
	assert_int_equal(desc, 0);
	assert_int_equal(evpage_field("duration_ns", fields, &desc), 1);
	assert_int_equal(desc, 1);
	assert_int_equal(evpage_field("id:desc", fields, &desc), 2);
	assert_int_equal(desc, 1);
	assert_int_equal(evpage_field("start", fields, &desc), -1);
	assert_int_equal(evpage_field("start_ns_x:asc", fields, &desc), -1);
	assert_int_equal(evpage_field("start_ns:up", fields, &desc), -1);
	assert_int_equal(evpage_field("depth:asc", fields, &desc), -1);
}

static void
test_init(void **state)
{
	struct evpage	pg;

	(void)state;
	/* Every row, or a page too large: the caller makes every row. */
	assert_int_equal(evpage_init(&pg, 0, 0, 0), 0);
	assert_int_equal(evpage_init(&pg, 0, 9223372036854775807LL, 0), 0);
	assert_int_equal(evpage_init(&pg, 9223372036854775807LL, 5, 0), 0);
	assert_int_equal(evpage_init(&pg, 10, 5, 1), 1);
	assert_int_equal(pg.k, 15);
	evpage_free(&pg);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_order),
	cmocka_unit_test(test_field),
	cmocka_unit_test(test_init))
